"""The Replay page through its widgets: the frames it hands the board, findings, seats, notes.

Stepping, dragging, the keys and autoplay happen in the browser (tests/dashboard/
test_replay_browser.py); here the page is read for what it hands the board component: the
chunk of frames the browser asked for, each event's board, words and findings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.board.scrub import CHUNK, FIRST
from dashboard.board.svg import board_layers, card_rows_svg
from projections.workspace import Workspace
from rulesets.view import BoardView, card_key
from tests.dashboard.conftest import (
    CAFE,
    PLAYABLE,
    ask,
    board_frames,
    bot_game_id,
    by_label,
    handed,
    open_page,
    open_replay,
    run_ok,
    texts,
)

LAST = 386
"""The café playtest's last seq."""
CLUB = "playtest-2026-03-12-club"
"""A 2.1 playtest, four players."""
SEQ = "replay.seq"
"""The page's key of the event the browser picked."""


def replay(app: AppTest, match_id: str = CAFE) -> AppTest:
    return open_replay(app, match_id)


frames = board_frames


def drawn_view(view: BoardView) -> str:
    """The board the browser draws for this view."""
    return board_layers(view, rows=False).whole()


def author_field(at: AppTest, form: str = "replay.change_note") -> Any:
    """The name field of a notes form (the add form and the reply/edit/remove form have one each)."""
    return next(w for w in at.text_input if w.label == "Your name" and w.form_id == form)


def pick(at: AppTest, seq: int) -> AppTest:
    """What the board's "Note or branch here" does: the notes and the inspector follow `seq`."""
    at.session_state[SEQ] = seq
    return run_ok(at)


def test_the_board_is_handed_the_first_frames_at_once_and_the_rest_as_the_browser_asks(app: AppTest, home: Path) -> None:
    at = replay(app)
    data = handed(at)
    assert data["total"] == LAST + 1 and data["start"] == 0
    assert sorted(frames(at)) == list(range(FIRST))  # a small first chunk: the first board at once
    shown = ask(at, 40)
    assert sorted(shown) == list(range(40, 40 + CHUNK))
    ws = Workspace(home)
    rules = ws.rules_of(CAFE)
    said = ws.timeline(CAFE).said
    for seq in (40, 41, 100, 239):
        state = ws.state_at(CAFE, seq).state
        view = rules.ruleset.view(rules.params, state, None)
        assert shown[seq]["board"] == drawn_view(view)
        assert shown[seq]["cards"] == card_rows_svg(view)
        assert shown[seq]["said"] == said[seq]
        progress = rules.ruleset.progress(rules.params, state)
        assert shown[seq]["where"].startswith(f"turn {progress.turn} · round {progress.round}")
    assert "(" not in said[40]  # words and board names, not coordinates
    assert "Grace" in shown[40]["side"] and "red: " in shown[40]["side"]
    assert sorted(ask(at, LAST - 5)) == list(range(LAST - 5, LAST + 1))  # the last chunk stops at the end


def test_a_first_visit_draws_the_board_then_the_choices_above_it_and_what_lies_below_it(app: AppTest) -> None:
    at = open_page(app, "replay", match_id=CAFE)  # a new session: the browser has drawn nothing yet
    assert handed(at)["ready"] is False  # the browser is told to say when its first board is on screen
    assert sorted(frames(at)) == list(range(FIRST))
    assert not at.expander and not at.get("form") and "Notes (" not in texts(at)
    assert not at.selectbox and not at.toggle  # the row of choices above the board comes after it too
    at.session_state["replay.ready"] = at.session_state["replay.behind"] = True  # what its `shown` does
    run_ok(at)
    assert handed(at)["ready"] is True  # now it asks for the frames it lacks
    assert by_label(at.selectbox, "Match").value == CAFE and by_label(at.selectbox, "Seen by").value is None
    assert at.expander[0].label.startswith("Findings (4 rule violations")
    assert "Notes (5)" in texts(at) and at.get("form")


def test_the_state_inspector_shows_the_picked_event_and_the_state_after_it(app: AppTest) -> None:
    at = pick(replay(app), 40)
    assert not at.json  # the state is drawn only when asked
    by_label(at.toggle, "Show event 40 and the state after it (every field)").set_value(True)
    run_ok(at)
    shown = at.json[0].value
    assert '"seq": 40' in shown and '"state"' in shown


