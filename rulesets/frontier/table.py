"""Frontier at the table: each event in words, and where on the table it is made.

`describe` reads an event in the state before it, in the text's own terms and the table's
inches ("p1's Saboteur opens fire on p2's Captain, 14.2″ away"; an action roll says each
side's die, advantage and its sources, the die kept, who wins and what happens: "p2's
Captain is shaken"). `touch` says what a table taps: a unit, then the point it moves to or
the enemy it targets; a unit card (off the table while setting up, or in reserve), then
where it goes; a marker, an edge or a corner of the table. Set-up choices that are not
places (attacker or defender, a faction, an army) and passes are buttons in words.
"""

from __future__ import annotations

import re

from events.base import Event
from rulesets.frontier import board, missions, rolls, units
from rulesets.frontier.board import Point
from rulesets.frontier.events import (
    AbilityUsed,
    ActionDeclared,
    ActionRolled,
    ArmySelected,
    ChargeDefused,
    ChargePlaced,
    ChargesDetonated,
    DeploymentDone,
    DisciplineTested,
    EdgeChosen,
    FactionChosen,
    Level,
    MarkerPlaced,
    NanitesRolled,
    Passed,
    ReactionDeclared,
    RoleChosen,
    RolesRolled,
    StrongPointSeized,
    TerrainAgreed,
    TerrainMoved,
    TerrainPlaced,
    TokenMoved,
    UnitDeployed,
    UnitMoved,
    UnitReserved,
    VipEscorted,
)
from rulesets.frontier.params import Params
from rulesets.frontier.state import (
    State,
    Unit,
    army_points,
    evac_edges,
    find,
    marker,
    other_seat,
    piece_at,
    position,
    token,
)
from rulesets.frontier.state import piece as terrain_piece
from rulesets.frontier.terrain import palette_names
from rulesets.view import Touch, card_key, piece_key, space_key, space_name

TO_DEPLOY = "deploy"
"""The card rows (one a seat: `deploy-p1`) of units not yet set up."""
TERRAIN_ROW = "terrain"
"""The card row of standard pieces not on the table while the board is set up (the palette)."""
IN_RESERVE = "reserve"
"""The card rows (one a seat: `reserve-p1`) of units held in reserve."""
WORDS = {
    "advance": "advance", "open_fire": "open fire", "fight_through": "fight through", "bug_out": "bug out",
    "overwatch": "overwatch", "flank": "flank", "firefight": "firefight", "take_cover": "take cover",
    "counter_attack": "counter attack", "fall_back": "fall back", "discipline_test": "discipline test",
    "rough": "rough", "firing_position": "firing position", "exposed": "exposed", "cover": "cover",
    "open_sided": "open-sided", "hazardous": "hazardous", "impassable": "impassable",
    "strong_point": "strong point", "target": "target", "vip": "VIP", "knife_missile": "knife missile",
    "mine": "mine", "infiltration": "infiltration token",
}
"""Rule ids as the text prints them."""
AIMED = ("overwatch", "firefight", "counter_attack")
"""Reactions made against the active unit: tapped on it. Flank, take cover and fall back are
the reacting unit's own: tapped on itself."""


def words(rule_id: str) -> str:
    """A rule id (an action, a reaction, a terrain rule, a marker) in the text's words."""
    return WORDS.get(rule_id) or units.ABILITY_NAMES.get(rule_id) or rule_id.replace("_", " ")


def at(p: Point) -> str:
    """A point of the table as the board's rulers name it: `12.5″ × 30″`."""
    return space_name("inches", round(p[0], 1), round(p[1], 1))


def unit_name(state: State, unit_id: str) -> str:
    """A unit by its type's name, numbered where its army has several: `Saboteur 2`."""
    found = find(state, unit_id)
    if found is None:
        return unit_id
    entry = units.UNITS.get(found.type)
    name = entry.name if entry else found.type
    kin = [u for u in state.units if u.side == found.side and u.type == found.type]
    return f"{name} {found.id.rsplit('-', 1)[-1]}" if len(kin) > 1 else name


