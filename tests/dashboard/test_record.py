"""The Record page, driven through its widgets (AppTest): start a playtest, read what the
panel beside the board offers (the dice pad and what each roll means, the off-board actions
in the game's words, the status strip, the end of the game), refuse an illegal event until
the table insists, rule, declare, continue and close.

Presses on the panel and taps on the board are a browser's to make: `test_record_browser.py`
records whole golden games, narrows and records rolls, picks, undoes and loses a race there.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from events.base import Event
from events.shared import MatchEnded, Ruled
from projections.corpus.simulate import play
from projections.record.recording import same_event
from projections.workspace import Workspace
from rulesets import registry

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


def panel(at: AppTest) -> dict[str, Any]:
    """What the page hands the board component to draw beside the board."""
    import json

    [board] = at.get("bidi_component")
    shown: dict[str, Any] = json.loads(board.proto.json)["panel"]
    return shown


def part(at: AppTest, kind: str) -> dict[str, Any]:
    """The one part of the panel of this kind (the dice pad, the buttons, the end)."""
    found = [p for p in panel(at)["parts"] if p["kind"] == kind]
    assert len(found) == 1, f"{kind!r} not one of {[p['kind'] for p in panel(at)['parts']]}"
    return found[0]


def meaning(at: AppTest, faces: dict[str, Any]) -> str:
    """What the dice pad says a roll showing `faces` means."""
    pad = part(at, "dice")
    wanted = [shown.index(str(faces[name])) for name, shown in pad["dice"]]
    [index] = [i for i, o in enumerate(pad["outcomes"]) if o == wanted]
    return str(pad["meanings"][index])


def message(at: AppTest) -> str:
    """The message of the last write, as the panel shows it: 'kind: text'."""
    said = panel(at)["message"]
    return f"{said[0]}: {said[1]}" if said else ""


def test_start_writes_line_0_and_opens_the_dice_pad_the_rules_call_for(home: Path) -> None:
    at, ws, match_id = start(home)
    header = ws.header(match_id)
    assert (header.ruleset, header.version, header.source, header.title) == ("mortalgate", "2.5", "playtest", "thursday playtest")
    assert header.seats == dict(registry.game("mortalgate").example_seats)
    assert part(at, "dice")["dice"] == [["red", ["1", "2", "3", "4", "5", "6"]], ["blue", ["1", "2", "3", "4", "5", "6"]]]


def test_bad_seats_are_refused_in_one_line_and_nothing_is_written(home: Path) -> None:
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    choose(at, "Game", "MortalGate")
    at.run()
    at.text_area(key="rec_seats_mortalgate").input("red = ana\ngreen = ben")
    at.button(key="rec_start").click().run()
    assert "seat 'green' names no team" in at.error[0].value
    assert Workspace(home).matches() == []


def test_the_dice_pad_says_what_each_roll_means_before_it_is_recorded(home: Path) -> None:
    at, _, _ = start(home)
    assert meaning(at, {"red": 5, "blue": 2}) == "draft roll: red 5, blue 2: red wins the roll"
    assert not part(at, "dice")["oneTap"]  # numbers: the meaning is read before Record


def test_an_attack_roll_reads_as_hit_or_miss_with_the_number_needed(home: Path) -> None:
    at, ws, match_id = start(home)
    rules = ws.rules_of(match_id)
    game = play(rules, dict(ws.header(match_id).seats), seed=3)
    pending = next(i for i, e in enumerate(game) if type(e).__name__ == "AttackRolled")
    ws.append_events(match_id, game[1:pending])
    at.run()
    miss = meaning(at, {"tens": 0, "ones": 1})  # 1: a miss whatever the chance
    assert "tens 0, ones 1: 1 against" in miss and "a miss (needs" in miss
    hit = meaning(at, {"tens": 9, "ones": 9})
    assert "99 against" in hit and "a hit (needs" in hit and "damage" in hit


def test_an_off_board_choice_is_one_button_in_the_games_words(home: Path) -> None:
    ws = Workspace(home)
    ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, match_id="m", source="playtest")
    ws.append("m", '{"type": "DraftRolled", "red": 6, "blue": 1}')
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params["match"] = "m"
    at.run()
    at.button(key="rec_continue").click().run()
    assert part(at, "buttons") == {"kind": "buttons", "choices": ["red takes the first pick", "red takes the first turn"], "list": False}


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
    assert message(at).startswith("error: not written")
    at.checkbox(key="rec_insist_free").check().run()
    at.button(key="rec_record_free").click().run()
    event = last(ws, match_id)
    assert (type(event).__name__, event.seq, event.by, event.hero) == ("HeroPicked", 1, "blue", "drexir")
    assert message(at).startswith("warning: recorded") and "against the rules" in message(at)
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


def test_the_end_of_the_game_is_said_with_one_press_to_record_it(home: Path) -> None:
    at, ws, match_id = start(home)
    rules = ws.rules_of(match_id)
    game = play(rules, dict(ws.header(match_id).seats), seed=3)
    assert isinstance(game[-1], MatchEnded)
    ws.append_events(match_id, game[1:-1])
    at.run()
    ended = part(at, "ended")
    assert ended["said"] == f"By the rules the game is over: {game[-1].winner} won ({game[-1].reason})."
    assert ended["record"] == f"Record the result: {game[-1].winner} won"
    assert [p["kind"] for p in panel(at)["parts"]] == ["ended"]  # nothing else to press once it is over


def test_continue_a_playtest_and_close_it(home: Path) -> None:
    ws = Workspace(home)
    ws.new_match("mortalgate@2.1", {"red": "ana", "blue": "ben"}, match_id="tuesday", title="tuesday")
    ws.append("tuesday", '{"type": "DraftRolled", "red": 6, "blue": 1}')
    ws.new_match("mortalgate@2.5", {"red": "bot", "blue": "bot"}, match_id="bots", source="simulation")
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    assert widget(at.selectbox, "Playtest").options == ["tuesday · mortalgate@2.1 · 2 events · tuesday"]
    at.button(key="rec_continue").click().run()
    assert part(at, "buttons")["choices"] == ["red takes the first pick", "red takes the first turn"]
    assert panel(at)["latest"][0] == [1, "draft roll: red 6, blue 1: red wins the roll", False, False]
    at.button(key="rec_close").click().run()
    assert at.button(key="rec_start")


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
    assert panel(at)["head"]["title"] == "tuesday"


def test_a_frontier_table_is_offered_from_the_standard_one_and_earlier_matches_newest_first(home: Path) -> None:
    """While the board is empty, the panel lists the standard table and the tables earlier
    Frontier matches agreed (newest first); laying one is a press in the browser."""
    from rulesets.frontier.events import TerrainAgreed, TerrainMoved
    from tests.frontier.test_setup import HOUSE, SWAMP

    ws = Workspace(home)
    ws.new_match("frontier", {"p1": "ana", "p2": "ben"}, match_id="last-week", title="at Ana's")
    ws.append_events("last-week", [HOUSE, SWAMP, TerrainMoved(by="p1", piece="house", to=(23.0, 20.0)), TerrainAgreed(by="p1")])
    at, ws, match_id = start(home, f"frontier@{registry.game('frontier').newest}")
    assert events_of(ws, match_id)[1:] == []  # nothing laid unasked
    [standard, earlier] = part(at, "table")["choices"]
    assert standard == ["the standard table · 13 pieces", 13]
    assert earlier[0].startswith("last-week · ") and "at Ana's · 2 pieces" in earlier[0] and earlier[1] == 2


def test_the_status_strip_keeps_each_value_to_its_headline_and_the_whole_panel_in_its_tooltip(home: Path) -> None:
    """Frontier's armies list every unit and Frontline's workers every job: above the board the
    strip gives each value up to its first detail, and what its turn line says only there, so
    the board is not pushed off a tablet."""
    at, ws, match_id = start(home, "frontline@1.0")
    rules = ws.rules_of(match_id)
    view = rules.ruleset.view(rules.params, ws.state_at(match_id, ws.store.last(match_id)[0]).state, None)
    [workers] = [value for label, value in view.panels[1].rows if label == "workers"]
    assert ": " in workers  # where each of a side's workers is, after the count
    head = panel(at)["head"]
    strip = "\n".join(text for _, text in head["panels"])
    assert f"workers {workers.split(': ')[0]} …" in strip and workers not in strip
    assert f"workers {workers}" in head["whole"]
    assert head["actor"] == "a" and "to act a" not in strip  # said once, in the turn line


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
