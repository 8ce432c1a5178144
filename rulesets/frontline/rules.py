"""Warcraft: Frontline's rules: setup, the check of every event, its effect, and the outcome.

One small handler per event type for `check` and one for `apply`. `check` names every
rule an event breaks (`frontline/<section>.<rule>`); `apply` folds the event in as the
table played it, legal or not, so a replay goes on past a mistake exactly as the game
did. Comments cite the passage of ../shared/rules/warcraft-frontline.txt each rule encodes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets.frontline import board
from rulesets.frontline.cards import BUILDINGS, RACES, RESEARCH, UNITS, of_race, race_text
from rulesets.frontline.events import (
    PLACES,
    BuildingBuilt,
    BuildingDestroyed,
    FrontlineMoved,
    ResearchStarted,
    RoundEnded,
    TrainingStarted,
    WorkersMoved,
)
from rulesets.frontline.params import Params
from rulesets.frontline.ruleids import RULE_IDS
from rulesets.frontline.state import (
    Building,
    Returning,
    Side,
    State,
    Task,
    base_line_reached,
    bump,
    capacity,
    count,
    counted_forces,
    defenses,
    effect_total,
    frontline,
    holds,
    opponent,
    points,
    population,
    side,
    standing,
    with_side,
)
from rulesets.frontline.state import building as find_building
from rulesets.memo import last_state
from rulesets.protocol import Outcome, Violation

replace = msgspec.structs.replace
Problems = list[Violation]


def _v(event: Event, rule: str, message: str) -> Violation:
    """A violation of the declared rule `frontline/<rule>` at the event's seq."""
    return RULE_IDS.violation(event, rule, message)


# --- setup (Start phase) ------------------------------------------------------------------------


def races_of(params: Params, started: MatchStarted) -> dict[str, str]:
    """Each seat's race: the `races` option, else orc for the first seat and human for the
    second (Start phase 3: "Each player picks a race")."""
    chosen = started.options.get("races") or {}
    chosen = chosen if isinstance(chosen, dict) else {}
    return {seat: str(chosen.get(seat, RACES[i % len(RACES)])) for i, seat in enumerate(started.seats)}


def validate_start(params: Params, started: MatchStarted) -> list[str]:
    """Two players (Start phase 1) and a known race for each (Race: "Orc and Human")."""
    problems = []
    if len(started.seats) != params.players:
        problems.append(f"Warcraft: Frontline is a {params.players} player only game, not {len(started.seats)} seat(s)")
    unknown = sorted(set(started.options) - {"races"})
    if unknown:
        problems.append(f"unknown option(s) {', '.join(unknown)}; Warcraft: Frontline's only option is races")
    chosen = started.options.get("races")
    if chosen is not None and not isinstance(chosen, dict):
        return [*problems, f'races must be a table {{seat: race}}, e.g. {{"{next(iter(started.seats), "a")}": "orc"}}, not {chosen!r}']
    for seat, race in (chosen or {}).items():
        if seat not in started.seats:
            problems.append(f"races names seat {seat!r}, which is not at the table ({', '.join(started.seats)})")
        elif race not in RACES:
            problems.append(f"unknown race {race!r} for seat {seat}; the races are {', '.join(RACES)}")
    return problems


def setup(params: Params, started: MatchStarted) -> State:
    """Start phase: each player owns a half with a base next to the gold mine and forest,
    5 workers, 3 gold and 2 lumber; the first seat's first action round begins."""
    races = races_of(params, started)
    seats = tuple(started.seats)
    if len(seats) != params.players:  # named by validate_start; nothing can be played
        return State(seats=seats, sides=(), current="", phase="over")
    sides = []
    for half, seat in enumerate(started.seats):
        base = Building(id="base-1", kind="base", area=board.base_area(params, half).id)
        on_gold = min(params.start_on_gold, params.start_workers)
        placed = bump(bump((), "gold", on_gold), "lumber", params.start_workers - on_gold)
        sides.append(Side(seat=seat, race=races[seat], half=half, gold=params.start_gold, lumber=params.start_lumber,
                          workers=placed, buildings=(base,), built=(("base", 1),)))
    state = State(seats=seats, sides=tuple(sides), current=seats[0])
    return begin_round(params, state, state.current)


