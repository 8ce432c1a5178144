"""Golden logs replay to their reviewed transcripts; the mistakes log's audit names each mistake.

A rules change that moves a transcript fails here; if the change is intended, rerun
`python -m tests.mortalgate.golden` and review the diff of the .transcript files.
"""

from __future__ import annotations

import pytest

from events.shared import MatchEnded
from projections.read.audit import audit
from tests.golden_support import found_rules
from tests.mortalgate import golden


@pytest.mark.parametrize("version", golden.VERSIONS)
def test_a_full_game_replays_to_its_transcript(version: str) -> None:
    name = f"mortalgate-{version}"
    events = golden.read_log(name)
    assert isinstance(events[-1], MatchEnded)
    expected = golden.transcript_path(name).read_text()
    assert golden.transcript(events, golden.golden_rules(name)) == expected


def test_the_mistakes_log_replays_to_its_transcript() -> None:
    events = golden.read_log("mortalgate-mistakes")
    assert golden.transcript(events, golden.golden_rules("mortalgate-mistakes")) == golden.transcript_path("mortalgate-mistakes").read_text()


def test_the_audit_names_every_table_mistake_once() -> None:
    events = golden.read_log("mortalgate-mistakes")
    report = audit(events, golden.golden_rules("mortalgate-mistakes"))
    found = found_rules(report)
    for rule in ("mortalgate/movement.occupied", "mortalgate/combat.range", "mortalgate/combat.hit", "mortalgate/altars.contested"):
        assert len(found.get(rule, [])) == 1, (rule, found)
    ruled = [v for v in report.violations if v.rule == "mortalgate/altars.contested"]
    assert ruled[0].severity == "info" and ruled[0].message.startswith("ruled by the table")
    assert report.retracted, "the move the table took back is voided"
    assert not report.result.agrees and "by the rules" in report.result.message


def test_reauditing_under_2_1_plays_the_same_moves_on_the_old_map_and_rules() -> None:
    from projections.read.compare import compare
    from rulesets import registry

    events = golden.read_log("mortalgate-mistakes")
    old, new = registry.resolve("mortalgate@2.1"), golden.golden_rules("mortalgate-mistakes")
    report = audit(events, old)
    assert report.result.computed is None and "the game is not over" in report.result.message
    result = compare(events, old, new)
    assert result.first is not None and result.first.event_type == "AltarCaptured"
    assert result.first.metrics["grace_blue"] == (3, 2)  # a capture is worth 3 before 2.5, 2 after
    assert result.outcome_changes
