"""Go Fish (examples/gofish), a designer's card game with hidden hands written only against
tabletape's public surface, installed as its own package: recorded, audited, replayed from
one seat, synced, queried, simulated, compared with a variant and served, and a seat never
sees the other hand."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from dashboard.service.client import Client
from events.shared import MatchEnded
from projections.authoring import contract
from projections.corpus.simulate import play
from projections.read.audit import audit
from projections.read.replay import replay
from projections.workspace import Workspace
from rulesets import registry
from tests.cli_support import lines, run
from tests.plugin_support import EXAMPLES, examples_installed
from tests.service_support import cli_server, start, stop

ANA = ("A", "2", "3", "4", "5", "6", "7")
BEN = ("A", "2", "9", "10", "J", "Q", "K")
DEAL = [{"type": "Dealt", "seat": seat, "rank": rank} for pair in zip(ANA, BEN, strict=True)
        for seat, rank in zip(("a", "b"), pair, strict=True)]
"""Seven cards each, one at a time from the first seat (rules.txt 1.2), each written by its
rank; ana's 3 to 7 are ranks ben does not hold, so a view that shows one leaks her hand."""
SECRET = ("3", "4", "5", "6", "7")


@pytest.fixture
def gofish() -> None:
    """examples/gofish, installed through its entry point by `make setup` as a designer would."""
    examples_installed()


def _dealt(home: Path, match_id: str = "g1") -> None:
    assert run(home, "new", "--ruleset", "gofish", "--seats", "a=ana,b=ben", "--id", match_id)[:2] == (0, f"{match_id}\n")
    code, out, err = run(home, "append", match_id, stdin=lines(*DEAL))
    assert code == 0 and "no rule broken" in out, err


def test_go_fish_is_a_level_four_game_from_its_own_package(gofish: None, tmp_path: Path) -> None:
    out = run(tmp_path / "store", "rulesets")[1]
    assert "gofish  (Go Fish; bare name = 1; level 4; next: describe" in out


def test_go_fish_is_for_two_to_four_players(gofish: None, tmp_path: Path) -> None:
    code, _, err = run(tmp_path / "store", "new", "--ruleset", "gofish", "--seats", "a=ana,b=ben,c=cy,d=di,e=ed")
    assert (code, err) == (2, "error: --seats: Go Fish is for 2 to 4 players, not 5\n")
    rules = registry.resolve("gofish")
    for seats in ({"a": "ana", "b": "ben", "c": "cy"}, {"a": "ana", "b": "ben", "c": "cy", "d": "di"}):
        events = play(rules, seats, seed=7)
        assert isinstance(events[-1], MatchEnded) and sum(type(e).__name__ == "Dealt" for e in events) == 5 * len(seats)
        assert audit(events, rules).errors == ()


def test_an_ask_for_a_rank_not_held_is_named_by_the_audit(gofish: None, tmp_path: Path) -> None:
    home = tmp_path / "store"
    _dealt(home)
    code, out, _ = run(home, "append", "g1", "--event", json.dumps({"type": "Asked", "by": "a", "target": "b", "rank": "K"}))
    assert code == 0 and "gofish/ask.hold-rank" in out
    code, out, _ = run(home, "audit", "g1")
    assert code == 1
    assert [line for line in out.splitlines() if "gofish/" in line] == [
        next(line for line in out.splitlines() if "gofish/ask.hold-rank" in line and "a holds no K" in line)]

    code, out, _ = run(home, "sync")
    assert code == 0, out
    code, out, _ = run(home, "query", "violations_by_rule", "--format", "json")
    assert code == 0 and "gofish/ask.hold-rank" in out


def test_a_player_who_keeps_back_a_card_of_the_rank_asked_breaks_give_all(gofish: None, tmp_path: Path) -> None:
    home = tmp_path / "store"
    _dealt(home)
    asks = [{"type": "Asked", "by": "a", "target": "b", "rank": "A"}, {"type": "Gave", "by": "b", "rank": "A", "count": 0}]
    code, out, _ = run(home, "append", "g1", stdin=lines(*asks))
    assert code == 0 and "gofish/give.all" in out and "b must give all its As (1), not 0" in out
    code, out, _ = run(home, "append", "g1", stdin=lines({"type": "Asked", "by": "b", "target": "a", "rank": "2"}))
    assert "gofish/ask.turn" in out


def test_a_card_that_is_not_in_the_deck_is_named_and_the_replay_goes_on(gofish: None, tmp_path: Path) -> None:
    home = tmp_path / "store"
    run(home, "new", "--ruleset", "gofish", "--seats", "a=ana,b=ben", "--id", "g1")
    code, out, err = run(home, "append", "g1", stdin=lines({**DEAL[0], "rank": "11"}, *DEAL[1:]))
    assert code == 0, err
    assert [line for line in out.splitlines() if "gofish/" in line] == [
        next(line for line in out.splitlines() if "gofish/deal.stock" in line and "no 11 is left in the deck" in line)]
    code, out, _ = run(home, "replay", "g1")
    assert code == 0 and "a 2 3 4 5 6 7 11" in out and "to act: a" in out
    ws = Workspace(home)
    rules = ws.rules_of("g1")
    asks = rules.ruleset.legal(rules.params, ws.state_at("g1", 14).state)
    assert [(e.target, e.rank) for e in asks] == [("b", r) for r in ("2", "3", "4", "5", "6", "7")]