def begin_round(params: Params, state: State, seat: str) -> State:
    """A player's action round begins: finished tasks and returning militia arrive, then
    "At the beginning of player's every action round, player gain resource base on the
    workers player had in their source area" (1 gold a worker in the gold mine, 1 lumber
    a worker in the forest)."""
    s = side(state, seat)
    if s is None:
        return state
    s = _finish_tasks(replace(s, rounds=s.rounds + 1))
    if s.returning:
        for back in s.returning:
            if back.ready <= s.rounds:
                s = replace(s, workers=bump(s.workers, back.to, back.count))
        s = replace(s, returning=tuple(r for r in s.returning if r.ready > s.rounds))
    s = replace(s, gold=s.gold + count(s.workers, "gold"), lumber=s.lumber + count(s.workers, "lumber"))
    return with_side(state, s, current=seat, phase="action")


def _finish_tasks(s: Side) -> Side:
    """Units and research whose time has passed leave their building: a worker waits idle
    at the base, a combat unit joins the army, a tech is known (a side with none keeps its
    buildings as they are: what is worked out from them stays shared)."""
    if not any(b.task is not None and b.task.ready <= s.rounds for b in s.buildings):
        return s
    buildings = []
    for b in s.buildings:
        task = b.task
        if task is not None and task.ready <= s.rounds:
            if task.kind == "research":
                s = replace(s, techs=(*s.techs, task.item))
            elif task.item in UNITS and not UNITS[task.item].combat:
                s = replace(s, workers=bump(s.workers, "idle", 1))
            else:
                s = replace(s, units=bump(s.units, task.item, 1))
            b = replace(b, task=None)
        buildings.append(b)
    return replace(s, buildings=tuple(buildings))


# --- checks common to every action (Playing phase 1-2) -----------------------------------------------


def _in_round(params: Params, state: State, event: Event) -> tuple[Problems, Side | None]:
    """An action is taken by the player whose action round it is, while the game goes on."""
    if not state.sides:
        return [_v(event, "start.players", f"the table has {len(state.seats)} seat(s); it is a {params.players} player only game")], None
    if (result := outcome(params, state)) is not None:
        return [_v(event, "victory.game-over", f"the game is already over: {result.reason}")], None
    if state.phase != "action":
        return [_v(event, "play.sequence", f"{state.current} ended its round: the table moves the frontline (FrontlineMoved) before anyone acts")], None
    s = side(state, event.by)
    if s is None or event.by != state.current:
        who = event.by or "an unnamed seat"
        return [_v(event, "play.turn", f"it is {state.current}'s action round, not {who}'s (players alternate action rounds)")], s
    return [], s


def round_problems(params: Params, state: State, event: Event) -> Problems:
    """What `check` says of any action for the round itself (the game on, an action round,
    the seat's own): where it finds nothing, `check` is the action's own handler."""
    return _in_round(params, state, event)[0]


def _afford(event: Event, s: Side, what: str, gold: int, lumber: int) -> Problems:
    """Costs are paid from the resource repository."""
    if s.gold < gold or s.lumber < lumber:
        return [_v(event, "cost.resources", f"{what} costs {gold} gold and {lumber} lumber; {s.seat} has {s.gold} gold and {s.lumber} lumber")]
    return []


def _kind_of_race(event: Event, s: Side, table: Mapping[str, Any], kind: str, item: str, section: str) -> Problems:
    """The item exists and belongs to the player's race (or both races)."""
    card = table.get(item)
    if card is not None and card.race in (s.race, "any"):
        return []  # the common case: no message, so no list of the race's cards to build
    known = ", ".join(of_race(table, s.race))
    if card is None:
        return [_v(event, f"{section}.unknown", f"no {kind} {item!r}; {race_text(s.race)} {kind}s: {known}")]
    return [_v(event, f"{section}.race", f"{card.name} is {race_text(card.race)}; {s.seat} plays {race_text(s.race)} ({known})")]


def _not_built(event: Event, s: Side, b: Building) -> Violation:
    """A building going up does nothing yet (readings.py, build.time: "It gives capacity,
    defense, training or research only once it stands")."""
    return _v(event, "build.time", f"{b.id} is still being built (it stands from {s.seat}'s round {b.ready})")