def whose(state: State, unit_id: str | None) -> str:
    """A unit with its seat: `p1's Saboteur 2`."""
    found = find(state, unit_id)
    return f"{found.side}'s {unit_name(state, found.id)}" if found else (unit_id or "a unit")


def _ability(unit_id: str, ability: str) -> str:
    return units.ABILITY_NAMES.get(ability) or ability.replace("_", " ")


def _level(state: State, p: Point, level: int) -> str:
    """Where on a terrain piece a unit stands: ` on the roof of the Hab block (height 3)`."""
    found = piece_at(state, p)
    if found is None:
        return ""
    named = next((lv.name for lv in found.levels if lv.height == level and lv.name), "")
    place = named or ("the ground" if level == 0 else "the top" if level == found.scale else f"height {level}")
    return f" in the {found.label or found.id}" if level == 0 and not named else f" on {_the(place)} of the {found.label or found.id} (height {level})"


def _the(place: str) -> str:
    return place if place.startswith("the ") else f"the {place}"


def levels_words(levels: tuple[Level, ...]) -> str:
    """A piece's levels and their rules: `ground floor: cover; roof at height 3: exposed`."""
    out = []
    for lv in levels:
        if lv.height == 0:
            name = lv.name or "ground"
        else:
            name = f"{lv.name} at height {lv.height}" if lv.name else f"height {lv.height}"
        out.append(f"{name}: {', '.join(words(r) for r in lv.rules) or 'no rules'}")
    return "; ".join(out)


def _army(types: tuple[str, ...]) -> str:
    """An army in words: `Saboteur, Captain × 2, Breacher (145 pts)`."""
    counts: dict[str, int] = {}
    for t in types:
        counts[t] = counts.get(t, 0) + 1
    names = [(units.UNITS[t].name if t in units.UNITS else t) + (f" × {n}" if n > 1 else "") for t, n in counts.items()]
    return f"{', '.join(names)} ({army_points(types)} pts)"


def _shaken(state: State, unit_id: str | None) -> str:
    """What "becomes shaken" does to a unit now: shaken, or destroyed if it already is."""
    found = find(state, unit_id)
    if found is None:
        return "is shaken"
    return f"{whose(state, unit_id)} is destroyed (already shaken)" if found.shaken else f"{whose(state, unit_id)} is shaken"


