"""The five actions of an action round (Playing phase 2 a-e), their costs and their timing."""

from __future__ import annotations

from msgspec.structs import replace

from rulesets.frontline.events import (
    BuildingBuilt,
    BuildingDestroyed,
    ResearchStarted,
    RoundEnded,
    TrainingStarted,
    WorkersMoved,
)
from rulesets.frontline.state import State, capacity, count, force, population
from tests.frontline.scenario import (
    P,
    add_buildings,
    building,
    change,
    end_round,
    fresh,
    messages,
    play,
    rules_broken,
    the,
)


def both_rounds(state: State) -> State:
    """a's round ends, b's round ends: a's next round begins."""
    return end_round(end_round(state))


# --- turns --------------------------------------------------------------------------------------


def test_only_the_player_whose_action_round_it_is_acts() -> None:
    """Playing phase 1: "One player may start the action first and another player act after that"."""
    state = fresh()
    assert rules_broken(state, WorkersMoved(by="b", count=1, origin="gold", to="lumber")) == ["frontline/play.turn"]
    assert rules_broken(state, RoundEnded(by="b")) == ["frontline/play.turn"]
    assert rules_broken(state, RoundEnded(by="a")) == []


def test_a_bout_is_both_players_turns() -> None:
    """Playing phase 4: "When both players finished their turn, the game is counted as +1 bout"."""
    state = end_round(fresh())
    assert (state.bout, state.bouts_done, state.current) == (1, 0, "b")
    state = end_round(state)
    assert (state.bout, state.bouts_done, state.current) == (2, 1, "a")


# --- a. build -----------------------------------------------------------------------------------


def test_building_is_paid_and_stands_after_its_build_time() -> None:
    state = play(fresh(), BuildingBuilt(by="a", building="burrow", area="A4"))
    a = the(state, "a")
    assert (a.gold, a.lumber) == (6 - 1, 4 - 1)
    assert [b.id for b in a.buildings] == ["base-1", "burrow-1"]
    assert capacity(P, a) == 10  # still going up
    state = both_rounds(state)
    assert capacity(P, the(state, "a")) == 15  # "farms/burrow increase population cap by 5"


def test_buildings_belong_to_a_race_and_unknown_ones_are_named() -> None:
    assert rules_broken(fresh(), BuildingBuilt(by="a", building="farm", area="A4")) == ["frontline/build.race"]
    assert messages(fresh(), BuildingBuilt(by="a", building="castle", area="A4")) == [
        "frontline/build.unknown: no building 'castle'; Orc buildings: base, burrow, barracks, war_mill, tower"]
    assert rules_broken(fresh(), BuildingBuilt(by="a", building="tower", area="Z9")) == ["frontline/build.area"]


def test_building_only_behind_ones_own_side_of_the_frontline() -> None:
    """"Players may only build behind the front line."""
    assert rules_broken(fresh(), BuildingBuilt(by="a", building="tower", area="B1")) == ["frontline/build.behind-frontline"]
    contested = change(fresh(), "a", gold=9)
    inside = replace(contested, front=-2)  # b pushed 2 grids into A1
    assert rules_broken(inside, BuildingBuilt(by="a", building="tower", area="A1")) == ["frontline/build.behind-frontline"]
    assert rules_broken(inside, BuildingBuilt(by="a", building="tower", area="A2")) == []


def test_a_player_can_build_in_an_enemy_area_the_frontline_has_pushed_through() -> None:
    """"because these area are behind the front line now, we can now build in these areas"."""
    state = replace(fresh(), front=4)
    assert rules_broken(state, BuildingBuilt(by="a", building="tower", area="B1")) == []
    assert rules_broken(state, BuildingBuilt(by="a", building="tower", area="B2")) == ["frontline/build.behind-frontline"]


def test_an_area_has_a_limited_number_of_sites_and_building_costs_resources() -> None:
    full = add_buildings(fresh(), "a", *(building("tower", "A1", n) for n in range(1, 5)))
    assert rules_broken(full, BuildingBuilt(by="a", building="tower", area="A1")) == ["frontline/build.site"]
    poor = change(fresh(), "a", gold=0)
    assert messages(poor, BuildingBuilt(by="a", building="tower", area="A1")) == [
        "frontline/cost.resources: a Watch Tower costs 1 gold and 2 lumber; a has 0 gold and 4 lumber"]


# --- b. destroy ---------------------------------------------------------------------------------


