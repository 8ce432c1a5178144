"""The Replay page through its widgets: scrub, step, jump, autoplay, see, and annotate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.svg import Layers, board_layers, card_rows_svg
from projections.workspace import Workspace
from rulesets.view import BoardView
from tests.dashboard.conftest import CAFE, PLAYABLE, bot_game_id, by_label, open_page, run_ok, texts

LAST = 386
"""The café playtest's last seq."""
CLUB = "playtest-2026-03-12-club"
"""A 2.1 playtest, four players."""


def replay(app: AppTest, match_id: str = CAFE) -> AppTest:
    return open_page(app, "replay", match_id=match_id)


def drawing(at: AppTest, kind: str) -> str:
    """The SVG of that class on the page, without its wrapper."""
    block = next(str(m.value) for m in at.markdown if f'class="{kind}"' in str(m.value))
    return block.split("\n")[1]


def board(at: AppTest) -> str:
    """The board the page hands its board component: the map, what moves on it, the cards."""
    shown = next(json.loads(e.proto.json) for e in at.get("bidi_component"))
    return Layers(shown["frame"], shown["moving"]).whole() + shown["cards"]


def drawn_view(view: BoardView) -> str:
    """What `board` reads for this view."""
    return board_layers(view, rows=False).whole() + card_rows_svg(view)


def strip(at: AppTest) -> str:
    return drawing(at, "tabletape-timeline")


def author_field(at: AppTest, form: str = "replay.change_note") -> Any:
    """The name field of a notes form (the add form and the reply/edit/remove form have one each)."""
    return next(w for w in at.text_input if w.label == "Your name" and w.form_id == form)


def at_event(at: AppTest) -> int:
    return int(by_label(at.slider, "Event").value)


def click(at: AppTest, label: str) -> AppTest:
    by_label(at.button, label).click()
    return run_ok(at)


def test_the_slider_scrubs_to_an_event_and_redraws_board_list_and_inspector(app: AppTest, home: Path) -> None:
    at = replay(app)
    assert f"Event 0 of {LAST}" in texts(at)
    by_label(at.slider, "Event").set_value(40)
    run_ok(at)
    assert f"Event 40 of {LAST}" in texts(at)
    ws = Workspace(home)
    rules = ws.rules_of(CAFE)
    step = ws.state_at(CAFE, 40)
    assert board(at) == drawn_view(rules.ruleset.view(rules.params, step.state, None))
    listed = next(str(m.value) for m in at.markdown if str(m.value).startswith("- 32. "))
    lines = listed.splitlines()
    assert [line.split(".")[0].lstrip("-▶* ") for line in lines] == [str(seq) for seq in range(32, 49)]
    assert lines[8].startswith(f"- ▶ **40. {ws.timeline(CAFE).said[40]}")
    assert "(" not in ws.timeline(CAFE).said[40]  # words and board names, not coordinates
    assert not at.json  # the state is drawn only when asked
    by_label(at.toggle, "Show the state (every field)").set_value(True)
    run_ok(at)
    assert at.json[0].value  # the state inspector holds the state at event 40
    assert "Grace" in texts(at) and "red: " in texts(at)


def test_with_no_match_chosen_the_latest_started_one_opens_and_the_list_runs_newest_first(app: AppTest, home: Path) -> None:
    at = open_page(app, "replay")
    picker = by_label(at.selectbox, "Match")
    listed = [str(label).split(" ")[0] for label in picker.options]  # "<id> (<game>@<version>, ...)"
    starts = [Workspace(home).header(m).at for m in listed]
    assert picker.value == "playtest-2026-03-12-club" == listed[0]
    assert starts == sorted(starts, reverse=True), listed


def test_first_previous_next_last_buttons_step_through_the_match(app: AppTest) -> None:
    at = replay(app)
    assert at_event(click(at, "Next")) == 1
    assert at_event(click(at, "Next")) == 2
    assert at_event(click(at, "Previous")) == 1
    assert at_event(click(at, "Last")) == LAST
    assert "MatchEnded" in texts(at)
    assert at_event(click(at, "Next")) == LAST
    assert at_event(click(at, "First")) == 0


def test_violations_are_marked_listed_and_jumped_to(app: AppTest, home: Path) -> None:
    at = replay(app)
    marks = strip(at)
    # one info is the table's ruling at 300; another at seq 0 appears whenever the rules code
    # changed since the shipped log was recorded (its fingerprint note)
    changed = any(v.rule == "core/rules-changed" for v in Workspace(home).audit(CAFE).violations)
    # 213 and 282: heroes slain in their own upkeep came back in that same turn (death.respawn)
    assert marks.count('class="violation-mark error"') == 4 and marks.count('class="violation-mark info"') == 1 + changed
    assert at_event(click(at, "Next violation")) == 158
    assert "mortalgate/combat.range" in texts(at)
    assert at_event(click(at, "Next violation")) == 159
    assert "mortalgate/combat.hit" in texts(at)
    assert at_event(click(at, "Next violation")) == 213
    assert "mortalgate/death.respawn" in texts(at)
    assert at_event(click(at, "Next violation")) == 282
    assert at_event(click(at, "Next violation")) == 300
    assert "ruled by the table" in texts(at)
    assert at_event(click(at, "Next violation")) == 300
    assert "No violation after event 300." in texts(at)
    listed = at.dataframe[0].value
    assert list(listed["seq"]) == [0] * changed + [158, 159, 213, 282, 300]
    assert "Result: declared result matches the rules" in texts(at)


