"""Golden logs replay to their reviewed transcripts; the hand-written playtest's audit names each mistake.

A rules change that moves a transcript fails here; if the change is intended, rerun
`python -m tests.frontline.golden` and review the diff of the .transcript files.
"""

from __future__ import annotations

import pytest

from events.shared import MatchEnded
from projections.read.audit import audit
from tests.frontline import golden
from tests.golden_support import found_rules


@pytest.mark.parametrize("name", list(golden.GAMES))
def test_a_full_bot_game_replays_to_its_transcript_and_audits_clean(name: str) -> None:
    events = golden.read_log(name)
    assert isinstance(events[-1], MatchEnded)
    assert golden.transcript(events, golden.rules()) == golden.transcript_path(name).read_text()
    assert audit(events, golden.rules()).clean


def test_the_golden_games_are_played_by_the_races_they_are_named_for() -> None:
    for name, (races, _) in golden.GAMES.items():
        assert golden.read_log(name)[0].options["races"] == races


def test_the_mistakes_log_replays_to_its_transcript() -> None:
    events = golden.read_log("frontline-mistakes")
    assert golden.transcript(events, golden.rules()) == golden.transcript_path("frontline-mistakes").read_text()


def test_the_audit_names_every_table_mistake_exactly_once() -> None:
    report = audit(golden.read_log("frontline-mistakes"), golden.rules())
    found = found_rules(report)
    for rule in golden.MISTAKES:
        assert len(found.get(rule, [])) == 1, (rule, found)
    assert {v.rule for v in report.errors} == set(golden.MISTAKES)
    assert found["frontline/combat.force"] == found["frontline/combat.frontline"] == [10]


def test_the_orc_farm_taken_back_is_voided_and_the_ruled_house_rule_is_kept_as_info() -> None:
    report = audit(golden.read_log("frontline-mistakes"), golden.rules())
    assert report.retracted == (1,)
    assert "frontline/build.race" not in found_rules(report)
    [ruled] = [v for v in report.violations if v.rule == "frontline/train.one-task"]
    assert ruled.severity == "info" and ruled.message.startswith("ruled by the table (seq 7")


def test_the_winner_declared_before_the_game_was_over_is_caught() -> None:
    report = audit(golden.read_log("frontline-mistakes"), golden.rules())
    assert not report.result.agrees
    assert report.result.message == "the table declared a the winner, but by the rules the game is not over"
