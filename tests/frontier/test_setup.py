"""frontier.md, Setup, Terrain and Faction and Unit Selection: the table, the roles, the armies.

"1. Pick a mission 2. Setup the board with terrain 3. Roll to decide attacker and defender
4. Choose faction and units to field". The mission is a match option.
"""

from __future__ import annotations

import msgspec

from rulesets.frontier.bots import standard_table
from rulesets.frontier.events import (
    ArmySelected,
    FactionChosen,
    Level,
    RoleChosen,
    RolesRolled,
    TerrainAgreed,
    TerrainMoved,
    TerrainPlaced,
)
from rulesets.frontier.state import State
from rulesets.frontier.terrain import STANDARD
from tests.frontier.scenario import P, R, legally, messages, play, started, violations

HOUSE = TerrainPlaced(piece="house", label="Hab", scale=3, outline=((10, 10), (16, 10), (16, 16), (10, 16)),
                      levels=(Level(height=0, rules=("cover",), name="ground floor"), Level(height=1, rules=("cover", "firing_position"), name="second floor"),
                              Level(height=3, rules=("exposed",), name="roof")))
SWAMP = TerrainPlaced(piece="swamp", scale=0, outline=((30, 5), (35, 5), (35, 9), (30, 9)), levels=(Level(height=0, rules=("rough",)),))


def fresh(**options: object) -> State:
    return R.ruleset.setup(P, started(**options))


def agreed(**options: object) -> State:
    return legally(fresh(**options), HOUSE, SWAMP, TerrainAgreed(by="p1"))


def chosen(**options: object) -> State:
    return legally(agreed(**options), RolesRolled(rolls={"p1": 5, "p2": 2}), RoleChosen(by="p1", role="attacker"))


# --- terrain --------------------------------------------------------------------------------


def test_terrain_is_recorded_with_its_outline_scale_and_rules_per_level() -> None:
    """"The ground floor of a building might have the Cover terrain rule ... The roof ... Exposed"."""
    state = legally(fresh(), HOUSE)
    piece = state.terrain[0]
    assert piece.scale == 3 and piece.rules_at(0) == ("cover",) and piece.rules_at(1) == ("cover", "firing_position")
    assert piece.rules_at(3) == ("exposed",) and piece.heights() == (0, 1, 3)
    region = R.ruleset.view(P, state, None).regions[0]
    assert region.kind == "terrain" and region.height == 3 and "ground floor: cover" in region.label and "roof at height 3: exposed" in region.label


def test_a_terrain_piece_is_a_polygon_on_the_table_with_known_rules_at_heights_up_to_its_scale() -> None:
    state = fresh()
    assert violations(state, msgspec.structs.replace(HOUSE, outline=((1, 1), (2, 2)))) == ["frontier/terrain.outline"]
    assert violations(state, msgspec.structs.replace(HOUSE, outline=((40, 10), (46, 10), (46, 16)))) == ["frontier/terrain.outline"]
    assert violations(state, msgspec.structs.replace(HOUSE, levels=(Level(height=4, rules=()),))) == ["frontier/terrain.levels"]
    assert violations(state, msgspec.structs.replace(HOUSE, levels=(Level(height=0, rules=("slippery",)),))) == ["frontier/terrain.rules"]
    assert violations(legally(state, HOUSE), HOUSE) == ["frontier/terrain.piece"]


def test_overlapping_pieces_are_a_warning() -> None:
    overlapping = msgspec.structs.replace(SWAMP, piece="bog", outline=((14, 14), (20, 14), (20, 20), (14, 20)))
    problems = R.ruleset.check(P, legally(fresh(), HOUSE), overlapping)
    assert [(v.rule, v.severity) for v in problems] == [("frontier/terrain.overlap", "warning")]


def test_a_board_without_scale_0_to_scale_3_terrain_is_agreed_with_a_warning() -> None:
    """"A board should include a mixture of terrain from scale 0 up to at least scale 3"."""
    problems = R.ruleset.check(P, legally(fresh(), SWAMP), TerrainAgreed(by="p1"))
    assert [(v.rule, v.severity) for v in problems] == [("frontier/terrain.mixture", "warning")]
    assert violations(legally(fresh(), HOUSE, SWAMP), TerrainAgreed(by="p1")) == []


def test_terrain_comes_before_the_roll() -> None:
    state = agreed()
    assert violations(state, msgspec.structs.replace(SWAMP, piece="late")) == ["frontier/setup.order"]


# --- attacker and defender ------------------------------------------------------------------------


