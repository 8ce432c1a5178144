"""Frontier at the table: every event in words and inches, every act a tap or two on the table,
rated dice with advantage read on the dice pad.

A unit then where it moves or whom it targets; a unit card then where it is set up; an edge
or corner to deploy from; roles, factions and armies as buttons in words; a terrain piece
from the palette then where its centre goes, a piece on the table then where it moves (a
whole table is laid in one tap beside the board: tests/dashboard/test_record.py).
"""

from __future__ import annotations

import statistics

import pytest

from projections.read.replay import replay
from projections.record import dice
from projections.record.recording import forced
from projections.record.tapplan import plan
from rulesets.frontier.events import (
    ActionDeclared,
    ActionRolled,
    EdgeChosen,
    ReactionDeclared,
    TerrainAgreed,
    TerrainMoved,
    TerrainPlaced,
    UnitDeployed,
)
from rulesets.frontier.table import TERRAIN_ROW
from rulesets.view import card_key, key_position, piece_key, space_key
from tests.contract import check_bot_game_is_recordable_by_taps
from tests.frontier.scenario import P, R, block, legally, position, put
from tests.tap_support import REPR, described, drawn, golden_logs, log_steps, rules_of, taps

LOGS = golden_logs("frontier")
SAB = "p1/saboteur-1"
CAP = "p2/captain-1"


@pytest.mark.parametrize("name", list(LOGS))
def test_every_event_of_a_golden_log_is_described_in_words_names_and_inches(name: str) -> None:
    words = described(LOGS[name])
    assert "″ × " in words and " wins" in words
    assert "Level" not in words and "p1/" not in words and "p2/" not in words


@pytest.mark.parametrize("name", list(LOGS))
def test_a_golden_log_is_recorded_by_taps_on_drawn_units_cards_and_table_spots(name: str) -> None:
    events = LOGS[name]
    kinds = check_bot_game_is_recordable_by_taps(rules_of(events), events)
    assert kinds["board"] > kinds["button"]


@pytest.mark.parametrize("name", list(LOGS))
def test_moves_attacks_and_terrain_pieces_take_at_most_two_taps(name: str) -> None:
    events = LOGS[name]
    recorded = log_steps(rules_of(events), events)
    counts = taps(recorded)
    assert set(counts.get("UnitMoved", [1])) == {1}  # the moving unit is pre-selected: tap where it goes
    assert statistics.median(counts["ActionDeclared"]) <= 2 and max(counts["ActionDeclared"]) <= 3
    assert max(counts["ReactionDeclared"]) <= 2 and max(counts["UnitDeployed"]) <= 2
    assert statistics.median(counts["all"]) <= 2
    terrain = [s for s in recorded if isinstance(s.event, TerrainPlaced)]
    assert len(terrain) == 13 and {len(s.plan.taps) for s in terrain} == {2}  # a card below the table, then a spot
    agreed = [s for s in recorded if isinstance(s.event, TerrainAgreed)]
    assert [s.plan.kind for s in agreed] == ["button"]


