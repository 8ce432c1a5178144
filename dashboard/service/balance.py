"""`tabletape serve --workers N`: every new connection dealt to the serving process holding
the fewest.

Processes accepting from one shared listening socket take whichever new connection the
kernel wakes them for first, and a digital table keeps its connection alive for the whole
session: one process could end up holding most of the tables while another core idles. So
the supervising process accepts every connection itself and hands it, over a Unix socket
pair of each serving process's own (`socket.send_fds`, as Node's cluster module does), to
the process holding the fewest open connections, taking turns among equals. A serving
process runs uvicorn's `Server` with no listening socket: each socket it is handed goes to
its event loop with the protocol uvicorn would have built, and it tells the supervisor with
one byte when a connection's client has left, so that the supervisor counts only open
connections. Each serving process is kept to a core, the one the fewest others are kept to.

Everything else is what uvicorn's own supervisor (`uvicorn.supervisors.Multiprocess`) does,
its `Process` reused (the health check its thread answers): Ctrl+C or SIGTERM stops every
process; SIGHUP replaces each with a new one; a process that dies, or does not answer the
health check in time, is replaced; one that fails to start stops them all.
"""

from __future__ import annotations

import asyncio
import logging
import os
import selectors
import signal
import socket
import sys
import time
from collections import Counter, deque
from contextlib import suppress
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from typing import Any

from uvicorn.config import STARTUP_FAILURE, Config
from uvicorn.server import Server
from uvicorn.supervisors.multiprocess import Process

READY = b"r"
"""A serving process to its supervisor: started, hand me connections."""
LEFT = b"c"
"""A serving process to its supervisor: one of my connections has closed."""
HANDED = b"h"
"""The supervisor to a serving process: the byte a handed socket travels with."""
PING_SECONDS = 0.5
"""How often the supervisor asks each serving process whether it still answers (uvicorn's)."""

log = logging.getLogger("uvicorn.error")


class HandedServer(Server):
    """uvicorn's server fed the connections its supervisor hands it, over `sockets[0]` (one
    end of a Unix socket pair), instead of accepting from a listening socket."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's startup (the app's lifespan, the protocol factory), then the socket
        pair watched in place of a listening socket, and the supervisor told."""
        assert sockets is not None and len(sockets) == 1
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held back by the supervisor
        await self.lifespan.startup()
        if self.lifespan.should_exit:
            sys.exit(STARTUP_FAILURE)
        config = self.config

        def create_protocol(_loop: asyncio.AbstractEventLoop | None = None) -> asyncio.Protocol:
            return config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=self.server_state, app_state=self.lifespan.state, _loop=_loop)

        self.servers = []
        self._loop = asyncio.get_running_loop()
        self._protocol = create_protocol
        self._pair = sockets[0]
        self._pair.setblocking(False)
        self._untold = b""
        self._opening: set[asyncio.Task[None]] = set()
        self._loop.add_reader(self._pair.fileno(), self._take)
        self._tell(READY)
        self.started = True

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """No more connections taken, then uvicorn's shutdown (which closes the pair)."""
        self._loop.remove_reader(self._pair.fileno())
        self._loop.remove_writer(self._pair.fileno())
        await super().shutdown(sockets)

    def _take(self) -> None:
        """Open every socket the supervisor has handed over; when it has gone, stop."""
        while True:
            try:
                data, fds, _, _ = socket.recv_fds(self._pair, 256, 256)
            except BlockingIOError:
                return
            except OSError:
                data, fds = b"", []
            for fd in fds:
                task = self._loop.create_task(self._open(socket.socket(fileno=fd)))
                self._opening.add(task)
                task.add_done_callback(self._opening.discard)
            if not data:
                self._loop.remove_reader(self._pair.fileno())
                self.should_exit = True
                return

    async def _open(self, connection: socket.socket) -> None:
        try:
            await self._loop.connect_accepted_socket(self._counted, connection)
        except OSError:  # the client left before it was opened
            connection.close()
            self._tell(LEFT)

    def _counted(self) -> asyncio.Protocol:
        """uvicorn's protocol for a handed connection, telling the supervisor once when the
        client leaves: at the end of its stream (uvicorn's HTTP protocols then close the
        connection), or when the connection is lost, whichever comes first. Told at the
        end of the stream, the supervisor knows of the leaving before the socket closes."""
        protocol = self._protocol()
        end_of_stream, lost = protocol.eof_received, protocol.connection_lost
        left = False

        def leave() -> None:
            nonlocal left
            if not left:
                left = True
                self._tell(LEFT)

        def eof_received() -> bool | None:
            leave()
            return end_of_stream()

        def connection_lost(exc: Exception | None) -> None:
            try:
                lost(exc)
            finally:
                leave()

        protocol.eof_received = eof_received  # type: ignore[method-assign]
        protocol.connection_lost = connection_lost  # type: ignore[method-assign]
        return protocol

    def _tell(self, what: bytes) -> None:
        """Send the supervisor `what` (and anything not yet sent); what the pair's buffer
        cannot take now is sent when it can."""
        self._untold += what
        try:
            sent = self._pair.send(self._untold)
        except BlockingIOError:
            sent = 0
        except OSError:  # the supervisor has gone, or this process is stopping
            self._untold = b""
            return
        self._untold = self._untold[sent:]
        if self._untold:
            self._loop.add_writer(self._pair.fileno(), self._tell_rest)

    def _tell_rest(self) -> None:
        self._loop.remove_writer(self._pair.fileno())
        self._tell(b"")


