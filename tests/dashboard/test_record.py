"""The Record page, driven through its widgets (AppTest): start a playtest, roll on the dice
pad and read what the roll means before recording it, choose off-board actions by their
words, let the recorder write what the rules force, undo a decision in one tap, refuse an
illegal event until the table insists, rule, declare, and lose a race cleanly.

Taps on the board itself are a browser's to make: `test_record_browser.py` records whole
golden games by taps in Chromium.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.app.state import die_key
from events.base import Event
from events.shared import MatchEnded, Ruled
from projections.corpus.simulate import play
from projections.read.replay import Fold
from projections.record.recording import same_event
from projections.record.tapplan import Plan, plan
from projections.workspace import Workspace
from rulesets import registry
from rulesets.registry import Rules
from tests.dashboard.conftest import PLAYABLE

PAGE = str(Path(__file__).parents[2] / "dashboard" / "app" / "pages" / "record.py")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty store the page opens through $TABLETAPE_HOME."""
    monkeypatch.setenv("TABLETAPE_HOME", str(tmp_path / "store"))
    return tmp_path / "store"


def widget(widgets: Sequence[Any], label: str) -> Any:
    """The one widget with this label (fails with the labels there are)."""
    found = [w for w in widgets if w.label == label]
    assert len(found) == 1, f"{label!r} not unique among {[w.label for w in widgets]}"
    return found[0]


def choose(at: AppTest, label: str, shown: str) -> None:
    """Pick the option shown as `shown` in the selectbox `label` (without running)."""
    box = widget(at.selectbox, label)
    box.select_index(box.options.index(shown))


def start(home: Path, spec: str = "mortalgate@2.5") -> tuple[AppTest, Workspace, str]:
    """Open the page and start a playtest of `spec` with the game's example seats."""
    before = set(Workspace(home).matches())
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    game, version = spec.split("@")
    choose(at, "Game", registry.game(game).title)
    at.run()
    box = widget(at.selectbox, "Version or variant")
    box.select_index(next(i for i, o in enumerate(box.options) if o.startswith(f"{version} ·")))
    at.text_input(key="rec_title").input("thursday playtest")
    at.button(key="rec_start").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    ws = Workspace(home)
    [match_id] = [m for m in ws.matches() if m not in before]
    return at, ws, match_id


def events_of(ws: Workspace, match_id: str) -> list[Event]:
    return list(ws.events(match_id))


def last(ws: Workspace, match_id: str) -> Any:
    return events_of(ws, match_id)[-1]


def texts(elements: Sequence[Any]) -> str:
    return "\n".join(str(e.value) for e in elements)


def roll(at: AppTest, seq: int, faces: dict[str, Any]) -> None:
    """Tap one face per die on the pad of the position after `seq`."""
    for name, face in faces.items():
        at.button_group(key=f"rec_die_{seq}_{die_key(name)}").set_value(face)
    at.run()


def plans(rules: Rules, game: Sequence[Event]) -> list[Plan]:
    """How each event of `game` (after line 0) is recorded by taps."""
    fold = Fold(rules, audit=False)
    step = fold.first(game[0])  # type: ignore[arg-type]
    out = []
    for event in game[1:]:
        out.append(plan(rules, step.state, event))
        step = fold(step, event)
    return out


def test_start_writes_line_0_and_opens_the_dice_pad_the_rules_call_for(home: Path) -> None:
    at, ws, match_id = start(home)
    header = ws.header(match_id)
    assert (header.ruleset, header.version, header.source, header.title) == ("mortalgate", "2.5", "playtest", "thursday playtest")
    assert header.seats == dict(registry.game("mortalgate").example_seats)
    red = at.button_group(key="rec_die_0_red")
    assert (red.label, list(red.options)) == ("red", ["1", "2", "3", "4", "5", "6"]) or red.label == "red"
    assert at.button_group(key="rec_die_0_blue").label == "blue"
    assert red.proto.wrap  # faces wrap onto rows in the side panel: a 45-card deck never scrolls sideways


def test_bad_seats_are_refused_in_one_line_and_nothing_is_written(home: Path) -> None:
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    choose(at, "Game", "MortalGate")
    at.run()
    at.text_area(key="rec_seats_mortalgate").input("red = ana\ngreen = ben")
    at.button(key="rec_start").click().run()
    assert "seat 'green' names no team" in at.error[0].value
    assert Workspace(home).matches() == []