def test_with_no_match_chosen_the_latest_started_one_opens_and_the_list_runs_newest_first(app: AppTest, home: Path) -> None:
    at = open_replay(app)
    picker = by_label(at.selectbox, "Match")
    listed = [str(label).split(" ")[0] for label in picker.options]  # "<id> (<game>@<version>, ...)"
    starts = [Workspace(home).header(m).at for m in listed]
    assert picker.value == "playtest-2026-03-12-club" == listed[0]
    assert starts == sorted(starts, reverse=True), listed


def test_violations_are_marked_on_the_strip_shown_at_their_event_and_listed(app: AppTest, home: Path) -> None:
    at = replay(app)
    # one info is the table's ruling at 300; another at seq 0 appears whenever the rules code
    # changed since the shipped log was recorded (its fingerprint note)
    changed = any(v.rule == "core/rules-changed" for v in Workspace(home).audit(CAFE).violations)
    # 213 and 282: heroes slain in their own upkeep came back in that same turn (death.respawn)
    assert handed(at)["marks"] == {"158": "error", "159": "error", "213": "error", "282": "error", "300": "info"} | (
        {"0": "info"} if changed else {})
    shown = ask(at, 150)
    assert [f[1] for f in shown[158]["findings"]] == ["mortalgate/combat.range"]
    assert [f[1] for f in shown[159]["findings"]] == ["mortalgate/combat.hit"]
    assert [f[1] for f in shown[213]["findings"]] == ["mortalgate/death.respawn"]
    assert shown[300]["findings"][0][2].startswith("ruled by the table")
    assert shown[157]["findings"] == []
    assert not at.dataframe  # the findings table is drawn once its panel is opened
    listed = open_findings(at).dataframe[0].value
    assert list(listed["seq"]) == [0] * changed + [158, 159, 213, 282, 300]
    assert "Result: declared result matches the rules" in texts(at)


def test_notes_are_marked_on_the_strip_and_the_notes_on_the_picked_event_come_first(app: AppTest) -> None:
    at = replay(app)
    assert sorted(start for start, _ in handed(at)["notes"])[:3] == [26, 158, 159]
    assert ":material/location_on: **ben** on events 26-27" in texts(pick(at, 26))


def test_an_undone_event_says_so(app: AppTest) -> None:
    shown = ask(replay(app), 20)
    assert shown[26]["undone"] and not shown[25]["undone"]


def test_reading_under_another_version_changes_the_audit(app: AppTest) -> None:
    at = replay(app)
    by_label(at.selectbox, "Rules").set_value("mortalgate@2.1")
    run_ok(at)
    assert min(int(seq) for seq in handed(at)["marks"] if seq != "0") == 58  # the 2.5 map's paths cross 2.1's impassable nodes
    assert "mortalgate/movement.impassable" in [f[1] for f in ask(at, 58)[58]["findings"]]
    assert "Result: the table declared blue the winner, but by the rules the game is not over" in texts(open_findings(at))


def open_findings(at: AppTest) -> AppTest:
    """Open the Findings panel below the board, as a click on it does."""
    at.session_state["replay.findings_open"] = True
    return run_ok(at)


def shown(box: Any, before: tuple[str, str] | None = None) -> tuple[str, str]:
    """(id, label) of what a browser shows in a selectbox after a run. A box it already
    shows (the same id) keeps its label unless the run sets a value; a new box opens on
    its default. AppTest hands the script the value it holds; a browser sends back the
    label it shows, so this is what the user reads."""
    proto = box.proto
    if proto.set_value:
        return proto.id, proto.raw_value
    if before is None or proto.id != before[0]:
        return proto.id, box.options[proto.default]
    return before


def test_switching_from_a_frontier_match_shows_the_mortalgate_match_as_recorded(app: AppTest, home: Path) -> None:
    at = replay(app, bot_game_id("frontier"))
    rules = shown(by_label(at.selectbox, "Rules"))
    assert rules[1] == "as recorded (frontier@1.0)"
    rules = shown(by_label(run_ok(at).selectbox, "Rules"), rules)
    by_label(at.selectbox, "Match").set_value(CLUB)
    run_ok(at)
    box = by_label(at.selectbox, "Rules")
    assert shown(box, rules)[1] == "as recorded (mortalgate@2.1)"
    assert box.value is None and handed(at)["total"] == Workspace(home).timeline(CLUB).last_seq + 1