class ServingProcess(Process):
    """uvicorn's serving process (spawned, its health check answered by a thread of its
    own), running `HandedServer` on the socket pair it is started with, kept to `core`.

    A serving process is one interpreter: an append hands it from the event loop to a
    thread and back, and the thread gives it up at every system call. Kept to one core, each
    hand-over is a switch on that core; let roam, it is as often a wake-up of the other core
    and a wait there. Measured (`benchmarks/service_cost.py`, the same rounds), the service
    answered 1.5 to 1.7 times the appends kept to a core each as let roam."""

    def __init__(self, config: Config, sockets: list[socket.socket], core: int | None = None) -> None:
        self.core = core  # before uvicorn's `Process` takes `target`: the process started carries it
        super().__init__(config, sockets)

    def target(self, sockets: list[socket.socket] | None = None) -> None:
        if self.core is not None:  # before any thread starts: threads keep the core of the one that starts them
            with suppress(OSError):  # the core taken away meanwhile (a changed cpuset): let it roam
                os.sched_setaffinity(0, {self.core})
        super().target(sockets)

    @property
    def server(self) -> Server:
        if self._server is None:
            self._server = HandedServer(config=self.config)
        return self._server


@dataclass(eq=False)
class _Worker:
    """The supervisor's side of one serving process."""

    process: ServingProcess
    pair: socket.socket
    """The supervisor's end of the process's socket pair."""
    open: int = 0
    """Connections handed to it and not yet closed."""
    ready: bool = False
    unsent: deque[socket.socket] = field(default_factory=deque)
    """Connections dealt to it that the pair's buffer could not take yet."""
    pinged: float | None = None
    """When the health check it has not answered yet was sent."""
    checked: float = 0.0
    """When it was last sent a health check."""
    replaces: _Worker | None = None
    """The process it takes over from once ready (SIGHUP restarts every process)."""
    retiring: bool = False
    """Taken over from: stopping, dealt nothing, not replaced when it ends."""
    core: int | None = None
    """The core it is kept to (None: the system's choice)."""


