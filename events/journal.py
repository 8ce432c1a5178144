"""One append-only, hash-chained JSON-lines file: the only code that writes a log.

Match logs and note streams both go through `Journal`, so locking, stamping, the hash
chain and crash recovery exist once. Writers hold an exclusive `flock` while they append
whole lines and fsync; readers never take the lock and only ever see complete lines.

A writer killed mid-write leaves a torn final line (bytes after the last newline). The
next writer (or a reader that finds nobody holding the lock) copies those bytes to the
quarantine folder and truncates the file back to its last newline: set aside, reported,
never silently dropped.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import BinaryIO, TypeVar

import msgspec

from events.base import Event
from events.chain import GENESIS, line_hash
from events.errors import ConflictError, LogFormatError

E = TypeVar("E", bound=Event)

_CHUNK = 1 << 20
"""Bytes read per call when streaming lines: large enough to run at disk speed."""
_BACK_CHUNK = 1 << 16
"""Bytes read per step when scanning backwards for the last line (lines are short)."""


class TornTail(msgspec.Struct, frozen=True, kw_only=True):
    """Report of a half-written final line that was set aside after a crash."""

    path: str
    """The journal file that ended in the torn line."""
    quarantined_to: str
    """Where the torn bytes were copied before the file was truncated."""
    size: int
    """How many bytes were set aside."""


class ChainReport(msgspec.Struct, frozen=True, kw_only=True):
    """Outcome of `Journal.verify`: whether every line links to the one before it."""

    ok: bool
    lines: int
    """Lines that verified (all of them when `ok`, those before the bad one otherwise)."""
    first_bad_line: int | None
    """1-based number of the first line that breaks the chain, None when `ok`."""
    message: str
    """One line a person can read, naming the bad line and what is wrong with it."""


class _Seq(msgspec.Struct):
    """Only the seq of a line: deciding a conflict must not decode the whole event."""

    seq: int


class _Link(msgspec.Struct):
    """Only what the chain checks, so `verify` runs at near disk speed."""

    seq: int
    prev: str


_SEQ = msgspec.json.Decoder(_Seq)
_LINK = msgspec.json.Decoder(_Link)


def _write_all(fd: int, data: bytes | bytearray) -> None:
    """os.write may write fewer bytes than asked; loop until every byte is written."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(path: Path) -> None:
    """Make a new or renamed directory entry durable, not just the file's bytes."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _line_start(fd: int, end: int) -> int:
    """Offset just after the last newline before `end` (0 if there is none)."""
    pos = end
    while pos > 0:
        step = min(_BACK_CHUNK, pos)
        found = os.pread(fd, step, pos - step).rfind(b"\n")
        if found >= 0:
            return pos - step + found + 1
        pos -= step
    return 0


def _complete_end(fd: int, size: int) -> int:
    """Offset just after the last newline: where the complete lines end."""
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return size
    return _line_start(fd, size)


def _last_line(fd: int, end: int) -> bytes | None:
    """The last complete line before `end` (a complete end), without its newline."""
    if end == 0:
        return None
    start = _line_start(fd, end - 1)
    return os.pread(fd, end - 1 - start, start)


def _start_of_last(fd: int, end: int, count: int) -> int | None:
    """Offset of the first of the last `count` lines before `end`; None if fewer exist."""
    pos, found = end - 1, 0
    while pos > 0:
        step = min(_BACK_CHUNK, pos)
        chunk = os.pread(fd, step, pos - step)
        index = len(chunk)
        while (index := chunk.rfind(b"\n", 0, index)) >= 0:
            found += 1
            if found == count:
                return pos - step + index + 1
        pos -= step
    return 0 if found == count - 1 else None


def _iter_lines(file: BinaryIO, start: int, end: int) -> Iterator[bytes]:
    """Complete lines between two offsets, read in large chunks with O(1) memory."""
    file.seek(start)
    remaining, carry = end - start, b""
    while remaining > 0:
        chunk = file.read(min(_CHUNK, remaining))
        if not chunk:
            return
        remaining -= len(chunk)
        parts = chunk.split(b"\n")
        if carry:
            parts[0] = carry + parts[0]
        carry = parts.pop()
        yield from parts


def _utc_stamp() -> str:
    """A UTC timestamp safe in file names that sorts by time."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")


