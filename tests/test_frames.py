"""A match's frames: every event's board, words and findings, as a seat sees them.

`Workspace.frames` is what a player of a recording is handed (the Replay page's board in the
browser); each frame must show exactly what the Timeline's state at that event shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from events.errors import TabletapeError
from projections.corpus.demo import import_playtests, save_events
from projections.corpus.simulate import play
from projections.workspace import Workspace
from rulesets import registry

CAFE = "playtest-2026-03-05-cafe"
"""A finished 2.5 playtest: an undo, a range error, a claimed hit, a ruled capture."""


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    ws = Workspace(tmp_path_factory.mktemp("frames") / "store")
    import_playtests(ws)
    rules = registry.resolve("mercenarium")
    save_events(ws, play(rules, rules.ruleset.example_seats, seed=3, match_id="hands", max_events=120))
    return ws


def test_every_frame_shows_the_board_words_and_findings_of_the_state_at_its_event(ws: Workspace) -> None:
    timeline = ws.timeline(CAFE)
    rules = timeline.rules
    report = ws.audit(CAFE)
    shown = ws.frames(CAFE)
    assert [f.seq for f in shown] == list(range(timeline.last_seq + 1))
    for frame in shown:
        step = timeline.state_at(frame.seq)
        assert frame.view == rules.ruleset.view(rules.params, step.state, None), frame.seq
        assert frame.said == timeline.said[frame.seq]
        assert [(f.severity, f.rule, f.message) for f in frame.findings] == [
            (v.severity, v.rule, v.message) for v in report.violations if v.seq == frame.seq]
    assert shown[26].undone and not shown[25].undone
    assert shown[300].findings[0].message.startswith("ruled by the table")  # the audit's findings, rulings applied
    assert [f.seq for f in ws.frames(CAFE, start=150, stop=160)] == list(range(150, 160))


def test_a_seats_frames_hold_its_view_and_no_words_or_messages_that_could_name_a_hidden_card(ws: Workspace) -> None:
    timeline = ws.timeline("hands")
    rules = timeline.rules
    seat = next(iter(ws.header("hands").seats))
    for frame in ws.frames("hands", seat=seat):
        event = timeline.events[frame.seq]
        assert frame.view == rules.ruleset.view(rules.params, timeline.state_at(frame.seq).state, seat)
        assert frame.said == type(event).__name__ + (f" by {event.by}" if event.by else "")
        assert all(f.message == "" for f in frame.findings)


def test_frames_of_a_seat_the_match_does_not_have_are_refused_in_one_line(ws: Workspace) -> None:
    with pytest.raises(TabletapeError, match=r"^match hands has no seat 'green' \(its seats: "):
        ws.frames("hands", seat="green")
    with pytest.raises(TabletapeError, match=r"^events 5\.\.900 are outside match hands"):
        ws.frames("hands", start=5, stop=900)


def test_a_match_just_started_has_one_frame(tmp_path: Path) -> None:
    """Frames of a match of one event: the first board alone."""
    ws = Workspace(tmp_path / "store")
    ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, match_id="new")
    [frame] = ws.frames("new")
    assert frame.seq == 0 and frame.said.startswith("the match starts") and frame.findings == ()