def test_rules_and_seat_chosen_for_one_match_do_not_follow_to_the_next(app: AppTest) -> None:
    at = replay(app, CLUB)
    by_label(at.selectbox, "Rules").set_value("mortalgate@2.0")
    by_label(at.selectbox, "Seen by").set_value("red")
    run_ok(at)
    by_label(at.selectbox, "Match").set_value(CAFE)
    run_ok(at)
    assert by_label(at.selectbox, "Rules").value is None and by_label(at.selectbox, "Seen by").value is None
    assert min(int(seq) for seq in handed(at)["marks"] if seq != "0") == 158  # the café's own first finding under 2.5


@pytest.mark.parametrize("game", PLAYABLE)
def test_the_seat_selector_draws_what_that_seat_saw(app: AppTest, home: Path, game: str) -> None:
    match_id = bot_game_id(game)
    at = replay(app, match_id)
    ws = Workspace(home)
    rules = ws.rules_of(match_id)
    last = ws.timeline(match_id).last_seq
    step = ws.state_at(match_id, last)
    shown = rules.ruleset.view(rules.params, step.state, None)
    if not shown.has_board:  # a game with no board (Pig's scores): its panels, as tables, where the board would be
        assert shown.panels[0].title in ask(at, last)[last]["board"]
        return
    drawn = {}
    for seat in (None, *ws.header(match_id).seats):
        by_label(at.selectbox, "Seen by").set_value(seat)
        run_ok(at)
        frame = ask(at, last)[last]
        drawn[seat] = frame["board"] + frame["cards"]
        view = rules.ruleset.view(rules.params, step.state, seat)
        assert drawn[seat] == drawn_view(view) + card_rows_svg(view)
    everything = rules.ruleset.view(rules.params, step.state, None)
    hidden = {seat: msgspec.structs.replace(rules.ruleset.view(rules.params, step.state, seat), seat=None) != everything
              for seat in drawn}
    if any(hidden.values()):  # a hidden-information game: the seats see different boards
        assert len(set(drawn.values())) > 1


def test_a_seat_view_hands_the_page_no_card_that_seat_cannot_see(app: AppTest, home: Path) -> None:
    """Seen by one Mercenarium seat, every frame of the match handed over holds the seat's own
    hand and no card of another hand: not in a board, not in an event's words, not in a
    finding; the state inspector and the findings' messages are not on the page."""
    match_id = bot_game_id("mercenarium")
    ws = Workspace(home)
    rules = ws.rules_of(match_id)
    timeline = ws.timeline(match_id)
    at = replay(app, match_id)
    seat = next(iter(ws.header(match_id).seats))
    by_label(at.selectbox, "Seen by").set_value(seat)
    run_ok(at)
    shown: dict[int, dict[str, Any]] = {}
    for start in range(0, timeline.last_seq + 1, CHUNK):
        shown |= ask(at, start)
    assert sorted(shown) == list(range(timeline.last_seq + 1))
    hidden_somewhere = False
    for seq, frame in shown.items():
        state = timeline.state_at(seq).state
        seen = {c for row in rules.ruleset.view(rules.params, state, seat).rows for c in row.cards}
        hidden = {(row.id, c) for row in rules.ruleset.view(rules.params, state, None).rows
                  if row.owner not in (None, seat) for c in row.cards if c not in seen}
        hidden_somewhere |= bool(hidden)
        markup = frame["board"] + frame["cards"] + frame["side"]
        assert not [face for row, face in hidden if card_key(row, face) in markup], f"event {seq} shows a hidden card"
        assert not [face for _, face in hidden if face in frame["said"] or face in json.dumps(frame["findings"])], seq
    assert hidden_somewhere, "the other seats never held a card: nothing to hide"
    assert all("state" not in toggle.label for toggle in at.toggle)  # the inspector would show every hand
    listed = open_findings(at).dataframe  # a bot game may break no rule: no table then
    assert not listed or "message" not in listed[0].value.columns


def test_add_a_note_on_an_event_and_on_a_range_with_tags_and_a_rule(app: AppTest, home: Path) -> None:
    at = pick(replay(app), 158)  # the range error
    assert by_label(at.text_input, "Rule id").value == "mortalgate/combat.range"
    author_field(at, "replay.add_note").input("zoe")
    by_label(at.text_area, "Note").input("Range 1 heroes feel useless on this map")
    by_label(at.multiselect, "Tags").select("balance").select("question")
    by_label(at.number_input, "Through event").set_value(160)
    by_label(at.button, "Add note").click()
    run_ok(at)
    notes = [n for n in Workspace(home).notes.list(CAFE) if n.author == "zoe"]
    assert [(n.from_seq, n.to_seq, n.tags, n.rule) for n in notes] == [(158, 160, ("balance", "question"), "mortalgate/combat.range")]
    assert f"Note {notes[0].id} added on events 158-160." in texts(at)
    assert "**zoe** on events 158-160" in texts(at)
    assert [158, 160] in handed(at)["notes"]
    assert author_field(at, "replay.add_note").value == "zoe"  # the form remembers who is writing


