"""Folds kept under the store: the same answers as folding again, with less folding.

Every answer here is compared with a fold of the log from line 0 (`projections.read.audit.audit`
over the events), which never reads the cache.
"""

from __future__ import annotations

import dataclasses
import gc
import shutil
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from dashboard.service.server import create_app
from projections.corpus.simulate import play
from projections.read.audit import AuditReport, audit
from projections.read.words import words
from projections.workspace import Workspace
from rulesets import registry
from rulesets.protocol import Violation
from tests.cli_support import run

GOLDEN = Path(__file__).parent / "mortalgate" / "golden"
MISTAKES = GOLDEN / "mortalgate-mistakes.jsonl"
CLEAN = GOLDEN / "mortalgate-2.5.jsonl"


def _from_scratch(ws: Workspace, match_id: str) -> AuditReport:
    return audit(ws.events(match_id), ws.rules_of(match_id))


def _stored(home: Path, log: Path, lines: int | None = None) -> tuple[Workspace, str, list[bytes]]:
    """A store holding the first `lines` lines of `log`; the rest are returned to append."""
    ws = Workspace(home)
    data = log.read_bytes().splitlines()
    cut = lines or len(data)
    started = ws.import_log(b"\n".join(data[:cut]) + b"\n", match_id="m1")
    return ws, started.match_id, data[cut:]


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """MortalGate with its `apply` or `check` counted in this process."""
    calls = [0]
    ruleset = registry.game("mortalgate")
    rule = getattr(ruleset, name)

    def counting(params: Any, state: Any, event: Any) -> Any:
        calls[0] += 1
        return rule(params, state, event)

    monkeypatch.setitem(registry._LOADED, "mortalgate", dataclasses.replace(ruleset, **{name: counting}))
    return calls


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many events the process folds (MortalGate's `apply` counted)."""
    yield _counting(monkeypatch, "apply")


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many events the process checks (MortalGate's `check` counted)."""
    yield _counting(monkeypatch, "check")


def _bot_game(folder: Path, seed: int) -> Path:
    """A heuristic bot game of MortalGate 2.5 written as a log file."""
    rules = registry.resolve("mortalgate@2.5")
    played = play(rules, rules.ruleset.example_seats, seed=seed, bot="heuristic", match_id="m1")
    log = folder / "bot.jsonl"
    log.write_bytes(b"".join(rules.ruleset.codec.encode(event) + b"\n" for event in played))
    return log


def _entries(home: Path) -> list[Path]:
    return [path for path in (home / "cache").rglob("*") if path.is_file()]


def test_an_unchanged_log_is_audited_once_then_read_back(tmp_path: Path, counted: list[int]) -> None:
    ws, match_id, _ = _stored(tmp_path, MISTAKES)
    first = ws.audit(match_id)
    counted[0] = 0
    again = Workspace(tmp_path).audit(match_id)
    assert counted[0] == 0
    assert again == first == _from_scratch(ws, match_id)


def test_audit_all_of_an_unchanged_store_reads_every_audit_back(tmp_path: Path, counted: list[int]) -> None:
    _stored(tmp_path, MISTAKES)
    code, first, _ = run(tmp_path, "audit", "--all", "--workers", "1")
    counted[0] = 0
    code_again, again, _ = run(tmp_path, "audit", "--all", "--workers", "1")
    assert counted[0] == 0
    assert (code_again, again.splitlines()[1:]) == (code, first.splitlines()[1:])


def test_an_append_folds_only_the_events_appended(tmp_path: Path, counted: list[int]) -> None:
    ws, match_id, rest = _stored(tmp_path, MISTAKES, lines=300)
    for chunk in (rest[:100], rest[100:101], rest[101:]):
        counted[0] = 0
        code, _out, err = run(tmp_path, "append", match_id, stdin=b"\n".join(chunk).decode() + "\n")
        assert code == 0, err
        if chunk is not rest[:100]:  # the first append folds the log once; later ones only what is new
            assert counted[0] <= 20 * len(chunk)
    assert Workspace(tmp_path).audit(match_id) == _from_scratch(ws, match_id)


def test_an_append_reports_what_a_fold_from_scratch_reports(tmp_path: Path) -> None:
    ws, match_id, rest = _stored(tmp_path, MISTAKES, lines=2)
    seen: list[Violation] = []
    for start in range(0, len(rest), 37):
        chunk = rest[start : start + 37]
        before = ws.store.last(match_id)[0]
        code, out, err = run(tmp_path, "append", match_id, stdin=b"\n".join(chunk).decode() + "\n")
        assert code == 0, err
        fresh = [v for v in _from_scratch(ws, match_id).violations if v.seq > before]
        assert ws.folded(match_id).report() == _from_scratch(ws, match_id)
        seen += fresh
        for violation in fresh:
            assert f"{violation.seq}" in out and violation.rule in out
    assert seen  # the mistakes log breaks rules: the comparison saw some


def test_the_first_append_after_a_restart_folds_only_what_is_new(tmp_path: Path, counted: list[int]) -> None:
    ws, match_id, rest = _stored(tmp_path, MISTAKES, lines=400)
    code, token, err = run(tmp_path, "token", "issue", "--scope", "write", "--label", "studio")
    assert code == 0, err
    headers = {"Authorization": f"Bearer {token.strip()}"}
    drafts = [msgspec.json.decode(line) for line in rest]
    for served, events in enumerate((drafts[:3], drafts[3:5])):
        with TestClient(app=create_app(tmp_path)) as client:  # a new process's service: nothing folded yet
            counted[0] = 0
            answer = client.post(f"/matches/{match_id}/events", headers=headers,
                                 json={"expected_seq": ws.store.last(match_id)[0], "events": events})
            assert answer.status_code == 201, answer.text
            if served:
                assert counted[0] <= 20 * len(events)
    live = answer.json()["findings"]
    full = [msgspec.to_builtins(v) for v in _from_scratch(ws, match_id).violations if v.seq > 400 + 2]
    assert live == full


def test_a_changed_rules_fingerprint_is_never_answered_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws, match_id, _ = _stored(tmp_path, CLEAN)
    ws.folded(match_id)
    before = ws.audit(match_id)
    ruleset = registry.game("mortalgate")
    check = ruleset.check

    def stricter(params: Any, state: Any, event: Any) -> list[Violation]:
        extra = [Violation(seq=event.seq, rule="mortalgate/test.stricter", message="stricter")] if event.seq == 7 else []
        return [*check(params, state, event), *extra]

    changed = dataclasses.replace(ruleset, check=stricter, fingerprint="0123456789abcdef")
    monkeypatch.setitem(registry._LOADED, "mortalgate", changed)
    after = Workspace(tmp_path).audit(match_id)
    assert after != before
    assert "mortalgate/test.stricter" in {v.rule for v in after.violations}
    assert after == _from_scratch(ws, match_id)
    assert Workspace(tmp_path).folded(match_id).report() == after


def test_a_changed_variant_is_never_answered_from_the_cache(tmp_path: Path) -> None:
    (tmp_path / "variants").mkdir()
    variant = tmp_path / "variants" / "house.toml"
    variant.write_text('extends = "mortalgate@2.5"\ntitle = "house"\n')
    ws, match_id, _ = _stored(tmp_path, CLEAN)
    before = ws.audit(match_id, against="mortalgate@house")
    variant.write_text('extends = "mortalgate@2.5"\ntitle = "house"\n[params]\ngrace_to_win = 3\n')
    after = Workspace(tmp_path).audit(match_id, against="mortalgate@house")
    assert after != before
    assert after == audit(ws.events(match_id), ws.rules("mortalgate@house"))


def test_an_edited_log_is_never_answered_from_the_cache(tmp_path: Path) -> None:
    ws, match_id, _ = _stored(tmp_path, CLEAN)
    ws.folded(match_id)
    before = ws.audit(match_id)
    path = ws.store.log_path(match_id)
    data = path.read_bytes()
    line = next(line for line in data.splitlines() if b'"DraftRolled"' in line)
    edited = line.replace(b'"red":2', b'"red":9')
    assert len(edited) == len(line) and edited != line  # the anchor still holds; only the chain breaks
    path.write_bytes(data.replace(line, edited, 1))
    after = Workspace(tmp_path).audit(match_id)
    assert after != before
    assert after == _from_scratch(ws, match_id)
    assert Workspace(tmp_path).folded(match_id).report() == after


def test_deleting_the_cache_changes_no_answer(tmp_path: Path) -> None:
    ws, match_id, rest = _stored(tmp_path, MISTAKES, lines=500)
    kept = ws.audit(match_id), ws.folded(match_id).report()
    shutil.rmtree(tmp_path / "cache")
    assert (ws.audit(match_id), ws.folded(match_id).report()) == kept
    shutil.rmtree(tmp_path / "cache")
    code, _out, err = run(tmp_path, "append", match_id, stdin=b"\n".join(rest).decode() + "\n")
    assert code == 0, err
    assert ws.audit(match_id) == _from_scratch(ws, match_id)


@pytest.mark.parametrize("damage", [lambda data: data[:-3], lambda data: data[:40] + bytes([data[40] ^ 0xFF]) + data[41:]],
                         ids=["truncated", "flipped"])
def test_corrupt_cache_entries_are_misses(tmp_path: Path, damage: Any) -> None:
    ws, match_id, rest = _stored(tmp_path, MISTAKES, lines=500)
    kept = ws.audit(match_id), ws.folded(match_id).report()
    assert _entries(tmp_path)
    for entry in _entries(tmp_path):
        entry.write_bytes(damage(entry.read_bytes()))
    assert (Workspace(tmp_path).audit(match_id), Workspace(tmp_path).folded(match_id).report()) == kept
    for entry in _entries(tmp_path):
        entry.write_bytes(damage(entry.read_bytes()))
    code, _out, err = run(tmp_path, "append", match_id, stdin=b"\n".join(rest).decode() + "\n")
    assert code == 0, err
    assert ws.audit(match_id) == _from_scratch(ws, match_id)


def test_undoing_past_what_a_kept_fold_holds_gives_the_full_folds_answer(tmp_path: Path) -> None:
    ws, match_id, _ = _stored(tmp_path, CLEAN)
    ws.folded(match_id)
    node, targets = [*ws.replay(match_id)][-1].undo, []
    while node is not None and len(targets) < 80:
        targets.append(node.seq)
        node = node.below
    assert len(targets) == 80
    for batch in (targets[:1], targets[1:70], targets[70:]):
        undo = "".join(f'{{"type": "Retracted", "target_seq": {seq}, "reason": "back"}}\n' for seq in batch)
        code, _out, err = run(tmp_path, "append", match_id, stdin=undo)
        assert code == 0, err
    assert ws.folded(match_id).report() == _from_scratch(ws, match_id)
    assert ws.audit(match_id) == _from_scratch(ws, match_id)


def _scrubbed(ws: Workspace, match_id: str) -> list[tuple[bytes, tuple[Violation, ...], int | None, str]]:
    """Every event's state, findings, undo and words as the Replay page reads them."""
    timeline = ws.timeline(match_id)
    out = []
    for seq in range(len(timeline)):
        step = timeline.state_at(seq)
        out.append((msgspec.json.encode(step.state), step.violations, step.voided, timeline.said[seq]))
    return out


def _from_scratch_scrubbed(ws: Workspace, match_id: str) -> list[tuple[bytes, tuple[Violation, ...], int | None, str]]:
    rules = ws.rules_of(match_id)
    out, before = [], None
    for step in ws.replay(match_id):
        out.append((msgspec.json.encode(step.state), step.violations, step.voided, words(rules, before, step.event)))
        before = step.state
    return out


@pytest.mark.parametrize("log", [MISTAKES, GOLDEN.parent.parent / "frontier" / "golden" / "frontier-mistakes.jsonl"],
                         ids=["mortalgate", "frontier"])
def test_a_timeline_opened_again_scrubs_as_a_fold_from_scratch(tmp_path: Path, log: Path) -> None:
    ws, match_id, _ = _stored(tmp_path, log)
    expected = _from_scratch_scrubbed(ws, match_id)
    assert _scrubbed(ws, match_id) == expected
    assert _scrubbed(Workspace(tmp_path), match_id) == expected


def test_a_timeline_with_undos_scrubs_as_a_fold_from_scratch(tmp_path: Path) -> None:
    ws, match_id, _ = _stored(tmp_path, CLEAN)
    node, targets = [*ws.replay(match_id)][-1].undo, []
    while node is not None and len(targets) < 70:
        targets.append(node.seq)
        node = node.below
    undo = "".join(f'{{"type": "Retracted", "target_seq": {seq}, "reason": "back"}}\n' for seq in targets)
    code, _, err = run(tmp_path, "append", match_id, stdin=undo)
    assert code == 0, err
    expected = _from_scratch_scrubbed(ws, match_id)
    assert _scrubbed(ws, match_id) == expected
    assert _scrubbed(Workspace(tmp_path), match_id) == expected


def test_an_edited_log_opens_as_it_now_reads(tmp_path: Path) -> None:
    ws, match_id, _ = _stored(tmp_path, CLEAN)
    before = _scrubbed(ws, match_id)
    path = ws.store.log_path(match_id)
    data = path.read_bytes()
    line = next(line for line in data.splitlines() if b'"DraftRolled"' in line)
    path.write_bytes(data.replace(line, line.replace(b'"red":2', b'"red":9'), 1))
    after = _scrubbed(Workspace(tmp_path), match_id)
    assert after != before
    assert after == _from_scratch_scrubbed(ws, match_id)


def test_a_timeline_holds_at_most_150_bytes_an_event(tmp_path: Path) -> None:
    ws, match_id, _ = _stored(tmp_path, GOLDEN / "mortalgate-1.5.jsonl")
    ws.timeline(match_id).state_at(5)  # what the first Timeline loads once (imports, tables) is not its own
    shutil.rmtree(tmp_path / "cache")
    gc.collect()
    tracemalloc.start()
    try:
        timeline = ws.timeline(match_id)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held / len(timeline) <= 150, f"{held / len(timeline):.0f} bytes an event"


def _warehouse_tables(home: Path) -> dict[str, list[tuple[Any, ...]]]:
    import duckdb

    with duckdb.connect(str(home / "warehouse.read.duckdb"), read_only=True) as db:
        return {table: db.execute(f"select * exclude (match_id) from {table} order by all").fetchall()
                for table in ("events", "steps", "violations", "places")}


@pytest.mark.parametrize("log", ["bot game", MISTAKES], ids=["clean", "mistakes"])
def test_a_sync_checks_only_logs_whose_audit_it_does_not_know(tmp_path: Path, log: Any, checked: list[int]) -> None:
    if log == "bot game":
        log = _bot_game(tmp_path, seed=5)
    for home in (tmp_path / "fresh", tmp_path / "audited"):
        _stored(home, log)
    code, _, err = run(tmp_path / "audited", "audit", "m1")
    for home in (tmp_path / "fresh", tmp_path / "audited"):
        checked[0] = 0
        code, _, err = run(home, "sync", "--workers", "1")
        assert code == 0, err
        if home.name == "fresh" or log == MISTAKES:
            assert checked[0] > 0
        else:
            assert checked[0] == 0
    assert _warehouse_tables(tmp_path / "audited") == _warehouse_tables(tmp_path / "fresh")


def test_live_appends_copy_their_fold_to_the_cache_seldom_yet_a_restart_folds_only_what_is_new(
        tmp_path: Path, counted: list[int]) -> None:
    ws, match_id, rest = _stored(tmp_path, MISTAKES, lines=400)
    code, token, err = run(tmp_path, "token", "issue", "--scope", "write", "--label", "studio")
    assert code == 0, err
    headers = {"Authorization": f"Bearer {token.strip()}"}
    drafts = [msgspec.json.decode(line) for line in rest[:31]]
    folds = tmp_path / "cache" / "fold"
    with TestClient(app=create_app(tmp_path)) as client:
        for draft in drafts[:30]:
            answer = client.post(f"/matches/{match_id}/events", headers=headers,
                                 json={"expected_seq": ws.store.last(match_id)[0], "events": [draft]})
            assert answer.status_code == 201, answer.text
            if draft is drafts[0]:
                kept = {path for path in folds.rglob("*") if path.is_file()}
        assert {path for path in folds.rglob("*") if path.is_file()} == kept  # thirty appends, no copy of the fold
    with TestClient(app=create_app(tmp_path)) as client:  # the first service kept its fold as it stopped
        counted[0] = 0
        answer = client.post(f"/matches/{match_id}/events", headers=headers,
                             json={"expected_seq": ws.store.last(match_id)[0], "events": drafts[30:]})
        assert answer.status_code == 201, answer.text
        assert counted[0] <= 20
    assert Workspace(tmp_path).audit(match_id) == _from_scratch(ws, match_id)


def test_a_match_recorded_through_the_service_is_synced_without_checking_it_again(
        tmp_path: Path, checked: list[int]) -> None:
    live, fresh = tmp_path / "live", tmp_path / "fresh"
    ws, match_id, rest = _stored(live, _bot_game(tmp_path, seed=3), lines=40)
    code, token, err = run(live, "token", "issue", "--scope", "write", "--label", "table")
    assert code == 0, err
    headers = {"Authorization": f"Bearer {token.strip()}"}
    drafts = [msgspec.json.decode(line) for line in rest]
    with TestClient(app=create_app(live)) as client:  # the service puts the match down as it stops
        for start in range(0, len(drafts), 25):
            answer = client.post(f"/matches/{match_id}/events", headers=headers,
                                 json={"expected_seq": ws.store.last(match_id)[0], "events": drafts[start:start + 25]})
            assert answer.status_code == 201, answer.text
    shutil.copytree(live, fresh, ignore=shutil.ignore_patterns("cache"))
    for home, checks_some in ((live, False), (fresh, True)):
        checked[0] = 0
        code, _, err = run(home, "sync", "--workers", "1")
        assert code == 0, err
        assert (checked[0] > 0) is checks_some, home.name
    assert _warehouse_tables(live) == _warehouse_tables(fresh)