def test_destroying_an_own_burrow_kills_the_workers_inside() -> None:
    """"if the burrow is destroyed, workers in the burrow will die with it"."""
    state = add_buildings(fresh(), "a", building("burrow", "A3"))
    state = change(state, "a", workers=(("burrow-1", 2), ("gold", 3)), techs=("battle_stations",))
    state = play(state, BuildingDestroyed(by="a", building="burrow-1"))
    assert the(state, "a").workers == (("gold", 3),)
    assert population(the(state, "a")) == 3


def test_only_ones_own_buildings_are_destroyed_by_the_action() -> None:
    assert messages(fresh(), BuildingDestroyed(by="a", building="barracks-7")) == [
        "frontline/destroy.own: a has no building 'barracks-7'; its buildings: base-1"]
    assert "enemy buildings fall only when the frontline pushes through" in messages(
        add_buildings(fresh(), "b", building("tower", "B1")), BuildingDestroyed(by="a", building="tower-1"))[0]


# --- c. reallocate workers ----------------------------------------------------------------------


def test_reallocated_workers_collect_from_their_new_source_at_the_next_round() -> None:
    """Resource collection: 1 of a resource per worker in its source area."""
    state = play(fresh(), WorkersMoved(by="a", count=2, origin="lumber", to="gold"))
    state = both_rounds(state)
    a = the(state, "a")
    assert (count(a.workers, "gold"), a.gold, a.lumber) == (5, 6 + 5, 4)


def test_workers_moved_must_be_there_and_go_somewhere_real() -> None:
    assert rules_broken(fresh(), WorkersMoved(by="a", count=4, origin="lumber", to="gold")) == ["frontline/workers.count"]
    assert rules_broken(fresh(), WorkersMoved(by="a", count=0, origin="lumber", to="gold")) == ["frontline/workers.count"]
    assert rules_broken(fresh(), WorkersMoved(by="a", count=1, origin="lumber", to="quarry")) == ["frontline/workers.place"]
    assert rules_broken(fresh(), WorkersMoved(by="a", count=1, origin="gold", to="gold")) == ["frontline/workers.place"]


def test_militia_need_the_human_research_and_add_one_force_each() -> None:
    """"For humans, all workers can turn into militia, each contributes 1 military force"."""
    human = fresh({"a": "human", "b": "orc"})
    assert rules_broken(human, WorkersMoved(by="a", count=2, origin="gold", to="militia")) == ["frontline/militia.research"]
    assert rules_broken(fresh(), WorkersMoved(by="a", count=2, origin="gold", to="militia")) == ["frontline/militia.research"]
    called = play(change(human, "a", techs=("call_to_arms",)), WorkersMoved(by="a", count=3, origin="gold", to="militia"))
    assert force(P, the(called, "a")) == 3


def test_militia_take_one_extra_round_before_going_back_to_work() -> None:
    """"but takes one extra round before going back to work": a worker moved normally collects at
    its next round; militia sent back collect one round later."""
    human = change(fresh({"a": "human", "b": "orc"}), "a", techs=("call_to_arms",), workers=(("gold", 3), ("militia", 2)))
    state = play(human, WorkersMoved(by="a", count=2, origin="militia", to="lumber"))
    assert force(P, the(state, "a")) == 0
    state = both_rounds(state)
    a = the(state, "a")
    assert (count(a.workers, "lumber"), a.lumber) == (0, 4)  # not back yet: nothing collected
    state = both_rounds(state)
    a = the(state, "a")
    assert (count(a.workers, "lumber"), a.lumber) == (2, 4 + 2)


def test_orc_workers_enter_a_standing_burrow_after_the_orc_research_up_to_its_room() -> None:
    """"For orc, workers can enter burrow ... Can go back to work at anytime"."""
    state = add_buildings(fresh(), "a", building("burrow", "A2"))
    assert rules_broken(state, WorkersMoved(by="a", count=1, origin="gold", to="burrow-1")) == ["frontline/burrow.research"]
    state = change(state, "a", techs=("battle_stations",), workers=(("gold", 5), ("lumber", 2)))
    assert rules_broken(state, WorkersMoved(by="a", count=5, origin="gold", to="burrow-1")) == ["frontline/burrow.room"]
    state = play(state, WorkersMoved(by="a", count=4, origin="gold", to="burrow-1"), WorkersMoved(by="a", count=4, origin="burrow-1", to="lumber"))
    assert the(state, "a").workers == (("gold", 1), ("lumber", 6))


# --- d. train -----------------------------------------------------------------------------------


