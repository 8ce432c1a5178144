"""A short hash of a game's rules code and data, recorded in every log it writes.

Replaying a log under rules that changed since it was recorded is then detected and
said, rather than silently shown as a game that did not happen.
"""

from __future__ import annotations

from hashlib import blake2b
from pathlib import Path


def fingerprint(package_dir: Path) -> str:
    """Hash of every .py and data file of a game package, in a stable order (of the one
    file, for a game that is a module on its own)."""
    digest = blake2b(digest_size=8)
    if package_dir.is_file():
        digest.update(package_dir.read_bytes())
        return digest.hexdigest()
    for path in sorted(package_dir.rglob("*")):
        if path.suffix in {".py", ".toml", ".json", ".txt"} and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package_dir).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