def _free(event: Event, s: Side, building_id: str) -> Problems:
    """"each building can only do one task at the same time"."""
    b = find_building(s, building_id)
    if b is not None and b.task is not None:
        return [_v(event, "train.one-task", f"{building_id} is busy with {b.task.item} until {s.seat}'s round {b.task.ready}: a building does one task at a time")]
    return []


# --- a. Build buildings ---------------------------------------------------------------------------------


def _check_build(params: Params, state: State, event: BuildingBuilt, s: Side) -> Problems:
    problems = _kind_of_race(event, s, BUILDINGS, "building", event.building, "build")
    if problems:
        return problems
    a = board.area(params, event.area)
    if a is None:
        known = ", ".join(x.id for x in board.areas(params))
        return [_v(event, "build.area", f"no area {event.area!r}; the areas are {known}")]
    if not holds(params, state, s.seat, a.id):
        # "Buildings can only be built in the areas as the red shape marked ... Players may only build behind the front line."
        problems.append(_v(event, "build.behind-frontline", f"{a.id} is not behind {s.seat}'s side of the frontline: only areas a player holds may be built in"))
    taken = sum(1 for x in state.sides for b in x.buildings if b.area == a.id)
    if taken >= a.sites:
        problems.append(_v(event, "build.site", f"{a.id} has {a.sites} building sites and all are taken"))
    card = BUILDINGS[event.building]
    return problems + _afford(event, s, f"a {card.name}", card.gold, card.lumber)


def _apply_build(params: Params, state: State, event: BuildingBuilt, s: Side) -> State:
    card = BUILDINGS.get(event.building)
    if card is None:
        return state
    number = count(s.built, card.id) + 1
    new = Building(id=f"{card.id}-{number}", kind=card.id, area=event.area, ready=s.rounds + card.time)
    s = replace(s, gold=s.gold - card.gold, lumber=s.lumber - card.lumber, buildings=(*s.buildings, new), built=bump(s.built, card.id, 1))
    return with_side(state, s)


# --- b. Destroy buildings -------------------------------------------------------------------------------


def _check_destroy(params: Params, state: State, event: BuildingDestroyed, s: Side) -> Problems:
    if find_building(s, event.building) is None:
        theirs = find_building(opponent(state, s.seat), event.building) is not None
        why = " (enemy buildings fall only when the frontline pushes through their area)" if theirs else ""
        own = ", ".join(b.id for b in s.buildings)
        return [_v(event, "destroy.own", f"{s.seat} has no building {event.building!r}{why}; its buildings: {own}")]
    return []


def _apply_destroy(params: Params, state: State, event: BuildingDestroyed, s: Side) -> State:
    return with_side(state, raze(s, {event.building}))


def raze(s: Side, ids: set[str]) -> Side:
    """The side without those buildings; "if the burrow is destroyed, workers in the burrow
    will die with it", and what a building was training or researching is lost."""
    workers = tuple((place, n) for place, n in s.workers if place not in ids)
    return replace(s, buildings=tuple(b for b in s.buildings if b.id not in ids), workers=workers)


# --- c. Reallocate workers ------------------------------------------------------------------------------


