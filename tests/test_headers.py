"""`tabletape list` reads line 0 of each match from the store's header index: kept up to
date with the logs, rebuilt when missing or damaged, and never trusted over a log that
changed."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from events.headers import INDEX
from events.store import FileStore
from projections.corpus.batch import simulate
from projections.workspace import Workspace
from tests.cli_support import run
from tests.mortalgate import golden

LONG_AGO = time.time() - 3600


def _store(tmp_path: Path) -> Workspace:
    """Two imported logs and a batch of three simulated games, all written an hour ago
    (files just written are never trusted to the index: see events/headers.py)."""
    ws = Workspace(tmp_path / "store")
    for name in ("mortalgate-2.5", "mortalgate-2.1"):
        ws.import_log(golden.log_path(name).read_bytes(), where=name)
    simulate(ws, "mortalgate@2.5", games=3, seed=1, workers=1, sync=False)
    for folder, _, files in os.walk(ws.home):
        for name in files:
            os.utime(Path(folder) / name, (LONG_AGO, LONG_AGO))
    return ws


def _listed(home: Path) -> list[str]:
    code, out, err = run(home, "list")
    assert (code, err) == (0, "")
    return out.splitlines()


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The match ids whose log the store reads line 0 from, from now on."""
    read: list[str] = []
    real = FileStore.first_line

    def counted(self: FileStore, match_id: str) -> bytes:
        read.append(match_id)
        return real(self, match_id)

    monkeypatch.setattr(FileStore, "first_line", counted)
    return read


def test_a_second_listing_reads_no_log_that_has_not_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = _store(tmp_path)
    reads = _reads(monkeypatch)
    first = _listed(ws.home)
    assert len(first) == 5 and sorted(reads) == ws.matches()
    assert (ws.home / INDEX).is_file()
    reads.clear()
    assert _listed(ws.home) == first
    assert reads == []


def test_a_log_replaced_since_the_last_listing_is_listed_as_it_is_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = _store(tmp_path)
    before = _listed(ws.home)
    path = ws.store.log_path("golden-2.5")
    data = path.read_bytes()
    first, rest = data.split(b"\n", 1)
    retitled = first.replace(b'"title":"heuristic bots, seed 3"', b'"title":"played at the club"')
    assert retitled != first
    path.write_bytes(retitled + b"\n" + rest)  # an edit by hand: the chain no longer holds, line 0 says otherwise
    os.utime(path, (LONG_AGO, LONG_AGO))
    reads = _reads(monkeypatch)
    after = _listed(ws.home)
    assert reads == ["golden-2.5"]
    changed = [line for line in after if line not in before]
    assert len(changed) == 1 and changed[0].startswith("golden-2.5") and changed[0].endswith("played at the club")


def test_a_log_growing_now_is_read_again_until_it_settles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = _store(tmp_path)
    live = ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, title="a live table").match_id
    _listed(ws.home)
    reads = _reads(monkeypatch)
    assert any(line.startswith(live) and line.endswith("a live table") for line in _listed(ws.home))
    assert reads == [live]


@pytest.mark.parametrize("damage", [b"", b"\x00garbage\xff", b"\x81\xa3abc\x92\xc4\x01x"])
def test_a_damaged_index_is_rebuilt_and_the_listing_is_the_same(tmp_path: Path, damage: bytes) -> None:
    ws = _store(tmp_path)
    expected = _listed(ws.home)
    (ws.home / INDEX).write_bytes(damage)
    assert _listed(ws.home) == expected
    assert (ws.home / INDEX).read_bytes() != damage


def test_a_deleted_index_comes_back_and_a_removed_match_leaves_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = _store(tmp_path)
    expected = _listed(ws.home)
    (ws.home / INDEX).unlink()
    assert _listed(ws.home) == expected
    ws.store.log_path("golden-2.1").unlink()
    assert _listed(ws.home) == [line for line in expected if not line.startswith("golden-2.1")]
    reads = _reads(monkeypatch)
    _listed(ws.home)
    assert reads == []


def test_an_unreadable_log_is_named_in_one_line_and_the_others_are_listed(tmp_path: Path) -> None:
    ws = _store(tmp_path)
    _listed(ws.home)
    path = ws.store.log_path("golden-2.1")
    path.write_bytes(b'{"seq": 0, "type": "Tapped"}\n')
    code, out, err = run(ws.home, "list")
    assert code == 1 and len(out.splitlines()) == 4
    assert err.startswith("error: golden-2.1: ") and "MatchStarted" in err and len(err.splitlines()) == 1
