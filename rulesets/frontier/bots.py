"""Bots that play Frontier for simulated playtests.

A bot is a policy: given the params, the state and the legal events, it returns one of
them. Bots may use randomness (they are players, not rules), always from the seeded
generator they are handed, so a simulation replays byte for byte from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from events.base import Event
from rulesets.frontier import board, missions
from rulesets.frontier.board import Point
from rulesets.frontier.events import (
    AbilityUsed,
    ActionDeclared,
    ArmySelected,
    ChargeDefused,
    ChargePlaced,
    ChargesDetonated,
    DeploymentDone,
    MarkerPlaced,
    Passed,
    ReactionDeclared,
    StrongPointSeized,
    TerrainAgreed,
    TerrainPlaced,
    TokenMoved,
    UnitDeployed,
    UnitMoved,
    VipEscorted,
)
from rulesets.frontier.params import Params
from rulesets.frontier.state import (
    ATTRIBUTE,
    State,
    Unit,
    enemies_of,
    evac_edges,
    find,
    kind,
    marker,
    objective_done,
    on_board,
    position,
    role_of,
    terrain_rules,
)
from rulesets.frontier.terrain import STANDARD
from rulesets.memo import last_args


def random_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Any legal event, uniformly: finds the corners of the rules, not good play."""
    legal = standard_table(state, legal)
    return legal[rng.randrange(len(legal))]