def test_the_dice_pad_says_what_the_roll_means_before_it_is_recorded(home: Path) -> None:
    at, ws, match_id = start(home)
    roll(at, 0, {"red": 5, "blue": 2})
    assert "draft roll: red 5, blue 2: red wins the roll" in texts(at.info)
    at.button(key="rec_record_roll_0").click().run()
    event = last(ws, match_id)
    assert (type(event).__name__, event.seq, event.red, event.blue) == ("DraftRolled", 1, 5, 2)
    assert "recorded: draft roll: red 5, blue 2" in texts(at.markdown)
    labels = [b.label for b in at.button if (b.key or "").startswith("rec_button_1_")]
    assert labels == ["red takes the first pick", "red takes the first turn"]


def test_an_attack_roll_reads_as_hit_or_miss_with_the_number_needed(home: Path) -> None:
    at, ws, match_id = start(home)
    rules = ws.rules_of(match_id)
    game = play(rules, dict(ws.header(match_id).seats), seed=3)
    pending = next(i for i, e in enumerate(game) if type(e).__name__ == "AttackRolled")
    ws.append_events(match_id, game[1:pending])
    at.run()
    roll(at, pending - 1, {"tens": 0, "ones": 1})  # 1: a miss whatever the chance
    meaning = texts(at.info)
    assert "tens 0, ones 1: 1 against" in meaning and "a miss (needs" in meaning
    roll(at, pending - 1, {"tens": 9, "ones": 9})
    assert "99 against" in texts(at.info) and "a hit (needs" in texts(at.info) and "damage" in texts(at.info)
    at.button(key=f"rec_record_roll_{pending - 1}").click().run()
    event = events_of(ws, match_id)[pending]
    assert (type(event).__name__, event.tens, event.ones, event.hit) == ("AttackRolled", 9, 9, None)


def test_an_off_board_choice_is_one_button_in_the_games_words(home: Path) -> None:
    at, ws, match_id = start(home)
    roll(at, 0, {"red": 6, "blue": 1})
    at.button(key="rec_record_roll_0").click().run()
    at.button(key="rec_button_1_1").click().run()
    event = last(ws, match_id)
    assert (type(event).__name__, event.team, event.choice, event.by) == ("DraftChoiceMade", "red", "first_turn", "red")


def test_what_the_rules_force_is_written_by_the_recorder_and_undone_with_the_decision(home: Path) -> None:
    """The table taps a decision; the events the rules then leave no choice about follow in
    the same append; one Undo takes them all back."""
    at, ws, match_id = start(home)
    rules = ws.rules_of(match_id)
    game = play(rules, dict(ws.header(match_id).seats), seed=3)
    how = plans(rules, game)
    k = next(i for i in range(len(how) - 1) if how[i].kind == "dice" and how[i + 1].kind == "forced")
    ws.append_events(match_id, game[1:k + 1])  # events 1..k; the roll at k+1 forces k+2
    at.run()
    faces = {tap.die: int(tap.what) for tap in how[k].taps if tap.where == "die"}
    roll(at, k, faces)
    at.button(key=f"rec_record_roll_{k}").click().run()
    written = events_of(ws, match_id)
    assert same_event(written[k + 1], game[k + 1]) and same_event(written[k + 2], game[k + 2])
    assert "the rules imply" in texts(at.markdown)
    undo = at.button(key="rec_undo")
    assert undo.label.startswith("Undo: tens")
    undo.click().run()
    retracted = events_of(ws, match_id)[-2:]
    assert [type(e).__name__ for e in retracted] == ["Retracted", "Retracted"]
    assert [e.target_seq for e in retracted] == [k + 2, k + 1]
    assert not ws.audit(match_id).errors
    assert at.button_group(key=f"rec_die_{k + 4}_tens")  # the pad is back for the same roll


def test_an_illegal_event_is_written_only_when_the_table_insists(home: Path) -> None:
    at, ws, match_id = start(home)
    at.button_group(key="rec_mode").set_value("Any event").run()
    choose(at, "Event type", "HeroPicked")
    at.run()
    choose(at, "Seat (by)", "blue")
    widget(at.text_area, "Fields (JSON)").input('{"hero": "drexir"}')
    at.run()
    assert "blue drafts Drexir" in texts(at.caption)
    assert "mortalgate/draft" in texts(at.warning)
    at.button(key="rec_record_free").click().run()
    assert ws.store.last(match_id)[0] == 0
    assert "not written" in at.error[0].value
    at.checkbox(key="rec_insist_free").check().run()
    at.button(key="rec_record_free").click().run()
    event = last(ws, match_id)
    assert (type(event).__name__, event.seq, event.by, event.hero) == ("HeroPicked", 1, "blue", "drexir")
    assert "against the rules" in texts(at.warning)
    assert [v.rule for v in ws.audit(match_id).errors][:1] == ["mortalgate/draft.pick-order"]
    assert at.button_group(key="rec_mode").value == "Any event"  # the tab stays where the table left it


