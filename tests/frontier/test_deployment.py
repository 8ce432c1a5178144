"""frontier.md, Setting up a game (Deployment, Evac Zones) and each mission's Deployment and Evac Zones.

The table is 44" along its long edges (north, south) and 30" along its short ones (west,
east); (0, 0) is the south-west corner. p1 attacks, p2 defends.
"""

from __future__ import annotations

import pytest

from rulesets.frontier.events import (
    DeploymentDone,
    EdgeChosen,
    MarkerPlaced,
    UnitDeployed,
    UnitReserved,
)
from rulesets.frontier.state import State, Unit, evac_edges
from tests.frontier.scenario import P, R, legally, play, violations


def deploying(mission: str, attacker: tuple[str, ...], defender: tuple[str, ...]) -> State:
    """Both armies chosen (p1 attacks): deployment begins."""
    units = []
    for seat, types in (("p1", attacker), ("p2", defender)):
        counts: dict[str, int] = {}
        for t in types:
            counts[t] = counts.get(t, 0) + 1
            units.append(Unit(id=f"{seat}/{t}-{counts[t]}", type=t, side=seat))
    return State(seats=("p1", "p2"), mission=mission, points=P.points, stage="deployment", attacker="p1",
                 factions=(("p1", "rebels"), ("p2", "central_systems_marine_corp")), armies=(("p1", attacker), ("p2", defender)), units=tuple(units))


def down(unit_id: str, at: tuple[float, float], level: int = 0) -> UnitDeployed:
    return UnitDeployed(by=unit_id.split("/")[0], unit=unit_id, point=at, level=level)


REBELS = ("jaeger", "saboteur")
MARINES = ("rifleman", "pathfinder")


# --- Assault -------------------------------------------------------------------------------------


def test_assault_the_defender_picks_a_long_edge_and_deploys_in_that_half() -> None:
    state = deploying("assault", REBELS, MARINES)
    assert violations(state, down("p2/rifleman-1", (20, 5))) == ["frontier/deployment.order"]
    assert violations(state, EdgeChosen(by="p2", edges=("west",))) == ["frontier/deployment.edges"]
    assert violations(state, EdgeChosen(by="p1", edges=("south",))) == ["frontier/turn.player"]
    state = legally(state, EdgeChosen(by="p2", edges=("south",)))
    assert violations(state, down("p2/rifleman-1", (20, 16))) == ["frontier/deployment.zone"]
    state = legally(state, down("p2/rifleman-1", (20, 14)), down("p2/pathfinder-1", (30, 5)))
    assert R.ruleset.progress(P, state).actor == "p1"


def test_assault_the_attacker_deploys_within_10_inches_of_the_opposite_edge_then_places_the_strong_point() -> None:
    state = legally(deploying("assault", REBELS, MARINES), EdgeChosen(by="p2", edges=("south",)),
                    down("p2/rifleman-1", (20, 5)), down("p2/pathfinder-1", (30, 5)))
    assert violations(state, down("p1/jaeger-1", (20, 19))) == ["frontier/deployment.zone"]
    state = legally(state, down("p1/jaeger-1", (20, 21)), down("p1/saboteur-1", (30, 28)))
    # "The attacker places a marker (strong point) anywhere more than 5" from their deployment zone."
    assert violations(state, MarkerPlaced(by="p1", marker="strong_point", point=(20, 16))) == ["frontier/missions.assault.marker"]
    state = legally(state, MarkerPlaced(by="p1", marker="strong_point", point=(20, 14)))
    assert state.stage == "play" and state.turn is not None and state.turn.seat == "p1"  # the attacker goes first (assumed)


def test_assault_evac_zones_the_defenders_long_edge_and_the_attackers_other_three() -> None:
    state = legally(deploying("assault", REBELS, MARINES), EdgeChosen(by="p2", edges=("north",)))
    assert evac_edges(state, "p2") == ("north",)
    assert set(evac_edges(state, "p1")) == {"south", "west", "east"}


# --- Sabotage -------------------------------------------------------------------------------------------


def sabotage() -> State:
    return deploying("sabotage", ("jaeger", "saboteur", "insurgent"), ("rifleman", "pathfinder", "aegis_unit"))


def test_sabotage_the_target_goes_within_10_inches_of_a_short_edge() -> None:
    state = sabotage()
    assert violations(state, MarkerPlaced(by="p2", marker="target", point=(12, 15))) == ["frontier/missions.sabotage.marker"]
    assert legally(state, MarkerPlaced(by="p2", marker="target", point=(6, 15))).short_edge == "west"