def _check_workers(params: Params, state: State, event: WorkersMoved, s: Side) -> Problems:
    if event.count < 1:
        return [_v(event, "workers.count", f"{event.count} workers: a move takes at least one")]
    if razed_burrow(s, event.origin):
        # Orc research: "if the burrow is destroyed, workers in the burrow will die with it".
        return [_v(event, "burrow.destroyed", f"{event.origin} was destroyed and the workers in it died with it: {s.seat} has none there to move")]
    for place in (event.origin, event.to):
        if place not in PLACES and burrow_of(s, place) is None:
            return [_v(event, "workers.place", f"{place!r} is not a place for {s.seat}'s workers: {', '.join(PLACES)} or one of its burrows")]
    if event.origin == event.to:
        return [_v(event, "workers.place", f"the workers would stay in {event.to}")]
    problems = []
    there = count(s.workers, event.origin)
    if there < event.count:
        coming = [r for r in s.returning if r.to == event.origin] if event.origin != "militia" else []
        if coming and there + sum(r.count for r in coming) >= event.count:
            # Human research: militia "takes one extra round before going back to work".
            problems.append(_v(event, "militia.return", f"{sum(r.count for r in coming)} of {s.seat}'s workers for {event.origin} are militia still going back to work "
                                                        f"(there from {s.seat}'s round {min(r.ready for r in coming)}): {s.seat} has {there} there, not {event.count}"))
        else:
            problems.append(_v(event, "workers.count", f"{s.seat} has {there} worker(s) in {event.origin}, not {event.count}"))
    if event.to == "militia" and not effect_total(s, "militia"):
        # "For humans, all workers can turn into militia" - the human unique research.
        problems.append(_v(event, "militia.research", f"workers become militia only after the human research {RESEARCH['call_to_arms'].name}; {s.seat} ({s.race}) has not researched it"))
    burrow = burrow_of(s, event.to)
    if burrow is not None:
        problems += _check_burrow(params, event, s, burrow)
    return problems


def razed_burrow(s: Side, place: str) -> bool:
    """Whether `place` names a burrow the side built that is destroyed (`<kind>-<n>`, n no
    more than it ever built of that kind)."""
    kind, _, number = place.rpartition("-")
    card = BUILDINGS.get(kind)
    return (card is not None and card.room > 0 and number.isdigit() and 1 <= int(number) <= count(s.built, kind)
            and find_building(s, place) is None)


def burrow_of(s: Side, place: str) -> Building | None:
    """The side's building of that id if it can shelter workers."""
    b = find_building(s, place)
    return b if b is not None and b.kind in BUILDINGS and BUILDINGS[b.kind].room > 0 else None


def _check_burrow(params: Params, event: WorkersMoved, s: Side, burrow: Building) -> Problems:
    """"For orc, workers can enter burrow" - the orc unique research; a burrow holds `room`."""
    problems = []
    if not effect_total(s, "burrow"):
        problems.append(_v(event, "burrow.research", f"workers enter burrows only after the orc research {RESEARCH['battle_stations'].name}; {s.seat} has not researched it"))
    if not standing(s, burrow):
        problems.append(_not_built(event, s, burrow))
    room = BUILDINGS[burrow.kind].room
    if count(s.workers, burrow.id) + event.count > room:
        problems.append(_v(event, "burrow.room", f"{burrow.id} holds {room} workers; {count(s.workers, burrow.id)} are inside"))
    return problems


def _apply_workers(params: Params, state: State, event: WorkersMoved, s: Side) -> State:
    moved = min(max(event.count, 0), count(s.workers, event.origin))
    if event.origin == event.to:
        return state
    if moved < event.count and event.origin != "militia" and any(r.to == event.origin for r in s.returning):
        # the table moved militia still going back to work there: followed, they are moved on now
        s, early = _early(s, event.origin, event.count - moved)
        return with_side(state, replace(s, workers=bump(s.workers, event.origin, -moved, (event.to, moved + early))))
    if moved == 0:
        return state
    if event.origin == "militia":
        # "takes one extra round before going back to work": no collection at the next round.
        back = Returning(count=moved, to=event.to, ready=s.rounds + 1 + params.militia_return)
        return with_side(state, replace(s, workers=bump(s.workers, event.origin, -moved), returning=(*s.returning, back)))
    return with_side(state, replace(s, workers=bump(s.workers, event.origin, -moved, (event.to, moved))))


def _early(s: Side, place: str, wanted: int) -> tuple[Side, int]:
    """The side with up to `wanted` of the militia going back to `place` taken off their way
    (earliest first), and how many."""
    taken, kept = 0, []
    for back in sorted(s.returning, key=lambda r: r.ready):
        n = min(back.count, wanted - taken) if back.to == place else 0
        taken += n
        if back.count > n:
            kept.append(replace(back, count=back.count - n))
    return replace(s, returning=tuple(kept)), taken


# --- d. Train units -------------------------------------------------------------------------------------