class Journal:
    """One append-only, hash-chained JSON-lines file and its crash recovery."""

    def __init__(
        self,
        path: Path,
        *,
        quarantine: Path | None = None,
        label: str | None = None,
        on_torn: Callable[[TornTail], None] | None = None,
    ) -> None:
        self.path = Path(path)
        self.quarantine = quarantine if quarantine is not None else self.path.parent.parent / "quarantine"
        """Folder torn tails are copied to (`<home>/quarantine` for a store's files)."""
        self.label = label or self.path.stem
        """Name torn tails are filed under, so logs and notes of one match stay apart."""
        self.torn_tails: list[TornTail] = []
        """Torn tails this object set aside, oldest first."""
        self._on_torn = on_torn
        self._encoder = msgspec.json.Encoder()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r})"

    # -- writing ---------------------------------------------------------------------

    def append(self, events: Sequence[E], *, expected_seq: int) -> list[E]:
        """Stamp and append whole lines if the last seq is `expected_seq` (-1: empty file).

        Optimistic concurrency: a stale writer gets ConflictError and writes nothing, so
        two writers can never interleave lines. Returns the events as written.
        """
        if not events:
            return []
        # A new file is stamped before it is created, so bad input never leaves one behind.
        new = self._stamp(events, -1, GENESIS) if expected_seq == -1 else None
        try:
            fd = self._open_locked(create=new is not None)
        except FileNotFoundError:
            raise ConflictError(self._conflict_message(expected_seq, None)) from None
        try:
            end = self._recover_locked(fd)
            last_seq, prev = self._link_of_last(fd, end)
            if last_seq != expected_seq:
                raise ConflictError(self._conflict_message(expected_seq, last_seq))
            stamped, lines = new or self._stamp(events, last_seq, prev)
            self._write_durably(fd, b"\n".join(lines) + b"\n", end)
        finally:
            os.close(fd)
        return stamped

    def create(self, events: Sequence[E]) -> list[E]:
        """Write a new file whose first lines are `events`, atomically: all or nothing.

        A crash while creating leaves no file (only a hidden temp file), so a log never
        exists without its line 0. ConflictError if the file already exists.
        """
        stamped, lines = self._stamp(events, -1, GENESIS)
        self.write_new(lines)
        return stamped

    def write_new(self, lines: Iterable[bytes]) -> None:
        """Atomically create the whole file from complete lines (without newlines).

        Written to a temp file in the same folder, fsynced, then hard-linked into place:
        `link` fails if the name exists, so an existing file is never overwritten.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(f".{self.path.name}.{os.urandom(4).hex()}.tmp")
        try:
            self._write_temp(temp, lines)
            try:
                os.link(temp, self.path)
            except FileExistsError:
                raise ConflictError(f"{self.path} already exists; it is never overwritten") from None
        finally:
            with suppress(FileNotFoundError):
                os.unlink(temp)
        _fsync_dir(self.path.parent)

    def recover(self) -> TornTail | None:
        """Set aside a torn final line now, under the lock; None if the file is whole."""
        try:
            fd = self._open_locked(create=False)
        except FileNotFoundError:
            return None
        try:
            before = len(self.torn_tails)
            self._recover_locked(fd)
            return self.torn_tails[-1] if len(self.torn_tails) > before else None
        finally:
            os.close(fd)

    # -- reading ---------------------------------------------------------------------

    def lines(self) -> Iterator[bytes]:
        """Stream complete lines (without newlines) up to the size measured at start."""
        with self._reading() as opened:
            if opened is not None:
                yield from _iter_lines(opened[0], 0, opened[1])

    def tail(self, after_seq: int) -> Iterator[bytes]:
        """Lines with seq > after_seq; line i holds seq i, so lines are skipped by count.

        The start is found scanning back from the end, so following a live match costs
        the new lines, not the whole file.
        """
        after_seq = max(after_seq, -1)
        with self._reading() as opened:
            if opened is None:
                return
            file, end = opened
            wanted = self._link_of_last(file.fileno(), end)[0] - after_seq
            start = _start_of_last(file.fileno(), end, wanted) if wanted > 0 else end
            if start is None:  # fewer lines than seqs: the file is damaged, count instead
                yield from islice(_iter_lines(file, 0, end), after_seq + 1, None)
            else:
                yield from _iter_lines(file, start, end)

    def last(self) -> tuple[int, str]:
        """Seq and hash of the last complete line; (-1, GENESIS) when empty or missing."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return -1, GENESIS
        try:
            return self._link_of_last(fd, _complete_end(fd, os.fstat(fd).st_size))
        finally:
            os.close(fd)

    def verify(self) -> ChainReport:
        """Check every line: a JSON object, seq == its index, prev == hash of the line before."""
        return verify_lines(self.lines())

    # -- internals -------------------------------------------------------------------

    def _open_locked(self, *, create: bool) -> int:
        """Open for appending and take the exclusive lock; closing the fd releases it.

        FileNotFoundError when the file is missing and `create` is false.
        """
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | (os.O_CREAT if create else 0), 0o644)
        try:
            if create:
                _fsync_dir(self.path.parent)
            fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            os.close(fd)
            raise
        return fd

    @contextmanager
    def _reading(self) -> Iterator[tuple[BinaryIO, int] | None]:
        """Open for reading and measure where the complete lines end; None if no file.

        A torn tail is set aside first if no writer holds the lock; a held lock means a
        write is in progress, and reading just stops before its partial bytes.
        """
        try:
            file = open(self.path, "rb", buffering=0)  # noqa: SIM115 - closed below
        except FileNotFoundError:
            yield None
            return
        with file:
            fd = file.fileno()
            size = os.fstat(fd).st_size
            end = _complete_end(fd, size)
            if end < size and self._try_recover():
                end = _complete_end(fd, os.fstat(fd).st_size)
            yield file, end

    def _try_recover(self) -> bool:
        """Recover a torn tail only if nobody holds the lock; True if anything was set aside."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND)
        except OSError:
            return False
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            size = os.fstat(fd).st_size
            return self._recover_locked(fd) < size
        finally:
            os.close(fd)

    def _recover_locked(self, fd: int) -> int:
        """Under the lock: quarantine bytes after the last newline, truncate; returns the end."""
        size = os.fstat(fd).st_size
        end = _complete_end(fd, size)
        if end == size:
            return end
        target = self._quarantine_bytes(os.pread(fd, size - end, end))
        os.ftruncate(fd, end)
        os.fsync(fd)
        self._report(TornTail(path=str(self.path), quarantined_to=str(target), size=size - end))
        return end

    def _quarantine_bytes(self, data: bytes) -> Path:
        """Copy torn bytes to a new file in the quarantine folder, durably, before truncating."""
        self.quarantine.mkdir(parents=True, exist_ok=True)
        stamp = _utc_stamp()
        for attempt in range(1000):
            suffix = f"-{attempt}" if attempt else ""
            target = self.quarantine / f"{self.label}.{stamp}{suffix}.torn"
            try:
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                continue
            try:
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            _fsync_dir(self.quarantine)
            return target
        raise FileExistsError(f"{self.quarantine}: no free name for a torn tail of {self.label}")

    def _report(self, torn: TornTail) -> None:
        """Keep the report here and hand it to the owner (the store lists it to the user)."""
        self.torn_tails.append(torn)
        if self._on_torn is not None:
            self._on_torn(torn)

    def _link_of_last(self, fd: int, end: int) -> tuple[int, str]:
        """Seq and hash of the last complete line, decoding nothing but its seq."""
        line = _last_line(fd, end)
        if line is None:
            return -1, GENESIS
        try:
            return _SEQ.decode(line).seq, line_hash(line)
        except msgspec.DecodeError as error:
            raise LogFormatError(str(self.path), None, f"last line has no readable seq: {error}", field="seq") from None

    def _stamp(self, events: Sequence[E], last_seq: int, prev: str) -> tuple[list[E], list[bytes]]:
        """Give each event its seq, time and prev; return them and their encoded lines."""
        now = datetime.now(UTC)
        stamped: list[E] = []
        lines: list[bytes] = []
        for index, event in enumerate(events):
            seq = last_seq + 1 + index
            if event.seq not in (-1, seq):
                problem = "duplicate" if event.seq < seq else "gap"
                raise LogFormatError("<input>", index + 1, f"seq {problem}: expected {seq}, found {event.seq}", field="seq")
            at = now if event.at is None else event.at
            event = msgspec.structs.replace(event, seq=seq, at=at, prev=prev)
            line = self._encode(event, index + 1)
            prev = line_hash(line)
            stamped.append(event)
            lines.append(line)
        return stamped, lines

    def _encode(self, event: Event, line_no: int) -> bytes:
        """Encode one event; a value JSON cannot hold is the input's fault, said in one line."""
        try:
            return self._encoder.encode(event)
        except (msgspec.EncodeError, TypeError, ValueError, OverflowError) as error:
            raise LogFormatError("<input>", line_no, f"cannot be written as JSON: {error}") from None

    def _write_durably(self, fd: int, data: bytes, end: int) -> None:
        """Write every byte then fsync; on a failed write cut the file back to `end`."""
        try:
            _write_all(fd, data)
            os.fsync(fd)
        except OSError:
            with suppress(OSError):
                os.ftruncate(fd, end)
            raise

    def _write_temp(self, temp: Path, lines: Iterable[bytes]) -> None:
        """Write complete lines to a new temp file and fsync it."""
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            buffer = bytearray()
            for line_no, line in enumerate(lines, start=1):
                if b"\n" in line:
                    raise LogFormatError(str(self.path), line_no, "a line must not contain a newline")
                buffer += line
                buffer += b"\n"
                if len(buffer) >= _CHUNK:
                    _write_all(fd, buffer)
                    buffer.clear()
            _write_all(fd, buffer)
            os.fsync(fd)
        finally:
            os.close(fd)

    def _conflict_message(self, expected_seq: int | None, last_seq: int | None) -> str:
        """One line naming the file, what the writer expected and what is really there."""
        actual = "the file does not exist" if last_seq is None else f"the last seq is {last_seq}"
        return f"{self.path}: expected last seq {expected_seq}, but {actual}; someone else wrote first - reload and retry"


def verify_lines(lines: Iterable[bytes]) -> ChainReport:
    """Check a log's lines in order: each a JSON object, seq == its index, prev == hash of
    the line before. Shared by journals and batch files."""
    prev, count = GENESIS, 0
    for line in lines:
        problem = _link_problem(line, count, prev)
        if problem:
            return ChainReport(ok=False, lines=count, first_bad_line=count + 1, message=f"line {count + 1}: {problem}")
        prev, count = line_hash(line), count + 1
    return ChainReport(ok=True, lines=count, first_bad_line=None, message=f"{count} lines, hash chain intact")


def _link_problem(line: bytes, index: int, prev: str) -> str | None:
    """What is wrong with line `index` given the hash of the line before; None if nothing."""
    try:
        link = _LINK.decode(line)
    except msgspec.DecodeError as error:
        return f"not a JSON object with seq and prev ({error})"
    if link.seq != index:
        return f"seq is {link.seq}, expected {index} (a line was removed, duplicated or reordered)"
    if link.prev != prev:
        if index == 0:
            return f"prev must be empty on the first line, found {link.prev!r}"
        return f"prev does not match the hash of line {index} (edited, removed or reordered)"
    return None
