"""Batch files: many complete logs in a few large files, for simulations at scale.

A batch of 100,000 bot games is not 100,000 files. It is a folder

    <home>/batches/<batch_id>/part-0000.jsonl ...   complete logs back to back
    <home>/batches/<batch_id>/manifest.json         where each match starts and ends

written whole into a temporary folder and renamed into place, so a batch is either all
there or not there at all. Every log inside is an ordinary hash-chained log; the store
serves a batched match like any other, read-only (a simulated game is finished).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import NoReturn

import msgspec

from events.chain import GENESIS, line_hash
from events.errors import ConflictError, StoreLinkError, TabletapeError
from events.journal import ChainReport, RepairReport, real_folder, verify_lines

PART_BYTES = 64 << 20
"""A new part file starts after this many bytes (each part holds whole logs only)."""


class ReadOnlyMatchError(TabletapeError):
    """A write to a match that lives in a batch file (simulations are complete)."""


class BatchEntry(msgspec.Struct, frozen=True, array_like=True):
    """Where one match's log lies in its batch: part file, byte range, line count."""

    match_id: str
    part: int
    offset: int
    length: int
    lines: int


class Manifest(msgspec.Struct, frozen=True, kw_only=True):
    """A batch's table of contents, plus what produced it."""

    batch_id: str
    parts: int
    matches: tuple[BatchEntry, ...]
    info: dict[str, object] = {}


def write_batch(
    home: Path,
    batch_id: str,
    logs: Iterable[tuple[str, Sequence[bytes]]],
    info: dict[str, object],
    finalize: Callable[[dict[str, object]], dict[str, object]] | None = None,
) -> Manifest:
    """Write every (match id, lines) to a new batch atomically; ConflictError if it exists.

    `finalize` may add to `info` what is only known once every log is written.
    """
    root = home / "batches"
    final = root / batch_id
    if final.exists():
        raise ConflictError(f"batch {batch_id!r} already exists in {root}")
    real_folder(root)
    remove_dead_temps(root)
    temp = root / f".tmp-{batch_id}-{os.getpid()}"
    shutil.rmtree(temp, ignore_errors=True)
    temp.mkdir(parents=True)
    try:
        entries = _write_parts(temp, logs)
        info = finalize(info) if finalize else info
        manifest = Manifest(batch_id=batch_id, parts=1 + max((e.part for e in entries), default=0), matches=tuple(entries), info=info)
        (temp / "manifest.json").write_bytes(msgspec.json.encode(manifest))
        _fsync_tree(temp)
        os.rename(temp, final)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    return manifest


def remove_dead_temps(root: Path) -> list[Path]:
    """Remove temporary batch folders whose writer process is gone (killed mid-write)."""
    removed = []
    for temp in root.glob(".tmp-*-*") if root.is_dir() else ():
        pid = temp.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not temp.is_symlink() and not _alive(int(pid)):
            shutil.rmtree(temp, ignore_errors=True)
            removed.append(temp)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _write_parts(folder: Path, logs: Iterable[tuple[str, Sequence[bytes]]]) -> list[BatchEntry]:
    entries: list[BatchEntry] = []
    part, offset = 0, 0
    out = open(part_path(folder, 0), "wb")  # noqa: SIM115 - reopened per part below
    try:
        for match_id, lines in logs:
            if offset >= PART_BYTES:
                out.close()
                part, offset = part + 1, 0
                out = open(part_path(folder, part), "wb")  # noqa: SIM115
            data = b"".join(line + b"\n" for line in lines)
            out.write(data)
            entries.append(BatchEntry(match_id, part, offset, len(data), len(lines)))
            offset += len(data)
    finally:
        out.close()
    return entries


def _fsync_tree(folder: Path) -> None:
    for path in folder.iterdir():
        with open(path, "rb") as file:
            os.fsync(file.fileno())
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def part_path(folder: Path, part: int) -> Path:
    """The file of one part of a batch."""
    return folder / f"part-{part:04d}.jsonl"


