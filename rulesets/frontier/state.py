"""Frontier's state: frozen Structs and tuples, plus the queries rules, moves and views share.

A snapshot is a reference: applying an event builds a new state that shares every part it
did not change, so the Timeline keeps snapshots for free and nothing is ever mutated.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import Literal, NamedTuple

import msgspec

from rulesets.frontier import board, missions, units
from rulesets.frontier.board import Point, Polygon
from rulesets.frontier.events import Level
from rulesets.frontier.params import Params
from rulesets.memo import last_one, last_state

replace = msgspec.structs.replace

Stage = Literal["terrain", "roles", "selection", "deployment", "play"]
Status = Literal["roster", "reserve", "board", "destroyed", "evacuated", "removed"]
"""roster: chosen, not yet set up; reserve: held back (Orbital Drop, Infiltration); board: on the
table; destroyed; evacuated (Bug Out); removed (Self Destruct): the last two are not destroyed."""

TERRAIN_RULES = ("rough", "firing_position", "exposed", "cover", "open_sided", "hazardous", "impassable")
"""frontier.md, Terrain Rules."""
ACTIONS = ("advance", "open_fire", "fight_through", "bug_out")
REACTIONS: dict[str, tuple[str, ...]] = {
    # frontier.md, Actions and Reactions (the first table)
    "advance": ("overwatch", "flank"),
    "open_fire": ("firefight", "take_cover"),
    "fight_through": ("counter_attack", "fall_back"),
    "bug_out": ("overwatch", "counter_attack"),
}
ATTRIBUTE: dict[str, str] = {
    "advance": "mobility", "open_fire": "firepower", "fight_through": "assault", "bug_out": "discipline",
    "overwatch": "firepower", "flank": "mobility", "firefight": "firepower", "take_cover": "discipline",
    "counter_attack": "assault", "fall_back": "discipline",
}
"""The action rating of every action and reaction."""
NEAR = 5.0
"""The many 5" distances of the text (strategic actions, abilities, the 5" rule)."""


@functools.lru_cache(maxsize=256)
def _heights(scale: int, levels: tuple[Level, ...]) -> tuple[int, ...]:
    """`Piece.heights`, remembered by the piece's scale and levels (asked for every point a
    move, a set-up or a sight line ends on; a table has a dozen pieces)."""
    floors = {lv.height for lv in levels if 0 <= lv.height < scale}
    return tuple(sorted({*floors, scale}))


@functools.lru_cache(maxsize=256)
def _impassable(levels: tuple[Level, ...]) -> bool:
    """`Piece.impassable`, remembered by the piece's levels (asked for every point a unit is set up on)."""
    return any("impassable" in lv.rules for lv in levels)


class Piece(msgspec.Struct, frozen=True, gc=False):
    """A terrain piece on the table, as the players agreed it."""

    id: str
    label: str
    outline: Polygon
    scale: int
    levels: tuple[Level, ...]
    open_sided: tuple[int, ...]
    """Heights with the Open Sided rule (what line of sight needs)."""
    box: tuple[float, float, float, float]

    def rules_at(self, height: int) -> tuple[str, ...]:
        """The terrain rules of the level at a height (none for an unlisted top)."""
        return next((lv.rules for lv in self.levels if lv.height == height), ())

    def heights(self) -> tuple[int, ...]:
        """Heights a unit may stand at inside the outline: listed floors and the top."""
        return _heights(self.scale, self.levels)

    def impassable(self) -> bool:
        """"Units may not move through impassable terrain"."""
        return _impassable(self.levels)

    def enterable(self) -> bool:
        """Whether a unit can walk into it at ground level (it has a level at height 0)."""
        return self.scale == 0 or any(lv.height == 0 for lv in self.levels)