def test_an_action_roll_with_advantage_is_two_dice_on_the_pad_and_reads_its_source() -> None:
    trench = block("trench", 3, 13, 7, 17, 0, (0, ("firing_position",)))
    state = legally(position(trench, put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")),
                    ActionDeclared(by="p1", unit=SAB, action="open_fire", target=CAP),
                    ReactionDeclared(by="p2", unit=CAP, reaction="take_cover"))
    outcomes = [e for e, _ in R.ruleset.chance(P, state) or []]
    pad = {d.name: d.faces for d in dice.dice(outcomes)}
    assert pad == {"active 1": (1, 2, 3, 4, 5, 6), "active 2": (1, 2, 3, 4, 5, 6), "reactive 1": (1, 2, 3, 4, 5, 6, 7, 8)}
    assert R.ruleset.describe is not None
    said = R.ruleset.describe(P, state, ActionRolled(active=(2, 5), reactive=(5,)))
    assert said == ("p1's Saboteur rolls firepower D6 with advantage (Firing Position: advantage on firepower) for open fire: "
                    "2 and 5, keeps 5; p2's Captain rolls discipline D8 for take cover: 5. "
                    "5 against 5: p1 wins (a tie goes to the active player): p2's Captain is shaken")
    lost = R.ruleset.describe(P, state, ActionRolled(active=(1, 2), reactive=(3,)))
    assert lost.endswith("2 against 3: p2 wins: the shot does nothing")
    assert [t.what for t in plan(R, state, ActionRolled(active=(2, 5), reactive=(5,))).taps] == ["2", "5", "5", "roll"]


def test_a_shaken_target_reads_as_destroyed() -> None:
    state = legally(position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2", shaken=True)),
                    ActionDeclared(by="p1", unit=SAB, action="open_fire", target=CAP),
                    ReactionDeclared(by="p2", unit=CAP, reaction="take_cover"))
    assert R.ruleset.describe is not None
    assert R.ruleset.describe(P, state, ActionRolled(active=(6,), reactive=(1,))).endswith("p2's Captain is destroyed (already shaken)")


def test_open_fire_is_the_unit_then_its_target_and_a_reaction_against_it_is_tapped_on_the_attacker() -> None:
    state = position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"))
    assert R.ruleset.touch is not None
    shot = ActionDeclared(by="p1", unit=SAB, action="open_fire", target=CAP)
    where = R.ruleset.touch(P, state, shot)
    assert (where.source, where.target, where.words) == (piece_key(SAB), piece_key(CAP), "open fire")
    after = legally(state, shot)
    back = R.ruleset.touch(P, after, ReactionDeclared(by="p2", unit=CAP, reaction="firefight"))
    cover = R.ruleset.touch(P, after, ReactionDeclared(by="p2", unit=CAP, reaction="take_cover"))
    assert (back.source, back.target) == (piece_key(CAP), piece_key(SAB)) and (cover.source, cover.target) == (piece_key(CAP), piece_key(CAP))


def test_bugging_out_is_tapped_at_the_units_evac_edge() -> None:
    state = position(put("saboteur", (5, 26)), put("captain", (20, 5), side="p2"))
    assert R.ruleset.touch is not None
    where = R.ruleset.touch(P, state, ActionDeclared(by="p1", unit=SAB, action="bug_out"))
    assert where.source == piece_key(SAB) and key_position(where.target or "") == (5, 30)  # p1's nearest evac edge: north


def test_setting_up_is_a_unit_card_then_a_spot_and_the_cards_are_drawn() -> None:
    events = LOGS["frontier-assault"]
    rules = rules_of(events)
    deploy = next(e for e in events if isinstance(e, UnitDeployed))
    before = list(replay(events[: deploy.seq], rules, audit=False))[-1].state
    assert rules.ruleset.touch is not None
    where = rules.ruleset.touch(rules.params, before, deploy)
    board = rules.ruleset.view(rules.params, before, deploy.by)
    cards = {f"card:{row.id}:{face}" for row in board.rows for face in row.cards}
    assert where.source in cards and key_position(where.target or "") == deploy.point


def test_edges_are_chosen_by_tapping_the_edge_or_the_corner() -> None:
    assert R.ruleset.touch is not None
    state = position(put("saboteur", (5, 26)), put("captain", (20, 5), side="p2"))
    north = R.ruleset.touch(P, state, EdgeChosen(by="p2", edges=("north",)))
    corner = R.ruleset.touch(P, state, EdgeChosen(by="p1", edges=("south", "west")))
    assert key_position(north.target or "") == (22, 30) and key_position(corner.target or "") == (0, 0)
    assert corner.words == "the south and west edges"


def test_the_empty_table_is_a_choice_a_palette_piece_is_tapped_then_where_it_goes() -> None:
    events = LOGS["frontier-ambush"]
    rules = rules_of(events)
    state = rules.ruleset.setup(rules.params, events[0])  # type: ignore[arg-type]
    assert forced(rules, state) is None  # the recorder no longer lays the standard table unasked
    first = events[1]
    assert isinstance(first, TerrainPlaced)
    how = plan(rules, state, first)
    assert [t.what for t in how.taps] == [card_key(TERRAIN_ROW, first.label), space_key(8.5, 15)]
    assert rules.ruleset.describe is not None
    said = rules.ruleset.describe(rules.params, state, first)
    assert said.startswith(f"{first.label} (scale {first.scale}) placed at ") and "Level" not in said


def test_a_piece_on_the_table_is_moved_by_its_handle_then_a_spot() -> None:
    events = LOGS["frontier-ambush"]
    rules = rules_of(events)
    state = rules.ruleset.setup(rules.params, events[0])  # type: ignore[arg-type]
    for event in events[1:14]:
        state = rules.ruleset.apply(rules.params, state, event)
    move = TerrainMoved(by="p1", piece="ruined-hab", to=(10.0, 22.0))
    how = plan(rules, state, move)
    assert how.kind == "board" and [t.what for t in how.taps] == [piece_key("terrain:ruined-hab"), space_key(10, 22)]
    assert piece_key("terrain:ruined-hab") in drawn(rules.ruleset.view(rules.params, state, "p1"))
    assert rules.ruleset.describe is not None
    assert rules.ruleset.describe(rules.params, state, move) == "Ruined hab moved to 10″ × 22″ (from 8.5″ × 15″)"


def test_the_table_and_its_panels_print_names_not_ids_and_no_edge_labels_over_terrain() -> None:
    events = LOGS["frontier-escort"]
    rules = rules_of(events)
    for step in replay(events, rules, audit=False):
        board = rules.ruleset.view(rules.params, step.state, None)
        assert all("/" not in line.label for line in board.lines), step.event.seq
        assert all(not r.label for r in board.regions if r.kind == "evac")
        assert all("scale" not in r.label for r in board.regions if r.kind == "terrain")
        assert not [row for panel in board.panels for row in panel.rows if REPR.search(" ".join(row))], step.event.seq
