"""Golden logs replay to their reviewed transcripts; the hand-written playtest's audit names
each table mistake with its rule id; a named history change makes two versions disagree.

A rules change that moves a transcript fails here; if intended, rerun
`python -m tests.mercyfrontier.golden` and review the diff of the .transcript files.
"""

from __future__ import annotations

import msgspec
import pytest

from events.shared import MatchEnded
from projections.read.audit import audit
from projections.read.compare import compare
from tests.golden_support import found_rules
from tests.mercyfrontier import golden


@pytest.mark.parametrize("name", list(golden.GAMES))
def test_a_full_bot_game_replays_to_its_transcript_and_audits_clean(name: str) -> None:
    version, _ = golden.GAMES[name]
    events = golden.read_log(name)
    assert isinstance(events[-1], MatchEnded)
    assert golden.transcript(events, golden.rules(version)) == golden.transcript_path(name).read_text()
    assert audit(events, golden.rules(version)).clean


def test_the_mistakes_log_replays_to_its_transcript_and_is_the_hand_written_one() -> None:
    events = golden.read_log("mercyfrontier-mistakes")
    written = golden.mistakes_game()
    # the stored header keeps the fingerprint of the code it was recorded under: any later
    # edit of the game changes the live one, and replay reports that as a note
    assert msgspec.structs.replace(events[0], fingerprint="") == msgspec.structs.replace(written[0], fingerprint="")
    assert events[1:] == written[1:]
    assert golden.transcript(events, golden.rules("accelerated")) == golden.transcript_path("mercyfrontier-mistakes").read_text()


def test_the_audit_names_every_table_mistake_at_its_seq() -> None:
    report = audit(golden.read_log("mercyfrontier-mistakes"), golden.rules("accelerated"))
    assert found_rules(report) == golden.MISTAKES
    assert report.retracted == (22,)


def test_the_declared_result_of_an_unfinished_game_is_caught() -> None:
    report = audit(golden.read_log("mercyfrontier-mistakes"), golden.rules("accelerated"))
    assert not report.result.agrees and "not over" in report.result.message


def test_the_6th_play_tests_victor_breaks_the_4th_play_tests_rule() -> None:
    """6th play test: "After destroying an enemy merc the victor could use its remaining
    movement points": a log of the 6th replayed under the 4th disagrees exactly there."""
    events = golden.read_log("mercyfrontier-playtest-6")
    result = compare(events, golden.rules("playtest-6"), golden.rules("playtest-4"))
    assert result.first is not None and result.first.event_type == "MercenaryMoved"
    assert [v.rule for v in result.first.only_b] == ["mercyfrontier/combat.victor-continues"] and result.first.only_a == ()
    assert audit(events, golden.rules("playtest-4")).errors[0].seq == result.first.seq

