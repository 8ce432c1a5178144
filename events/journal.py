"""One append-only, hash-chained JSON-lines file: the only code that writes a log.

Match logs and note streams both go through `Journal`, so locking, stamping, the hash
chain, the end anchor and crash recovery exist once. Writers hold an exclusive `flock`
while they append; readers never take it for long and never write.

An append is all or nothing: the batch is written after the committed end and fsynced,
then the end anchor (`events/anchor.py`) is moved past it; readers read only up to the
anchored end. A writer killed at any instant leaves the anchor where it was, and the bytes
it wrote past it (part of a line, or whole lines of an unfinished batch) are a torn tail:
never part of the log, reported by every reader that meets it, refused by writers, and set
aside (to the quarantine folder) only by `repair`. A last line that is whole JSON but lost
its final newline is not torn: it is read as a line and `repair` gives it its newline.

Nothing is ever opened through a symbolic link (O_NOFOLLOW), nor inside a folder that is
a link: a link found in the store is reported, never followed.
"""

from __future__ import annotations

import fcntl
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import BinaryIO, Generic, NamedTuple, TypeVar

import msgspec

from events import anchor as anchors
from events.anchor import Anchor, AnchorRead
from events.base import Event
from events.chain import GENESIS, line_hash
from events.errors import (
    ChainBrokenError,
    ConflictError,
    LogFormatError,
    StoreLinkError,
    TornTailError,
)
from events.values import check_values

E = TypeVar("E", bound=Event)

_CHUNK = 1 << 20
"""Bytes read per call when streaming lines: large enough to run at disk speed."""
_TEMP_GRACE = 5.0
"""Seconds a temp file is left alone after its last write, whoever holds it."""
_BACK_CHUNK = 1 << 16
"""Bytes read per step when scanning backwards for the last line (lines are short)."""


class TornTail(msgspec.Struct, frozen=True, kw_only=True):
    """Bytes after a journal's committed end: a write that was interrupted (a crash)."""

    path: str
    """The journal file that ends in the torn bytes."""
    size: int
    """How many bytes are past the committed end."""
    quarantined_to: str = ""
    """Where `repair` copied them before cutting them off; "" while they are still there."""

    def warning(self, match_id: str) -> str:
        """One line for the user: what was found and what to do."""
        if self.quarantined_to:
            return f"{self.path}: {self.size} bytes of an interrupted write were set aside to {self.quarantined_to}"
        return (f"{self.path}: ends in {self.size} bytes of an interrupted write, which are not part of the log; "
                f"`tabletape repair {match_id}` sets them aside")


class ChainReport(msgspec.Struct, frozen=True, kw_only=True):
    """Outcome of `Journal.verify`: whether every line links to the one before it and the
    last one is the line anchored as the end."""

    ok: bool
    lines: int
    """Lines that verified (all of them when `ok`, those before the bad one otherwise)."""
    first_bad_line: int | None
    """1-based number of the first line that breaks the chain, None when `ok`."""
    message: str
    """One line a person can read, naming the bad line and what is wrong with it."""
    last: str = GENESIS
    """Hash of the last line that verified."""


class RepairReport(msgspec.Struct, frozen=True, kw_only=True):
    """What `Journal.repair` did; every field empty or False when the journal was sound."""

    torn: TornTail | None = None
    """The torn tail set aside, if there was one."""
    newline_added: bool = False
    """The last line was whole but had lost its final newline."""
    anchored: str = ""
    """Why the end was anchored anew ("" if the anchor was kept)."""

    @property
    def changed(self) -> bool:
        """Whether anything was done."""
        return bool(self.torn or self.newline_added or self.anchored)


class _Seq(msgspec.Struct):
    """Only the seq of a line: deciding a conflict must not decode the whole event."""

    seq: int


class _Link(msgspec.Struct):
    """Only what the chain checks, so `verify` runs at near disk speed."""

    seq: int
    prev: str


_SEQ = msgspec.json.Decoder(_Seq)
_LINK = msgspec.json.Decoder(_Link)


class _View(NamedTuple):
    """A journal as one reader or writer sees it: the file and where its lines end."""

    file: BinaryIO
    size: int
    """Bytes in the file, torn tail included."""
    end: int
    """Where the committed lines end."""
    open_end: bool
    """The last committed line is whole JSON without its final newline."""
    anchor: AnchorRead


class Written(list[E], Generic[E]):
    """What an append wrote: the events as stamped (the list itself), and `lines`, the bytes
    of each line as written, without its newline. A reader that follows the log (the live
    audit) folds these instead of reading back the lines it has just had written."""

    def __init__(self, events: Iterable[E] = (), lines: Iterable[bytes] = ()) -> None:
        super().__init__(events)
        self.lines = list(lines)


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