def _check_train(params: Params, state: State, event: TrainingStarted, s: Side) -> Problems:
    problems = _kind_of_race(event, s, UNITS, "unit", event.unit, "train")
    if problems:
        return problems
    unit = UNITS[event.unit]
    b = find_building(s, event.building)
    if b is None or b.kind not in BUILDINGS or event.unit not in BUILDINGS[b.kind].trains:
        where = f"{b.id} is a {b.kind}" if b is not None else f"{s.seat} has no building {event.building!r}"
        return [_v(event, "train.building", f"{where}; a {unit.name} is trained at a {BUILDINGS[unit.at].name}")]
    if not standing(s, b):
        return [_not_built(event, s, b)]
    problems += _free(event, s, b.id)
    problems += _afford(event, s, f"a {unit.name}", unit.gold, unit.lumber)
    used, cap = population(s), capacity(params, s)
    if used + unit.population > cap:
        # Producing Unit and Population Capacity: farms/burrows 5, base 10.
        problems.append(_v(event, "population.capacity", f"a {unit.name} takes {unit.population} population; {s.seat} uses {used} of {cap}"))
    return problems


def _apply_train(params: Params, state: State, event: TrainingStarted, s: Side) -> State:
    unit = UNITS.get(event.unit)
    b = find_building(s, event.building) or _unwritten(s, event.building)
    if unit is None or b is None:
        return state
    if find_building(s, b.id) is None:  # follow the table: it trains in a building the log never built
        s = replace(s, buildings=(*s.buildings, b), built=bump(s.built, b.kind, 1))
    task = Task(item=unit.id, kind="unit", ready=s.rounds + unit.time)
    return with_side(state, _busy(replace(s, gold=s.gold - unit.gold, lumber=s.lumber - unit.lumber), b, task))


def _unwritten(s: Side, building_id: str) -> Building | None:
    """The building an event names that the log never built (`barracks-2` is a barracks): the
    table had it, so the replay takes it as standing where the side's first building stands."""
    kind = building_id.rsplit("-", 1)[0]
    if kind not in BUILDINGS or not s.buildings:
        return None
    return Building(id=building_id, kind=kind, area=s.buildings[0].area)


def _busy(s: Side, b: Building, task: Task) -> Side:
    return replace(s, buildings=tuple(replace(x, task=task) if x.id == b.id else x for x in s.buildings))


# --- e. Research techs ----------------------------------------------------------------------------------


def _check_research(params: Params, state: State, event: ResearchStarted, s: Side) -> Problems:
    problems = _kind_of_race(event, s, RESEARCH, "tech", event.tech, "research")
    if problems:
        return problems
    tech = RESEARCH[event.tech]
    under_way = any(b.task is not None and b.task.item == tech.id for b in s.buildings)
    if tech.id in s.techs or under_way:
        problems.append(_v(event, "research.once", f"{tech.name} is already {'researched' if tech.id in s.techs else 'being researched'}"))
    b = find_building(s, event.building)
    if b is None or b.kind not in BUILDINGS or not BUILDINGS[b.kind].researches or not standing(s, b):
        # "Player can only do research when warmill or blacksmith is built."
        mills = [x.id for x in s.buildings if x.kind in BUILDINGS and BUILDINGS[x.kind].researches and standing(s, x)]
        return [*problems, _v(event, "research.war-mill", f"{event.building!r} is not a standing war mill or blacksmith of {s.seat}; standing: {', '.join(mills) or 'none'}")]
    return problems + _free(event, s, b.id) + _afford(event, s, tech.name, tech.gold, tech.lumber)


def _apply_research(params: Params, state: State, event: ResearchStarted, s: Side) -> State:
    tech = RESEARCH.get(event.tech)
    b = find_building(s, event.building)
    if tech is None or b is None:
        return state
    task = Task(item=tech.id, kind="research", ready=s.rounds + tech.time)
    return with_side(state, _busy(replace(s, gold=s.gold - tech.gold, lumber=s.lumber - tech.lumber), b, task))


# --- the end of a round and the frontline (Playing phase 3-4, Combat Rules) -------------------------------


def _check_end(params: Params, state: State, event: RoundEnded, s: Side) -> Problems:
    """Any player may end its own round at any point: nothing beyond the common checks."""
    return []


def _apply_end(params: Params, state: State, event: RoundEnded, s: Side) -> State:
    return replace(state, phase="frontline")