def test_each_player_rolls_a_d6_and_the_higher_roll_chooses_to_attack_or_defend() -> None:
    state = agreed()
    outcomes = R.ruleset.chance(P, state)
    assert outcomes is not None and len(outcomes) == 36 and all(set(e.rolls) == {"p1", "p2"} for e, _ in outcomes)  # type: ignore[attr-defined]
    state = legally(state, RolesRolled(rolls={"p1": 2, "p2": 5}))
    assert R.ruleset.progress(P, state).actor == "p2"
    assert violations(state, RoleChosen(by="p1", role="attacker")) == ["frontier/turn.player"]
    state = legally(state, RoleChosen(by="p2", role="defender"))
    assert state.attacker == "p1"


def test_a_tied_roll_is_rolled_again() -> None:
    state = legally(agreed(), RolesRolled(rolls={"p1": 4, "p2": 4}))
    assert state.roll_winner is None and R.ruleset.chance(P, state) is not None


def test_a_d6_cannot_show_7() -> None:
    assert violations(agreed(), RolesRolled(rolls={"p1": 7, "p2": 2})) == ["frontier/roles.roll"]


# --- factions and units ------------------------------------------------------------------------------


def test_factions_are_announced_before_either_player_picks_units() -> None:
    """"Players should inform each other which faction they have picked prior to picking units"."""
    state = legally(chosen(), FactionChosen(by="p1", faction="rebels"))
    assert violations(state, ArmySelected(by="p1", units=("jaeger",))) == ["frontier/selection.order"]
    state = legally(state, FactionChosen(by="p2", faction="central_systems_marine_corp"))
    assert violations(state, ArmySelected(by="p1", units=("jaeger",))) == []


def test_units_come_from_the_players_faction_within_the_points_limit() -> None:
    state = legally(chosen(points=100), FactionChosen(by="p1", faction="rebels"), FactionChosen(by="p2", faction="colonial_government"))
    assert violations(state, ArmySelected(by="p1", units=("jaeger", "rifleman"))) == ["frontier/selection.faction"]
    too_many = ("interstellar_commandos", "interstellar_commandos", "jaeger")  # 102 points
    assert violations(state, ArmySelected(by="p1", units=too_many)) == ["frontier/selection.points"]
    assert "the mission's limit is 100" in messages(state, ArmySelected(by="p1", units=too_many))[0]
    assert violations(state, ArmySelected(by="p1", units=("jaeger", "jaeger", "saboteur"))) == []  # a type may be taken twice


def test_the_other_army_is_secret_in_a_seats_view_until_both_have_chosen() -> None:
    """"they should then keep their unit selection a secret until both players have picked their units"."""
    state = legally(chosen(), FactionChosen(by="p1", faction="rebels"), FactionChosen(by="p2", faction="colonial_government"),
                    ArmySelected(by="p1", units=("jaeger", "saboteur")))

    def armies(seat: str | None) -> dict[str, str]:
        return dict(next(p for p in R.ruleset.view(P, state, seat).panels if p.title == "Armies").rows)

    assert "secret" in armies("p2")["p1"] and "Jaeger" not in armies("p2")["p1"]
    assert "Jaeger" in armies("p1")["p1"] and "Jaeger" in armies(None)["p1"]
    assert "Rebels" in armies("p2")["p1"]  # the faction was announced
    state = legally(state, ArmySelected(by="p2", units=("sentry_gun",)))
    assert "Jaeger" in dict(next(p for p in R.ruleset.view(P, state, "p2").panels if p.title == "Armies").rows)["p1"]
    assert state.stage == "deployment"


def test_factions_and_armies_agreed_in_the_match_options_are_checked() -> None:
    state = legally(chosen(factions={"p1": "rebels"}, armies={"p2": ["sentry_gun"]}), FactionChosen(by="p2", faction="colonial_government"))
    assert violations(state, FactionChosen(by="p1", faction="interstellar_raiders")) == ["frontier/setup.options"]
    state = legally(state, FactionChosen(by="p1", faction="rebels"))
    assert violations(state, ArmySelected(by="p2", units=("peacekeepers",))) == ["frontier/setup.options"]
    state = legally(state, ArmySelected(by="p1", units=("jaeger",)))
    assert R.ruleset.legal(P, state) == [ArmySelected(by="p2", units=("sentry_gun",))]


# --- the match ----------------------------------------------------------------------------------------------


def test_frontier_is_played_by_two_players_with_valid_options() -> None:
    bad = msgspec.structs.replace(started(), seats={"p1": "a", "p2": "b", "p3": "c"})
    assert R.ruleset.validate_start(P, bad) == ["Frontier is played by two players, not 3"]
    assert "mission 'siege'" in R.ruleset.validate_start(P, started(mission="siege"))[0]
    assert "points must be a positive" in R.ruleset.validate_start(P, started(points=0))[0]
    assert "unknown option" in R.ruleset.validate_start(P, started(pace="fast"))[0]
    assert "over the 100 point limit" in R.ruleset.validate_start(P, started(points=100, armies={"p1": ["lobo", "lobo", "lobo", "lobo"]}))[0]
    assert R.ruleset.validate_start(P, started(mission="escort", points=120)) == []