def describe(params: Params, state: State, event: Event) -> str:
    """One event in words, read in the state it was played in."""
    by = event.by or "the table"
    match event:
        case TerrainPlaced(label=label, piece=piece_id, scale=scale, levels=levels, outline=outline):
            x0, y0, x1, y1 = board.bounds(outline) if outline else (0.0, 0.0, 0.0, 0.0)
            rules = f": {levels_words(levels)}" if levels else ""
            return f"{label or piece_id} (scale {scale}) placed at {x0:g}–{x1:g}″ × {y0:g}–{y1:g}″{rules}"
        case TerrainMoved(piece=piece_id, to=to):
            moving = terrain_piece(state, piece_id)
            if moving is None:
                return f"{piece_id} (not on the table) moved to {at(to)}"
            return f"{moving.label or moving.id} moved to {at(to)} (from {at(board.centroid(moving.outline))})"
        case TerrainAgreed():
            return f"the table is set: {len(state.terrain)} terrain pieces agreed"
        case RolesRolled(rolls=rolled):
            return _roles_rolled(rolled)
        case RoleChosen(role=role):
            other = other_seat(state, by) if by in state.seats else "the other player"
            return f"{by} takes the {role}'s side ({other} is the {'defender' if role == 'attacker' else 'attacker'})"
        case FactionChosen(faction=faction):
            fielded = units.FACTIONS.get(faction)
            return f"{by} fields the {fielded.name if fielded else faction}"
        case ArmySelected(units=types):
            return f"{by} selects {_army(types)}"
        case EdgeChosen(edges=edges):
            return f"{by} deploys from the {' and '.join(edges)} edge{'s' if len(edges) > 1 else ''}"
        case MarkerPlaced(marker=kind_, point=point):
            return f"{by} places the {words(kind_)} at {at(point)}"
        case UnitDeployed(unit=unit_id, point=point, level=level):
            return f"{by} sets up {unit_name(state, unit_id)} at {at(point)}{_level(state, point, level)}"
        case UnitReserved(unit=unit_id, tokens=tokens):
            spots = f" with infiltration tokens at {', '.join(at(t) for t in tokens)}" if tokens else ""
            return f"{by} holds {unit_name(state, unit_id)} in reserve{spots}"
        case DeploymentDone():
            return f"{by} ends this deployment step"
        case Passed(step=step, unit=unit_id):
            return _passed(state, by, step, unit_id)
        case ActionDeclared(unit=unit_id, action=action, target=target):
            return _declared(state, unit_id, action, target)
        case ReactionDeclared(unit=unit_id, reaction=reaction):
            return f"{whose(state, unit_id)} reacts: {words(reaction)}"
        case ActionRolled():
            return _rolled(params, state, event)
        case UnitMoved(unit=unit_id, to=to, level=level, path=path):
            mover = find(state, unit_id)
            far = f" {board.distance(position(mover), to):.1f}″" if mover is not None and mover.at is not None else ""
            via = f" by way of {', '.join(at(p) for p in path)}" if path else ""
            return f"{whose(state, unit_id)} moves{far} to {at(to)}{_level(state, to, level)}{via}"
        case NanitesRolled(value=value):
            return f"Experimental Nanites: {value}, advantage on {'mobility' if value <= 3 else 'assault'} (1-3 mobility, 4-6 assault)"
        case DisciplineTested():
            return _tested(params, state, event)
        case StrongPointSeized(unit=unit_id):
            return f"{whose(state, unit_id)} seizes the strong point"
        case ChargePlaced(unit=unit_id):
            return f"{whose(state, unit_id)} places a charge on the target ({state.charges + 1} in all)"
        case ChargesDetonated():
            return f"{by} detonates {state.charges} charge{'s' if state.charges != 1 else ''}: every unit within 15″ of the target is shaken"
        case ChargeDefused(unit=unit_id):
            return f"{whose(state, unit_id)} defuses a charge ({max(state.charges - 1, 0)} left)"
        case VipEscorted(unit=unit_id, to=to):
            return f"{whose(state, unit_id)} escorts the VIP to {at(to)}"
        case AbilityUsed(unit=unit_id, ability=ability, target=target, points=points, level=level):
            on = f" on {whose(state, target)}" if target else ""
            where = f" at {' and '.join(at(p) for p in points)}" if points else ""
            height = _level(state, points[0], level) if points else ""
            return f"{whose(state, unit_id)} uses {_ability(unit_id, ability)}{on}{where}{height}"
        case TokenMoved(token=token_id, to=to):
            moved = token(state, token_id)
            return f"{by} moves the {words(moved.kind) if moved else token_id} to {at(to)}"
    return type(event).__name__


def _roles_rolled(rolled: dict[str, int]) -> str:
    """Each seat's die and who chooses attacker or defender (a tie is rolled again)."""
    shown = ", ".join(f"{seat} rolls {value}" for seat, value in rolled.items())
    ranked = sorted(rolled.items(), key=lambda sv: -sv[1])
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return f"{shown}: a tie, roll again"
    return f"{shown}: {ranked[0][0]} wins and chooses attacker or defender"


def _passed(state: State, by: str, step: str, unit_id: str | None) -> str:
    if step == "strategic":
        return f"{by} takes no strategic action"
    if step == "reaction":
        return f"{by} does not react: the action succeeds"
    if step == "action":
        return f"{by} passes step 2: no unit of theirs may take an action"
    if step == "move":
        return f"{whose(state, unit_id)} does not move" if unit_id else f"{by} does not move"
    return f"{by} takes no follow-up"