class BatchLog:
    """One match inside a batch file: the read side of a Journal."""

    def __init__(self, folder: Path, entry: BatchEntry) -> None:
        self.entry = entry
        self.batch_id = folder.name
        self.path = part_path(folder, entry.part)

    def _bytes(self) -> bytes:
        with open(self.path, "rb") as file:
            file.seek(self.entry.offset)
            return file.read(self.entry.length)

    def lines(self) -> Iterator[bytes]:
        """Every line of the match's log."""
        yield from self._bytes().splitlines()

    def chunks(self, start: int = 0) -> Iterator[bytes]:
        """The log's bytes from offset `start` on (see `Journal.chunks`)."""
        yield self._bytes()[start:]

    def tail(self, after_seq: int) -> Iterator[bytes]:
        """Lines with seq > after_seq (line i holds seq i)."""
        yield from self._bytes().splitlines()[max(after_seq, -1) + 1 :]

    def last(self) -> tuple[int, str]:
        """Seq and hash of the last line."""
        lines = self._bytes().splitlines()
        return (len(lines) - 1, line_hash(lines[-1])) if lines else (-1, GENESIS)

    def verify(self) -> ChainReport:
        """The hash chain of this match's lines, and their count against the manifest
        (the manifest's byte range and line count anchor the end)."""
        report = verify_lines(self.lines())
        if report.ok and report.lines != self.entry.lines:
            return ChainReport(ok=False, lines=report.lines, first_bad_line=report.lines, last=report.last,
                               message=f"line {report.lines}: the manifest records {self.entry.lines} lines: lines were cut off or added")
        return report

    def append(self, events: Sequence[object], *, expected_seq: int) -> NoReturn:
        """Refused: a simulated match is complete."""
        raise self._read_only()

    def repair(self, *, accept: bool = False) -> RepairReport:
        """Nothing to repair: batch files are written whole and renamed into place."""
        return RepairReport()

    def _read_only(self) -> ReadOnlyMatchError:
        return ReadOnlyMatchError(f"match {self.entry.match_id!r} is a simulated game in {self.path.parent}: it is read-only")


class BatchIndex:
    """Every batched match of a store, reloaded when a batch is added or removed."""

    def __init__(self, home: Path) -> None:
        self.root = home / "batches"
        self._stamp: int | None = None
        self._where: dict[str, tuple[Path, BatchEntry]] = {}
        self.skipped: dict[str, str] = {}
        # Batches that cannot be served (a damaged manifest, a link), with the error.

    def _load(self) -> dict[str, tuple[Path, BatchEntry]]:
        try:
            real_folder(self.root)
            stamp = self.root.stat().st_mtime_ns
        except FileNotFoundError:
            return {}
        except StoreLinkError as error:
            self.skipped = {str(self.root): str(error)}
            return {}
        if stamp != self._stamp:
            where: dict[str, tuple[Path, BatchEntry]] = {}
            self.skipped = {}
            for manifest_path, manifest in self._manifests():
                for entry in manifest.matches:
                    where[entry.match_id] = (manifest_path.parent, entry)
            self._where, self._stamp = where, stamp
        return self._where

    def _manifests(self) -> list[tuple[Path, Manifest]]:
        """Every readable manifest; a damaged one or a linked batch is noted in `skipped`
        and left out, so one bad batch never hides the rest of the store."""
        found = []
        for folder in sorted(self.root.iterdir()):
            path = folder / "manifest.json"
            if folder.name.startswith("."):
                continue
            if folder.is_symlink() or path.is_symlink():
                self.skipped[str(folder)] = "a symbolic link: not followed, not served"
                continue
            if not path.is_file():
                continue
            try:
                found.append((path, msgspec.json.decode(path.read_bytes(), type=Manifest)))
            except (msgspec.DecodeError, RecursionError, OSError) as error:
                self.skipped[str(path)] = f"damaged manifest, its matches are not served: {error}"
        return found

    def ids(self) -> list[str]:
        """Ids of every batched match."""
        return list(self._load())

    def get(self, match_id: str) -> BatchLog | None:
        """The batched log of a match, if it is in a batch."""
        found = self._load().get(match_id)
        return BatchLog(*found) if found else None

    def parts(self) -> dict[str, Path]:
        """The part file of every batched match, from one look at the manifests (a pass
        over the whole store asks once, not once per match)."""
        paths: dict[tuple[Path, int], Path] = {}
        out = {}
        for match_id, (folder, entry) in self._load().items():
            path = paths.get((folder, entry.part))
            if path is None:
                path = paths[folder, entry.part] = part_path(folder, entry.part)
            out[match_id] = path
        return out

    def manifests(self) -> list[Manifest]:
        """Every readable batch manifest."""
        if not self.root.is_dir():
            return []
        return [manifest for _, manifest in self._manifests()]