def real_folder(path: Path) -> None:
    """StoreLinkError if a folder of the store is a symbolic link (missing is fine)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        raise StoreLinkError(f"{path} is a symbolic link; the store never reads or writes through links (replace it by a real folder)")


def open_nofollow(path: Path, flags: int, mode: int = 0o644) -> int:
    """os.open that refuses a symbolic link with a one-line error naming it."""
    try:
        return os.open(path, flags | os.O_NOFOLLOW, mode)
    except OSError as error:
        if error.errno == 40:  # ELOOP: the last component is a link
            raise StoreLinkError(f"{path} is a symbolic link; the store never reads or writes through links") from None
        raise


def remove_dead_temps(folder: Path) -> list[Path]:
    """Remove the hidden temp files (`.*.tmp`) of writers killed mid-write.

    A live writer holds an exclusive lock on its temp file until it is renamed or linked
    into place, so a temp file whose lock can be taken belongs to nobody. One younger than
    a few seconds is left alone: its writer may be between creating it and locking it.
    """
    removed = []
    for temp in folder.glob(".*.tmp") if folder.is_dir() else ():
        with suppress(FileNotFoundError):
            if time.time() - temp.lstat().st_mtime < _TEMP_GRACE:
                continue
        try:
            fd = os.open(temp, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue
        else:
            with suppress(FileNotFoundError):
                os.unlink(temp)
            removed.append(temp)
        finally:
            os.close(fd)
    return removed


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


def _is_whole_line(data: bytes) -> bool:
    """Whether bytes after the last newline are a whole JSON object with a seq."""
    try:
        _SEQ.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return False
    return True


def _committed(fd: int, size: int, found: AnchorRead) -> tuple[int, bool]:
    """Where the committed lines end, and whether the last lacks its newline.

    The anchor decides when it points at a line end inside the file. Without one (a log
    written before anchors, a cut file) the lines end at the last newline, and a final
    segment that is whole JSON counts as a line that lost its newline.
    """
    anchor = found.anchor
    if anchor is not None and anchor.end <= size and (anchor.end == 0 or os.pread(fd, 1, anchor.end - 1) == b"\n"):
        return anchor.end, False
    end = _complete_end(fd, size)
    if end < size and _is_whole_line(os.pread(fd, size - end, end)):
        return size, True
    return end, False


def _last_line(fd: int, end: int, open_end: bool) -> bytes | None:
    """The last committed line (without its newline)."""
    if end == 0:
        return None
    stop = end if open_end else end - 1
    start = _line_start(fd, stop)
    return os.pread(fd, stop - start, start)


def _start_of_last(fd: int, end: int, count: int, open_end: bool) -> int | None:
    """Offset of the first of the last `count` lines before `end`; None if fewer exist."""
    pos, found = (end if open_end else end - 1), 0
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
    """Lines between two offsets, read in large chunks with O(1) memory (a last line
    without its newline included)."""
    return split_lines(_iter_chunks(file, start, end))


def _iter_chunks(file: BinaryIO, start: int, end: int) -> Iterator[bytes]:
    """The bytes between two offsets, in large chunks."""
    file.seek(start)
    remaining = end - start
    while remaining > 0:
        chunk = file.read(min(_CHUNK, remaining))
        if not chunk:
            return  # the file shrank under the reader: stop at the last whole line
        remaining -= len(chunk)
        yield chunk


def split_lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The lines of consecutive chunks of a log (a last line without its newline included)."""
    carry = b""
    for chunk in chunks:
        parts = chunk.split(b"\n")
        if carry:
            parts[0] = carry + parts[0]
        carry = parts.pop()
        yield from parts
    if carry:
        yield carry


