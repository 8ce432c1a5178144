"""Results worth keeping between processes, stored by what they were computed from.

A `ResultCache` maps a kind (`fold`, `audit`, `chances`...) and a key of strings to bytes.
The key names everything the value depends on (a log's chain head, a rules fingerprint),
so an entry can never be stale: a changed input is a different key, and the old entry
is simply never asked for again until it is evicted.

    <root>/<kind>/<aa>/<digest>     one entry: a header, the key it answers, the value

Nothing here is a source of truth. The folder may be deleted at any moment (a reader
then misses, a writer makes it again), an entry that is truncated, garbled or answers
another key is a miss (and is removed), and the whole folder is kept under
`limit_bytes` by removing the entries used least recently. Writes go to a temporary
file renamed into place, so a reader sees a whole entry or none. Files are never opened
through a symbolic link.
"""

from __future__ import annotations

import hashlib
import os
import re
import struct
from contextlib import suppress
from pathlib import Path

DEFAULT_LIMIT_BYTES = 256 << 20
"""The cache's bound unless told: fold results of a large store fit, a laptop disk does not notice."""

_MAGIC = b"TTRC\x01"
_HEADER = struct.Struct("<5s16sQI")
"""magic, blake2b-128 digest of key and value, value length, key length."""
_KIND = re.compile(r"[a-z][a-z0-9_-]{0,39}")
_EVICT_TO = 0.8
"""An eviction removes entries until the cache holds this share of its bound, so the
folder is scanned once per many puts rather than at every one."""


class ResultCache:
    """A bounded, content-addressed cache of bytes under one folder; see the module."""

    def __init__(self, root: Path, limit_bytes: int = DEFAULT_LIMIT_BYTES) -> None:
        self.root = Path(root)
        self._root = os.fspath(self.root)
        # The folder as a string: an entry's path is joined on every lookup, where three Path
        # joins cost more than hashing the key.
        self.limit_bytes = limit_bytes
        self._size: int | None = None
        # This process's running estimate of the bytes held; made exact by each eviction scan.

    def __repr__(self) -> str:
        return f"ResultCache({str(self.root)!r}, limit_bytes={self.limit_bytes})"

    def get(self, kind: str, key: tuple[str, ...]) -> bytes | None:
        """The value stored for `key`, or None when there is none or it cannot be trusted."""
        path, key_bytes = self._where(kind, key)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        try:
            data = _read_all(fd)
            os.utime(fd)  # the entry was used now: least recently used goes first
        except OSError:
            return None
        finally:
            os.close(fd)
        value = _unpack(data, key_bytes)
        if value is None:
            with suppress(OSError):
                os.unlink(path)
        return value

    def put(self, kind: str, key: tuple[str, ...], value: bytes) -> None:
        """Store `value` for `key`, replacing any entry; a failure to write is not an error
        (the cache only saves work), but a key that is not strings is."""
        path, key_bytes = self._where(kind, key)
        data = _pack(key_bytes, value)
        try:
            _write_atomically(path, data)
        except OSError:
            return
        if self._size is None:
            self._size = self._scan_size()
        else:
            self._size += len(data)
        if self._size > self.limit_bytes:
            self._evict()

    def clear(self) -> None:
        """Remove every entry (the folder stays)."""
        for path, _, _ in self._entries():
            with suppress(OSError):
                os.unlink(path)
        self._size = 0

    def _where(self, kind: str, key: tuple[str, ...]) -> tuple[str, bytes]:
        if not _KIND.fullmatch(kind):
            raise ValueError(f"cache kind {kind!r}: use 1-40 lowercase letters, digits, '_' or '-'")
        if not isinstance(key, tuple) or not all(isinstance(part, str) for part in key):
            raise TypeError(f"cache key must be a tuple of str, not {key!r}")
        key_bytes = b"".join(_length_prefixed(part.encode("utf-8", "surrogatepass")) for part in key)
        digest = hashlib.blake2b(kind.encode() + b"\x01" + key_bytes, digest_size=20).hexdigest()
        return f"{self._root}/{kind}/{digest[:2]}/{digest}", key_bytes

    def _entries(self) -> list[tuple[str, int, int]]:
        """Every entry as (path, bytes, last used in ns); a folder that vanished is empty."""
        found: list[tuple[str, int, int]] = []
        stack = [str(self.root)]
        while stack:
            try:
                with os.scandir(stack.pop()) as entries:
                    for entry in entries:
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(entry.path)
                        elif entry.is_file(follow_symlinks=False):
                            with suppress(OSError):
                                info = entry.stat(follow_symlinks=False)
                                found.append((entry.path, info.st_size, info.st_mtime_ns))
            except OSError:
                continue
        return found

    def _scan_size(self) -> int:
        return sum(size for _, size, _ in self._entries())

    def _evict(self) -> None:
        """Remove the least recently used entries until the cache is well under its bound."""
        entries = sorted(self._entries(), key=lambda entry: entry[2])
        total = sum(size for _, size, _ in entries)
        target = int(self.limit_bytes * _EVICT_TO)
        for path, size, _ in entries:
            if total <= target:
                break
            with suppress(OSError):
                os.unlink(path)
            total -= size
        self._size = total


def _length_prefixed(part: bytes) -> bytes:
    """A key part that cannot run into the next: ("ab", "c") and ("a", "bc") differ."""
    return len(part).to_bytes(4, "little") + part


def _pack(key_bytes: bytes, value: bytes) -> bytes:
    digest = hashlib.blake2b(key_bytes + value, digest_size=16).digest()
    return _HEADER.pack(_MAGIC, digest, len(value), len(key_bytes)) + key_bytes + value


def _unpack(data: bytes, key_bytes: bytes) -> bytes | None:
    """The value of a whole entry that answers `key_bytes`, else None."""
    if len(data) < _HEADER.size:
        return None
    magic, digest, value_len, key_len = _HEADER.unpack_from(data)
    start = _HEADER.size + key_len
    if magic != _MAGIC or len(data) != start + value_len:
        return None
    if data[_HEADER.size : start] != key_bytes:
        return None
    body = memoryview(data)[_HEADER.size :]
    if hashlib.blake2b(body, digest_size=16).digest() != digest:
        return None
    return data[start:]


def _read_all(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    parts = []
    while size > 0:
        part = os.read(fd, size)
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _write_atomically(path: str, data: bytes) -> None:
    """Write `data` as `path` whole (temp file, rename), making the folders if the cache
    was deleted; no fsync: a torn entry after a power cut fails its digest and is a miss."""
    folder, name = os.path.split(path)
    temp = os.path.join(folder, f".{name}.{os.urandom(4).hex()}.tmp")
    for attempt in range(2):
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            break
        except FileNotFoundError:
            if attempt:
                raise
            os.makedirs(folder, exist_ok=True)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except BaseException:
        os.close(fd)
        with suppress(OSError):
            os.unlink(temp)
        raise
    os.close(fd)
    try:
        os.replace(temp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise
