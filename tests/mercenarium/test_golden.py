"""Golden logs replay to their reviewed transcripts; the mistakes log's audit names each mistake.

A rules change that moves a transcript fails here; if the change is intended, rerun
`python -m tests.mercenarium.golden` and review the diff of the .transcript files.
"""

from __future__ import annotations

import pytest

from events.shared import MatchEnded
from projections.read.audit import audit
from tests.golden_support import found_rules
from tests.mercenarium import golden


@pytest.mark.parametrize("name", list(golden.GAMES))
def test_a_full_game_replays_to_its_transcript(name: str) -> None:
    events = golden.read_log(name)
    assert isinstance(events[-1], MatchEnded)
    assert golden.transcript(events, golden.rules()) == golden.transcript_path(name).read_text()
    assert audit(events, golden.rules()).clean


def test_the_golden_games_are_a_2_and_a_4_player_game() -> None:
    assert [len(golden.read_log(name)[0].seats) for name in golden.GAMES] == [2, 4]


def test_the_mistakes_log_replays_to_its_transcript() -> None:
    events = golden.read_log("mercenarium-mistakes")
    assert golden.transcript(events, golden.rules()) == golden.transcript_path("mercenarium-mistakes").read_text()


def test_the_audit_names_every_table_mistake_exactly_once() -> None:
    report = audit(golden.read_log("mercenarium-mistakes"), golden.rules())
    found = found_rules(report)
    for rule in golden.MISTAKES:
        assert len(found.get(rule, [])) == 1, (rule, found)
    assert {v.rule for v in report.errors} == set(golden.MISTAKES)


def test_the_lost_hymn_is_unchecked_and_the_tables_ruling_is_kept() -> None:
    report = audit(golden.read_log("mercenarium-mistakes"), golden.rules())
    hymn = [v for v in report.violations if v.rule == "mercenarium/hymns.effect"]
    assert len(hymn) == 1 and hymn[0].severity == "info"
    assert hymn[0].message.startswith("ruled by the table") and "effect unchecked: text not available" in hymn[0].message


def test_the_summon_the_table_took_back_is_voided_and_the_wrong_winner_is_caught() -> None:
    report = audit(golden.read_log("mercenarium-mistakes"), golden.rules())
    assert len(report.retracted) == 1
    assert not report.result.agrees and "by the rules" in report.result.message