def test_a_malformed_hand_entry_names_the_field_and_writes_nothing(home: Path) -> None:
    at, ws, match_id = start(home)
    at.button_group(key="rec_mode").set_value("Any event").run()
    choose(at, "Event type", "HeroPicked")
    at.run()
    widget(at.text_area, "Fields (JSON)").input('{"hero": 7}')
    at.run()
    assert "(field hero)" in at.error[0].value
    assert not [b for b in at.button if b.key == "rec_record_free"]
    assert ws.store.last(match_id)[0] == 0


def test_a_ruling_settles_a_violation(home: Path) -> None:
    at, ws, match_id = start(home)
    at.button_group(key="rec_mode").set_value("Any event").run()
    choose(at, "Event type", "HeroPicked")
    at.run()
    widget(at.text_area, "Fields (JSON)").input('{"hero": "drexir"}')
    at.run()
    at.checkbox(key="rec_insist_free").check().run()
    at.button(key="rec_record_free").click().run()
    at.button_group(key="rec_mode").set_value("Ruling").run()
    assert at.text_input(key="rec_rule_1").value == "mortalgate/draft.pick-order"
    at.text_input(key="rec_decision").input("house rule: blue picks first this game").run()
    at.button(key="rec_record_ruling").click().run()
    event = last(ws, match_id)
    assert isinstance(event, Ruled) and (event.rule, event.applies_to) == ("mortalgate/draft.pick-order", 1)
    assert not ws.audit(match_id).errors


def test_a_declared_result_the_rules_dispute_needs_insisting(home: Path) -> None:
    at, ws, match_id = start(home)
    at.button_group(key="rec_mode").set_value("Result").run()
    choose(at, "Winner", "red")
    at.run()
    assert "by the rules the game is not over" in texts(at.warning)
    at.button(key="rec_record_result").click().run()
    assert ws.store.last(match_id)[0] == 0
    at.checkbox(key="rec_insist_result").check().run()
    at.button(key="rec_record_result").click().run()
    event = last(ws, match_id)
    assert isinstance(event, MatchEnded) and event.winner == "red"


def test_the_end_of_the_game_is_one_tap_to_record_and_one_into_replay(home: Path) -> None:
    at, ws, match_id = start(home)
    rules = ws.rules_of(match_id)
    game = play(rules, dict(ws.header(match_id).seats), seed=3)
    assert isinstance(game[-1], MatchEnded)
    ws.append_events(match_id, game[1:-1])
    at.run()
    assert f"By the rules the game is over: {game[-1].winner} won ({game[-1].reason})" in texts(at.success)
    at.button(key=f"rec_record_end_{len(game) - 2}").click().run()
    assert same_event(last(ws, match_id), game[-1])
    assert at.button(key="rec_to_replay")


def test_a_stale_page_gets_a_conflict_not_a_second_line(home: Path) -> None:
    at, ws, match_id = start(home)
    roll(at, 0, {"red": 5, "blue": 2})
    ws.append(match_id, '{"type": "DraftRolled", "red": 6, "blue": 1}')  # another recorder, same match
    at.button(key="rec_record_roll_0").click().run()
    assert "not written" in at.error[0].value and "seq" in at.error[0].value
    assert ws.store.last(match_id)[0] == 1
    assert next(b.label for b in at.button if (b.key or "").startswith("rec_button_1_")) == "red takes the first pick"


def test_continue_a_playtest_and_close_it(home: Path) -> None:
    ws = Workspace(home)
    ws.new_match("mortalgate@2.1", {"red": "ana", "blue": "ben"}, match_id="tuesday", title="tuesday")
    ws.append("tuesday", '{"type": "DraftRolled", "red": 6, "blue": 1}')
    ws.new_match("mortalgate@2.5", {"red": "bot", "blue": "bot"}, match_id="bots", source="simulation")
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    assert widget(at.selectbox, "Playtest").options == ["tuesday · mortalgate@2.1 · 2 events · tuesday"]
    at.button(key="rec_continue").click().run()
    assert [b.label for b in at.button if (b.key or "").startswith("rec_button_1_")] == ["red takes the first pick", "red takes the first turn"]
    assert "draft roll: red 6, blue 1: red wins the roll" in texts(at.markdown)
    at.button(key="rec_close").click().run()
    assert at.button(key="rec_start")


