"""A playtest of a game nobody has encoded yet, recorded as a log-only match."""

from __future__ import annotations

import json
from pathlib import Path

from projections.workspace import Workspace
from tests.cli_support import lines, run

ROLL = {"type": "DiceRolled", "by": "red", "dice": "2d6", "faces": [3, 5]}
SCORE = {"type": "ScoreChanged", "by": "red", "seat": "red", "delta": 8, "reason": "ran 8"}
MOVE = {"type": "ActionTaken", "by": "red", "verb": "races", "data": {"to": "B4", "steps": 2}}
PASS = {"type": "TurnPassed", "by": "red"}
BONUS = {"type": "ScoreChanged", "seat": "blue", "delta": 4}
WON = {"type": "MatchEnded", "winner": "red", "reason": "first past the line"}


def _dice_race(home: Path, *events: dict, title: str = "Dice Race") -> str:
    """A log-only match of the designer's game `title`, with `events` appended; its id."""
    code, out, err = run(home, "new", "--log-only", "--title", title, "--seats", "red=ana,blue=ben")
    assert code == 0, err
    match_id = out.strip()
    if events:
        code, _, err = run(home, "append", match_id, stdin=lines(*events))
        assert code == 0, err
    return match_id


def test_a_log_only_match_keeps_its_title_and_seats(tmp_path: Path) -> None:
    match_id = _dice_race(tmp_path)
    header = Workspace(tmp_path).header(match_id)
    assert (header.ruleset, header.title, header.seats) == ("freeform", "Dice Race", {"red": "ana", "blue": "ben"})


def test_log_only_needs_a_title_and_no_ruleset(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, "new", "--log-only", "--seats", "red=ana")
    assert code == 2 and "--log-only needs --title" in err
    code, _, err = run(tmp_path, "new", "--log-only", "--title", "x", "--ruleset", "mortalgate", "--seats", "red=ana")
    assert code == 2 and "either --ruleset GAME or --log-only" in err
    assert Workspace(tmp_path).matches() == []


def test_generic_events_replay_in_words_with_the_scores(tmp_path: Path) -> None:
    match_id = _dice_race(tmp_path, ROLL, SCORE, MOVE, PASS, BONUS, WON)
    code, early, err = run(tmp_path, "replay", match_id, "--at", "3")
    assert code == 0, err
    assert "ana rolls 2d6: 3 + 5 = 8" in early and "ana scores +8 (8): ran 8" in early and "ana races (to B4, steps 2)" in early
    code, out, err = run(tmp_path, "replay", match_id)
    assert code == 0, err
    assert "ana passes the turn to ben" in out and "ben scores +4 (4)" in out and "the table declares red won" in out
    assert '"red":8,"blue":4' in out and "to act: blue" in out


def test_a_score_can_be_set_to_a_total(tmp_path: Path) -> None:
    match_id = _dice_race(tmp_path, SCORE, {"type": "ScoreChanged", "seat": "red", "total": 12})
    code, out, _ = run(tmp_path, "replay", match_id, "--format", "json")
    assert code == 0 and json.loads(out)["state"]["scores"] == {"red": 12, "blue": 0}


def test_an_event_naming_a_seat_the_match_lacks_is_refused_in_one_line(tmp_path: Path) -> None:
    match_id = _dice_race(tmp_path, ROLL)
    for bad in ({**BONUS, "seat": "green"}, {**PASS, "by": "green"}, {**PASS, "to": "green"}):
        code, _, err = run(tmp_path, "append", match_id, stdin=lines(SCORE, bad))
        assert code == 2 and "has no seat 'green'; seats: red, blue" in err and err.startswith("error: <stdin>:2:")
        assert "Traceback" not in err
    assert len(list(Workspace(tmp_path).events(match_id))) == 2


def test_dice_and_scores_that_cannot_be_are_refused(tmp_path: Path) -> None:
    match_id = _dice_race(tmp_path)
    cases = {"2d6 needs 2 faces, not 1": {**ROLL, "faces": [3]}, "no face above 6": {**ROLL, "faces": [3, 7]},
             "dice": {**ROLL, "dice": "two dice"}, "exactly one of delta and total": {**SCORE, "total": 3}}
    for said, bad in cases.items():
        code, _, err = run(tmp_path, "append", match_id, stdin=lines(bad))
        assert code == 2 and said in err and "Traceback" not in err
    assert len(list(Workspace(tmp_path).events(match_id))) == 1


def test_a_log_only_match_never_breaks_a_rule_and_its_declared_result_stands(tmp_path: Path) -> None:
    match_id = _dice_race(tmp_path, ROLL, SCORE, PASS, WON)
    code, out, _ = run(tmp_path, "audit", match_id)
    assert code == 0 and "0 rule violations" in out
    assert "result OK: the table declared red the winner (the game has no victory condition" in out


def test_win_rates_lengths_and_score_curves_come_from_the_declared_result(tmp_path: Path) -> None:
    _dice_race(tmp_path, ROLL, SCORE, PASS, BONUS, WON)
    _dice_race(tmp_path, BONUS, PASS, {**WON, "winner": "blue"})
    _dice_race(tmp_path, SCORE)  # not finished: counts in no win rate
    assert run(tmp_path, "sync")[0] == 0
    code, out, _ = run(tmp_path, "query", "side_win_rates", "--param", "ruleset=freeform", "--format", "json")
    rates = {row["side"]: (row["matches"], row["wins"]) for row in json.loads(out)}
    assert code == 0 and rates["red"] == (2, 1) and rates["blue"] == (2, 1)
    code, out, _ = run(tmp_path, "query", "game_length", "--param", "ruleset=freeform", "--format", "json")
    assert code == 0 and json.loads(out)[0]["matches"] == 2
    sql = "select s.seq, s.value from steps s join matches m using (match_id) where m.events = 6 and s.metric = 'score.red' order by s.seq"
    code, out, _ = run(tmp_path, "query", "--sql", sql, "--format", "json")
    assert code == 0 and [row["value"] for row in json.loads(out)][-1] == 8


def test_a_log_only_match_is_listed_and_exported_as_written(tmp_path: Path) -> None:
    match_id = _dice_race(tmp_path, ROLL, MOVE)
    code, out, _ = run(tmp_path, "list")
    assert code == 0 and match_id in out and "Dice Race" in out
    code, out, _ = run(tmp_path, "export", match_id)
    stored = (Workspace(tmp_path).export(match_id)).decode()
    assert code == 0 and out == stored and '"verb":"races"' in out


def test_the_verbs_of_a_designer_game_are_gathered_from_its_matches(tmp_path: Path) -> None:
    first = _dice_race(tmp_path, MOVE, {**MOVE, "verb": "trades"}, {**MOVE, "verb": "trades"})
    second = _dice_race(tmp_path, {**MOVE, "verb": "blocks"})
    _dice_race(tmp_path, {**MOVE, "verb": "flies"}, title="Sky Race")
    ws = Workspace(tmp_path)
    assert ws.verbs_used("Dice Race", match_id=second) == ["blocks", "trades", "races"]
    assert ws.verbs_used("Dice Race", match_id=first) == ["races", "trades", "blocks"]
    assert ws.verbs_used("Sky Race") == ["flies"]


def test_the_log_only_game_is_listed_after_every_encoded_game() -> None:
    from rulesets import registry

    names = registry.names()
    assert names[-1] == "freeform" and names[:-1] == sorted(names[:-1])
