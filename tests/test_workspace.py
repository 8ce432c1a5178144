"""The Python API the CLI and the dashboard share."""

from __future__ import annotations

import pytest

from events.errors import ConflictError, LogFormatError
from events.shared import MatchEnded, Retracted, Ruled
from projections.workspace import Workspace
from rulesets.mortalgate.events import DraftChoiceMade, DraftRolled, HeroPicked


def started(ws: Workspace) -> str:
    return ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, match_id="m").match_id


def test_tail_returns_only_events_after_a_seq(ws: Workspace) -> None:
    match = started(ws)
    ws.append_events(match, [DraftRolled(red=4, blue=2), DraftChoiceMade(by="red", team="red", choice="first_pick")])
    assert [e.seq for e in ws.tail(match, 0)] == [1, 2]
    assert ws.tail(match, 2) == []


def test_a_retracted_event_is_undone_in_replay_and_dropped_from_the_audit(ws: Workspace) -> None:
    match = started(ws)
    ws.append_events(match, [DraftRolled(red=4, blue=2), DraftChoiceMade(by="red", team="red", choice="first_pick"),
                             HeroPicked(by="blue", hero="drexir")])
    assert [v.rule for v in ws.audit(match).violations] == ["mortalgate/draft.pick-order"]
    ws.append_events(match, [Retracted(by="blue", target_seq=3, reason="not our pick")])
    report = ws.audit(match)
    assert report.violations == () and report.retracted == (3,)
    assert ws.state_at(match, 4).state.draft.picks == ()


def test_consecutive_retractions_walk_back_in_order(ws: Workspace) -> None:
    match = started(ws)
    ws.append_events(match, [DraftRolled(red=4, blue=2), DraftChoiceMade(by="red", team="red", choice="first_pick")])
    ws.append_events(match, [Retracted(target_seq=2), Retracted(target_seq=1)])
    assert ws.state_at(match, 4).state.draft.winner is None
    with pytest.raises(LogFormatError, match="latest event still in force"):
        ws.append_events(match, [Retracted(target_seq=2)])


def test_a_retraction_that_skips_the_latest_event_is_refused(ws: Workspace) -> None:
    match = started(ws)
    ws.append_events(match, [DraftRolled(red=4, blue=2), DraftChoiceMade(by="red", team="red", choice="first_pick")])
    before = ws.export(match)
    with pytest.raises(LogFormatError, match=r"seq 2\), not 1"):
        ws.append_events(match, [Retracted(target_seq=1)])
    assert ws.export(match) == before


def test_a_retraction_that_lost_the_race_to_the_same_retraction_is_a_conflict(ws: Workspace) -> None:
    """Two tables retract the same event at once: the one that comes second is told the
    match moved on (the service's 409), not that its retraction named the wrong event."""
    match = started(ws)
    ws.append_events(match, [DraftRolled(red=4, blue=2), DraftChoiceMade(by="red", team="red", choice="first_pick")])
    ws.append_events(match, [Retracted(target_seq=2)], expected_seq=2)
    before = ws.export(match)
    with pytest.raises(ConflictError):
        ws.append_events(match, [Retracted(target_seq=2)], expected_seq=2)
    assert ws.export(match) == before


def test_a_table_ruling_turns_the_named_violation_into_a_note(ws: Workspace) -> None:
    match = started(ws)
    ws.append_events(match, [DraftRolled(red=4, blue=2), DraftChoiceMade(by="red", team="red", choice="first_pick"),
                             HeroPicked(by="blue", hero="drexir"),
                             Ruled(rule="mortalgate/draft.pick-order", decision="blue picked first by house rule", applies_to=3)])
    (violation,) = ws.audit(match).violations
    assert violation.severity == "info" and "house rule" in violation.message


def test_a_declared_winner_is_checked_against_the_rules(ws: Workspace) -> None:
    match = started(ws)
    ws.append_events(match, [MatchEnded(winner="red", reason="we ran out of time")])
    result = ws.audit(match).result
    assert not result.agrees and "not over" in result.message


def test_a_variant_log_keeps_its_params_when_the_variant_file_changes(ws: Workspace) -> None:
    variants = ws.home / "variants"
    variants.mkdir(parents=True)
    (variants / "quick.toml").write_text('extends = "mortalgate@2.5"\n[params]\ngrace_to_win = 6\n')
    match = ws.new_match("mortalgate@quick", {"red": "a", "blue": "b"}, match_id="v").match_id
    (variants / "quick.toml").write_text('extends = "mortalgate@2.5"\n[params]\ngrace_to_win = 99\n')
    assert ws.rules_of(match).params.grace_to_win == 6
    (variants / "quick.toml").unlink()
    assert ws.rules_of(match).params.grace_to_win == 6


def test_compare_names_the_event_where_only_one_version_ends_the_game(ws: Workspace) -> None:
    from tests.mortalgate import golden

    variants = ws.home / "variants"
    variants.mkdir(parents=True)
    (variants / "race-to-4.toml").write_text('extends = "mortalgate@2.5"\n[params]\ngrace_to_win = 4\n')
    ws.import_log(golden.log_path("mortalgate-2.5").read_bytes())
    result = ws.compare("golden-2.5", "mortalgate@race-to-4", "mortalgate@2.5")
    assert result.first is not None and result.first.outcomes is not None
    assert result.first.outcomes[0].startswith("red won") or result.first.outcomes[0].startswith("blue won")
    assert result.first.outcomes[1] == "the game goes on"


def test_a_version_of_another_game_is_refused_for_audit_and_compare(ws: Workspace) -> None:
    from events.errors import UnknownRulesetError

    match = started(ws)
    with pytest.raises(UnknownRulesetError, match=r"frontier@1\.0 is a version of frontier, but match .* is a mortalgate game"):
        ws.audit(match, against="frontier@1.0")
    with pytest.raises(UnknownRulesetError, match=r"mercenarium is a version of mercenarium, but match .* is a mortalgate game"):
        ws.compare(match, "mortalgate@2.1", "mercenarium")
    assert ws.audit(match, against="mortalgate@2.1").rules == "mortalgate@2.1"