class Unit(msgspec.Struct, frozen=True, gc=False):
    """One unit of an army and its state."""

    id: str
    type: str
    side: str
    """The seat that fields it."""
    status: Status = "roster"
    at: Point | None = None
    level: int = 0
    """Height it stands at in the terrain piece under it (0 on the ground)."""
    shaken: bool = False
    used: tuple[str, ...] = ()
    """Active abilities it has used ("may be used by a unit once per game")."""
    primed: tuple[str, ...] = ()
    """Abilities used "prior to" or "when" that wait for the roll or move they change."""
    nanites: str | None = None
    """Experimental Nanites: `mobility` or `assault` advantage for the rest of the game."""
    until: tuple[tuple[str, int], ...] = ()
    """Effects that last until the end of a turn: (effect, turn number)."""
    ghost: bool = False
    """Ghost Field: until the next action roll is resolved, units targeting it have disadvantage."""


class Token(msgspec.Struct, frozen=True, gc=False):
    """A marker or token on the table: strong point, target, VIP, knife missile, mine, infiltration."""

    id: str
    kind: str
    owner: str | None
    at: Point


class Window(msgspec.Struct, frozen=True, gc=False):
    """A decision the rules have opened: a move a unit may (or must) make, a marker to place,
    an optional follow-up. Windows are taken front first."""

    kind: Literal["move", "strong_point", "autoguns", "demolition", "focus_fire"]
    seat: str
    """Who decides."""
    unit: str | None = None
    purpose: str = ""
    """For a move: advance, fight_through, fight_through_additional, overwatch, flank, fall_back,
    slalom, stim_packs, forward_maggots."""
    allowance: float = 0.0
    """For a move: the maximum move distance before climbing."""
    must: bool = False
    forced: bool = False
    """The opponent moves the unit (Overwatch): a unit moved off terrain falls."""
    away_from: str | None = None
    """Fall Back: the unit it must end further from."""
    keep_sight: str | None = None
    """Fight Through's first move: the target must end in line of sight and within 10"."""
    origin: Point | None = None
    """Where a measurement starts: the old strong point; the unit's place before the move."""
    target: str | None = None
    """Autoguns' original target; Focus Fire's designated target; the unit Demolition shakes."""


class Activation(msgspec.Struct, frozen=True, gc=False):
    """The unit acting this turn and where its action stands."""

    unit: str
    action: str
    target: str | None = None
    phase: Literal["move", "react", "roll", "resolve"] = "react"
    reaction: str | None = None
    reactor: str | None = None
    shots: int = 0
    """Open fire actions made in this activation (Autoguns fires only on the first)."""
    focus: bool = False
    """Focus Fire's open fire, made in step 1: step 2 still follows."""
    won: str | None = None
    """Who won the roll (`active`/`reactive`), once resolved."""


class Turn(msgspec.Struct, frozen=True, gc=False):
    """The running turn: the active seat, its step, and what waits to be decided or rolled."""

    seat: str
    number: int
    step: Literal["strategic", "action"] = "strategic"
    strategic: str | None = None
    """The strategic action taken this turn, if any."""
    activation: Activation | None = None
    windows: tuple[Window, ...] = ()
    tests: tuple[str, ...] = ()
    """Neural Trojan: enemy units still to roll their discipline."""
    nanites: str | None = None
    """Experimental Nanites: the unit whose D6 is still to be rolled."""


class Trace(msgspec.Struct, frozen=True, gc=False):
    """The last action's line of sight or path, for the board view."""

    kind: Literal["line-of-sight", "path"]
    points: tuple[Point, ...]
    clear: bool = True
    label: str = ""


class State(msgspec.Struct, frozen=True, gc=False):
    """A Frontier position, from the first terrain piece to the end."""

    seats: tuple[str, ...]
    mission: str
    points: int
    """The mission's points limit."""
    agreed_factions: tuple[tuple[str, str], ...] = ()
    """Factions fixed by the match options, (seat, faction)."""
    agreed_armies: tuple[tuple[str, tuple[str, ...]], ...] = ()
    stage: Stage = "terrain"
    terrain: tuple[Piece, ...] = ()
    roll_winner: str | None = None
    attacker: str | None = None
    factions: tuple[tuple[str, str], ...] = ()
    armies: tuple[tuple[str, tuple[str, ...]], ...] = ()
    units: tuple[Unit, ...] = ()
    attacker_edges: tuple[str, ...] = ()
    defender_edges: tuple[str, ...] = ()
    short_edge: str | None = None
    wave: int = 0
    """Index of the mission's deployment step under way."""
    tokens: tuple[Token, ...] = ()
    serial: int = 0
    """Tokens placed so far (numbers their ids)."""
    charges: int = 0
    seized: int = 0
    detonated: bool = False
    vip_out: bool = False
    designated: tuple[tuple[str, str], ...] = ()
    """(designated target, the pathfinder that designated it)."""
    turn: Turn | None = None
    turns: int = 0
    last_action: Activation | None = None
    """The last action resolved (did it have a reaction?)."""
    trace: tuple[Trace, ...] = ()


