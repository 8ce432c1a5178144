"""The header index: line 0 of every match, kept beside the logs so listing a store reads
no log.

    <home>/headers.idx    {match id: [the source file's identity, line 0]}, msgpack

Line 0 of a log never changes while the log only grows, but a log can be replaced
(imported again, restored, edited by hand), so an entry is used only while the file its
lines come from has the identity the entry recorded (inode, size, modification time);
any other entry is read again from the log, and the index rewritten (atomically) when
something changed. The file is a cache: a missing, unreadable or damaged index is
rebuilt, and deleting it loses nothing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from pathlib import Path

import msgspec

from events.errors import TabletapeError

INDEX = "headers.idx"

Entry = tuple[str, bytes]
"""(identity of the source file, line 0)."""

_decode = msgspec.msgpack.Decoder(dict[str, tuple[str, bytes]]).decode
_encode = msgspec.msgpack.Encoder().encode


SETTLING_NS = 2_000_000_000
"""A file written this recently may be written again within the same tick of the file
system's clock without its identity changing: its entry is kept but not trusted."""


def identity(path: Path | str, stats: dict[Path | str, str] | None = None) -> str:
    """What changes when a file is replaced or written: inode, size, modification time;
    empty for a file written in the last moments (see SETTLING_NS). A batch part holds
    many matches: `stats` keeps each part's once."""
    if stats is not None and path in stats:
        return stats[path]
    found = os.lstat(path)
    settled = time.time_ns() - found.st_mtime_ns > SETTLING_NS
    said = f"{found.st_ino} {found.st_size} {found.st_mtime_ns}" if settled else ""
    if stats is not None:
        stats[path] = said
    return said


class HeaderIndex:
    """Line 0 of every match of one store, read from the logs only where they changed."""

    def __init__(self, home: Path) -> None:
        self.path = Path(home) / INDEX

    def load(self) -> dict[str, Entry]:
        """The entries on disk; empty if there is no index or it cannot be read."""
        try:
            if self.path.is_symlink():
                return {}  # never read through a link; rewritten as a real file
            return _decode(self.path.read_bytes())
        except (OSError, msgspec.DecodeError, RecursionError):
            return {}

    def lines(self, match_ids: Iterable[str], source: Callable[[str], Path | str],
              first_line: Callable[[str], bytes]) -> Iterator[tuple[str, Path | str | None, bytes | TabletapeError]]:
        """(match id, its source file, line 0 or the error reading it) per match, in the
        order given.

        `source` names the file a match's lines come from, `first_line` reads line 0 from
        the log (the store's own reader, with its checks); both fail with TabletapeError.
        """
        known = self.load()
        kept: dict[str, Entry] = {}
        stats: dict[Path | str, str] = {}
        changed = False
        for match_id in match_ids:
            path: Path | str | None = None
            try:
                path = source(match_id)
                said = identity(path, stats)
                entry = known.get(match_id)
                if entry is None or not said or entry[0] != said:
                    entry, changed = (said, first_line(match_id)), True
            except TabletapeError as error:
                yield match_id, path, error
                continue
            except OSError as error:  # the log vanished or became unreadable while listing
                yield match_id, path, TabletapeError(f"{path or match_id}: {error.strerror or error}")
                continue
            kept[match_id] = entry
            yield match_id, path, entry[1]
        if changed or kept.keys() != known.keys():
            self._write(kept)

    def _write(self, entries: dict[str, Entry]) -> None:
        """Replace the index at once; a store that cannot take it (read-only) is listed all the same."""
        temp = self.path.with_name(f".{INDEX}.{os.getpid()}.tmp")
        with suppress(OSError):
            if self.path.parent.is_dir():
                temp.write_bytes(_encode(entries))
                os.replace(temp, self.path)
        with suppress(OSError):
            temp.unlink(missing_ok=True)
