"""Golden logs replay to their reviewed transcripts; the mistakes log's audit names each mistake once.

A rules change that moves a transcript fails here; if the change is intended, rerun
`python -m tests.frontier.golden` and review the diff of the .transcript files.
"""

from __future__ import annotations

import pytest

from events.shared import MatchEnded
from projections.read.audit import audit
from tests.frontier import golden
from tests.golden_support import found_rules


@pytest.mark.parametrize("mission", golden.MISSIONS)
def test_a_full_game_of_each_mission_replays_to_its_transcript_and_audits_clean(mission: str) -> None:
    name = f"frontier-{mission}"
    events = golden.read_log(name)
    assert isinstance(events[-1], MatchEnded) and events[0].options["mission"] == mission  # type: ignore[attr-defined]
    r = golden.golden_rules(name)
    assert golden.transcript(events, r) == golden.transcript_path(name).read_text()
    report = audit(events, r)
    assert report.errors == () and report.result.agrees


def test_the_mistakes_log_replays_to_its_transcript() -> None:
    events = golden.read_log("frontier-mistakes")
    assert golden.transcript(events, golden.golden_rules("frontier-mistakes")) == golden.transcript_path("frontier-mistakes").read_text()


def test_the_audit_names_every_table_mistake_once() -> None:
    """A D6 showing 7, a kept low die under advantage, open fire at 8", an overlong move, a third reaction die."""
    report = audit(golden.read_log("frontier-mistakes"), golden.golden_rules("frontier-mistakes"))
    found = found_rules(report)
    expected = {
        "frontier/action-roll.die": "a D6 cannot show 7",
        "frontier/advantage.kept": "advantage keeps the highest",
        "frontier/open-fire.range": 'open fire needs a target at least 10" away',
        "frontier/movement.distance": "ends 7.00\" from where it started",
        "frontier/advantage.dice-count": "rolled 3 dice: advantage and disadvantage do not stack, never more than two dice",
    }
    assert set(found) == set(expected), found
    for rule, says in expected.items():
        named = [v for v in report.errors if v.rule == rule]
        assert len(named) == 1 and says in named[0].message, (rule, named)
    assert report.retracted, "the overlong move the table took back is voided"
    assert not report.result.agrees and "the table declared" in report.result.message and "by the rules" in report.result.message
