"""The hash chain: each line carries a short hash of the line before it.

Hashing the exact bytes written (not a re-encoding) means any edit, reorder or deletion
is caught without decoding anything, and verification runs at disk speed.
"""

from __future__ import annotations

from hashlib import blake2b

GENESIS = ""
"""`prev` of line 0: there is no line before it."""


def line_hash(line: bytes) -> str:
    """Short hash (16 hex digits) of one log line's bytes, without its newline."""
    return blake2b(line, digest_size=8).hexdigest()