@pytest.mark.parametrize("game", [g for g in PLAYABLE if g != "mortalgate"])
def test_every_other_game_starts_and_records_its_first_steps_without_typing(home: Path, game: str) -> None:
    """The first events of a bot game of each game are recorded from the pad and buttons;
    board taps are the browser test's."""
    at, ws, match_id = start(home, f"{game}@{registry.game(game).newest}")
    rules = ws.rules_of(match_id)
    played = play(rules, dict(ws.header(match_id).seats), seed=1)
    how = plans(rules, played)
    seq = ws.store.last(match_id)[0]
    assert all(p.kind == "forced" for p in how[:seq])
    recorded = 0
    while seq < len(how) and how[seq].kind in ("dice", "button", "forced") and recorded < 3:
        step = how[seq]
        if step.kind == "dice":
            roll(at, seq, {tap.die: _face(at, seq, tap.die, tap.what) for tap in step.taps if tap.where == "die"})
            if step.taps[-1].where == "record":  # a card dealt is written by its tap alone
                at.button(key=f"rec_record_roll_{seq}").click().run()
        elif step.kind == "button":
            labels = {b.label: b for b in at.button if (b.key or "").startswith(f"rec_button_{seq}_")}
            if labels:
                labels[step.taps[0].what].click().run()
            else:  # many off-board choices are one picker
                box = at.selectbox(key=f"rec_choose_{seq}")
                box.select_index(next(i for i, shown in enumerate(box.options) if shown == step.taps[0].what)).run()
                at.button(key=f"rec_button_chosen_{seq}").click().run()
        recorded += 1
        seq = ws.store.last(match_id)[0]
    assert not at.exception, at.exception
    written = events_of(ws, match_id)
    assert all(same_event(a, b) for a, b in zip(written[1:], played[1:], strict=False))
    assert not ws.audit(match_id).errors


def _face(at: AppTest, seq: int, die: str, shown: str) -> Any:
    """The option of a die's pad that is shown as `shown`."""
    group = at.button_group(key=f"rec_die_{seq}_{die_key(die)}")
    return next(o for o in group.options if str(o) == shown) if hasattr(group, "options") else shown


def test_match_options_are_asked_for_and_written_into_line_0(home: Path) -> None:
    """A game's per-match options (a mission, a points limit...) are form fields; blank
    ones are left to the rules' default."""
    games = [g for g in registry.names() if any(o.choices for o in registry.game(g).options)]
    if not games:
        pytest.skip("no registered game has a per-match option with choices")
    ruleset = registry.game(games[0])
    option = next(o for o in ruleset.options if o.choices)
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    choose(at, "Game", ruleset.title)
    at.run()
    chosen = option.choices[-1]
    widget(at.selectbox, option.name).set_value(chosen)
    at.button(key="rec_start").click().run()
    assert not at.error, [e.value for e in at.error]
    [match_id] = Workspace(home).matches()
    assert Workspace(home).header(match_id).options[option.name] == chosen


def test_a_link_to_a_playtest_opens_it_for_continuing(home: Path) -> None:
    ws = Workspace(home)
    ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, match_id="monday", title="monday")
    ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, match_id="tuesday", title="tuesday")
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params["match"] = "tuesday"
    at.run()
    assert at.selectbox(key="rec_continue_pick").value == "tuesday"
    at.button(key="rec_continue").click().run()
    assert "tuesday" in texts(at.markdown)