class Balancer:
    """The supervising process: `config.workers` serving processes, and the listening socket
    whose every connection it deals out."""

    def __init__(self, config: Config, listener: socket.socket) -> None:
        self.config = config
        self.listener = listener
        self.workers: list[_Worker] = []
        self.turn = 0  # where the next deal among equals starts
        self.selector = selectors.DefaultSelector()
        self.opened = False  # whether the socket listens yet
        self.listening = False  # whether its connections are being accepted
        self.resume_at = 0.0  # after an accept failed for want of descriptors, when to try again
        self.exit_code = 0
        self.stopping = False
        self.restarting = False

    def run(self) -> int:
        """Serve until Ctrl+C or SIGTERM (SIGHUP: every serving process replaced by a new
        one, as uvicorn's supervisor does); the exit code (uvicorn's startup failure if a
        serving process could not start)."""
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._stop)
        signal.signal(signal.SIGHUP, self._restart)
        self.listener.setblocking(False)
        try:
            for _ in range(self.config.workers):
                self.workers.append(self._start())
            while not self.stopping:
                if self.restarting:
                    self._restart_all()
                self._listen(any(w.ready for w in self.workers) and time.monotonic() >= self.resume_at)
                for key, _events in self.selector.select(timeout=PING_SECONDS):
                    if self.selector.get_map().get(key.fd) is key:  # not forgotten earlier this turn
                        key.data()
                self._check_health()
        finally:
            self._listen(False)
            self.listener.close()
            for worker in self.workers:
                self._forget(worker)
                worker.process.terminate()
            for worker in self.workers:
                worker.process.join()
        return self.exit_code

    def _stop(self, sig: int, frame: Any) -> None:
        self.stopping = True

    def _restart(self, sig: int, frame: Any) -> None:
        self.restarting = True

    def _restart_all(self) -> None:
        """Start a new process for every one serving; each old one stops once its new one
        is ready (`_hear`), its kept-alive connections closed as a stopping uvicorn closes
        them."""
        self.restarting = False
        taken = {w.replaces for w in self.workers}
        for old in [w for w in self.workers if not w.retiring and w.replaces is None and w not in taken]:
            new = self._start(old.core)
            new.replaces = old
            self.workers.append(new)

    def _retire(self, worker: _Worker) -> None:
        """Stop a process that a new one has taken over from (it ends as one stopped by
        Ctrl+C; its end is still watched, to be collected)."""
        worker.ready, worker.retiring = False, True
        self._forget(worker, ended=False)
        worker.process.terminate()

    def _start(self, core: int | None = None) -> _Worker:
        """A new serving process, watched: its socket pair, its end and its health check;
        kept to `core`, by default to the core that the fewest serving processes are kept to."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        core = self._fewest_held_core() if core is None else core
        process = ServingProcess(self.config, [theirs], core)
        # Started with Ctrl+C held back (`HandedServer.startup` lets it through once
        # uvicorn's handler is in place): one pressed while it imports would otherwise end
        # it with a traceback. Held back here too, not lost: it arrives once started.
        # Multiprocessing's resource tracker is started first: starting it lets Ctrl+C
        # through again.
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        theirs.close()  # the process holds it now: when the process ends, our end reads its end
        ours.setblocking(False)
        worker = _Worker(process, ours, core=core)
        self.selector.register(ours, selectors.EVENT_READ, lambda: self._hear(worker))
        self.selector.register(process.process.sentinel, selectors.EVENT_READ, lambda: self._ended(worker))
        self.selector.register(process.parent_conn, selectors.EVENT_READ, lambda: self._answered(worker))
        return worker

    def _fewest_held_core(self) -> int | None:
        """Of the cores this process may run on, the one the fewest serving processes are
        kept to (the lowest among equals); None where there is one core, or no way to keep
        a process to one."""
        cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_setaffinity") else []
        if len(cores) < 2:
            return None
        held = Counter(w.core for w in self.workers if not w.retiring)
        return min(cores, key=lambda core: (held[core], core))

    def _forget(self, worker: _Worker, *, ended: bool = True) -> None:
        """Stop watching a serving process (`ended`: its end too) and close what the
        supervisor holds of it."""
        watched_ones = (worker.pair, worker.process.parent_conn) + ((worker.process.process.sentinel,) if ended else ())
        for watched in watched_ones:
            with suppress(KeyError, ValueError, OSError):  # not watched, or already closed
                self.selector.unregister(watched)
        worker.pair.close()
        while worker.unsent:
            worker.unsent.popleft().close()

    def _listen(self, on: bool) -> None:
        """Accept connections only while a serving process is ready to take them (until
        then they wait in the listening socket's backlog). The socket listens once every
        process first started is ready: connections opened as the service starts (tables
        waiting for it) are spread over all of them, not all kept by the first one up."""
        if on and not self.opened:
            if not all(w.ready for w in self.workers):
                return
            self.listener.listen(self.config.backlog)
            self.opened = True
        if on and not self.listening:
            self.selector.register(self.listener, selectors.EVENT_READ, self._accept)
        elif self.listening and not on:
            self.selector.unregister(self.listener)
        self.listening = on

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except (BlockingIOError, ConnectionAbortedError):
                return
            except OSError as error:  # out of file descriptors, say: wait a second, as asyncio does
                log.error("could not accept a connection: %s", error)
                self.resume_at = time.monotonic() + 1.0
                return
            self._deal(connection)

    def _deal(self, connection: socket.socket) -> None:
        """Hand a connection to the ready process holding the fewest, taking turns among
        equals (what every process has said of its closed connections read first)."""
        for worker in self.workers:
            self._hear(worker)
        ready = [n for n, w in enumerate(self.workers) if w.ready]
        if not ready:
            connection.close()
            return
        fewest = min(self.workers[n].open for n in ready)
        chosen = min((n for n in ready if self.workers[n].open == fewest), key=lambda n: (n - self.turn) % len(self.workers))
        self.turn = chosen + 1
        worker = self.workers[chosen]
        worker.open += 1
        worker.unsent.append(connection)
        self._send(worker)

    def _send(self, worker: _Worker) -> None:
        """Send a process the connections dealt to it, as many as its pair takes now."""
        while worker.unsent:
            connection = worker.unsent[0]
            try:
                socket.send_fds(worker.pair, [HANDED], [connection.fileno()])
            except BlockingIOError:
                break
            except OSError:  # the process has ended: its connections end with it
                worker.ready = False
                connection.close()
            else:
                connection.close()  # the process holds it now
            worker.unsent.popleft()
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if worker.unsent else 0)
        if worker.pair.fileno() >= 0 and self.selector.get_key(worker.pair).events != events:
            self.selector.modify(worker.pair, events, lambda: self._hear(worker))

    def _hear(self, worker: _Worker) -> None:
        """Read what a process has said (started, connections closed), and send what waits."""
        while worker.pair.fileno() >= 0:
            try:
                said = worker.pair.recv(4096)
            except BlockingIOError:
                break
            except OSError:
                said = b""
            if not said:  # its end is closed: it has ended or is ending
                worker.ready = False
                self.selector.unregister(worker.pair)
                worker.pair.close()
                return
            worker.ready = worker.ready or READY in said
            worker.open -= said.count(LEFT)
        if worker.ready and worker.replaces is not None:
            self._retire(worker.replaces)
            worker.replaces = None
        if worker.unsent:
            self._send(worker)

    def _ended(self, worker: _Worker) -> None:
        """A serving process has ended: replace it, unless it could not start (then no
        replacement would) or the supervisor is stopping."""
        process = worker.process
        process.join()
        self._forget(worker)
        process.parent_conn.close()
        process.child_conn.close()
        if worker.retiring:
            self.workers.remove(worker)
            return
        if self.stopping:
            return
        if process.exitcode == STARTUP_FAILURE:
            log.error(f"Child process [{process.pid}] failed to start, stopping the parent process.")
            self.exit_code, self.stopping = STARTUP_FAILURE, True
            return
        log.warning(f"Child process [{process.pid}] died")
        if successor := next((w for w in self.workers if w.replaces is worker), None):
            successor.replaces = None  # already starting in its place (SIGHUP)
            self.workers.remove(worker)
            return
        replacement = self._start(worker.core)
        replacement.replaces = worker.replaces
        self.workers[self.workers.index(worker)] = replacement

    def _answered(self, worker: _Worker) -> None:
        try:
            worker.process.parent_conn.recv()
        except (OSError, EOFError):  # it has ended: `_ended` collects it
            with suppress(KeyError, ValueError, OSError):
                self.selector.unregister(worker.process.parent_conn)
            return
        worker.pinged = None

    def _check_health(self) -> None:
        """Ask every process whether it answers (uvicorn's health check, from its thread);
        kill one that has not answered in `timeout_worker_healthcheck` seconds (it is then
        replaced as one that died)."""
        now = time.monotonic()
        for worker in self.workers:
            if worker.pinged is None:
                if now - worker.checked < PING_SECONDS:
                    continue
                try:
                    worker.process.parent_conn.send(b"ping")
                except OSError:
                    continue
                worker.pinged = worker.checked = now
            elif now - worker.pinged > self.config.timeout_worker_healthcheck and worker.process.process.is_alive():
                log.error(f"Child process [{worker.process.pid}] did not answer in "
                          f"{self.config.timeout_worker_healthcheck} s; killing it")
                worker.process.process.kill()
                worker.pinged = None


def serve_balanced(config: Config) -> int:
    """Serve `config` from `config.workers` processes, each new connection dealt to the one
    holding the fewest; the exit code. The port taken: uvicorn's one line and its startup
    failure code."""
    return Balancer(config, config.bind_socket()).run()

