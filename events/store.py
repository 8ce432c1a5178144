"""The embedded store: one folder of match logs, note streams and quarantined bytes.

    <home>/logs/<match_id>.jsonl     one match, one event per line (see events/journal.py)
    <home>/notes/<match_id>.jsonl    that match's annotations, the same kind of journal
    <home>/logs/<match_id>.jsonl.end the log's end anchor (events/anchor.py)
    <home>/quarantine/               torn tails set aside by `repair` after a crash
    <home>/batches/<batch_id>/       simulated games, many logs per file (events/batches.py)
    <home>/cache/                    folds and audits kept by projections (safe to delete)

Opening a store changes nothing on disk; folders appear with the first write. Every path
comes from a validated match id, so an id can never reach outside the folder, and no file
or folder of the store is read or written through a symbolic link: a link is reported.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

from events.base import Event
from events.batches import BatchIndex, BatchLog
from events.batches import remove_dead_temps as remove_dead_batch_temps
from events.chain import GENESIS, line_hash
from events.codec import LogCodec, decode_log, encode_chained, read_header, refuse_bom
from events.errors import (
    ChainBrokenError,
    ConflictError,
    InvalidMatchIdError,
    LogFormatError,
    StoreLinkError,
    TabletapeError,
    UnknownMatchError,
)
from events.headers import HeaderIndex
from events.journal import ChainReport, Journal, RepairReport, TornTail, Written, real_folder
from events.journal import remove_dead_temps as remove_dead_journal_temps
from events.shared import MatchStarted
from events.values import check_values

_MATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,79}")
_SUFFIX = ".jsonl"


def validate_match_id(match_id: object) -> str:
    """Return the id if it is a plain file name; ids become paths, so no path tricks."""
    if not isinstance(match_id, str) or not _MATCH_ID.fullmatch(match_id) or ".." in match_id:
        raise InvalidMatchIdError(
            f"invalid match id {match_id!r}: use 1-80 letters, digits, '_', '-' or '.', "
            "starting with a letter or digit, without '..' or path separators"
        )
    return match_id


def new_match_id(started_at: datetime, ruleset: str) -> str:
    """An id like `mortalgate-20261121-105312-a3f9`: readable, and sorts by start time
    within a ruleset; the random suffix keeps two tables starting the same second apart."""
    when = started_at.astimezone(UTC) if started_at.tzinfo else started_at
    slug = re.sub(r"[^a-z0-9]+", "-", ruleset.lower()).strip("-")[:56] or "match"
    return validate_match_id(f"{slug}-{when:%Y%m%d-%H%M%S}-{os.urandom(2).hex()}")


class FileStore:
    """Match logs and note streams in one folder (`$TABLETAPE_HOME`, default `./data`)."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.torn_tails: list[TornTail] = []
        # Torn tails this store met (each once) or set aside, so the CLI, the dashboard
        # and sync can say where.
        self.skipped: dict[str, str] = {}
        # Entries of the store that are not matches it can serve (a link, a folder named
        # like a log, a damaged batch manifest), with why; refreshed by `matches()`.
        self.batches = BatchIndex(self.home)
        self._logs, self._notes, self._quarantine = self.home / "logs", self.home / "notes", self.home / "quarantine"
        # Joined once: every append and read names one of these, and a path join costs as
        # much as the rest of looking a log up.

    def __repr__(self) -> str:
        return f"FileStore({str(self.home)!r})"

    # -- paths and journals ----------------------------------------------------------

    def log_path(self, match_id: str) -> Path:
        """Where a match's log lives (whether or not it exists yet)."""
        return self._logs / f"{validate_match_id(match_id)}{_SUFFIX}"

    def notes_path(self, match_id: str) -> Path:
        """Where a match's note stream lives (whether or not it exists yet)."""
        return self._notes / f"{validate_match_id(match_id)}{_SUFFIX}"

    def log_journal(self, match_id: str) -> Journal:
        """The journal of a match's log; torn tails are reported to this store."""
        return self._journal(self.log_path(match_id), match_id)

    def notes_journal(self, match_id: str) -> Journal:
        """The journal of a match's notes; its torn tails are filed as `<id>.notes.*`."""
        return self._journal(self.notes_path(match_id), f"{match_id}.notes")

    def _journal(self, path: Path, label: str) -> Journal:
        return Journal(path, quarantine=self._quarantine, label=label, on_torn=self._met_torn)

    def _met_torn(self, torn: TornTail) -> None:
        """Keep each torn tail once (several reads of one command meet the same one)."""
        if torn not in self.torn_tails:
            self.torn_tails.append(torn)

    def _existing(self, match_id: str) -> Journal | BatchLog:
        """The log's journal (or its place in a batch), or UnknownMatchError: reads and
        appends never create a log."""
        path = self.log_path(match_id)
        try:
            mode = os.lstat(path).st_mode  # one look, not the link's then the file's
        except (FileNotFoundError, NotADirectoryError):
            mode = 0
        if stat.S_ISLNK(mode):
            raise StoreLinkError(f"{path} is a symbolic link; the store never reads or writes through links")
        if stat.S_ISREG(mode):
            return self._journal(path, match_id)
        batched = self.batches.get(match_id)
        if batched is None:
            raise UnknownMatchError(f"no match {match_id!r} in {self.home}")
        return batched

    def log(self, match_id: str) -> Journal | BatchLog:
        """The reader of a match's log (its journal, or its place in a batch), looked up once
        by a caller that reads one log several ways (the warehouse sync: line 0, the lines,
        the file); UnknownMatchError if there is none."""
        return self._existing(match_id)

    def source_path(self, match_id: str) -> Path:
        """The file a match's lines are read from (its log, or its batch part)."""
        return self._existing(match_id).path

    # -- writing ---------------------------------------------------------------------

    def create(self, started: MatchStarted) -> MatchStarted:
        """Write line 0 of a new match, atomically; ConflictError if the match exists."""
        journal = self.log_journal(started.match_id)
        if self.batches.get(started.match_id) is not None:
            raise ConflictError(f"match {started.match_id!r} already exists in {self.home} (in a batch)")
        try:
            [written] = journal.create([started])
        except ConflictError:
            raise ConflictError(f"match {started.match_id!r} already exists in {self.home}") from None
        return written

    def append(self, match_id: str, events: Sequence[Event], *, expected_seq: int) -> Written[Event]:
        """Append events after `expected_seq`, the last seq the caller has seen; the events
        as stamped, with the lines they were written as."""
        journal = self._existing(match_id)
        _refuse_second_start(events)
        if expected_seq < 0:
            raise ConflictError(f"{journal.path}: expected last seq {expected_seq}; line 0 is written by create, append needs the last seq")
        return journal.append(events, expected_seq=expected_seq)

    def import_lines(self, match_id: str, lines: Iterable[bytes]) -> None:
        """Write a complete, already validated log at once (see `import_log`)."""
        if self.batches.get(match_id) is not None:
            raise ConflictError(f"match {match_id!r} already exists in {self.home} (in a batch)")
        try:
            self.log_journal(match_id).write_new(lines)
        except ConflictError:
            raise ConflictError(f"match {match_id!r} already exists in {self.home}") from None

    def repair(self, match_id: str, *, accept: bool = False) -> RepairReport:
        """Set aside a torn tail, restore a lost final newline, anchor an unanchored end
        (`accept`: anchor a cut or edited end as it is); the log's notes too."""
        report = self._existing(match_id).repair(accept=accept)
        notes = self.notes_journal(match_id)
        if notes.path.exists() or notes.path.is_symlink():
            notes.repair(accept=accept)
        return report

    def remove_dead_temps(self) -> list[Path]:
        """Remove the temp files and folders of writers killed mid-write."""
        removed = [path for folder in ("logs", "notes") for path in remove_dead_journal_temps(self.home / folder)]
        return removed + remove_dead_batch_temps(self.home / "batches")

    # -- reading ---------------------------------------------------------------------

    def exists(self, match_id: str) -> bool:
        """Whether a log with that id exists (the id is validated first)."""
        return self.log_path(match_id).is_file() or self.batches.get(match_id) is not None

    def matches(self) -> list[str]:
        """Ids of every match in the store, sorted (new ids sort by start time)."""
        folder = self.home / "logs"
        self.skipped = {}
        names: list[str] = []
        try:
            real_folder(folder)
            if folder.is_dir():
                names = [name for entry in os.scandir(folder) if (name := self._log_name(entry))]
        except StoreLinkError as error:
            self.skipped[str(folder)] = str(error)
        names += self.batches.ids()
        self.skipped.update(self.batches.skipped)
        return sorted({name for name in names if _MATCH_ID.fullmatch(name) and ".." not in name})

    def _log_name(self, entry: os.DirEntry[str]) -> str | None:
        """The match id of a log file in `logs/`; a link or a folder is noted in `skipped`."""
        if not entry.name.endswith(_SUFFIX) or entry.name.startswith("."):
            return None
        if entry.is_symlink():
            self.skipped[entry.path] = "a symbolic link: not followed, not served"
        elif not entry.is_file():
            self.skipped[entry.path] = "not a file: not served"
        else:
            return entry.name[: -len(_SUFFIX)]
        return None

    def first_line(self, match_id: str) -> bytes:
        """Line 0 of a match's log (UnknownMatchError if the log is empty)."""
        first = next(iter(self.lines(match_id)), None)
        if first is None:
            raise UnknownMatchError(f"match {match_id!r} has an empty log")
        return first

    def header_lines(self) -> Iterator[tuple[str, Path | str | None, bytes | TabletapeError]]:
        """(match id, source file, line 0 or why it cannot be read) for every match, in id
        order, from the header index: a log is read only if it changed since last time."""
        parts = self.batches.parts()
        logs = os.path.join(self.home, "logs", "")

        def source(match_id: str) -> Path | str:
            part = parts.get(match_id)
            path = f"{logs}{match_id}{_SUFFIX}"  # a plain string: ids listed by matches() are file names
            return path if part is None or os.path.lexists(path) else part

        return HeaderIndex(self.home).lines(self.matches(), source, self.first_line)

    def noted(self) -> set[str] | None:
        """Ids that have a note stream file, from one listing of the folder; None if the
        folder cannot be listed as the store's own (a link): then ask each match, which
        says why."""
        folder = self.home / "notes"
        try:
            real_folder(folder)
            return {entry.name[: -len(_SUFFIX)] for entry in os.scandir(folder) if entry.name.endswith(_SUFFIX)}
        except FileNotFoundError:
            return set()
        except (StoreLinkError, NotADirectoryError):
            return None

    def lines(self, match_id: str) -> Iterator[bytes]:
        """Every complete line of a match's log, streamed."""
        return self._existing(match_id).lines()

    def chunks(self, match_id: str, start: int = 0) -> Iterator[bytes]:
        """A match's committed bytes from offset `start` on, in large chunks (`split_lines`
        makes them lines)."""
        return self._existing(match_id).chunks(start)

    def tail(self, match_id: str, after_seq: int) -> Iterator[bytes]:
        """Lines with seq > after_seq: what a live view has not seen yet."""
        return self._existing(match_id).tail(after_seq)

    def last(self, match_id: str) -> tuple[int, str]:
        """Seq and hash of the log's last line: the expected seq for the next append."""
        return self._existing(match_id).last()

    def verify(self, match_id: str) -> ChainReport:
        """Check the log's hash chain; the report names the first bad line."""
        return self._existing(match_id).verify()