def _declared(state: State, unit_id: str, action: str, target: str | None) -> str:
    who = whose(state, unit_id)
    found, aim = find(state, unit_id), find(state, target)
    if action == "open_fire" and aim is not None:
        far = f", {board.distance(position(found), position(aim)):.1f}″ away" if found and found.at and aim.at else ""
        return f"{who} opens fire on {whose(state, target)}{far}"
    if action == "fight_through" and aim is not None:
        return f"{who} fights through to {whose(state, target)}"
    if action == "bug_out":
        return f"{who} bugs out"
    return f"{who} advances" if action == "advance" else f"{who}: {words(action)}"


def _side(state: State, roll: rolls.Roll, dice: tuple[int, ...], die: int | None) -> str:
    """One side of a roll: `p1's Saboteur rolls firepower D8 with advantage (Firing Position)
    for open fire: 3 and 6, keeps 6`."""
    size = die if die is not None else roll.die
    how = ""
    if roll.number > 1:
        sources = roll.advantage if roll.keep == "high" else roll.disadvantage
        how = f" with {'advantage' if roll.keep == 'high' else 'disadvantage'} ({'; '.join(_named(state, s) for s in sources)})"
    shown = " and ".join(str(d) for d in dice)
    kept = f", keeps {rolls.kept(dice, roll.keep)}" if len(dice) > 1 else ""
    return f"{whose(state, roll.unit)} rolls {roll.attribute} D{size}{how} for {words(roll.kind)}: {shown}{kept}"


UNIT_ID = re.compile(r"[\w.-]+/[a-z0-9_]+-\d+")
"""A unit id (`p2/techy-1`) inside a sentence the rules wrote (an advantage source)."""


def _named(state: State, text: str) -> str:
    """A sentence with unit ids replaced by the units' names."""
    return UNIT_ID.sub(lambda m: whose(state, m.group()) if find(state, m.group()) else m.group(), text)


def _rolled(params: Params, state: State, event: ActionRolled) -> str:
    """Both sides' dice, the die each keeps, who wins (the active player on a tie) and what
    the winner's action or reaction does."""
    specs = rolls.action_rolls(params, state)
    if specs is None:
        return f"action roll: active {', '.join(map(str, event.active))}, reactive {', '.join(map(str, event.reactive))}"
    mine, theirs = specs
    a = event.active_kept if event.active_kept is not None else rolls.kept(event.active, mine.keep)
    r = event.reactive_kept if event.reactive_kept is not None else rolls.kept(event.reactive, theirs.keep)
    won = event.winner if event.winner in ("active", "reactive") else rolls.winner(a, r)
    tie = " (a tie goes to the active player)" if a == r else ""
    winner = find(state, (mine if won == "active" else theirs).unit)
    effect = _effect(params, state, won, mine, theirs)
    return (f"{_side(state, mine, event.active, event.active_die)}; {_side(state, theirs, event.reactive, event.reactive_die)}. "
            f"{a} against {r}: {winner.side if winner else f'the {won} player'} wins{tie}: {effect}")


def _effect(params: Params, state: State, won: str, mine: rolls.Roll, theirs: rolls.Roll) -> str:
    """frontier.md, the Effect columns, for this roll's winner."""
    turn = state.turn
    act = turn.activation if turn else None
    active = whose(state, mine.unit)
    reactor = whose(state, theirs.unit)
    if won == "active":
        action = act.action if act else mine.kind
        target = act.target if act else None
        if action == "advance":
            return f"{active} moves up to {params.advance_move:g}″"
        if action == "open_fire":
            return _shaken(state, target)
        if action == "fight_through":
            return f"{_shaken(state, target)}, and {active} may move {params.short_move:g}″ more"
        return f"{active} leaves the table (not destroyed)"
    reaction = act.reaction if act and act.reaction else theirs.kind
    if reaction == "overwatch":
        return f"{theirs.unit.split('/')[0]} moves {active} up to {params.short_move:g}″"
    if reaction == "flank":
        return f"{reactor} moves up to {params.short_move:g}″"
    if reaction in ("firefight", "counter_attack"):
        return _shaken(state, mine.unit)
    if reaction == "take_cover":
        return "the shot does nothing"
    return f"{reactor} falls back up to {params.short_move:g}″ away from {active}"


