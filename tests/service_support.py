"""A real `tabletape serve` for the service's tests: a process on a free port of 127.0.0.1
over a temporary store, its output kept in a log the tests read for tracebacks."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.cli_support import run


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(command: list[str], log: Path, *, ask: bool = True) -> tuple[str, subprocess.Popen[bytes]]:
    """Start a server (`{port}` in the command is filled in) and wait until it answers
    (`ask`: a request to /health; otherwise until the port takes a connection, closed at
    once without a request, so the server has nothing to answer and no request to count)."""
    port = free_port()
    with open(log, "wb") as output:
        server = subprocess.Popen([part.replace("{port}", str(port)) for part in command], stdout=output, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        if ask:
            wait_up(url, server, log)
        else:
            wait_listening(port, server, log)
    except BaseException:
        stop(server)
        raise
    return url, server


def cli_server(home: Path) -> list[str]:
    """The command line a designer types: `tabletape --home HOME serve --port PORT`."""
    return [sys.executable, "-c", "from dashboard.cli.commands import main; main()", "--home", str(home), "serve", "--port", "{port}"]


def wait_up(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text(errors="replace")
        try:
            with urllib.request.urlopen(url + "/health", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the service did not come up in 30 s")


def wait_listening(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text(errors="replace")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the service did not take a connection in 30 s")


def stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


def issue_token(home: Path, *args: str) -> str:
    """Issue a token with the CLI, as the designer does, and return its text."""
    code, out, err = run(home, "token", "issue", *args)
    assert code == 0, err
    return out.strip()


def assert_no_traceback(log: Path) -> None:
    """The server's log holds no traceback and no internal error."""
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and "internal error" not in text, text