def _refuse_second_start(events: Sequence[Event]) -> None:
    """A MatchStarted after line 0 would make the log claim two beginnings."""
    for line_no, event in enumerate(events, start=1):
        if isinstance(event, MatchStarted):
            raise LogFormatError("<input>", line_no, "MatchStarted can only be line 0 of a new match", field="type")


def import_log(
    store: FileStore,
    match_id: str,
    data: bytes,
    codec_for: Callable[[MatchStarted], LogCodec],
    *,
    where: str = "<input>",
) -> MatchStarted:
    """Import a whole log: check the header, every line, seq order and chain, then write.

    Nothing is written unless everything checks, and then all at once. Every line must
    say exactly what its event holds (no key twice, no field the event lacks): the log is
    stored as its events read, so what was sent is kept or refused whole. A chained log
    (some `prev` filled in) must verify and is kept byte for byte; an unchained one
    (every `prev` empty, e.g. written by another tool) is chained on the way in.
    """
    validate_match_id(match_id)
    lines = _split_lines(data, where)
    header = read_header(lines[0], where=where)
    if header.match_id != match_id:
        raise LogFormatError(where, 1, f"match_id is {header.match_id!r}, but the import is for {match_id!r}", field="match_id")
    events = list(decode_log(lines, codec_for(header), where=where, exact=True))
    for line_no, event in enumerate(events, start=1):
        check_values(event, where=where, line_no=line_no)
    if any(event.prev for event in events):
        _check_chain(lines, events, where)
    else:
        lines = encode_chained(events)
    store.import_lines(match_id, lines)
    first = events[0]
    assert isinstance(first, MatchStarted)  # decode_log checked line 0
    return first


def _split_lines(data: bytes, where: str) -> list[bytes]:
    """Lines of a whole log, split on newlines only: the chain hashes the exact bytes.

    A log is UTF-8 text; checking that first names the line of a bad byte, where a JSON
    decoder would fail on it with an error that says neither file nor line.
    """
    refuse_bom(data, where)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_no = data.count(b"\n", 0, error.start) + 1
        raise LogFormatError(where, line_no, f"not UTF-8 text (byte {error.object[error.start]:#04x})") from None
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    if not lines:
        raise LogFormatError(where, None, "empty log: the first line must be MatchStarted")
    return lines


def _check_chain(lines: Sequence[bytes], events: Sequence[Event], where: str) -> None:
    """Every prev must be the hash of the line before; say which line first breaks."""
    prev = GENESIS
    for line_no, (line, event) in enumerate(zip(lines, events, strict=True), start=1):
        if event.prev != prev:
            what = "must be empty on the first line" if line_no == 1 else f"does not match the hash of line {line_no - 1}"
            raise ChainBrokenError(f"{where}:{line_no}: prev {what} (edited, removed or reordered)")
        prev = line_hash(line)