def test_a_worker_costs_one_gold_one_population_and_one_turn() -> None:
    """"Worker cost 1 gold, take 1 population and takes 1 turn to build"; it waits idle at the base."""
    state = play(fresh(), TrainingStarted(by="a", unit="worker", building="base-1"))
    a = the(state, "a")
    assert (a.gold, population(a)) == (5, 6)
    assert rules_broken(state, TrainingStarted(by="a", unit="worker", building="base-1")) == ["frontline/train.one-task"]
    state = both_rounds(state)
    assert count(the(state, "a").workers, "idle") == 1


def test_each_building_does_one_task_and_more_barracks_train_more_units() -> None:
    """"each building can only do one task at the same time, you can build more than 1 barracks"."""
    state = change(add_buildings(fresh(), "a", building("barracks", "A3"), building("barracks", "A3", 2)), "a", gold=20, lumber=20)
    state = play(state, TrainingStarted(by="a", unit="grunt", building="barracks-1"))
    assert rules_broken(state, TrainingStarted(by="a", unit="grunt", building="barracks-1")) == ["frontline/train.one-task"]
    state = play(state, TrainingStarted(by="a", unit="grunt", building="barracks-2"))
    state = both_rounds(state)
    assert the(state, "a").units == (("grunt", 2),)
    assert force(P, the(state, "a")) == 4


def test_units_are_of_the_players_race_and_trained_where_they_are_trained() -> None:
    state = change(add_buildings(fresh(), "a", building("barracks", "A3")), "a", gold=20, lumber=20)
    assert rules_broken(state, TrainingStarted(by="a", unit="knight", building="barracks-1")) == ["frontline/train.race"]
    assert rules_broken(state, TrainingStarted(by="a", unit="grunt", building="base-1")) == ["frontline/train.building"]
    assert rules_broken(state, TrainingStarted(by="a", unit="dragon", building="barracks-1")) == ["frontline/train.unknown"]
    going_up = change(add_buildings(fresh(), "a", building("barracks", "A3", ready=3)), "a", gold=20)
    assert rules_broken(going_up, TrainingStarted(by="a", unit="grunt", building="barracks-1")) == ["frontline/build.time"]


def test_training_needs_population_capacity() -> None:
    """Producing Unit and Population Capacity: the base gives 10."""
    state = change(add_buildings(fresh(), "a", building("barracks", "A3")), "a", gold=20, lumber=20, units=(("grunt", 2),))
    assert population(the(state, "a")) == 9
    assert messages(state, TrainingStarted(by="a", unit="grunt", building="barracks-1")) == [
        "frontline/population.capacity: a Grunt takes 2 population; a uses 9 of 10"]
    assert rules_broken(state, TrainingStarted(by="a", unit="worker", building="base-1")) == []


def test_capacity_is_capped_at_99_by_the_two_d10_dials() -> None:
    """"2 D10 dice which can represent up to 99"."""
    many = add_buildings(fresh(), "a", *(building("burrow", "A4", n) for n in range(1, 25)))
    assert capacity(P, the(many, "a")) == 99


# --- e. research ----------------------------------------------------------------------------------


def test_research_needs_a_standing_war_mill_or_blacksmith() -> None:
    """"Player can only do research when warmill or blacksmith is built."""
    state = change(fresh(), "a", gold=20, lumber=20)
    assert rules_broken(state, ResearchStarted(by="a", tech="battle_stations", building="base-1")) == ["frontline/research.war-mill"]
    state = add_buildings(state, "a", building("war_mill", "A3"))
    state = play(state, ResearchStarted(by="a", tech="battle_stations", building="war_mill-1"))
    assert rules_broken(state, ResearchStarted(by="a", tech="forged_weapons", building="war_mill-1")) == ["frontline/train.one-task"]
    state = both_rounds(state)
    assert the(state, "a").techs == ("battle_stations",)
    assert rules_broken(state, ResearchStarted(by="a", tech="battle_stations", building="war_mill-1")) == ["frontline/research.once"]


def test_research_belongs_to_a_race_or_is_shared() -> None:
    """Race: orc cards red, human cards blue, grey shared."""
    state = change(add_buildings(fresh(), "a", building("war_mill", "A3")), "a", gold=20, lumber=20)
    assert rules_broken(state, ResearchStarted(by="a", tech="call_to_arms", building="war_mill-1")) == ["frontline/research.race"]
    assert rules_broken(state, ResearchStarted(by="a", tech="reinforced_buildings", building="war_mill-1")) == []
    assert rules_broken(state, ResearchStarted(by="a", tech="necromancy", building="war_mill-1")) == ["frontline/research.unknown"]
