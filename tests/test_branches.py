"""What-if branches: a match that leaves another at one event replays to the parent's state
there, plays its own line on, audits on its own and is left out of win rates unless asked;
and notes gathered by rule across versions, beside the audit's findings of that rule."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from events.base import Event
from projections.corpus.demo import save_events
from projections.corpus.simulate import play
from projections.workspace import Workspace
from tests.cli_support import run
from tests.plugin_support import pig, site

__all__ = ["pig", "site"]  # fixtures

GAMES = ("mortalgate", "mercenarium", "frontier", "frontline", "mercyfrontier")


def _played(ws: Workspace, spec: str, *, seed: int = 3, events: int = 60) -> str:
    """A seeded bot game of `spec`, stored: the parent of the branches below."""
    rules = ws.rules(spec)
    log = play(rules, rules.ruleset.example_seats, seed=seed, match_id=f"m-{rules.ruleset.name}", max_events=events)
    return save_events(ws, log)


def _other_line(ws: Workspace, match_id: str) -> tuple[int, Event]:
    """A decision of the match (from its middle back) where the rules offer a play other than
    the one the table made, and that play."""
    events = list(ws.events(match_id))
    rules = ws.rules_of(match_id)
    for at in range(len(events) // 2, 0, -1):
        state = ws.state_at(match_id, at).state
        if rules.ruleset.chance(rules.params, state) is not None:
            continue
        made = msgspec.structs.replace(events[at + 1], seq=-1, prev="", at=None)
        for option in rules.ruleset.legal(rules.params, state):
            other = msgspec.structs.replace(option, seq=-1, prev="", at=None)
            if other != made:
                return at, other
    raise AssertionError(f"{match_id} offers no other play anywhere")


@pytest.mark.parametrize("game", GAMES)
def test_a_branch_replays_to_its_parents_state_and_audits_its_own_line(game: str, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    parent = _played(ws, game)
    stored = ws.export(parent)
    at, other = _other_line(ws, parent)

    started = ws.branch(parent, at, new_id=f"b-{game}")
    assert (started.branch_of, started.branch_at, started.is_branch) == (parent, at, True)
    assert ws.state_at("b-" + game, at).state == ws.state_at(parent, at).state
    ws.append_events("b-" + game, [other])

    report = ws.audit("b-" + game)
    assert report.events == at + 2 and not report.errors, report.violations
    assert ws.export(parent) == stored  # the parent is left byte for byte as it was
    assert ws.verify("b-" + game).ok
    assert ws.family(parent).children == (("b-" + game, at),)
    assert ws.family("b-" + game).parent == parent
    parted = ws.parting(parent, "b-" + game)
    assert parted.shared == at and parted.next_a and parted.next_b and parted.next_a != parted.next_b


def test_a_branch_of_a_level_four_plugin_game_replays_and_audits(pig: Path, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    parent = _played(ws, "pig", events=30)
    at, other = _other_line(ws, parent)
    ws.branch(parent, at, new_id="b1")
    assert ws.state_at("b1", at).state == ws.state_at(parent, at).state
    ws.append_events("b1", [other])
    assert not ws.audit("b1").errors
    assert json.loads(ws.export("b1").splitlines()[0])["package"] == "pig 0.1.0"


def test_a_branch_that_breaks_a_rule_is_audited_on_its_own_and_its_parent_stays_clean(tmp_path: Path) -> None:
    home = tmp_path / "store"
    ws = Workspace(home)
    parent = _played(ws, "mortalgate")
    assert not ws.audit(parent).violations
    code, out, err = run(home, "branch", parent, "--at", "10", "--id", "b1")
    assert (code, out) == (0, "b1\n"), err
    # the seat not on turn plays: a rule the branch breaks and the parent does not
    wrong = msgspec.structs.replace(next(e for e in ws.events(parent) if e.seq == 11), seq=-1, prev="", at=None)
    seats = list(ws.header(parent).seats)
    wrong = msgspec.structs.replace(wrong, by=next(s for s in seats if s != wrong.by))
    ws.append_events("b1", [wrong])
    assert ws.audit("b1").violations[0].rule == "mortalgate/turn-sequence.player"
    assert not ws.audit(parent).violations

    code, out, _ = run(home, "compare", parent, "--with", "b1")
    assert code == 0 and out.startswith(f"b1 parts from {parent} after event 10: {parent} ")
    code, out, _ = run(home, "branches", parent)
    assert out == "b1  from event 10\n"
    code, out, _ = run(home, "branches", "b1")
    assert out == f"b1 branched from {parent} after event 10\n"


def test_branching_outside_the_match_says_where_in_one_line(tmp_path: Path) -> None:
    home = tmp_path / "store"
    parent = _played(Workspace(home), "mortalgate", events=20)
    code, _, err = run(home, "branch", parent, "--at", "99")
    assert code == 2 and err == f"error: --at 99 is outside match {parent} (events 0..19)\n"
    assert err.count("\n") == 1 and Workspace(home).matches() == [parent]


def test_a_logs_line_zero_names_no_parent_unless_it_is_a_branch(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    parent = _played(ws, "mortalgate", events=20)
    assert "branch_of" not in json.loads(ws.export(parent).splitlines()[0])
    ws.branch(parent, 5, new_id="b1")
    header = json.loads(ws.export("b1").splitlines()[0])
    assert (header["branch_of"], header["branch_at"], header["match_id"]) == (parent, 5, "b1")


def _noted(home: Path) -> None:
    """Two versions of MortalGate, a match each, notes about one rule on both and one about
    another rule; and a branch with a note that counts only when asked."""
    ws = Workspace(home)
    for version, seed in (("2.1", 1), ("2.5", 2)):
        rules = ws.rules(f"mortalgate@{version}")
        log = play(rules, rules.ruleset.example_seats, seed=seed, match_id=f"m{version}", max_events=30)
        save_events(ws, log)
    ws.notes.add("m2.1", from_seq=3, author="ana", text="the charge felt too strong", tags=["balance"], rule=RULE)
    ws.notes.add("m2.5", from_seq=4, author="ben", text="better now", rule=RULE)
    ws.notes.add("m2.5", from_seq=5, author="ben", text="unrelated", rule="mortalgate/turn.order")
    ws.branch("m2.5", 10, new_id="b1")
    ws.notes.add("b1", from_seq=2, author="cy", text="on a branch", rule=RULE)


RULE = "mortalgate/combat.line-of-sight"


def test_notes_about_a_rule_are_gathered_across_matches_by_version(tmp_path: Path) -> None:
    home = tmp_path / "store"
    _noted(home)
    about = Workspace(home).notes_on_rule(RULE)
    assert [(v.version, v.matches, [n.note.text for n in v.notes]) for v in about.versions] == [
        ("2.1", 1, ["the charge felt too strong"]), ("2.5", 1, ["better now"])]
    assert all(v.findings == 0 for v in about.versions)  # seeded bots break no rule
    with_branches = Workspace(home).notes_on_rule(RULE, branches=True)
    assert sorted(n.note.text for n in with_branches.versions[1].notes) == ["better now", "on a branch"]

    code, out, _ = run(home, "notes", "list", "--rule", RULE, "--version", "2.5")
    assert code == 0
    assert out.splitlines() == [f"mortalgate@2.5: 1 matches, 0 findings of {RULE} (0.00 per game), 1 notes",
                                "  m2.5 seq 4  ben: better now"]
    code, _, err = run(home, "notes", "list", "--rule", "line-of-sight")
    assert code == 2 and "a rule id reads GAME/SECTION" in err and err.count("\n") == 1


def test_the_audits_findings_of_a_rule_stand_beside_its_notes(tmp_path: Path) -> None:
    home = tmp_path / "store"
    ws = Workspace(home)
    parent = _played(ws, "mortalgate", events=20)
    wrong = msgspec.structs.replace(next(e for e in ws.events(parent) if e.seq == 11), seq=-1, prev="", at=None)
    seats = list(ws.header(parent).seats)
    ws.branch(parent, 10, new_id="b1")
    ws.append_events("b1", [msgspec.structs.replace(wrong, by=next(s for s in seats if s != wrong.by))])
    rule = ws.audit("b1").violations[0].rule
    ws.notes.add("b1", from_seq=11, author="ana", text="who moves now?", rule=rule)
    assert Workspace(home).notes_on_rule(rule).versions[0].findings == 0  # the branch is left out
    about = Workspace(home).notes_on_rule(rule, branches=True)
    assert about.versions[0].findings >= 1 and about.versions[0].matches == 2


def _token(home: Path, *args: str) -> dict[str, str]:
    code, out, err = run(home, "token", "issue", *args)
    assert code == 0, err
    return {"Authorization": f"Bearer {out.strip()}"}


def test_a_branch_is_started_listed_and_parted_over_http(tmp_path: Path) -> None:
    from litestar.testing import TestClient

    from dashboard.service.server import create_app

    home = tmp_path / "store"
    parent = _played(Workspace(home), "mortalgate", events=30)
    writer, reader = _token(home, "--scope", "write"), _token(home, "--scope", "read")
    with TestClient(create_app(home)) as client:
        answer = client.post(f"/matches/{parent}/branches", json={"at": 12, "match_id": "b1"}, headers=writer)
        assert answer.status_code == 201, answer.text
        assert (answer.json()["branch_of"], answer.json()["branch_at"]) == (parent, 12)
        assert client.post(f"/matches/{parent}/branches", json={"at": 12}, headers=reader).status_code == 403
        refused = client.post(f"/matches/{parent}/branches", json={"at": 999}, headers=writer)
        assert refused.status_code == 422 and "outside match" in refused.text and "\n" not in refused.text.strip()

        state = client.get("/matches/b1/state", params={"at": 12}, headers=writer).json()
        before = client.get(f"/matches/{parent}/state", params={"at": 12}, headers=writer).json()
        assert state["match_id"] == "b1" and state["state"] == before["state"]
        assert client.get(f"/matches/{parent}/branches", headers=reader).json()["children"] == [["b1", 12]]
        parted = client.get(f"/matches/{parent}/parting", params={"other": "b1"}, headers=reader).json()
        assert parted["shared"] == 12 and parted["next_b"] is None
        assert client.get("/matches/b1/audit", headers=reader).json()["events"] == 13


def test_notes_about_a_rule_are_served_by_version(tmp_path: Path) -> None:
    from litestar.testing import TestClient

    from dashboard.service.server import create_app

    home = tmp_path / "store"
    _noted(home)
    reader = _token(home, "--scope", "read")
    with TestClient(create_app(home)) as client:
        about = client.get("/notes", params={"rule": RULE}, headers=reader).json()
        assert [(v["version"], len(v["notes"])) for v in about["versions"]] == [("2.1", 1), ("2.5", 1)]
        only = client.get("/notes", params={"rule": RULE, "version": "2.1"}, headers=reader).json()
        assert [v["version"] for v in only["versions"]] == ["2.1"]
        refused = client.get("/notes", params={"rule": "nonsense"}, headers=reader)
        assert refused.status_code == 422 and "GAME/SECTION" in refused.text


def test_win_rates_and_balance_rows_leave_branches_out_unless_asked(tmp_path: Path) -> None:
    home = tmp_path / "store"
    ws = Workspace(home)
    rules = ws.rules("mortalgate")
    parent = save_events(ws, play(rules, rules.ruleset.example_seats, seed=5, match_id="m1"))
    ws.branch(parent, len(list(ws.events(parent))) - 1, new_id="b1")  # the whole game: finished, same winner
    assert run(home, "sync")[0] == 0

    def matches(query: str, *params: str) -> list[dict]:
        code, out, err = run(home, "query", query, "--format", "json", *params)
        assert code == 0, err
        return json.loads(out)

    assert [row["match_id"] for row in matches("match_outcomes")] == ["m1"]
    both = matches("match_outcomes", "--param", "branches=true")
    assert sorted((row["match_id"], row["branch_of"]) for row in both) == [("b1", "m1"), ("m1", None)]
    assert {row["matches"] for row in matches("side_win_rates")} == {1}
    assert {row["matches"] for row in matches("side_win_rates", "--param", "branches=true")} == {2}
    assert [row["matches"] for row in matches("draw_rate")] == [1]
    assert [row["matches"] for row in matches("draw_rate", "--param", "branches=true")] == [2]
    assert {row["picks"] for row in matches("pick_win_rates")} == {1}
    assert {row["picks"] for row in matches("pick_win_rates", "--param", "branches=true")} == {2}


def test_a_plugin_games_branch_is_started_and_parted_through_the_service_process(pig: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from dashboard.service.client import Client
    from tests.service_support import free_port, stop, wait_up

    home, port = tmp_path / "store", free_port()
    ws = Workspace(home)
    parent = _played(ws, "pig", events=30)
    at, other = _other_line(ws, parent)
    ws.notes.add(parent, from_seq=at, author="ana", text="holding this early loses", rule="pig/turn.order")
    token = run(home, "token", "issue", "--scope", "write")[1].strip()
    log = tmp_path / "server.log"
    with open(log, "wb") as output:
        server = subprocess.Popen([sys.executable, "-m", "dashboard.cli.commands", "--home", str(home), "serve", "--port", str(port)],
                                  stdout=output, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(pig)})
    try:
        url = f"http://127.0.0.1:{port}"
        wait_up(url, server, log)
        client = Client(url, token)
        started = client.branch(parent, at, new_id="b1")
        assert (started.branch_of, started.branch_at) == (parent, at)
        assert client.state("b1", at=at).state == client.state(parent, at=at).state
        appended = client.append("b1", [other], expected_seq=at)
        assert not appended.findings and not client.audit("b1").violations
        assert client.family(parent).children == (("b1", at),)
        parted = client.parting(parent, "b1")
        assert parted.shared == at and parted.next_a != parted.next_b
        about = client.notes_on_rule("pig/turn.order")
        assert [(v.version, [n.note.text for n in v.notes]) for v in about.versions] == [("1", ["holding this early loses"])]
    finally:
        stop(server)