def _utc_stamp() -> str:
    """A UTC timestamp safe in file names that sorts by time."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")


class Journal:
    """One append-only, hash-chained JSON-lines file, its end anchor and its repair."""

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
        # Folder torn tails are copied to (`<home>/quarantine` for a store's files).
        self.label = label or self.path.stem
        # Name torn tails are filed under, so logs and notes of one match stay apart.
        self.torn_tails: list[TornTail] = []
        # Torn tails this object found or set aside, oldest first.
        self._on_torn = on_torn
        self._encoder = msgspec.json.Encoder()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r})"

    # -- writing ---------------------------------------------------------------------

    def append(self, events: Sequence[E], *, expected_seq: int) -> Written[E]:
        """Stamp and append whole lines if the last seq is `expected_seq` (-1: empty file).

        Optimistic concurrency: a stale writer gets ConflictError and writes nothing, so
        two writers can never interleave lines. All or nothing: the lines count only once
        the end anchor is moved past them. Refused (TornTailError, ChainBrokenError) while
        the file ends in a torn tail or does not end where its anchor says.
        """
        if not events:
            return Written()
        # A new file is stamped before it is created, so bad input never leaves one behind.
        new = self._stamp(events, -1, GENESIS) if expected_seq == -1 else None
        try:
            fd = self._open_locked(create=new is not None)
        except FileNotFoundError:
            raise ConflictError(self._conflict_message(expected_seq, None)) from None
        try:
            with os.fdopen(os.dup(fd), "rb", buffering=0) as file:
                view = self._view(file)
                last_seq, prev = self._link_of_last(view)
                self._refuse_damage(view, last_seq, prev)
                if last_seq != expected_seq:
                    raise ConflictError(self._conflict_message(expected_seq, last_seq))
                stamped, lines = new or self._stamp(events, last_seq, prev)
                end = self._close_end(fd, view, last_seq, prev)
                commit = anchors.open_for_commit(self.path)
                try:
                    data = b"\n".join(lines) + b"\n"
                    self._write_durably(fd, data, end)
                    anchors.write_in_place(commit, Anchor(end + len(data), last_seq + 1 + len(lines), line_hash(lines[-1])))
                finally:
                    os.close(commit)
        finally:
            os.close(fd)
        return Written(stamped, lines)

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

        Written to a temp file in the same folder (locked while it is written, so only
        the temp files of killed writers are cleared), fsynced, then hard-linked into
        place: `link` fails if the name exists, so an existing file is never
        overwritten. The end anchor follows; a stale anchor of a removed file goes first.
        """
        self._make_folder()
        remove_dead_temps(self.path.parent)
        temp = self.path.with_name(f".{self.path.name}.{os.urandom(4).hex()}.tmp")
        fd = open_nofollow(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            written = self._write_temp(fd, lines)
            if not self.path.exists() and not self.path.is_symlink():
                with suppress(FileNotFoundError):
                    os.unlink(anchors.anchor_path(self.path))
            try:
                os.link(temp, self.path)
            except FileExistsError:
                raise ConflictError(f"{self.path} already exists; it is never overwritten") from None
        finally:
            with suppress(FileNotFoundError):
                os.unlink(temp)
            os.close(fd)
        anchors.write_new(self.path, written)
        _fsync_dir(self.path.parent)

    def repair(self, *, accept: bool = False) -> RepairReport:
        """Under the lock: set aside a torn tail, restore a lost final newline, anchor an
        unanchored end. The one place that removes bytes from a journal.

        A log that does not end where its anchor says (lines cut, the last edited) is
        refused (ChainBrokenError) unless `accept`: then the end is anchored as it is.
        """
        try:
            fd = self._open_locked(create=False)
        except FileNotFoundError:
            return RepairReport()
        try:
            with os.fdopen(os.dup(fd), "rb", buffering=0) as file:
                view = self._view(file)
                torn = self._set_aside(fd, view) if view.end < view.size else None
                lines = self._count_lines(file, view.end)
                prev = self._link_of_last(view)[1]
                mismatch = self._anchor_mismatch(view, lines, prev)
                if mismatch and view.anchor.anchor is not None and not accept:
                    raise ChainBrokenError(f"{self.path}: {mismatch}; restore the file from a copy, or accept it as it is with `tabletape repair --accept`")
                end = view.end + (1 if view.open_end else 0)
                if view.open_end:
                    self._write_durably(fd, b"\n", view.end)
                anchored = ""
                if mismatch:
                    anchors.write_new(self.path, Anchor(end, lines, prev))
                    anchored = mismatch
            return RepairReport(torn=torn, newline_added=view.open_end, anchored=anchored)
        finally:
            os.close(fd)

    # -- reading ---------------------------------------------------------------------

    def lines(self) -> Iterator[bytes]:
        """Stream committed lines (without newlines) up to the end measured at start."""
        with self._reading() as view:
            if view is not None:
                yield from _iter_lines(view.file, 0, view.end)

    def chunks(self, start: int = 0) -> Iterator[bytes]:
        """The committed bytes from offset `start` on, as read (what `lines` splits): a
        digest of a log's content runs at the speed of the hash, not of a loop over lines."""
        with self._reading() as view:
            if view is not None:
                yield from _iter_chunks(view.file, start, view.end)

    def tail(self, after_seq: int) -> Iterator[bytes]:
        """Lines with seq > after_seq; line i holds seq i, so lines are skipped by count.

        The start is found scanning back from the end, so following a live match costs
        the new lines, not the whole file.
        """
        after_seq = max(after_seq, -1)
        with self._reading() as view:
            if view is None:
                return
            wanted = self._link_of_last(view)[0] - after_seq
            start = _start_of_last(view.file.fileno(), view.end, wanted, view.open_end) if wanted > 0 else view.end
            if start is None:  # fewer lines than seqs: the file is damaged, count instead
                yield from islice(_iter_lines(view.file, 0, view.end), after_seq + 1, None)
            else:
                yield from _iter_lines(view.file, start, view.end)

    def last(self) -> tuple[int, str]:
        """Seq and hash of the last committed line; (-1, GENESIS) when empty or missing."""
        with self._reading() as view:
            return (-1, GENESIS) if view is None else self._link_of_last(view)

    def verify(self) -> ChainReport:
        """Check every line (a JSON object, seq == its index, prev == hash of the line
        before) and that the last one is the line the end anchor records."""
        with self._reading() as view:
            if view is None:
                return verify_lines(())
            report = verify_lines(_iter_lines(view.file, 0, view.end))
            if not report.ok:
                return report
            problem = self._anchor_mismatch(view, report.lines, report.last) if view.size else ""
            if problem:
                return ChainReport(ok=False, lines=report.lines, first_bad_line=report.lines, last=report.last,
                                   message=problem)
            note = "; the last line lost its final newline (`tabletape repair` restores it)" if view.open_end else ""
            return msgspec.structs.replace(report, message=f"{report.message}, end anchored{note}")

    # -- internals -------------------------------------------------------------------

    def _make_folder(self) -> None:
        """Create the journal's folder; refuse it (and its parent) if it is a link."""
        real_folder(self.path.parent.parent)
        real_folder(self.path.parent)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        real_folder(self.path.parent)

    def _open_locked(self, *, create: bool) -> int:
        """Open for appending and take the exclusive lock; closing the fd releases it.

        FileNotFoundError when the file is missing and `create` is false.
        """
        if create:
            self._make_folder()
        else:
            real_folder(self.path.parent)
        fd = open_nofollow(self.path, os.O_RDWR | os.O_APPEND | (os.O_CREAT if create else 0))
        try:
            if create:
                _fsync_dir(self.path.parent)
            fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            os.close(fd)
            raise
        return fd

    @contextmanager
    def _reading(self) -> Iterator[_View | None]:
        """Open for reading and measure where the committed lines end; None if no file.

        Bytes past that end while no writer holds the lock are a torn tail: reported
        (once per store), left in place. A held lock means a write is in progress.
        """
        real_folder(self.path.parent)
        try:
            fd = open_nofollow(self.path, os.O_RDONLY)
        except FileNotFoundError:
            yield None
            return
        with os.fdopen(fd, "rb", buffering=0) as file:
            view = self._view(file)
            if view.end < view.size:
                view = self._settled(view)
            yield view

    def _view(self, file: BinaryIO) -> _View:
        """The file's committed end as its anchor and bytes say now."""
        found = anchors.read(self.path)
        size = os.fstat(file.fileno()).st_size
        end, open_end = _committed(file.fileno(), size, found)
        return _View(file, size, end, open_end, found)

    def _settled(self, view: _View) -> _View:
        """Bytes past the end: a write in flight (lock held), or a torn tail to report.

        Measured again under a shared lock, which no writer holds while we look: a write
        that finished between reading the anchor and measuring the file is not torn.
        """
        fd = view.file.fileno()
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return view
        try:
            view = self._view(view.file)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
        if view.end < view.size:
            self._report(TornTail(path=str(self.path), size=view.size - view.end))
        return view

    def _refuse_damage(self, view: _View, last_seq: int, prev: str) -> None:
        """A writer never builds on a torn tail, a damaged anchor or a cut or edited end."""
        if view.end < view.size:
            torn = TornTail(path=str(self.path), size=view.size - view.end)
            self._report(torn)
            raise TornTailError(torn.warning(self.label.removesuffix(".notes")))
        found = view.anchor
        if found.anchor is None and found.problem and "missing" not in found.problem:
            raise ChainBrokenError(f"{self.path}: its end anchor {found.problem}; `tabletape repair --accept` anchors the log as it is")
        problem = self._anchor_mismatch(view, last_seq + 1, prev)
        if found.anchor is not None and problem:
            raise ChainBrokenError(f"{self.path}: {problem}; `tabletape verify` says more, `tabletape repair --accept` anchors the log as it is")

    def _anchor_mismatch(self, view: _View, lines: int, last: str) -> str:
        """Why the committed lines are not what the anchor records ("" if they are)."""
        anchor = view.anchor.anchor
        if anchor is None:
            return f"the end is not anchored ({view.anchor.problem}), so the last lines could be cut or edited unseen"
        end = view.end + (1 if view.open_end else 0)
        if anchor.lines != lines or anchor.end != end:
            return f"the log has {lines} lines ({end} bytes) but its end anchor records {anchor.lines} ({anchor.end} bytes): lines were cut off, added or changed"
        if anchor.last != last:
            return f"line {lines} is not the line the end anchor records as the last (edited, or the log rewritten)"
        return ""

    def _close_end(self, fd: int, view: _View, last_seq: int, prev: str) -> int:
        """Before the first append to an unanchored or newline-less file: give the last
        line its newline and anchor that end, so a batch is always written past an anchor."""
        end = view.end
        if view.open_end:
            self._write_durably(fd, b"\n", end)
            end += 1
        if view.anchor.anchor is None or view.open_end:
            anchors.write_new(self.path, Anchor(end, last_seq + 1, prev))
        return end

    def _count_lines(self, file: BinaryIO, end: int) -> int:
        """How many committed lines the file holds."""
        return sum(1 for _ in _iter_lines(file, 0, end))

    def _set_aside(self, fd: int, view: _View) -> TornTail:
        """Under the lock: copy the torn bytes to quarantine, then cut them off."""
        target = self._quarantine_bytes(os.pread(fd, view.size - view.end, view.end))
        os.ftruncate(fd, view.end)
        os.fsync(fd)
        torn = TornTail(path=str(self.path), quarantined_to=str(target), size=view.size - view.end)
        self._report(torn)
        return torn

    def _quarantine_bytes(self, data: bytes) -> Path:
        """Copy torn bytes to a new file in the quarantine folder, durably, before truncating."""
        real_folder(self.quarantine)
        self.quarantine.mkdir(parents=True, exist_ok=True)
        real_folder(self.quarantine)
        stamp = _utc_stamp()
        for attempt in range(1000):
            suffix = f"-{attempt}" if attempt else ""
            target = self.quarantine / f"{self.label}.{stamp}{suffix}.torn"
            try:
                fd = open_nofollow(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
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

    def _link_of_last(self, view: _View) -> tuple[int, str]:
        """Seq and hash of the last committed line, decoding nothing but its seq."""
        line = _last_line(view.file.fileno(), view.end, view.open_end)
        if line is None:
            return -1, GENESIS
        try:
            return _SEQ.decode(line).seq, line_hash(line)
        except (msgspec.DecodeError, RecursionError) as error:
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
            check_values(event, where="<input>", line_no=index + 1)
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

    def _write_temp(self, fd: int, lines: Iterable[bytes]) -> Anchor:
        """Write complete lines to the new temp file and fsync it; the anchor of its end."""
        size, count, last = 0, 0, b""
        buffer = bytearray()
        for line_no, line in enumerate(lines, start=1):
            if b"\n" in line:
                raise LogFormatError(str(self.path), line_no, "a line must not contain a newline")
            buffer += line
            buffer += b"\n"
            size, count, last = size + len(line) + 1, line_no, line
            if len(buffer) >= _CHUNK:
                _write_all(fd, buffer)
                buffer.clear()
        _write_all(fd, buffer)
        os.fsync(fd)
        return Anchor(size, count, line_hash(last) if count else GENESIS)

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
            return ChainReport(ok=False, lines=count, first_bad_line=count + 1, message=f"line {count + 1}: {problem}", last=prev)
        prev, count = line_hash(line), count + 1
    return ChainReport(ok=True, lines=count, first_bad_line=None, message=f"{count} lines, hash chain intact", last=prev)


def _link_problem(line: bytes, index: int, prev: str) -> str | None:
    """What is wrong with line `index` given the hash of the line before; None if nothing."""
    try:
        link = _LINK.decode(line)
    except (msgspec.DecodeError, RecursionError) as error:
        return f"not a JSON object with seq and prev ({error})"
    if link.seq != index:
        return f"seq is {link.seq}, expected {index} (a line was removed, duplicated or reordered)"
    if link.prev != prev:
        if index == 0:
            return f"prev must be empty on the first line, found {link.prev!r}"
        return f"prev does not match the hash of line {index} (edited, removed or reordered)"
    return None
