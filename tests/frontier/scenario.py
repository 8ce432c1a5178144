"""Positions for rule tests: units and terrain where a test needs them, without a setup.

Tests then feed events through the public Ruleset functions (`check`, `apply`, `outcome`,
`legal`, `view`), exactly as a replay does. Seat p1 fields the `p1/...` units, p2 the rest.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets import registry
from rulesets.frontier import units
from rulesets.frontier.board import Point, rectangle
from rulesets.frontier.events import ActionRolled, Level, TerrainPlaced
from rulesets.frontier.state import Piece, State, Token, Turn, Unit, make_piece
from rulesets.registry import Rules

R: Rules = registry.resolve("frontier")
P = R.params
replace = msgspec.structs.replace


def started(**options: Any) -> MatchStarted:
    """Line 0 of a two-seat match with these options."""
    return MatchStarted(seq=0, match_id="t", ruleset="frontier", version="1.0", seats={"p1": "ana", "p2": "ben"}, options=options)


def put(kind: str, at: Point, side: str = "p1", n: int = 1, level: int = 0, **changes: Any) -> Unit:
    """A unit of a type standing at a point (id `side/kind-n`)."""
    assert kind in units.UNITS, kind
    return Unit(id=f"{side}/{kind}-{n}", type=kind, side=side, status="board", at=at, level=level, **changes)


def held(kind: str, ability: str, side: str = "p1", n: int = 1) -> Unit:
    """A unit held in reserve by an ability (Orbital Drop, Infiltration)."""
    return Unit(id=f"{side}/{kind}-{n}", type=kind, side=side, status="reserve", used=(ability,))


def block(piece_id: str, x0: float, y0: float, x1: float, y1: float, scale: int, *levels: tuple[int, tuple[str, ...]]) -> Piece:
    """A rectangular terrain piece with levels (height, rules)."""
    return make_piece(piece_id, piece_id, rectangle(x0, y0, x1, y1), scale, tuple(Level(height=h, rules=r) for h, r in levels))


def placed(piece: Piece) -> TerrainPlaced:
    """The event that places a piece."""
    return TerrainPlaced(piece=piece.id, outline=piece.outline, scale=piece.scale, levels=piece.levels, label=piece.label)


def position(*pieces_and_units: Unit | Piece, mission: str = "assault", active: str = "p1", attacker: str = "p1",
             tokens: tuple[Token, ...] = (), **fields: Any) -> State:
    """A play position: these units on the table, this terrain, `active` to take step 1."""
    on = tuple(u for u in pieces_and_units if isinstance(u, Unit))
    terrain = tuple(p for p in pieces_and_units if isinstance(p, Piece))
    armies, factions = [], []
    for seat in ("p1", "p2"):
        mine = tuple(u.type for u in on if u.side == seat)
        armies.append((seat, mine))
        factions.append((seat, units.UNITS[mine[0]].faction if mine else "rebels"))
    defaults: dict[str, Any] = {"defender_edges": ("south",)} if mission == "assault" else {}
    defaults.update(fields)
    return State(seats=("p1", "p2"), mission=mission, points=P.points, stage="play", terrain=terrain, attacker=attacker,
                 factions=tuple(factions), armies=tuple(armies), units=on, tokens=tokens,
                 turn=Turn(seat=active, number=1), turns=1, **defaults)


def unit(state: State, unit_id: str) -> Unit:
    """A unit of the position (must exist)."""
    return next(u for u in state.units if u.id == unit_id)


def violations(state: State, event: Event) -> list[str]:
    """Rule ids the event breaks here (errors and warnings)."""
    return [v.rule for v in R.ruleset.check(P, state, event)]


def messages(state: State, event: Event) -> list[str]:
    """The messages of every rule the event breaks."""
    return [v.message for v in R.ruleset.check(P, state, event)]


def play(state: State, *events: Event) -> State:
    """Apply events in order (checking nothing)."""
    for event in events:
        state = R.ruleset.apply(P, state, event)
    return state


def legally(state: State, *events: Event) -> State:
    """Apply events in order, each of which must be legal."""
    for event in events:
        assert violations(state, event) == [], (event, messages(state, event))
        state = R.ruleset.apply(P, state, event)
    return state


def roll(active: tuple[int, ...], reactive: tuple[int, ...], **claims: Any) -> ActionRolled:
    """An action roll."""
    return ActionRolled(active=active, reactive=reactive, **claims)


def legal(state: State) -> list[Event]:
    """The sampled legal events."""
    return list(R.ruleset.legal(P, state))


def phase(state: State) -> str:
    """The step the state is at (progress phase)."""
    return R.ruleset.progress(P, state).phase


def dice(state: State) -> tuple[int, int, int, int]:
    """(active dice, active die size, reactive dice, reactive die size) the rules call for now."""
    outcomes = R.ruleset.chance(P, state)
    assert outcomes is not None
    last = outcomes[-1][0]
    assert isinstance(last, ActionRolled)
    return len(last.active), max(last.active), len(last.reactive), max(last.reactive)