def test_sabotage_the_defender_places_up_to_half_its_points_near_the_target_then_says_done() -> None:
    """Rifleman 28, pathfinder 32, AEGIS 18: 78 points, half is 39."""
    state = legally(sabotage(), MarkerPlaced(by="p2", marker="target", point=(6, 15)))
    assert violations(state, down("p2/rifleman-1", (12, 15))) == ["frontier/deployment.zone"]
    state = legally(state, down("p2/rifleman-1", (8, 20)))
    assert violations(state, down("p2/pathfinder-1", (8, 10))) == ["frontier/deployment.half"]
    state = legally(state, DeploymentDone(by="p2"))
    assert R.ruleset.progress(P, state).actor == "p1"


def test_sabotage_the_attacker_deploys_by_the_opposite_edge_or_along_the_centre_line() -> None:
    state = legally(sabotage(), MarkerPlaced(by="p2", marker="target", point=(6, 15)), down("p2/rifleman-1", (8, 20)), DeploymentDone(by="p2"))
    assert violations(state, down("p1/jaeger-1", (40, 5))) == []
    assert violations(state, down("p1/jaeger-1", (20, 19))) == []  # within 5" of the centre line
    assert violations(state, down("p1/jaeger-1", (20, 5))) == ["frontier/deployment.zone"]
    assert violations(state, down("p1/jaeger-1", (8, 15))) == ["frontier/deployment.zone"]  # by the centre line, but in the defender's area


def test_sabotage_the_defender_deploys_the_rest_within_5_inches_of_a_long_edge_outside_the_attackers_zone() -> None:
    state = legally(sabotage(), MarkerPlaced(by="p2", marker="target", point=(6, 15)), down("p2/rifleman-1", (8, 20)), DeploymentDone(by="p2"),
                    down("p1/jaeger-1", (40, 5)), down("p1/saboteur-1", (40, 10)), down("p1/insurgent-1", (20, 15)))
    assert violations(state, down("p2/pathfinder-1", (38, 3))) == ["frontier/deployment.zone"]
    assert violations(state, down("p2/pathfinder-1", (20, 8))) == ["frontier/deployment.zone"]
    state = legally(state, down("p2/pathfinder-1", (20, 3)), down("p2/aegis_unit-1", (25, 28)))
    assert state.stage == "play"
    assert evac_edges(state, "p1") == ("east",) and set(evac_edges(state, "p2")) == {"north", "south", "west"}


# --- Ambush --------------------------------------------------------------------------------------------------


def test_ambush_the_attacker_picks_two_adjacent_edges_and_deploys_within_10_inches_of_them() -> None:
    state = deploying("ambush", REBELS, MARINES)
    assert violations(state, EdgeChosen(by="p1", edges=("south", "north"))) == ["frontier/deployment.edges"]
    state = legally(state, EdgeChosen(by="p1", edges=("south", "west")))
    assert violations(state, down("p1/jaeger-1", (20, 20))) == ["frontier/deployment.zone"]
    state = legally(state, down("p1/jaeger-1", (30, 5)), down("p1/saboteur-1", (5, 25)))
    assert R.ruleset.progress(P, state).actor == "p2"


def test_ambush_the_defender_sets_up_at_least_10_inches_from_every_edge() -> None:
    state = legally(deploying("ambush", REBELS, MARINES), EdgeChosen(by="p1", edges=("south", "west")),
                    down("p1/jaeger-1", (30, 5)), down("p1/saboteur-1", (5, 25)))
    assert violations(state, down("p2/rifleman-1", (36, 15))) == ["frontier/deployment.zone"]  # 8" from the east edge
    assert violations(state, down("p2/rifleman-1", (20, 21))) == ["frontier/deployment.zone"]
    state = legally(state, down("p2/rifleman-1", (20, 15)), down("p2/pathfinder-1", (24, 15)))
    assert set(evac_edges(state, "p1")) == {"south", "west"} and set(evac_edges(state, "p2")) == {"north", "east"}


# --- Escort --------------------------------------------------------------------------------------------------


def test_escort_the_attacker_places_the_vip_by_a_short_edge_with_up_to_half_its_points() -> None:
    state = deploying("escort", ("jaeger", "saboteur", "insurgent"), MARINES)
    assert violations(state, MarkerPlaced(by="p1", marker="vip", point=(20, 15))) == ["frontier/missions.escort.marker"]
    state = legally(state, MarkerPlaced(by="p1", marker="vip", point=(40, 15)))
    assert violations(state, down("p1/jaeger-1", (30, 15))) == ["frontier/deployment.zone"]
    state = legally(state, down("p1/jaeger-1", (40, 20)), DeploymentDone(by="p1"))
    assert R.ruleset.progress(P, state).actor == "p2"