def heuristic_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Go for the objective (seize, charge and detonate, escort), shoot and fight what is close
    (shaken targets first), react with the better die, move toward what matters, bug out once
    the objective is done."""
    legal = standard_table(state, legal)
    return max(legal, key=lambda event: (_score(params, state, event), rng.random()))


def standard_table(state: State, legal: Sequence[Event]) -> Sequence[Event]:
    """While the board is set up, bots put down the standard table piece by piece where it
    has them and then agree it (moving terrain is a table's own business): the one event
    each bot then chooses from, so a seeded game keeps the log it always had."""
    if state.stage != "terrain":
        return legal
    laid = next((e for e in legal if isinstance(e, TerrainPlaced) and _HOME.get(e.piece) == e.outline), None)
    if laid is not None:
        return [laid]
    return [e for e in legal if isinstance(e, TerrainAgreed)] or legal


_HOME = {p.piece: p.outline for p in STANDARD}
"""Where the standard table has each of its pieces."""


STALL_TURN = 30
"""After this many turns the heuristic goes for the nearest enemy whatever its role (no stand-offs)."""
INCHES_PER_POINT = 5
"""Inches from where it matters that cost a deployment or a marker one point."""
NEAR_INCHES = 5
"""Within this many inches of a unit, a self-destruct or a knife missile reaches it."""
CENTRE = (missions.WIDTH / 2, missions.HEIGHT / 2)
"""The middle of the table: where a marker is weighed from, and what a deployment aims at
when no marker stands."""


@last_args  # every sampled end of a move asks it of the same unit (rulesets/memo.py)
def _goal(params: Params, state: State, unit: Unit) -> Point | None:
    """Where a unit wants to be: the objective marker for the attacker (or an evac edge once it is
    done), the marker or the nearest enemy for the defender; late in a game, the nearest enemy.
    Worked out once per decision: it reads the state and the unit, not the move scored."""
    role = role_of(state, unit.side)
    here = position(unit)
    if state.turns > STALL_TURN:
        foes = enemies_of(state, unit)
        return position(min(foes, key=lambda e: board.distance(here, position(e)))) if foes else None
    if role == "attacker" and objective_done(params, state):
        edges = evac_edges(state, unit.side)
        if edges:
            edge = min(edges, key=lambda e: missions.edge_distance(e, here))
            return {"south": (here[0], 0.5), "north": (here[0], missions.HEIGHT - 0.5), "west": (0.5, here[1]), "east": (missions.WIDTH - 0.5, here[1])}[edge]
    for kind_ in ("strong_point", "target", "vip"):
        found = marker(state, kind_)
        if found is not None:
            if kind_ == "vip" and role == "attacker":
                return found.at
            if role == "attacker" or kind_ == "target":
                return found.at
    foes = enemies_of(state, unit)
    if not foes:
        return None
    return position(min(foes, key=lambda e: board.distance(here, position(e))))


def _score(params: Params, state: State, event: Event) -> float:
    scorer = _SCORES.get(type(event))
    return scorer(params, state, event) if scorer else 1.0


def _objective(params: Params, state: State, event: Event) -> float:
    return 100.0


def _detonate(params: Params, state: State, event: ChargesDetonated) -> float:
    return 95.0


def _charge(params: Params, state: State, event: ChargePlaced) -> float:
    """One charge is enough to detonate next turn; more only guard against a defuse."""
    return 100.0 if state.charges == 0 else 50.0


def _escort(params: Params, state: State, event: VipEscorted) -> float:
    """Closer to the attacker's evac edge is better."""
    edges = evac_edges(state, event.by or "")
    return 90.0 - min((missions.edge_distance(e, event.to) for e in edges), default=0.0)


def _declared(params: Params, state: State, event: ActionDeclared) -> float:
    unit, target = find(state, event.unit), find(state, event.target)
    if unit is None:
        return 0.0
    if event.action == "bug_out":
        done = role_of(state, unit.side) == "attacker" and objective_done(params, state)
        return 80.0 if done or (unit.shaken and role_of(state, unit.side) == "defender" and state.mission == "ambush") else -5.0
    if event.action in ("open_fire", "fight_through") and target is not None:
        rating = kind(unit).rating(ATTRIBUTE[event.action])
        return 40.0 + rating + (15.0 if target.shaken else 0.0) - (5.0 if event.action == "fight_through" and unit.shaken else 0.0)
    return 20.0 + kind(unit).mobility / 2 - (10.0 if "hazardous" in terrain_rules(state, unit) else 0.0)


def _reaction(params: Params, state: State, event: ReactionDeclared) -> float:
    unit = find(state, event.unit)
    if unit is None:
        return 0.0
    return 30.0 + kind(unit).rating(ATTRIBUTE[event.reaction]) + (5.0 if event.reaction in ("firefight", "counter_attack") else 0.0)


def _moved(params: Params, state: State, event: UnitMoved) -> float:
    """Toward the unit's goal (or, moved by the opponent, away from it); out of hazardous ground."""
    unit = find(state, event.unit)
    if unit is None or unit.at is None:
        return 0.0
    goal = _goal(params, state, unit)
    if goal is None:
        return 10.0
    closer = board.distance(unit.at, goal) - board.distance(event.to, goal)
    mine = event.by == unit.side
    return 10.0 + (closer if mine else -closer)


def _deployed(params: Params, state: State, event: UnitDeployed) -> float:
    """Set up as near the action as the zone allows."""
    unit = find(state, event.unit)
    if unit is None:
        return 0.0
    aims = [t.at for t in state.tokens if t.kind in ("strong_point", "target", "vip")] or [CENTRE]
    return 10.0 - min(board.distance(event.point, a) for a in aims) / INCHES_PER_POINT - event.level * 0.1


def _marker(params: Params, state: State, event: MarkerPlaced) -> float:
    """Attacker's strong point in the middle; defender's markers (new strong point, target) deep in its own ground."""
    role = role_of(state, event.by or "")
    if role == "attacker" and event.marker != "vip":
        return 10.0 - board.distance(event.point, CENTRE) / INCHES_PER_POINT
    return board.distance(event.point, CENTRE) / INCHES_PER_POINT


def _army(params: Params, state: State, event: ArmySelected) -> float:
    return float(len(event.units))


def _ability(params: Params, state: State, event: AbilityUsed) -> float:
    unit = find(state, event.unit)
    if unit is None:
        return 0.0
    if event.ability in ("flame_units", "unscheduled_demolition", "neural_trojan"):
        return 60.0
    if event.ability in ("target_designator", "focus_fire", "knife_missile", "orbital_drop", "infiltration"):
        return 50.0
    if event.ability == "self_destruct":
        near = [u for u in on_board(state) if u.id != unit.id and board.distance(position(u), position(unit)) <= NEAR_INCHES]
        enemies = sum(1 for u in near if u.side != unit.side)
        return 45.0 if enemies >= 2 and enemies > len(near) - enemies else -10.0
    if event.ability in ("repulsor_field",):
        return 25.0
    if event.ability in ("stim_packs", "freedom_fighters"):
        target = find(state, event.target) if event.target else unit
        return 55.0 if target is not None and target.shaken else -5.0
    return 5.0


def _token_moved(params: Params, state: State, event: TokenMoved) -> float:
    """A knife missile that reaches an enemy is worth a strategic action."""
    hits = [u for u in on_board(state) if u.side != event.by and board.distance(position(u), event.to) <= NEAR_INCHES]
    return 65.0 if hits else 15.0


def _passed(params: Params, state: State, event: Passed) -> float:
    return 2.0 if event.step == "follow_up" else 5.0 if event.step == "move" else 3.0


def _deployment_done(params: Params, state: State, event: DeploymentDone) -> float:
    return 0.0


_SCORES: dict[type, Callable[[Params, State, Any], float]] = {
    StrongPointSeized: _objective,
    ChargePlaced: _charge,
    ChargeDefused: _objective,
    ChargesDetonated: _detonate,
    VipEscorted: _escort,
    ActionDeclared: _declared,
    ReactionDeclared: _reaction,
    UnitMoved: _moved,
    UnitDeployed: _deployed,
    MarkerPlaced: _marker,
    ArmySelected: _army,
    AbilityUsed: _ability,
    Passed: _passed,
    TokenMoved: _token_moved,
    DeploymentDone: _deployment_done,
}


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