# --- seats and sides --------------------------------------------------------------------------


def defender(state: State) -> str | None:
    """The defender's seat, once the roles are known."""
    if state.attacker is None:
        return None
    return other_seat(state, state.attacker)


def other_seat(state: State, seat: str) -> str:
    """The other player's seat."""
    return next((s for s in state.seats if s != seat), seat)


def role_of(state: State, seat: str) -> str | None:
    """`attacker` or `defender` for a seat, once the roles are known."""
    if state.attacker is None:
        return None
    return "attacker" if seat == state.attacker else "defender"


def seat_of(state: State, role: str) -> str | None:
    """The seat playing a role."""
    return state.attacker if role == "attacker" else defender(state)


def faction_of(state: State, seat: str) -> str | None:
    """The faction a seat announced."""
    return next((f for s, f in state.factions if s == seat), None)


def army_of(state: State, seat: str) -> tuple[str, ...] | None:
    """The unit types a seat selected (None before it chose)."""
    return next((a for s, a in state.armies if s == seat), None)


def army_points(types: tuple[str, ...]) -> int:
    """Total points of a list of unit types (unknown types count 0)."""
    return sum(u.points for t in types if (u := units.UNITS.get(t)) is not None)


def unit_ids(seat: str, types: tuple[str, ...]) -> list[str]:
    """Ids of an army's units: `seat/type-n`, numbered per type in selection order."""
    counts: dict[str, int] = {}
    out = []
    for t in types:
        counts[t] = counts.get(t, 0) + 1
        out.append(f"{seat}/{t}-{counts[t]}")
    return out


# --- units ---------------------------------------------------------------------------------------


def find(state: State, unit_id: str | None) -> Unit | None:
    """The unit with that id, if the game has it."""
    if unit_id is None:
        return None
    return _index(state.units).by_id.get(unit_id)


def units_by_id(state: State) -> Mapping[str, Unit]:
    """`find` for many ids in a row (a declaration's open fire finds every target by id): each
    unit by its id, the first if a table's mistake gave two units one id."""
    return _index(state.units).by_id


class _Units(NamedTuple):
    """What rules ask of one units tuple again and again, answered once per tuple: `find` is
    asked a few hundred times per tuple (every candidate names its units), `on_board` some
    fifty times per decision, `bodies` by every sight line, `destroyed_points` by the ending
    of every state."""

    at: dict[str, int]
    """Each id's place in the tuple (the first unit of that id, if a table's mistake gave two
    units one id: the one `replace_unit` replaces)."""
    by_id: dict[str, Unit]
    """Each unit by its id (that first unit)."""
    standing: dict[str | None, tuple[Unit, ...]]
    """`on_board`: the units standing on the table, in the tuple's order, of each seat (None:
    of all seats); a seat with none standing has no entry or an empty one."""
    bodies: tuple[board.Body, ...]
    """`bodies`: the units standing as bodies, in the same order."""
    destroyed: dict[str, int]
    """`destroyed_points` of every seat with a unit destroyed."""


def _stands(unit: Unit) -> bool:
    return unit.status == "board" and unit.at is not None


def _built(every: tuple[Unit, ...]) -> _Units:
    """The units tuple's index, from scratch (`replace_unit` carries it from one tuple to the next)."""
    at: dict[str, int] = {}
    by_id: dict[str, Unit] = {}
    for i, u in enumerate(every):
        if u.id not in at:
            at[u.id], by_id[u.id] = i, u
    standing = tuple(u for u in every if _stands(u))
    by_side: dict[str | None, tuple[Unit, ...]] = {None: standing}
    for side in dict.fromkeys(u.side for u in standing):
        by_side[side] = tuple(u for u in standing if u.side == side)
    return _Units(at, by_id, by_side, tuple(_body(u) for u in standing), _destroyed(every))