def recorded_front(state: State, event: FrontlineMoved) -> int | None:
    """The signed frontline the table recorded, or None if it names no seat of the table."""
    if event.toward is None:
        return 0 if event.grids == 0 else None
    s = side(state, event.toward)
    return None if s is None or event.grids < 0 else board.signed(s.half, event.grids)


def _check_frontline(params: Params, state: State, event: FrontlineMoved) -> Problems:
    if not state.sides:
        return [_v(event, "start.players", f"the table has {len(state.seats)} seat(s); it is a {params.players} player only game")]
    if (result := outcome(params, state)) is not None:
        return [_v(event, "victory.game-over", f"the game is already over: {result.reason}")]
    if state.phase != "frontline":
        return [_v(event, "play.sequence", f"the frontline is moved after a player's turn; {state.current} has not ended its round")]
    problems = []
    forces = counted_forces(params, state)
    table = table_forces(state, event, forces)
    if table != forces and _drift(table, forces) != state.force_drift:
        # "After each player's turn, military force will be calculated."
        said = ", ".join(f"{k} {v}" for k, v in (event.forces or {}).items())
        rules = ", ".join(f"{k} {v}" for k, v in zip(state.seats, forces, strict=True))
        problems.append(_v(event, "combat.force", f"the table counted {said}; the rules count {rules}"))
    # the frontline is judged on the count the table went by: a miscount is one mistake, not two
    recorded, expected = recorded_front(state, event), frontline(params, state, table)
    if recorded is None:
        return [*problems, _v(event, "combat.frontline", f"toward {event.toward!r} with {event.grids} grids is no frontline position (a seat and grids >= 0, or null and 0)")]
    if recorded != expected:
        problems.append(_frontline_problem(params, state, event, recorded, expected, table))
    return problems


def table_forces(state: State, event: FrontlineMoved, forces: tuple[int, ...]) -> tuple[int, ...]:
    """Both forces as the table wrote them down (the rules' count for a seat it left out)."""
    if not event.forces:
        return forces
    return tuple(event.forces.get(seat, rules) for seat, rules in zip(state.seats, forces, strict=True))


def _drift(table: tuple[int, ...], forces: tuple[int, ...]) -> tuple[int, ...]:
    return () if table == forces else tuple(t - r for t, r in zip(table, forces, strict=True))


def _frontline_problem(params: Params, state: State, event: FrontlineMoved, recorded: int, expected: int, forces: tuple[int, ...]) -> Violation:
    """A skip over a grid the difference cannot pass, or any other wrong position."""
    difference = forces[0] - forces[1]
    half = 1 if recorded > 0 else 0
    pushing = difference if half == 1 else -difference
    defs = defenses(params, state, half)
    stop = board.skipped(defs, pushing, board.depth(recorded, half))
    if stop is not None:
        # Defense Power: "enemy player can not skip to that grid without passing through the previous grid".
        return _v(event, "combat.no-skip", f"a difference of {pushing} cannot pass grid {stop} (defense {defs[stop - 1]}) to reach grid {board.depth(recorded, half)} "
                                           f"(defense {defs[board.depth(recorded, half) - 1]}): the frontline stops at grid {stop - 1}")
    # Combat Rules: "The difference of player's military force will decide where the frontline will be."
    return _v(event, "combat.frontline", f"forces {forces[0]} vs {forces[1]} put the frontline {where(state, expected)}, not {where(state, recorded)}")


def where(state: State, front: int) -> str:
    """`2 grids into b's half` / `in the middle`."""
    if front == 0:
        return "in the middle"
    seat = state.seats[1] if front > 0 else state.seats[0]
    return f"{abs(front)} grid(s) into {seat}'s half"