def test_jump_to_next_note_and_notes_on_this_event_come_first(app: AppTest) -> None:
    at = replay(app)
    assert at_event(click(at, "Next note")) == 26
    assert ":material/location_on: **ben** on events 26-27" in texts(at)
    assert at_event(click(at, "Next note")) == 158
    assert at_event(click(at, "Next note")) == 159


def test_an_undone_event_says_so(app: AppTest) -> None:
    at = replay(app)
    by_label(at.slider, "Event").set_value(26)
    run_ok(at)
    assert "undone later at the table" in texts(at)
    assert "(undone)" in next(str(m.value) for m in at.markdown if "▶ **26." in str(m.value))


def test_autoplay_steps_forward_on_every_run_without_a_keyboard(app: AppTest) -> None:
    at = replay(app)
    by_label(at.toggle, "Autoplay").set_value(True)
    run_ok(at)
    assert at_event(at) == 1
    run_ok(at)
    assert at_event(at) == 2
    by_label(at.toggle, "Autoplay").set_value(False)
    run_ok(at)
    assert at_event(run_ok(at)) == 2


def test_reading_under_another_version_changes_the_audit(app: AppTest) -> None:
    at = replay(app)
    by_label(at.selectbox, "Rules").set_value("mortalgate@2.1")
    run_ok(at)
    assert at_event(click(at, "Next violation")) == 58  # the 2.5 map's paths cross 2.1's impassable nodes
    assert "mortalgate/movement.impassable" in texts(at)
    assert "Result: the table declared blue the winner, but by the rules the game is not over" in texts(at)


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
    rules = shown(by_label(click(at, "Next").selectbox, "Rules"), rules)
    by_label(at.selectbox, "Match").set_value(CLUB)
    run_ok(at)
    box = by_label(at.selectbox, "Rules")
    assert shown(box, rules)[1] == "as recorded (mortalgate@2.1)"
    assert box.value is None and f"Event 0 of {Workspace(home).timeline(CLUB).last_seq}" in texts(at)


def test_rules_and_seat_chosen_for_one_match_do_not_follow_to_the_next(app: AppTest) -> None:
    at = replay(app, CLUB)
    by_label(at.selectbox, "Rules").set_value("mortalgate@2.0")
    by_label(at.selectbox, "Seen by").set_value("red")
    run_ok(at)
    by_label(at.selectbox, "Match").set_value(CAFE)
    run_ok(at)
    assert by_label(at.selectbox, "Rules").value is None and by_label(at.selectbox, "Seen by").value is None
    assert at_event(click(at, "Next violation")) == 158  # the café's own first finding under 2.5, its range error
    assert "mortalgate/combat.range" in texts(at)


@pytest.mark.parametrize("game", PLAYABLE)
def test_the_seat_selector_draws_what_that_seat_saw(app: AppTest, home: Path, game: str) -> None:
    match_id = bot_game_id(game)
    at = replay(app, match_id)
    click(at, "Last")
    ws = Workspace(home)
    rules = ws.rules_of(match_id)
    step = ws.state_at(match_id, at_event(at))
    drawn = {}
    for seat in (None, *ws.header(match_id).seats):
        by_label(at.selectbox, "Seen by").set_value(seat)
        run_ok(at)
        drawn[seat] = board(at)
        assert drawn[seat] == drawn_view(rules.ruleset.view(rules.params, step.state, seat))
    everything = rules.ruleset.view(rules.params, step.state, None)
    hidden = {seat: msgspec.structs.replace(rules.ruleset.view(rules.params, step.state, seat), seat=None) != everything
              for seat in drawn}
    if any(hidden.values()):  # a hidden-information game: the seats see different boards
        assert len(set(drawn.values())) > 1


def test_add_a_note_on_an_event_and_on_a_range_with_tags_and_a_rule(app: AppTest, home: Path) -> None:
    at = replay(app)
    click(at, "Next violation")  # event 158, the range error
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
    assert '<rect class="note-mark" x=' in strip(at)
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
    assert at_event(at) == 0
    ws.append("live", '{"type": "DraftRolled", "red": 5, "blue": 2}')  # the table, elsewhere
    run_ok(at)
    assert at_event(at) == 1 and "draft roll: red 5, blue 2" in texts(at)
    ws.append("live", '{"type": "HeroPicked", "by": "blue", "hero": "drexir"}')  # out of turn
    run_ok(at)
    assert at_event(at) == 2 and "mortalgate/draft" in texts(at)


def test_branch_here_opens_a_branch_at_that_event_and_steps_back_to_its_parent(app: AppTest, home: Path) -> None:
    at = replay(app)
    by_label(at.slider, "Event").set_value(40)
    run_ok(at)
    before = texts(at)
    click(at, "Branch here")
    ws = Workspace(home)
    [branch] = [m for m in ws.matches() if ws.header(m).branch_of == CAFE]
    assert (ws.header(branch).branch_at, at_event(at)) == (40, 40)
    assert f"Branch {branch} started from event 40 of {CAFE}" in texts(at)
    assert ws.state_at(branch, 40).state == ws.state_at(CAFE, 40).state
    assert f"Parent {CAFE} (left at event 40)" in [b.label for b in at.button]
    click(at, f"Parent {CAFE} (left at event 40)")
    assert at_event(at) == 40 and f"Branch {branch} (from event 40)" in [b.label for b in at.button]
    assert "Event 40 of 386" in before and "Event 40 of 386" in texts(at)