def _tested(params: Params, state: State, event: DisciplineTested) -> str:
    """Neural Trojan's discipline test: the dice, the die kept, pass (4 or more) or shaken."""
    found = find(state, event.unit)
    if found is None or found.at is None:
        return f"{whose(state, event.unit)} is off the table: no test"
    spec = rolls.discipline_test(params, state, found)
    value = rolls.kept(event.dice, spec.keep)
    passed = event.passed if event.passed is not None else value >= 4
    head = _side(state, spec, event.dice, event.die)
    return f"Neural Trojan: {head}: {'passes' if passed else 'fails'} (needs 4 or higher)" + ("" if passed else f": {_shaken(state, found.id)}")


# --- where on the table -------------------------------------------------------------------------


def edge_point(edges: tuple[str, ...]) -> Point:
    """Where a table taps to choose edges: the middle of one edge, or the corner two adjacent
    edges meet at."""
    x = {"west": 0.0, "east": missions.WIDTH}
    y = {"south": 0.0, "north": missions.HEIGHT}
    if len(edges) == 1:
        edge = edges[0]
        return (x[edge], missions.HEIGHT / 2) if edge in x else (missions.WIDTH / 2, y[edge])
    px = next((x[e] for e in edges if e in x), missions.WIDTH / 2)
    py = next((y[e] for e in edges if e in y), missions.HEIGHT / 2)
    return px, py


def _evac_point(state: State, unit: Unit | None) -> Point | None:
    """The point of the unit's nearest evac edge straight out from it (where it bugs out to)."""
    if unit is None or unit.at is None:
        return None
    edges = evac_edges(state, unit.side)
    if not edges:
        return None
    edge = min(edges, key=lambda e: missions.edge_distance(e, unit.at or (0.0, 0.0)))
    x, y = unit.at
    return {"south": (x, 0.0), "north": (x, missions.HEIGHT), "west": (0.0, y), "east": (missions.WIDTH, y)}[edge]


def _spot(p: Point) -> str:
    return space_key(round(p[0], 2), round(p[1], 2))


def unit_key(state: State, unit_id: str | None) -> str | None:
    """What is tapped for a unit: its figure on the table, or its card while it waits to be
    set up or in reserve."""
    found = find(state, unit_id)
    if found is None:
        return None
    if found.status == "roster":
        return card_key(f"{TO_DEPLOY}-{found.side}", unit_name(state, found.id))
    if found.status == "reserve":
        return card_key(f"{IN_RESERVE}-{found.side}", unit_name(state, found.id))
    return piece_key(found.id)


def terrain_key(piece_id: str) -> str:
    """What is tapped (or dragged) to move a terrain piece while the board is set up: the
    handle the view draws at its centre."""
    return piece_key(f"terrain:{piece_id}")


def _marker_key(state: State, kind_: str) -> str | None:
    found = marker(state, kind_)
    return piece_key(f"token:{found.id}") if found else None


def _height(state: State, p: Point, level: int) -> str:
    """A level as a picker word: `on the ground`, `on the roof (height 3)`."""
    where = _level(state, p, level)
    return where.strip() if where else "on the ground"


