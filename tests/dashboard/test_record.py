"""The Record page, driven through its widgets: start a playtest, enter dice, refuse an
illegal event until the table insists, undo, rule, declare, and lose a race cleanly."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from events.shared import MatchEnded, Retracted, Ruled
from projections.recording import Live
from projections.simulate import play
from projections.workspace import Workspace
from rulesets import registry

PAGE = str(Path(__file__).parents[2] / "dashboard" / "pages" / "record.py")


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
    [match_id] = ws.matches()
    return at, ws, match_id


def warned(at: AppTest) -> str:
    """Every warning on the page, as one text."""
    return "\n".join(w.value for w in at.warning)


def last(ws: Workspace, match_id: str) -> Any:
    return list(ws.events(match_id))[-1]


def test_start_writes_line_0_of_a_playtest(home: Path) -> None:
    at, ws, match_id = start(home)
    header = ws.header(match_id)
    assert (header.ruleset, header.version, header.source, header.title) == ("mortalgate", "2.5", "playtest", "thursday playtest")
    assert header.seats == dict(registry.game("mortalgate").example_seats)
    assert widget(at.selectbox, "Event").options == ["DraftRolled (36 outcomes)"]


def test_bad_seats_are_refused_in_one_line_and_nothing_is_written(home: Path) -> None:
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    at.text_area(key="rec_seats_mortalgate").input("red = ana\ngreen = ben")
    at.button(key="rec_start").click().run()
    assert "seat 'green' names no team" in at.error[0].value
    assert Workspace(home).matches() == []


def test_a_chance_step_takes_the_dice_values(home: Path) -> None:
    at, ws, match_id = start(home)
    choose(at, "red", "5")
    choose(at, "blue", "2")
    at.run()
    at.button(key="rec_record_legal").click().run()
    event = last(ws, match_id)
    assert (type(event).__name__, event.seq, event.red, event.blue) == ("DraftRolled", 1, 5, 2)
    assert "recorded seq 1 DraftRolled" in at.success[0].value
    assert widget(at.selectbox, "Event").options == ["DraftChoiceMade (2 legal)"]


def test_legal_choices_narrow_field_by_field(home: Path) -> None:
    """Seat, then hero, then node: each choice offers only what keeps the event legal."""
    at, ws, match_id = start(home)
    game = play(ws.rules_of(match_id), dict(ws.header(match_id).seats), seed=1)
    placing = next(i for i, e in enumerate(game) if type(e).__name__ == "HeroPlaced")
    ws.append_events(match_id, game[1:placing])
    at.run()
    box = widget(at.selectbox, "Event")
    box.select_index(next(i for i, o in enumerate(box.options) if o.startswith("HeroPlaced")))
    at.run()
    choose(at, "by", "blue")
    at.run()
    live = Live.open(ws, match_id)
    legal = [e for e in live.rules.ruleset.legal(live.rules.params, live.state) if type(e).__name__ == "HeroPlaced" and e.by == "blue"]
    assert sorted(widget(at.selectbox, "hero").options) == sorted({e.hero for e in legal})
    hero = widget(at.selectbox, "hero").options[-1]
    choose(at, "hero", hero)
    at.run()
    nodes = [e.node for e in legal if e.hero == hero]
    assert widget(at.selectbox, "node").options == [f"({c}, {r})" for c, r in nodes]
    choose(at, "node", f"({nodes[-1][0]}, {nodes[-1][1]})")
    at.run()
    at.button(key="rec_record_legal").click().run()
    event = last(ws, match_id)
    assert (type(event).__name__, event.by, event.hero, event.node) == ("HeroPlaced", "blue", hero, nodes[-1])
    assert not ws.audit(match_id).errors


def test_an_illegal_event_is_written_only_when_the_table_insists(home: Path) -> None:
    at, ws, match_id = start(home)
    choose(at, "Event type", "HeroPicked")
    at.run()
    choose(at, "Seat (by)", "blue")
    widget(at.text_area, "Fields (JSON)").input('{"hero": "drexir"}')
    at.run()
    assert "mortalgate/draft" in warned(at)
    at.button(key="rec_record_free").click().run()
    assert ws.store.last(match_id)[0] == 0
    assert "not written" in at.error[0].value
    at.checkbox(key="rec_insist_free").check().run()
    at.button(key="rec_record_free").click().run()
    event = last(ws, match_id)
    assert (type(event).__name__, event.seq, event.by, event.hero) == ("HeroPicked", 1, "blue", "drexir")
    assert "against the rules" in warned(at)
    assert [v.rule for v in ws.audit(match_id).errors][:1] == ["mortalgate/draft.pick-order"]


def test_a_malformed_hand_entry_names_the_field_and_writes_nothing(home: Path) -> None:
    at, ws, match_id = start(home)
    choose(at, "Event type", "HeroPicked")
    at.run()
    widget(at.text_area, "Fields (JSON)").input('{"hero": 7}')
    at.run()
    assert "(field hero)" in at.error[0].value
    assert not [b for b in at.button if b.key == "rec_record_free"]
    assert ws.store.last(match_id)[0] == 0


def test_the_table_may_call_a_hit_the_rules_dispute(home: Path) -> None:
    """At a dice step the table's own call (hit, damage) is a field; a wrong call warns."""
    at, ws, match_id = start(home)
    game = play(ws.rules_of(match_id), dict(ws.header(match_id).seats), seed=3)
    pending = next(i for i, e in enumerate(game) if type(e).__name__ == "AttackRolled")
    ws.append_events(match_id, game[1:pending])
    at.run()
    assert widget(at.selectbox, "Event").options[0].startswith("AttackRolled")
    choose(at, "tens", "0")
    choose(at, "ones", "1")  # a roll of 1: a miss whatever the chance
    at.text_input(key=f"rec_{match_id}_{pending - 1}_AttackRolled_x_hit").input("true")
    at.run()
    assert "mortalgate/combat.hit" in warned(at)
    at.button(key="rec_record_legal").click().run()
    assert ws.store.last(match_id)[0] == pending - 1
    at.checkbox(key="rec_insist_legal").check().run()
    at.button(key="rec_record_legal").click().run()
    event = last(ws, match_id)
    assert (event.tens, event.ones, event.hit) == (0, 1, True)


