"""The store-side result cache: an answer for its exact key, or a miss, never a wrong answer."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from projections.resultcache import ResultCache


def _entry_files(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*") if path.is_file())


def test_a_value_put_is_got_back_by_its_kind_and_key_only(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    cache.put("fold", ("head", "rules"), b"state")
    assert cache.get("fold", ("head", "rules")) == b"state"
    assert cache.get("fold", ("head", "other rules")) is None
    assert cache.get("audit", ("head", "rules")) is None
    assert cache.get("fold", ("hea", "drules")) is None


def test_a_second_process_reads_what_the_first_stored(tmp_path: Path) -> None:
    ResultCache(tmp_path / "cache").put("chances", ("a",), b"\x00" * 1000)
    assert ResultCache(tmp_path / "cache").get("chances", ("a",)) == b"\x00" * 1000


def test_a_put_replaces_the_value_of_its_key(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    cache.put("fold", ("k",), b"old")
    cache.put("fold", ("k",), b"new")
    assert cache.get("fold", ("k",)) == b"new"


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],
        lambda data: data[:-1] + bytes([data[-1] ^ 1]),
        lambda data: b"",
        lambda data: b"not a cache entry at all",
        lambda data: data + b"x",
    ],
    ids=["truncated", "one bit flipped", "empty", "garbage", "trailing byte"],
)
def test_a_corrupt_entry_is_a_miss_and_is_removed(tmp_path: Path, damage) -> None:
    cache = ResultCache(tmp_path / "cache")
    cache.put("fold", ("k",), b"a value long enough to damage in the middle")
    (entry,) = _entry_files(tmp_path / "cache")
    entry.write_bytes(damage(entry.read_bytes()))
    assert cache.get("fold", ("k",)) is None
    assert not entry.exists()
    cache.put("fold", ("k",), b"again")
    assert cache.get("fold", ("k",)) == b"again"


def test_an_entry_moved_under_another_key_is_a_miss(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    cache.put("fold", ("one",), b"1")
    cache.put("fold", ("two",), b"2")
    one, two = _entry_files(tmp_path / "cache")
    shutil.copyfile(one, two)
    answers = {cache.get("fold", ("one",)), cache.get("fold", ("two",))}
    assert None in answers


def test_deleting_the_cache_folder_at_any_time_is_only_misses(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    cache.put("fold", ("k",), b"v")
    shutil.rmtree(tmp_path / "cache")
    assert cache.get("fold", ("k",)) is None
    cache.put("fold", ("k",), b"v2")
    assert cache.get("fold", ("k",)) == b"v2"


def test_a_cache_that_cannot_be_written_only_misses(tmp_path: Path) -> None:
    (tmp_path / "cache").write_text("a file where the folder should be")
    cache = ResultCache(tmp_path / "cache")
    cache.put("fold", ("k",), b"v")
    assert cache.get("fold", ("k",)) is None


def test_the_cache_stays_under_its_bound_by_dropping_the_least_recently_used(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache", limit_bytes=10_000)
    value = b"v" * 1000
    for index in range(8):
        before = set(_entry_files(tmp_path / "cache"))
        cache.put("fold", (str(index),), value)
        (added,) = set(_entry_files(tmp_path / "cache")) - before
        # Entries are told apart by when they were last used: set it rather than wait for the clock.
        os.utime(added, ns=((index + 1) * 10**9, (index + 1) * 10**9))
    assert cache.get("fold", ("0",)) == value  # used now: the newest
    for index in range(8, 12):
        cache.put("fold", (str(index),), value)
    held = sum(path.stat().st_size for path in _entry_files(tmp_path / "cache"))
    assert held <= 10_000
    assert cache.get("fold", ("0",)) == value
    assert cache.get("fold", ("11",)) == value
    assert cache.get("fold", ("1",)) is None


def test_a_key_must_be_strings_and_a_kind_a_plain_name(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    with pytest.raises(TypeError):
        cache.get("fold", ("a", 1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cache kind"):
        cache.put("../up", ("a",), b"v")


def test_an_entry_that_is_a_symbolic_link_is_never_read(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    cache.put("fold", ("k",), b"v")
    (entry,) = _entry_files(tmp_path / "cache")
    outside = tmp_path / "outside"
    outside.write_bytes(entry.read_bytes())
    entry.unlink()
    entry.symlink_to(outside)
    assert cache.get("fold", ("k",)) is None