def touch(params: Params, state: State, event: Event) -> Touch:
    """Where an event is made: a unit (figure or card), then a point, a unit or a marker."""
    match event:
        case TerrainPlaced(outline=outline, label=label, piece=piece_id) if outline:
            card = palette_names().get(piece_id)
            source = card_key(TERRAIN_ROW, card) if card is not None else None
            return Touch(source=source, target=_spot(board.centroid(outline)), words=f"place the {label or piece_id}")
        case TerrainMoved(piece=piece_id, to=to):
            moving = terrain_piece(state, piece_id)
            name = moving.label or moving.id if moving is not None else piece_id
            return Touch(source=terrain_key(piece_id), target=_spot(to), words=f"move the {name} here")
        case TerrainAgreed():
            return Touch(words="the table is set")
        case RoleChosen(role=role):
            return Touch(words=f"{event.by} {'attacks' if role == 'attacker' else 'defends'}")
        case FactionChosen(faction=faction):
            found = units.FACTIONS.get(faction)
            return Touch(words=f"{event.by}: {found.name if found else faction}")
        case ArmySelected(units=types):
            return Touch(words=f"{event.by}: {_army(types)}")
        case EdgeChosen(edges=edges):
            return Touch(target=_spot(edge_point(edges)), words=f"the {' and '.join(edges)} edge{'s' if len(edges) > 1 else ''}")
        case MarkerPlaced(marker=kind_, point=point):
            return Touch(target=_spot(point), words=f"the {words(kind_)} here")
        case UnitDeployed(unit=unit_id, point=point, level=level):
            return Touch(source=unit_key(state, unit_id), target=_spot(point), words=f"set up {_height(state, point, level)}")
        case UnitReserved(unit=unit_id):
            key = unit_key(state, unit_id)
            return Touch(source=key, target=key, words="hold in reserve")
        case DeploymentDone():
            return Touch(words=f"{event.by} ends this deployment step")
        case Passed(step="move", unit=unit_id) if unit_id:
            key = unit_key(state, unit_id)
            return Touch(source=key, target=key, words="stay (no move)")
        case Passed(step=step):
            return Touch(words={"strategic": "no strategic action", "reaction": "no reaction", "action": "no action (none may act)"}.get(step, "no follow-up"))
        case ActionDeclared(unit=unit_id, action=action, target=target):
            source = unit_key(state, unit_id)
            if target is not None:
                return Touch(source=source, target=unit_key(state, target), words=words(action))
            if action == "bug_out" and (out := _evac_point(state, find(state, unit_id))) is not None:
                return Touch(source=source, target=_spot(out), words="bug out")
            return Touch(source=source, target=source, words=words(action))
        case ReactionDeclared(unit=unit_id, reaction=reaction):
            act = state.turn.activation if state.turn else None
            source = unit_key(state, unit_id)
            aimed = unit_key(state, act.unit) if act is not None and reaction in AIMED else source
            return Touch(source=source, target=aimed, words=words(reaction))
        case UnitMoved(unit=unit_id, to=to, level=level, path=path):
            via = f" by way of {', '.join(at(p) for p in path)}" if path else ""
            return Touch(source=unit_key(state, unit_id), target=_spot(to), words=f"move {_height(state, to, level)}{via}")
        case StrongPointSeized(unit=unit_id):
            return Touch(source=unit_key(state, unit_id), target=_marker_key(state, "strong_point"), words="seize the strong point")
        case ChargePlaced(unit=unit_id):
            return Touch(source=unit_key(state, unit_id), target=_marker_key(state, "target"), words="place a charge")
        case ChargeDefused(unit=unit_id):
            return Touch(source=unit_key(state, unit_id), target=_marker_key(state, "target"), words="defuse a charge")
        case ChargesDetonated():
            return Touch(target=_marker_key(state, "target"), words="detonate the charges")
        case VipEscorted(unit=unit_id, to=to):
            return Touch(source=_marker_key(state, "vip"), target=_spot(to), words=f"escort with {unit_name(state, unit_id)}")
        case TokenMoved(token=token_id, to=to):
            return Touch(source=piece_key(f"token:{token_id}"), target=_spot(to), words="move the token")
        case AbilityUsed(unit=unit_id, ability=ability, target=target, points=points, level=level):
            source = unit_key(state, unit_id)
            name = _ability(unit_id, ability)
            if target is not None:
                return Touch(source=source, target=unit_key(state, target), words=name)
            if points:
                more = f" and {', '.join(at(p) for p in points[1:])}" if len(points) > 1 else ""
                height = f" {_height(state, points[0], level)}" if level or piece_at(state, points[0]) else ""
                return Touch(source=source, target=_spot(points[0]), words=f"{name}{more}{height}")
            return Touch(source=source, target=source, words=name)
    return Touch(words=describe(params, state, event))