def test_an_imported_log_with_no_seats_is_named_at_line_0_and_replays(gofish: None, tmp_path: Path) -> None:
    home, log = tmp_path / "store", tmp_path / "empty.jsonl"
    line0 = {"type": "MatchStarted", "seq": 0, "match_id": "z1", "ruleset": "gofish", "version": "1", "seats": {}}
    log.write_text(lines(line0, {"type": "Dealt", "seq": 1, "seat": "a", "rank": "A"}, {"type": "Asked", "seq": 2, "by": "a", "target": "b", "rank": "A"}))
    assert run(home, "import", str(log))[:2] == (0, "z1\n")
    code, out, _ = run(home, "audit", "z1")
    assert code == 1 and "gofish/setup.seats  Go Fish is for 2 to 4 players, not 0" in out
    code, out, _ = run(home, "replay", "z1")
    assert code == 0 and "stock 52 cards" in out


def test_replay_as_a_seat_shows_its_own_hand_and_never_the_other(gofish: None, tmp_path: Path) -> None:
    home = tmp_path / "store"
    _dealt(home)
    code, out, _ = run(home, "replay", "g1", "--seat", "b")
    assert code == 0
    assert "hands: b A 2 9 10 J Q K\n" in out and "a 7 cards" in out
    assert "3 4 5 6 7" not in out, out
    code, out, _ = run(home, "replay", "g1", "--seat", "b", "--format", "json")
    rows = {row["id"]: row["cards"] for row in json.loads(out)["view"]["rows"]}
    assert rows["hand:a"] == ["?"] * 7 and rows["hand:b"] == list(BEN) and "stock" not in rows
    assert not [rank for rank in SECRET if f'"{rank}"' in out]
    assert "a A 2 3 4 5 6 7" in run(home, "replay", "g1")[1]  # the whole table


def test_the_random_bot_simulates_go_fish_and_compares_it_with_a_bigger_hand(gofish: None, tmp_path: Path) -> None:
    home = tmp_path / "store"
    code, out, err = run(home, "simulate", "gofish", "--games", "3", "--workers", "2")
    assert code == 0, err
    assert "3 games of gofish@1 (3 finished)" in out
    code, out, _ = run(home, "audit", "--all", "--workers", "2")
    assert code == 0 and "3 clean" in out

    (home / "variants").mkdir()
    (home / "variants" / "big-hands.toml").write_text('extends = "gofish@1"\ntitle = "nine cards for two"\n[params]\nhand_two = 9\n')
    code, out, err = run(home, "compare-versions", "gofish@1", "gofish@big-hands", "--games", "6", "--workers", "2")
    assert code == 0, err
    assert "gofish@1 (A) vs gofish@big-hands (B), bot games: 6 and 6 games" in out
    dealt = [line for line in run(home, "export", "sim-gofish-big-hands-random-s1-n6-000000")[1].splitlines() if '"Dealt"' in line]
    assert len(dealt) == 18


def test_a_seat_token_never_sees_the_other_hand_over_http(gofish: None, tmp_path: Path) -> None:
    home = tmp_path / "store"
    _dealt(home)
    run(home, "append", "g1", "--event", json.dumps({"type": "Asked", "by": "a", "target": "b", "rank": "7"}))
    token = run(home, "token", "issue", "--scope", "seat", "--match", "g1", "--seat", "b")[1].strip()
    url, server = start(cli_server(home), tmp_path / "server.log")
    try:
        for ask in ("", "?seat=b"):
            request = urllib.request.Request(f"{url}/matches/g1/state{ask}", headers={"Authorization": f"Bearer {token}"})
            with urllib.request.urlopen(request, timeout=30) as answer:
                raw = answer.read().decode()
            assert '"K"' in raw and "a asked b for 7s" in raw
            assert not [f'"{rank}"' for rank in SECRET if f'"{rank}"' in raw], raw
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(f"{url}/matches/g1/state?seat=a", headers={"Authorization": f"Bearer {token}"}), timeout=30)
        assert 400 <= refused.value.code < 500
        assert Client(url, token).state("g1").view.seat == "b"
    finally:
        stop(server)
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_every_ask_and_draw_the_game_offers_is_one_its_checks_accept(gofish: None) -> None:
    rules = registry.resolve("gofish")
    ruleset, params = rules.ruleset, rules.params
    contract.check_rules_modules_are_pure(EXAMPLES / "gofish" / "gofish")
    contract.check_events_keep_the_envelope(rules)
    contract.check_replay_is_deterministic(rules, seed=5)
    for seed in (1, 2, 3):
        events = contract.check_bot_game_is_clean(rules, "random", seed)
        contract.check_apply_does_not_mutate(rules, events)
        contract.check_states_survive_a_snapshot(rules, events)
        states = [step.state for step in replay(events[:-1], rules, audit=False) if ruleset.outcome(params, step.state) is None]
        for state in random.Random(seed).sample(states, 30):
            offered = [e for e, _ in ruleset.chance(params, state) or ()] or list(ruleset.legal(params, state))
            assert offered and all(ruleset.check(params, state, e) == [] for e in offered), state


def test_go_fish_passes_every_contract_check_its_parts_call_for(gofish: None, tmp_path: Path) -> None:
    # a card the log left out may stay hidden in a hand until someone asks for its rank, the
    # length of a game later: one such mistake must still cost the rest of the audit at most
    # one finding (at p95 of the mistakes planted), as `tabletape check-game` demands
    code, out, err = run(tmp_path / "store", "check-game", "gofish")
    assert code == 0, out + err
    assert "passed   one table mistake gives one finding" in out
    assert "passed   a second mistake is named beside the first" in out