def _apply_frontline(params: Params, state: State, event: FrontlineMoved) -> State:
    """The marker goes where the table put it; buildings of areas it pushed through fall;
    then the bout is counted and the next action round begins."""
    front = recorded_front(state, event)
    forces = counted_forces(params, state)
    table = table_forces(state, event, forces)
    state = replace(state, front=frontline(params, state, table) if front is None else front, forces=forces,
                    force_drift=_drift(table, forces))
    state = _raze_overrun(params, state)
    if base_line_reached(params, state) is not None:
        return replace(state, phase="over")
    index = state.seats.index(state.current) if state.current in state.seats else 0
    if index + 1 < len(state.seats):
        return begin_round(params, state, state.seats[index + 1])
    # "When both players finished their turn, the game is counted as +1 bout"
    done = state.bouts_done + 1
    if done >= params.bouts:
        return replace(state, bouts_done=done, phase="over")
    return begin_round(params, replace(state, bouts_done=done, bout=state.bout + 1), state.seats[0])


def _raze_overrun(params: Params, state: State) -> State:
    """Destroying enemy buildings: "Once frontline pushes through these lines, builds in
    front of the lines are destroyed"."""
    razed: list[str] = []
    for s in state.sides:
        fallen = _areas_lost(params, state.front, s.half)
        lost = {b.id for b in s.buildings if b.area in fallen}
        if lost:
            razed += [f"{s.seat}:{i}" for i in sorted(lost)]
            state = with_side(state, raze(s, lost))
    return replace(state, razed=tuple(razed))


@functools.cache
def _areas_lost(params: Params, front: int, half: int) -> frozenset[str]:
    """The areas whose buildings `half`'s player loses with the frontline at `front`: those
    the other player now holds (pure geometry, memoised)."""
    return frozenset(a.id for a in board.areas(params) if board.holder(a, front) not in (half, None))


# --- dispatch ------------------------------------------------------------------------------------------------

_CHECKS: dict[type, Callable[..., Problems]] = {
    BuildingBuilt: _check_build, BuildingDestroyed: _check_destroy, WorkersMoved: _check_workers,
    TrainingStarted: _check_train, ResearchStarted: _check_research, RoundEnded: _check_end,
}
_APPLIES: dict[type, Callable[..., State]] = {
    BuildingBuilt: _apply_build, BuildingDestroyed: _apply_destroy, WorkersMoved: _apply_workers,
    TrainingStarted: _apply_train, ResearchStarted: _apply_research, RoundEnded: _apply_end,
}


def check(params: Params, state: State, event: Event) -> list[Violation]:
    """Every rule the event breaks in this state (empty: legal)."""
    if isinstance(event, FrontlineMoved):
        return _check_frontline(params, state, event)
    handler = _CHECKS.get(type(event))
    if handler is None:
        return []
    problems, s = _in_round(params, state, event)
    if problems or s is None:
        return problems
    return handler(params, state, event, s)


def apply(params: Params, state: State, event: Event) -> State:
    """The state after the event, as the table played it (also after an illegal one)."""
    if isinstance(event, FrontlineMoved):
        return _apply_frontline(params, state, event) if state.phase == "frontline" else state
    handler = _APPLIES.get(type(event))
    s = side(state, event.by)
    if handler is None or s is None:
        return state
    return handler(params, state, event, s)


# --- outcome (Winning condition) -------------------------------------------------------------------------------


@last_state  # every candidate's check asks it again of the same state (rulesets/memo.py)
def outcome(params: Params, state: State) -> Outcome | None:
    """A push to a base line wins at once; after the 15th bout the points decide."""
    if not state.sides:
        return None
    if state.bouts_done < params.bouts and -len(params.track) < state.front < len(params.track):
        return None  # the common case, asked after every event: no base line reached, bouts left
    half = base_line_reached(params, state)
    if half is not None:
        winner, loser = state.seats[1 - half], state.seats[half]
        return Outcome(winner=winner, reason=f"{winner} pushed the frontline to {loser}'s base line", rule=RULE_IDS.id("victory.base-line"))
    if state.bouts_done < params.bouts:
        return None
    scores = {seat: points(params, state, seat) for seat in state.seats}
    said = ", ".join(f"{seat} {n}" for seat, n in scores.items())
    first, second = state.seats
    if scores[first] == scores[second]:
        return Outcome(winner=None, draw=True, reason=f"{params.bouts} bouts played, equal points ({said})", rule=RULE_IDS.id("victory.points"))
    winner = first if scores[first] > scores[second] else second
    return Outcome(winner=winner, reason=f"{params.bouts} bouts played, {winner} has more points ({said})", rule=RULE_IDS.id("victory.points"))