def test_a_note_without_text_is_refused_and_nothing_is_stored(app: AppTest, home: Path) -> None:
    before = (home / "notes" / f"{CAFE}.jsonl").read_bytes()
    at = replay(app)
    author_field(at, "replay.add_note").input("zoe")
    by_label(at.button, "Add note").click()
    run_ok(at)
    assert "text must not be empty" in texts(at)
    assert (home / "notes" / f"{CAFE}.jsonl").read_bytes() == before


def test_reply_edit_and_remove_a_note(app: AppTest, home: Path) -> None:
    ws = Workspace(home)
    target = next(n for n in ws.notes.list(CAFE) if n.from_seq == 159)
    at = replay(app)
    assert not [box for box in at.selectbox if box.label == "Note"]  # the forms are drawn once their panel opens
    at.session_state["replay.change_note_open"] = True
    run_ok(at)
    by_label(at.selectbox, "Note").set_value(target.id)
    run_ok(at)
    author_field(at).input("mira")
    by_label(at.text_area, "Reply").input("The red die is the tens die; I'll print it on the card.")
    by_label(at.button, "Reply").click()
    run_ok(at)
    assert ws.notes.list(CAFE)[1].replies[-1].text.startswith("The red die")
    assert "↳ **mira**: The red die is the tens die" in texts(at)

    by_label(at.radio, "Action").set_value("Edit")
    run_ok(at)
    author_field(at).input("ben")
    by_label(at.text_area, "Text").input("We read a 27 as a hit.")
    by_label(at.text_input, "Rule id (empty clears it)").input("")
    by_label(at.button, "Edit").click()
    run_ok(at)
    edited = next(n for n in ws.notes.list(CAFE) if n.id == target.id)
    assert (edited.text, edited.rule) == ("We read a 27 as a hit.", None)

    by_label(at.radio, "Action").set_value("Remove")
    run_ok(at)
    author_field(at).input("ben")
    by_label(at.text_input, "Why (optional)").input("answered")
    by_label(at.button, "Remove").click()
    run_ok(at)
    assert target.id not in {n.id for n in ws.notes.list(CAFE)}
    assert target.id in {n.id for n in ws.notes.list(CAFE, include_removed=True)}


def test_following_a_match_live_shows_events_another_recorder_writes(app: AppTest, home: Path) -> None:
    """A second screen follows a playtest in progress: each run reads the log again and stands
    on its newest event, with the findings of what was just written."""
    ws = Workspace(home)
    ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, match_id="live", title="live")
    at = replay(app, "live")
    by_label(at.toggle, "Follow live").set_value(True)
    run_ok(at)
    assert handed(at)["follow"] and handed(at)["total"] == 1
    ws.append("live", '{"type": "DraftRolled", "red": 5, "blue": 2}')  # the table, elsewhere
    run_ok(at)
    assert handed(at)["total"] == 2 and frames(at)[1]["said"].startswith("draft roll: red 5, blue 2")
    ws.append("live", '{"type": "HeroPicked", "by": "blue", "hero": "drexir"}')  # out of turn
    run_ok(at)
    assert handed(at)["total"] == 3 and any(f[1].startswith("mortalgate/draft") for f in frames(at)[2]["findings"])


def test_branch_here_opens_a_branch_at_that_event_and_steps_back_to_its_parent(app: AppTest, home: Path) -> None:
    at = pick(replay(app), 40)
    by_label(at.button, "Branch here (event 40)").click()
    run_ok(at)
    ws = Workspace(home)
    [branch] = [m for m in ws.matches() if ws.header(m).branch_of == CAFE]
    assert ws.header(branch).branch_at == 40 and at.session_state[SEQ] == 40
    assert f"Branch {branch} started from event 40 of {CAFE}" in texts(at)
    assert handed(at)["total"] == 41  # the branch holds the parent's events 0..40, nothing of its own yet
    assert ws.state_at(branch, 40).state == ws.state_at(CAFE, 40).state
    by_label(at.button, f"Parent {CAFE} (left at event 40)").click()
    run_ok(at)
    assert at.session_state[SEQ] == 40 and handed(at)["total"] == 387
    assert f"Branch {branch} (from event 40)" in [b.label for b in at.button]