def test_undo_writes_retracted_for_the_latest_event_in_force(home: Path) -> None:
    at, ws, match_id = start(home)
    at.button(key="rec_record_legal").click().run()
    at.text_input(key="rec_undo_reason").input("misread the dice")
    at.run()
    undo = at.button(key="rec_undo")
    assert undo.label == "Undo seq 1 (DraftRolled)"
    undo.click().run()
    event = last(ws, match_id)
    assert isinstance(event, Retracted) and (event.seq, event.target_seq, event.reason) == (2, 1, "misread the dice")
    assert widget(at.selectbox, "Event").options == ["DraftRolled (36 outcomes)"]
    assert "Nothing to undo." in [c.value for c in at.caption]


def test_a_ruling_settles_a_violation(home: Path) -> None:
    at, ws, match_id = start(home)
    choose(at, "Event type", "HeroPicked")
    at.run()
    widget(at.text_area, "Fields (JSON)").input('{"hero": "drexir"}')
    at.run()
    at.checkbox(key="rec_insist_free").check().run()
    at.button(key="rec_record_free").click().run()
    assert at.text_input(key="rec_rule_1").value == "mortalgate/draft.pick-order"
    at.text_input(key="rec_decision").input("house rule: blue picks first this game").run()
    at.button(key="rec_record_ruling").click().run()
    event = last(ws, match_id)
    assert isinstance(event, Ruled) and (event.rule, event.applies_to) == ("mortalgate/draft.pick-order", 1)
    assert not ws.audit(match_id).errors


def test_a_declared_result_the_rules_dispute_needs_insisting(home: Path) -> None:
    at, ws, match_id = start(home)
    choose(at, "Winner", "red")
    at.run()
    assert "by the rules the game is not over" in warned(at)
    at.button(key="rec_record_result").click().run()
    assert ws.store.last(match_id)[0] == 0
    at.checkbox(key="rec_insist_result").check().run()
    at.button(key="rec_record_result").click().run()
    event = last(ws, match_id)
    assert isinstance(event, MatchEnded) and event.winner == "red"


def test_a_stale_form_gets_a_conflict_not_a_second_line(home: Path) -> None:
    at, ws, match_id = start(home)
    ws.append(match_id, '{"type": "DraftRolled", "red": 6, "blue": 1}')  # another recorder, same match
    at.button(key="rec_record_legal").click().run()
    assert "not written" in at.error[0].value and "seq" in at.error[0].value
    assert ws.store.last(match_id)[0] == 1
    assert widget(at.selectbox, "Event").options == ["DraftChoiceMade (2 legal)"]


def test_continue_a_playtest_and_close_it(home: Path) -> None:
    ws = Workspace(home)
    ws.new_match("mortalgate@2.1", {"red": "ana", "blue": "ben"}, match_id="tuesday", title="tuesday")
    ws.append("tuesday", '{"type": "DraftRolled", "red": 6, "blue": 1}')
    ws.new_match("mortalgate@2.5", {"red": "bot", "blue": "bot"}, match_id="bots", source="simulation")
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    assert widget(at.selectbox, "Playtest").options == ["tuesday · mortalgate@2.1 · 2 events · tuesday"]
    at.button(key="rec_continue").click().run()
    assert widget(at.selectbox, "Event").options == ["DraftChoiceMade (2 legal)"]
    at.button(key="rec_close").click().run()
    assert at.button(key="rec_start")


@pytest.mark.parametrize("game", [g for g in registry.GAMES if g != "mortalgate"])
def test_every_other_game_can_be_started_and_offers_its_legal_events(home: Path, game: str) -> None:
    at, ws, match_id = start(home, f"{game}@{registry.game(game).newest}")
    assert widget(at.selectbox, "Event").options
    at.button(key="rec_record_legal").click().run()
    assert not at.exception
    assert ws.store.last(match_id)[0] == 1
    assert not ws.audit(match_id).errors


def test_match_options_are_asked_for_and_written_into_line_0(home: Path) -> None:
    """A game's per-match options (a mission, a points limit...) are form fields; blank
    ones are left to the rules' default."""
    games = [g for g in registry.GAMES if any(o.choices for o in registry.game(g).options)]
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