def test_escort_the_defender_deploys_within_5_inches_of_a_long_edge_at_least_10_from_the_short_edges() -> None:
    state = legally(deploying("escort", ("jaeger", "saboteur", "insurgent"), MARINES), MarkerPlaced(by="p1", marker="vip", point=(40, 15)),
                    down("p1/jaeger-1", (40, 20)), DeploymentDone(by="p1"), EdgeChosen(by="p2", edges=("north",)))
    assert violations(state, down("p2/rifleman-1", (5, 28))) == ["frontier/deployment.zone"]
    assert violations(state, down("p2/rifleman-1", (20, 22))) == ["frontier/deployment.zone"]
    state = legally(state, down("p2/rifleman-1", (20, 28)), down("p2/pathfinder-1", (24, 28)))
    assert violations(state, down("p1/saboteur-1", (30, 15))) == ["frontier/deployment.zone"]  # the rest: by the far (west) edge
    state = legally(state, down("p1/saboteur-1", (5, 15)), down("p1/insurgent-1", (5, 10)))
    assert state.stage == "play"
    assert evac_edges(state, "p1") == ("west",) and evac_edges(state, "p2") == ("north",)


# --- Deployment in general ----------------------------------------------------------------------------------


def test_units_of_the_same_type_deploy_within_5_inches_of_each_other() -> None:
    """"all units of the same type must be deployed within 5" of all other units of the same type"."""
    state = legally(deploying("assault", ("jaeger",), ("rifleman", "rifleman", "rifleman")), EdgeChosen(by="p2", edges=("south",)),
                    down("p2/rifleman-1", (20, 5)), down("p2/rifleman-2", (24, 5)))
    assert violations(state, down("p2/rifleman-3", (27, 5))) == ["frontier/deployment.same-type"]  # 7" from the first
    assert violations(state, down("p2/rifleman-3", (22, 8))) == []


def test_a_step_that_sets_up_all_units_is_not_done_early() -> None:
    state = legally(deploying("assault", REBELS, MARINES), EdgeChosen(by="p2", edges=("south",)), down("p2/rifleman-1", (20, 5)))
    assert violations(state, DeploymentDone(by="p2")) == ["frontier/deployment.all"]


def test_a_deployed_unit_stands_at_a_height_it_can_stand_at_and_not_on_another() -> None:
    state = legally(deploying("assault", REBELS, MARINES), EdgeChosen(by="p2", edges=("south",)), down("p2/rifleman-1", (20, 5)))
    assert violations(state, down("p2/pathfinder-1", (20.5, 5))) == ["frontier/movement.through-units"]
    assert violations(state, down("p2/pathfinder-1", (30, 5), level=1)) == ["frontier/climbing.halfway"]


def test_orbital_drop_holds_a_trooper_in_reserve_instead_of_deploying_it() -> None:
    state = legally(deploying("assault", REBELS, ("cap_trooper", "rifleman")), EdgeChosen(by="p2", edges=("south",)))
    assert violations(state, UnitReserved(by="p2", unit="p2/rifleman-1")) == ["frontier/deployment.reserve"]
    state = legally(state, UnitReserved(by="p2", unit="p2/cap_trooper-1"), down("p2/rifleman-1", (20, 5)))
    reserved = next(u for u in state.units if u.id == "p2/cap_trooper-1")
    assert reserved.status == "reserve" and "orbital_drop" in reserved.used


@pytest.mark.parametrize(("tokens", "ok"), [
    (((20.0, 10.0), (30.0, 5.0), (10.0, 12.0)), True),
    (((20.0, 10.0), (30.0, 5.0), (10.0, 25.0)), False),  # inside the attacker's strip by the north edge
    (((20.0, 10.0), (30.0, 5.0)), False),
])
def test_infiltration_places_three_tokens_outside_the_enemys_deployment_zone(tokens: tuple, ok: bool) -> None:
    state = legally(deploying("assault", ("jaeger",), ("conspirator", "saboteur")), EdgeChosen(by="p2", edges=("south",)))
    event = UnitReserved(by="p2", unit="p2/conspirator-1", tokens=tokens)
    assert (violations(state, event) == []) == ok
    if ok:
        state = play(state, event)
        assert len([t for t in state.tokens if t.kind == "infiltration"]) == 3


def test_the_view_shows_the_deployment_area_of_the_step_under_way() -> None:
    state = legally(deploying("assault", REBELS, MARINES), EdgeChosen(by="p2", edges=("south",)))
    zones = [r for r in R.ruleset.view(P, state, None).regions if r.kind == "deployment"]
    assert zones and zones[0].side == "p2" and zones[0].points == ((0.0, 0.0), (44.0, 0.0), (44.0, 15.0), (0.0, 15.0))