def test_a_frontier_table_is_taken_whole_from_an_earlier_match_in_one_tap(home: Path) -> None:
    """While the board is empty, the panel lists the standard table and the tables earlier
    Frontier matches agreed (newest first); one tap lays the chosen one as its TerrainPlaced
    events, moves included, and the pieces can then be moved and the table agreed."""
    from rulesets.frontier.events import TerrainAgreed, TerrainMoved, TerrainPlaced
    from tests.frontier.test_setup import HOUSE, SWAMP

    ws = Workspace(home)
    ws.new_match("frontier", {"p1": "ana", "p2": "ben"}, match_id="last-week", title="at Ana's")
    ws.append_events("last-week", [HOUSE, SWAMP, TerrainMoved(by="p1", piece="house", to=(23.0, 20.0)), TerrainAgreed(by="p1")])
    at, ws, match_id = start(home, f"frontier@{registry.game('frontier').newest}")
    assert events_of(ws, match_id)[1:] == []  # nothing laid unasked
    box = widget(at.selectbox, "Take the table from")
    shown = list(box.options)
    assert shown[0].startswith("the standard table · 13 pieces") and shown[1].startswith("last-week · ") and "at Ana's · 2 pieces" in shown[1]
    at.button(key="rec_table_lay_0").click().run()  # the standard table, then taken back whole
    assert len(events_of(ws, match_id)) == 14 and "recorded: the standard table laid, 13 pieces" in texts(at.markdown)
    at.button(key="rec_table_clear_13").click().run()
    assert [getattr(e, "target_seq", None) for e in events_of(ws, match_id)[14:]] == list(range(13, 0, -1))
    box = widget(at.selectbox, "Take the table from")
    box.select_index(1).run()
    at.button(key="rec_table_lay_26").click().run()
    assert not at.exception, at.exception
    laid = events_of(ws, match_id)[27:]
    assert [(e.piece, e.outline) for e in laid if isinstance(e, TerrainPlaced)] == [
        ("house", ((20.0, 17.0), (26.0, 17.0), (26.0, 23.0), (20.0, 23.0))), ("swamp", SWAMP.outline)]
    assert len(laid) == 2 and not ws.audit(match_id).errors
    assert "Hab (scale 3) placed at 20–26″ × 17–23″" in texts(at.markdown)
    assert not [w for w in at.selectbox if w.label == "Take the table from"]  # laid: the board takes over
    at.button(key="rec_button_28_0").click().run()  # "the table is set"
    assert isinstance(last(ws, match_id), TerrainAgreed)


def test_the_status_strip_keeps_each_value_to_its_headline_and_the_whole_panel_in_its_tooltip(home: Path) -> None:
    """Frontier's armies list every unit and Frontline's workers every job: above the board the
    strip gives each value up to its first detail, and what its turn line says only there, so
    the board is not pushed off a tablet."""
    at, ws, match_id = start(home, "frontline@1.0")
    rules = ws.rules_of(match_id)
    view = rules.ruleset.view(rules.params, ws.state_at(match_id, ws.store.last(match_id)[0]).state, None)
    [workers] = [value for label, value in view.panels[1].rows if label == "workers"]
    assert ": " in workers  # where each of a side's workers is, after the count
    [strip] = [m for m in at.markdown if "  \n**turn " in str(m.value)]  # under the match's title
    assert f"workers {workers.split(': ')[0]} …" in strip.value and workers not in strip.value
    assert f"workers {workers}" in strip.proto.help
    assert "to act: **a**" in strip.value and "to act a" not in strip.value  # said once, in the turn line


def test_a_branch_started_on_replay_is_played_on_here_from_the_event_it_left(home: Path) -> None:
    import json

    import msgspec

    from projections.corpus.demo import save_events
    from tests.test_branches import _other_line

    ws = Workspace(home)
    rules = ws.rules("mortalgate@2.5")
    parent = save_events(ws, play(rules, rules.ruleset.example_seats, seed=3, match_id="m1", max_events=60))
    at_seq, other = _other_line(ws, parent)
    ws.branch(parent, at_seq, new_id="b1")
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.session_state["match_id"] = "b1"  # opened by Replay's "Branch here"
    at.run()
    assert "b1 · mortalgate@2.5 · branch of m1" in widget(at.selectbox, "Playtest").options[0]
    at.button(key="rec_continue").click().run()
    at.button_group(key="rec_mode").set_value("Any event").run()
    choose(at, "Event type", type(other).__name__)
    at.run()
    if other.by:
        choose(at, "Seat (by)", other.by)
    fields = {k: v for k, v in msgspec.to_builtins(other).items() if k not in ("type", "seq", "at", "by", "prev")}
    widget(at.text_area, "Fields (JSON)").input(json.dumps(fields))
    at.run()
    at.button(key="rec_record_free").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    written = last(ws, "b1")
    assert written.seq == at_seq + 1 and same_event(written, other)
    assert not ws.audit("b1").violations and ws.store.last(parent)[0] == 59