def test_the_mission_and_points_limit_come_from_the_options() -> None:
    state = fresh(mission="ambush", points=120)
    assert state.mission == "ambush" and state.points == 120
    assert fresh().mission == "assault" and fresh().points == P.points == 150


def test_the_setup_offers_each_standard_piece_where_the_table_has_it_and_at_sample_points() -> None:
    first = R.ruleset.legal(P, fresh())
    assert all(isinstance(e, TerrainPlaced) for e in first)  # no agreement on an empty table (the mixture)
    assert {e.piece for e in first} == {p.piece for p in STANDARD}
    homes = [e for e in first if any(e.outline == p.outline for p in STANDARD)]
    assert [e.piece for e in homes] == [p.piece for p in STANDARD]
    assert len(first) > 10 * len(STANDARD)  # and at the sample points


def test_bots_lay_the_standard_table_then_agree_it() -> None:
    state = fresh()
    while state.stage == "terrain":
        state = play(state, standard_table(state, R.ruleset.legal(P, state))[0])
    assert [t.id for t in state.terrain] == [p.piece for p in STANDARD]
    assert [t.outline for t in state.terrain] == [tuple(p.outline) for p in STANDARD]


def test_set_up_moves_worked_out_from_the_table_before_are_those_the_rules_accept() -> None:
    """`legal` derives each set-up position from the one before it (a new piece only adds
    overlaps): equal, in order, to the candidates `check` accepts, along a table laid away from
    the standard spots, with a piece of another id overlapping others and one of a reused id."""
    state = fresh()
    for step in range(8):
        offered = R.ruleset.legal(P, state)
        assert offered == [e for e in R.ruleset.candidates(P, state) if not R.ruleset.check(P, state, e)]
        placements = [e for e in offered if isinstance(e, TerrainPlaced)]
        extra = {2: HOUSE, 5: msgspec.structs.replace(SWAMP, piece=state.terrain[0].id if state.terrain else "swamp")}.get(step)
        state = play(state, extra or placements[(7 * step) % len(placements)])
    assert any(violations(state, e) for e in R.ruleset.candidates(P, state))  # overlaps were refused along the way


def test_a_piece_moved_before_the_board_is_agreed_keeps_its_shape_and_rules() -> None:
    state = legally(fresh(), HOUSE, SWAMP)
    moved = TerrainMoved(by="p1", piece="house", to=(23.0, 20.0))
    assert moved in R.ruleset.legal(P, state) or violations(state, moved) == []
    state = legally(state, moved)
    house = state.terrain[0]
    assert house.outline == ((20.0, 17.0), (26.0, 17.0), (26.0, 23.0), (20.0, 23.0))
    assert house.levels == HOUSE.levels and house.scale == 3
    assert R.ruleset.describe(P, legally(fresh(), HOUSE, SWAMP), moved) == "Hab moved to 23″ × 20″ (from 13″ × 13″)"


def test_every_move_legal_offers_is_of_a_piece_on_the_table_and_keeps_it_on_the_table() -> None:
    state = legally(fresh(), HOUSE, SWAMP)
    moves = [e for e in R.ruleset.legal(P, state) if isinstance(e, TerrainMoved)]
    assert {m.piece for m in moves} == {"house", "swamp"} and len(moves) > 50
    assert TerrainAgreed(by="p1") in R.ruleset.legal(P, state)


def test_a_move_off_the_table_onto_another_piece_or_after_the_agreement_is_named() -> None:
    state = legally(fresh(), HOUSE, SWAMP)
    assert violations(state, TerrainMoved(by="p1", piece="house", to=(1.0, 1.0))) == ["frontier/terrain.outline"]
    assert violations(state, TerrainMoved(by="p1", piece="house", to=(32.0, 7.0))) == ["frontier/terrain.overlap"]
    assert violations(state, TerrainMoved(by="p1", piece="shed", to=(20.0, 20.0))) == ["frontier/terrain.piece"]
    assert violations(agreed(), TerrainMoved(by="p1", piece="house", to=(20.0, 20.0))) == ["frontier/setup.order"]


def test_the_table_is_followed_when_it_moves_a_piece_the_rules_refuse() -> None:
    state = play(agreed(), TerrainMoved(by="p1", piece="swamp", to=(13.0, 13.0)))
    assert state.stage == "roles" and state.terrain[1].outline == ((10.5, 11.0), (15.5, 11.0), (15.5, 15.0), (10.5, 15.0))
