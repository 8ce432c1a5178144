"""The end anchor of a journal: where its committed lines end, how many, and the last hash.

`<log>.jsonl.end` beside every log (and note stream) holds one fixed-size record:

    tabletape-end v1 end=<bytes, hex> lines=<count, hex> last=<hash of the last line> crc=<crc32>

It is the commit point of an append: the batch is written past the anchored end, fsynced,
and only then is the record rewritten in place (one small `pwrite` of a fixed size, then
fsync). A writer killed before that leaves the anchor where it was, so readers, who read
only up to the anchored end, never see part of a batch. The record is also what lets
`verify` see the end of a log: the hash chain links every line to the one before, and the
anchor links the last line to the count and hash recorded when it was written.

Why a record rewritten in place and not a file written to a temp name and renamed: an
append then costs one extra small write and fsync, not a new file, a rename and a folder
fsync; and a reader pays one 96-byte read. The crc catches a record read while it is
being rewritten (the reader reads it again) or torn by a power cut (treated as missing).
"""

from __future__ import annotations

import fcntl
import os
import re
import time
import zlib
from contextlib import suppress
from pathlib import Path

import msgspec

SUFFIX = ".end"
"""Appended to the journal's file name: `logs/<id>.jsonl.end`."""
_RECORD = re.compile(rb"tabletape-end v1 end=([0-9a-f]{16}) lines=([0-9a-f]{16}) last=([0-9a-f ]{16}) crc=([0-9a-f]{8})\n")
_RETRIES = 5
"""Reads of a record that fails its crc before it counts as damaged (a rewrite in flight)."""


class Anchor(msgspec.Struct, frozen=True):
    """The committed end of a journal."""

    end: int
    """Bytes of committed lines, every one ending in a newline."""
    lines: int
    """How many lines that is."""
    last: str
    """Hash of the last committed line (`events.chain.line_hash`), "" when there is none."""


def anchor_path(path: Path) -> Path:
    """Where the anchor of the journal at `path` lives."""
    return path.with_name(path.name + SUFFIX)


def encode(anchor: Anchor) -> bytes:
    """The fixed-size record (96 bytes) of an anchor."""
    body = f"tabletape-end v1 end={anchor.end:016x} lines={anchor.lines:016x} last={anchor.last:>16}".encode()
    return body + f" crc={zlib.crc32(body):08x}\n".encode()


def decode(data: bytes) -> Anchor | None:
    """The anchor a record holds, or None if it is not a whole, intact record."""
    match = _RECORD.fullmatch(data)
    if not match:
        return None
    body = data[: data.rindex(b" crc=")]
    if zlib.crc32(body) != int(match.group(4), 16):
        return None
    return Anchor(int(match.group(1), 16), int(match.group(2), 16), match.group(3).decode().strip())


class AnchorRead(msgspec.Struct, frozen=True):
    """What was found where an anchor should be."""

    anchor: Anchor | None
    problem: str | None = None
    """Why there is no usable anchor: missing, damaged; None when `anchor` is set."""


def read(path: Path) -> AnchorRead:
    """Read the anchor of the journal at `path` without following a symbolic link."""
    where = anchor_path(path)
    try:
        fd = os.open(where, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return AnchorRead(None, f"{where.name} is missing")
    except OSError as error:
        return AnchorRead(None, f"{where.name} cannot be read ({error.strerror})")
    try:
        for attempt in range(_RETRIES):
            data = os.pread(fd, 256, 0)
            anchor = decode(data)
            if anchor is not None:
                return AnchorRead(anchor)
            time.sleep(0.001 * attempt)
        return AnchorRead(None, f"{where.name} is damaged")
    finally:
        os.close(fd)


def write_in_place(fd: int, anchor: Anchor) -> None:
    """Commit: rewrite the record of an open anchor file and make it durable."""
    record = encode(anchor)
    if os.pwrite(fd, record, 0) != len(record):
        raise OSError(f"short write of the end anchor ({len(record)} bytes)")
    os.fsync(fd)


def write_new(path: Path, anchor: Anchor) -> None:
    """Create or replace the anchor of `path` whole (temp file, fsync, rename)."""
    where = anchor_path(path)
    temp = where.with_name(f".{where.name}.{os.urandom(4).hex()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a temp file nobody holds is a killed writer's
        os.write(fd, encode(anchor))
        os.fsync(fd)
        os.replace(temp, where)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    finally:
        os.close(fd)


def open_for_commit(path: Path) -> int:
    """The anchor file opened for `write_in_place` (never through a link)."""
    return os.open(anchor_path(path), os.O_RDWR | os.O_NOFOLLOW)