_index = last_one(_built)
"""`_built`, kept for the last units tuple asked (rulesets/memo.py): the units tuple is shared
by every state in which no unit changed."""


def _destroyed(every: tuple[Unit, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in every:
        if u.status == "destroyed":
            out[u.side] = out.get(u.side, 0) + kind(u).points
    return out


def replace_unit(state: State, unit: Unit, **changes: object) -> State:
    """The state with one unit replaced (and any other state fields changed). Most events
    change one unit, so the index of the units tuple before (`_index`) is carried over to the
    new tuple with that one entry changed, added or taken out, not built again."""
    every = state.units
    index = _index(every)
    i = index.at.get(unit.id)
    if i is None:
        return replace(state, **changes) if changes else state
    after = (*every[:i], unit, *every[i + 1:])
    _index.keep(after, _carried(index, every, after, i, unit))
    return replace(state, units=after, **changes)


def _carried(index: _Units, before: tuple[Unit, ...], after: tuple[Unit, ...], i: int, new: Unit) -> _Units:
    """The index of `after`, `before` with its unit at `i` replaced by `new` (of the same id),
    from `before`'s: equal to what `_index` makes of `after` from scratch."""
    old = before[i]
    by_id = dict(index.by_id)
    by_id[new.id] = new
    if old.side != new.side:
        return _built(after)  # (no rule moves a unit to the other side: built again)
    destroyed = index.destroyed
    if old.status == "destroyed" or new.status == "destroyed":  # (rare: counted again)
        destroyed = _destroyed(after)
    was = old.status == "board" and old.at is not None  # (`_stands`, inline: every event asks it)
    now = new.status == "board" and new.at is not None
    if not (was or now):  # neither stands: who stands is the same
        return _Units(index.at, by_id, index.standing, index.bodies, destroyed)
    standing = dict(index.standing)
    every, side, bodies_ = standing[None], standing.get(new.side, ()), index.bodies
    if was:  # (the first standing unit equal to `old` is `old`: an equal one before it would have its id)
        at, on_side = every.index(old), side.index(old)
    else:  # set up: after the units before it that stand, in the tuple's order
        at = on_side = 0
        for u in before[:i]:
            if u.status == "board" and u.at is not None:
                at += 1
                on_side += u.side == new.side
    put: tuple[Unit, ...] = (new,) if now else ()
    body: tuple[board.Body, ...] = (_body(new),) if now else ()
    gone = 1 if was else 0
    standing[None] = (*every[:at], *put, *every[at + gone:])
    standing[new.side] = (*side[:on_side], *put, *side[on_side + gone:])  # (empty as no entry: `on_board` reads it so)
    return _Units(index.at, by_id, standing, (*bodies_[:at], *body, *bodies_[at + gone:]), destroyed)


def kind(unit: Unit) -> units.UnitType:
    """The unit's printed entry."""
    return units.UNITS[unit.type]


def has(unit: Unit, ability: str) -> bool:
    """Whether the unit has an ability (passive or active) by its printed entry."""
    return ability in units.ABILITY_IDS.get(unit.type, ())


def on_board(state: State, side: str | None = None) -> tuple[Unit, ...]:
    """Units standing on the table, optionally of one seat."""
    return _index(state.units).standing.get(side, ())


def enemies_of(state: State, unit: Unit) -> list[Unit]:
    """The other side's units on the table."""
    return [u for u in on_board(state) if u.side != unit.side]


def friends_of(state: State, unit: Unit) -> list[Unit]:
    """The unit's own side's other units on the table."""
    return [u for u in on_board(state, unit.side) if u.id != unit.id]


def position(unit: Unit) -> Point:
    """Where a unit on the table stands."""
    assert unit.at is not None
    return unit.at


def gap(a: Unit, b: Unit) -> float:
    """Distance between two units on the table, centre to centre (readings.py: measuring)."""
    return board.distance(position(a), position(b))


def effective_scale(state: State, unit: Unit) -> int:
    """"If a unit is on top of terrain then its scale is increased by the scale of that terrain"."""
    return kind(unit).scale + unit.level


def until(unit: Unit, effect: str, turn: int) -> bool:
    """Whether an until-end-of-turn effect holds this turn."""
    return (effect, turn) in unit.until


def turn_number(state: State) -> int:
    """The running turn's number (0 before play)."""
    return state.turn.number if state.turn else 0


# --- terrain -----------------------------------------------------------------------------------


def make_piece(piece_id: str, label: str, outline: tuple[Point, ...], scale: int, levels: tuple[Level, ...]) -> Piece:
    """A terrain piece with its derived geometry."""
    poly = tuple((float(x), float(y)) for x, y in outline)
    sided = tuple(sorted({lv.height for lv in levels if "open_sided" in lv.rules}))
    box = board.bounds(poly) if poly else (0.0, 0.0, 0.0, 0.0)
    return Piece(id=piece_id, label=label, outline=poly, scale=scale, levels=levels, open_sided=sided, box=box)


def piece_at(state: State, p: Point) -> Piece | None:
    """The terrain piece whose outline holds a point (the first placed, if pieces overlap)."""
    return _locator(None, state.terrain)(p)


def locator(state: State) -> Callable[[Point], Piece | None]:
    """`piece_at` for the state's table, to ask of many points in a row (a move's sampled ends)."""
    return _locator(None, state.terrain)


CELL = 4.0
"""Inches of a square of the table in `_locator` (a power of two: dividing by it is exact,
so a point inside a bounding box always falls in one of the box's squares)."""


@last_state  # one table per game: every state of it shares the same terrain tuple (rulesets/memo.py)
def _locator(params: None, terrain: tuple[Piece, ...]) -> Callable[[Point], Piece | None]:
    """`piece_at` for one table. The pieces whose bounding box reaches each CELL x CELL square,
    in placing order, so a point is tested against a square's few pieces, not all; and each
    point's answer remembered, since a game asks again and again about the same few hundred
    points (where units stand, where sampled moves end). Pure geometry over a frozen table."""
    cells: dict[tuple[int, int], list[Piece]] = {}
    for piece in terrain:
        x0, y0, x1, y1 = piece.box
        for i in range(math.floor(x0 / CELL), math.floor(x1 / CELL) + 1):
            for j in range(math.floor(y0 / CELL), math.floor(y1 / CELL) + 1):
                cells.setdefault((i, j), []).append(piece)
    squares = {key: tuple(pieces) for key, pieces in cells.items()}

    @functools.lru_cache(maxsize=1 << 14)
    def at(p: Point) -> Piece | None:
        for piece in squares.get((math.floor(p[0] / CELL), math.floor(p[1] / CELL)), ()):
            x0, y0, x1, y1 = piece.box
            if x0 <= p[0] <= x1 and y0 <= p[1] <= y1 and board.inside(p, piece.outline):
                return piece
        return None

    return at


def piece(state: State, piece_id: str) -> Piece | None:
    """A terrain piece by id."""
    return next((t for t in state.terrain if t.id == piece_id), None)


def heights_at(state: State, p: Point) -> tuple[int, ...]:
    """Heights a unit may stand at on a point: 0 in the open, else the piece's floors and top."""
    found = piece_at(state, p)
    return (0,) if found is None else found.heights()


def terrain_rules(state: State, unit: Unit) -> frozenset[str]:
    """Terrain rules that apply to a unit where it stands (frontier.md, Terrain Rules).

    "This unit ignores the rough and hazardous terrain rules" (Harsh Terrain Training).
    """
    if unit.at is None:
        return frozenset()
    found = piece_at(state, unit.at)
    if found is None:
        return frozenset()
    rules = frozenset(found.rules_at(unit.level))
    if has(unit, "harsh_terrain_training"):
        rules -= {"rough", "hazardous"}
    return rules


# --- line of sight ----------------------------------------------------------------------------------


def sighted(state: State, unit: Unit, at: Point | None = None, level: int | None = None) -> board.Sighted:
    """A unit as one end of a line of sight (optionally as if standing elsewhere)."""
    if at is None and level is None and unit.at is not None:
        return _standing_ends(None, state.terrain)(unit)
    return _sighted(state, unit, at, level)


def _sighted(state: State, unit: Unit, at: Point | None, level: int | None) -> board.Sighted:
    p = at if at is not None else position(unit)
    return _end(locator(state), unit, p, unit.level if level is None else level)


def _end(locate: Callable[[Point], Piece | None], unit: Unit, p: Point, z: int) -> board.Sighted:
    found = locate(p)
    return board.Sighted(at=p, scale=kind(unit).scale + z, piece=found.id if found else None, level=z, id=unit.id)


ENDS_KEPT = 4096
"""Units' ends of sight lines kept per table (`_standing_ends`)."""


@last_state  # one table per game (rulesets/memo.py)
def _standing_ends(params: None, terrain: tuple[Piece, ...]) -> Callable[[Unit], board.Sighted]:
    """`sighted(state, unit)` for a unit where it stands, on one table, remembered per unit
    object: a unit that did not change is the very object of the state before (frozen), and
    a decision asks its end of a line once per candidate that aims at it or from it (open
    fire, reactions). Keyed on identity, the unit kept beside its answer (so its id is not
    reused while it is kept); a bounded memo."""
    kept: dict[int, tuple[Unit, board.Sighted]] = {}
    locate = _locator(None, terrain)

    def end(unit: Unit) -> board.Sighted:
        found = kept.get(id(unit))
        if found is not None and found[0] is unit:
            return found[1]
        made = _end(locate, unit, position(unit), unit.level)
        if len(kept) >= ENDS_KEPT:
            kept.clear()
        kept[id(unit)] = (unit, made)
        return made

    return end


def bodies(state: State) -> tuple[board.Body, ...]:
    """Every unit on the table as something that may stand in a line of sight."""
    return _index(state.units).bodies


BODIES_KEPT = 4096
"""Units' bodies kept (`_body`); a game's units change a few hundred times."""
_kept_bodies: dict[int, tuple[Unit, board.Body]] = {}


def _body(unit: Unit) -> board.Body:
    """A unit on the table as a body, remembered per unit object: a unit that did not change
    is the very object of the state before (frozen), so an index built again for a units
    tuple (`_built`) measures again only the units that changed, and shares its bodies with
    the tuples before. Keyed on identity, the unit kept beside its answer (so its id is not
    reused while it is kept); a bounded memo."""
    found = _kept_bodies.get(id(unit))
    if found is not None and found[0] is unit:
        return found[1]
    printed = kind(unit)
    assert unit.at is not None
    # a unit's effective scale (`effective_scale`) is its scale plus the height it stands at
    made = board.Body(unit.id, unit.at, printed.base, printed.scale + unit.level)
    if len(_kept_bodies) >= BODIES_KEPT:
        _kept_bodies.clear()
    _kept_bodies[id(unit)] = (unit, made)
    return made


def walls(state: State) -> tuple[Piece, ...]:
    """The impassable pieces on the table ("Units may not move through impassable terrain")."""
    return _walls(None, state.terrain)


@last_state  # one table per game: every state of it shares the same terrain tuple (rulesets/memo.py)
def _walls(params: None, terrain: tuple[Piece, ...]) -> tuple[Piece, ...]:
    return tuple(piece for piece in terrain if piece.impassable())


def sees(state: State, a: Unit, b: Unit, *, a_at: Point | None = None, a_level: int | None = None,
         b_at: Point | None = None, b_level: int | None = None) -> bool:
    """Whether unit a has line of sight to unit b (frontier.md, Line of Sight), either of them
    optionally as if standing elsewhere (the units in between are the others on the table:
    the two ends never block their own line, wherever they stand)."""
    if (a.at is None and a_at is None) or (b.at is None and b_at is None):
        return False
    if a_at is None and a_level is None and b_at is None and b_level is None:
        return _units_sight(None, state.terrain)(a, b, bodies(state)) is None
    return _sight(None, state.terrain)(sighted(state, a, a_at, a_level), sighted(state, b, b_at, b_level), bodies(state)) is None


@last_state  # one table per game (rulesets/memo.py)
def _units_sight(params: None, terrain: tuple[Piece, ...]) -> Callable[[Unit, Unit, tuple[board.Body, ...]], str | None]:
    """What blocks the line between two units where they stand on one table (`blocker`):
    their ends (`_standing_ends`) and the line (`_sight`) found once per table rather than
    asked of the table again for every line (open fire asks one per enemy of every unit)."""
    end, blocking = _standing_ends(None, terrain), _sight(None, terrain)

    def between(a: Unit, b: Unit, standing: tuple[board.Body, ...]) -> str | None:
        return blocking(end(a), end(b), standing)

    return between


def sight_between(state: State) -> Callable[[Unit, Unit], bool]:
    """`sees(state, a, b)` for units where they stand, to ask of many lines in a row (a
    declaration's open fire and Fight Through, every unit against every enemy): the table's
    lines and the units standing found once, not asked of two memos per line."""
    between, standing = _units_sight(None, state.terrain), bodies(state)

    def sees_standing(a: Unit, b: Unit) -> bool:
        return a.at is not None and b.at is not None and between(a, b, standing) is None

    return sees_standing


def sees_point(state: State, a: Unit, p: Point, scale: int) -> bool:
    """Whether a unit sees a marker of some scale standing on the ground at p."""
    found = piece_at(state, p)
    marker = board.Sighted(at=p, scale=scale, piece=found.id if found else None, level=0, id="marker")
    return _sight(None, state.terrain)(sighted(state, a), marker, bodies(state)) is None


def sight_lines(state: State) -> Callable[[board.Sighted, board.Sighted, tuple[board.Body, ...]], str | None]:
    """What blocks a line between two ends on the state's table (None if clear), given the
    units standing (`bodies`): `sees` for many lines in a row (a move's sampled ends)."""
    return _sight(None, state.terrain)


def terrain_sight(state: State) -> Callable[[board.Sighted, board.Sighted], str | None]:
    """The terrain piece that blocks a line between two ends on the state's table (None if
    clear): `sight_lines`' terrain part, which reads the table and the two ends alone."""
    return _terrain_sight(None, state.terrain)


LINES_KEPT = 1 << 14
"""Sight lines' terrain parts kept per table (`_terrain_sight`); a game traces a few thousand."""


@last_state  # one table per game (rulesets/memo.py)
def _terrain_sight(params: None, terrain: tuple[Piece, ...]) -> Callable[[board.Sighted, board.Sighted], str | None]:
    """`board.terrain_blocker` on one table, remembered by the line's two ends (`_sight`):
    where each stands, how tall it counts, the piece it stands in and its height there, but
    not which unit it is (`Sighted.id`, which the terrain part never reads), so a line from a
    place another unit of the same scale looked from is not traced again (a fifth of a
    heuristic game's lines). A bounded memo."""
    lines: dict[tuple[object, ...], str | None] = {}

    def through_terrain(a: board.Sighted, b: board.Sighted) -> str | None:
        key = a[:4] + b[:4]  # (at, scale, piece, level) of each end
        try:
            return lines[key]
        except KeyError:
            found = lines[key] = board.terrain_blocker(a, b, terrain)
            if len(lines) > LINES_KEPT:
                lines.clear()
            return found

    return through_terrain


def blocker(state: State, a: Unit, b: Unit) -> str | None:
    """What blocks the line from a to b (None if clear)."""
    return _sight(None, state.terrain)(sighted(state, a), sighted(state, b), bodies(state))


@last_state  # one table per game (rulesets/memo.py)
def _sight(params: None, terrain: tuple[Piece, ...]) -> Callable[[board.Sighted, board.Sighted, tuple[board.Body, ...]], str | None]:
    """`board.sight_blocker` on one table. Its terrain part is remembered by the line's two
    ends alone (it reads nothing else), so a line between two units that stood still is not
    traced through the terrain again when some other unit moves: a decision's checks, the
    chosen event's check and effect, and the decisions after it ask about the same lines.
    The units part (a few bounding-box tests) is worked out each time. Pure geometry over
    frozen values."""

    through_terrain = _terrain_sight(None, terrain)

    def blocking(a: board.Sighted, b: board.Sighted, standing: tuple[board.Body, ...]) -> str | None:
        found = through_terrain(a, b)
        return found if found is not None else board.body_blocker(a, b, standing)

    return blocking


# --- missions -------------------------------------------------------------------------------------


def layout(state: State) -> missions.Layout:
    """The setup choices the mission's zones depend on."""
    return missions.Layout(attacker_edges=state.attacker_edges, defender_edges=state.defender_edges, short_edge=state.short_edge)


def current_wave(state: State) -> missions.Wave | None:
    """The deployment step under way."""
    waves = missions.WAVES.get(state.mission, ())
    return waves[state.wave] if state.stage == "deployment" and state.wave < len(waves) else None


def evac_edges(state: State, seat: str) -> tuple[str, ...]:
    """The board edges that are a seat's evac zones."""
    role = role_of(state, seat)
    return _evac_edges(state.mission, role, state.attacker_edges, state.defender_edges, state.short_edge) if role else ()


@functools.lru_cache(maxsize=256)
def _evac_edges(mission: str, role: str, attacker_edges: tuple[str, ...], defender_edges: tuple[str, ...], short_edge: str | None) -> tuple[str, ...]:
    """`missions.evac_edges` by the mission and the setup choices it reads (a few per game):
    every bug out and every move toward an evac edge asks it."""
    return missions.evac_edges(mission, role, missions.Layout(attacker_edges=attacker_edges, defender_edges=defender_edges, short_edge=short_edge))


def evac_distance(state: State, unit: Unit) -> float:
    """Distance from a unit to its nearest evac zone (inf if it has none yet)."""
    at, nearest = position(unit), float("inf")
    for edge in evac_edges(state, unit.side):  # (a loop, not `min` over a generator: every unit's bug out asks it at each declaration)
        away = missions.edge_distance(edge, at)
        if away < nearest:
            nearest = away
    return nearest


def token(state: State, token_id: str) -> Token | None:
    """A token or marker on the table by id."""
    return next((t for t in state.tokens if t.id == token_id), None)


def marker(state: State, kind_: str) -> Token | None:
    """The mission marker of a kind (strong_point, target, vip) on the table."""
    return next((t for t in state.tokens if t.kind == kind_), None)


def destroyed_points(state: State, seat: str) -> int:
    """Points of a seat's units destroyed (Bug Out and Self Destruct do not count)."""
    return _index(state.units).destroyed.get(seat, 0)


def starting_points(state: State, seat: str) -> int:
    """Points of the army a seat selected."""
    return _starting(state.armies).get(seat, 0)


@last_one  # the armies are chosen once: every state of the play shares them (rulesets/memo.py)
def _starting(armies: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, int]:
    """`starting_points` of every seat at once (the ending asks it of every state); the first
    army listed for a seat, as `army_of` reads it."""
    out: dict[str, int] = {}
    for seat, types in armies:
        out.setdefault(seat, army_points(types))
    return out


def designated(state: State, unit: Unit) -> bool:
    """A designated target "while the pathfinder remains on the field"."""
    return any(target == unit.id and (p := find(state, pathfinder)) is not None and p.status == "board"
               for target, pathfinder in state.designated)


def objective_done(params: Params, state: State) -> bool:
    """Whether the attacker has achieved the mission's objective (frontier.md, Missions)."""
    if state.mission == "assault":
        return state.seized >= 2  # "must complete the seize action 2 times"
    if state.mission == "sabotage":
        return state.detonated  # "must complete the detonation action"
    if state.mission == "escort":
        return state.vip_out  # "place the VIP marker in contact with one of their evac zones"
    defender_seat = defender(state)
    if defender_seat is None:
        return False
    # Ambush: "Destroy units with a total points cost of at least 50% of the defenders starting points total."
    return destroyed_points(state, defender_seat) >= 0.5 * starting_points(state, defender_seat) > 0


def attacker_losses(params: Params, state: State) -> tuple[int, float]:
    """(points of the attacking force destroyed, the 50% they are measured against)."""
    if state.attacker is None:
        return 0, float("inf")
    basis = state.points if params.losses_of == "points_limit" else starting_points(state, state.attacker)
    return destroyed_points(state, state.attacker), params.losses_share * basis
