"""What `legal` asks of a sampled candidate gives `check`'s answer, and the faster geometry
behind it gives the old geometry's numbers.

`legal` refuses a unit set up, a move and a sight line with shortcuts (what depends on the
unit alone asked once per decision; the terrain part of a sight line remembered by its two
ends; only the pieces a unit climbs walked; a base tested along each axis before it is
measured). These tests hold each shortcut to the plain rule: at every such decision of
seeded bot games, candidates and wrong variants of them; and, for the geometry, the code
before the shortcuts, kept here as the reference.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TypeVar

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.base import Event
from projections.corpus.simulate import play
from rulesets.frontier import abilities, board, missions, movement, moves, rules, units
from rulesets.frontier.board import Body, Point, Sighted, make_terrain
from rulesets.frontier.events import (
    AbilityUsed,
    ActionDeclared,
    MarkerPlaced,
    ReactionDeclared,
    UnitDeployed,
    UnitMoved,
)
from rulesets.frontier.params import Params
from rulesets.frontier.state import (
    State,
    Unit,
    Window,
    enemies_of,
    find,
    has,
    heights_at,
    kind,
    on_board,
    piece_at,
    position,
    replace_unit,
    sees,
)
from rulesets.frontier.timing import front
from tests.frontier.scenario import P, R

replace = msgspec.structs.replace
E = TypeVar("E", bound=Event)


@functools.cache
def _states(bot: str, seed: int) -> tuple[State, ...]:
    """Every state of a seeded bot game at which a decision is made."""
    log = play(R, R.ruleset.example_seats, seed=seed, bot=bot)
    state = R.ruleset.setup(P, log[0])
    out = []
    for event in log[1:]:
        if state.stage != "terrain" and R.ruleset.chance(P, state) is None:
            out.append(state)
        state = R.ruleset.apply(P, state, event)
    return tuple(out)


GAMES = [("random", 3), ("heuristic", 5)]


def _other_seat(state: State, seat: str | None) -> str:
    return next(s for s in state.seats if s != seat)


def _held_to_check(refused: Callable[[Params, State, E], bool], state: State, events: Sequence[E]) -> int:
    """Assert a quick refusal answers as `check` does for every event; how many it refused."""
    count = 0
    for event in events:
        answer = refused(P, state, event)
        assert answer == bool(rules.check(P, state, event)), event
        count += answer
    return count


def test_a_unit_set_up_is_refused_exactly_when_check_finds_a_problem() -> None:
    """`rules.deploy_refused` (the unit's step, seat, status and 50% limit asked once per
    decision) against `check`, for every point offered and for wrong seats, units and points."""
    asked = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            offered = [e for e in moves.candidates(P, state) if isinstance(e, UnitDeployed)]
            for event in offered[:30]:
                other = next((u for u in state.units if u.id != event.unit), None)
                variants = [event, replace(event, by=_other_seat(state, event.by)), replace(event, point=(60.0, 5.0)),
                            replace(event, level=event.level + 1)]
                if other is not None:
                    variants.append(replace(event, unit=other.id))
                variants += [replace(event, point=position(u)) for u in on_board(state)][:3]  # on top of a unit set up
                variants += [replace(event, point=p.outline[0]) for p in state.terrain[:4]]  # a piece's corner
                _held_to_check(rules.deploy_refused, state, variants)
                asked += len(variants)
    assert asked > 500


def test_a_move_is_refused_exactly_when_check_finds_a_problem() -> None:
    """`rules.move_refused` (the mover's seat and window asked once per decision) against
    `check`, for every sampled end and for wrong seats and units."""
    asked = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            offered = [e for e in moves.candidates(P, state) if isinstance(e, UnitMoved)]
            for event in offered:
                other = next((u for u in on_board(state) if u.id != event.unit), None)
                variants = [event, replace(event, by=_other_seat(state, event.by))]
                if other is not None:
                    variants.append(replace(event, unit=other.id))
                _held_to_check(rules.move_refused, state, variants)
                asked += len(variants)
    assert asked > 500


def test_a_declared_action_is_refused_exactly_when_check_finds_a_problem() -> None:
    """`rules.declared_refused` (the decision asked once, open fire's range and sight as a yes
    or no) against `check`, for every declaration offered and for wrong seats, units, actions
    and targets, at every decision of seeded games (those with a window or an action under way
    too, where it asks `check`)."""
    asked = refused = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            offered = [e for e in moves.candidates(P, state) if isinstance(e, ActionDeclared)]
            for event in offered:
                unit = find(state, event.unit)
                friend = next((u for u in state.units if unit is not None and u.side == unit.side and u.id != unit.id), None)
                variants = [event, replace(event, by=_other_seat(state, event.by)), replace(event, action="fly"),
                            replace(event, action="open_fire", target=event.unit), replace(event, action="advance", target="x"),
                            replace(event, action="bug_out"), replace(event, action="bug_out", target="x")]
                if friend is not None:
                    variants += [replace(event, unit=friend.id), replace(event, action="open_fire", target=friend.id)]
                refused += _held_to_check(rules.declared_refused, state, variants)
                asked += len(variants)
    assert asked > 2000 and 0 < refused < asked


def test_open_fire_is_allowed_exactly_when_it_has_no_problem() -> None:
    """`abilities.open_fire_allowed` against `open_fire_problem`, for every unit and every
    other unit of seeded games' decisions (friends, units off the table, designated targets)."""
    asked = allowed = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed)[::3]:
            for shooter in state.units:
                for target in state.units:
                    if target.id != shooter.id:
                        answer = abilities.open_fire_allowed(state, shooter, target)
                        assert answer == (abilities.open_fire_problem(state, shooter, target) is None)
                        asked += 1
                        allowed += answer
    assert asked > 1000 and 0 < allowed < asked


def _old_move_problems(state: State, unit: Unit, window: Window, to: Point, level: int, path: tuple[Point, ...]) -> list[str]:
    """`movement.move_problems` before a move's shared parts were read once per decision (the
    reference): every question asked of the state, the unit and the window at each end."""
    start = position(unit)
    moved = board.distance(start, to)
    if movement.stuck(unit, window) and (moved > board.EPS or path):
        return [f"{unit.id} cannot move (Kill Zone)"]
    out = [f"{p} is off the table" for p in [q for q in (*path, to) if not missions.on_table(q)][:1]]
    free = movement.ignores_terrain(unit)
    cost, climbed = movement.climb(state, unit, start, unit.level, to, level, path, forced=window.forced)
    if climbed and has(unit, "need_for_speed"):
        out.append(f"{unit.id} may not climb terrain (Need for Speed): it would climb {', '.join(climbed)}")
    limit = movement.allowance(unit, window) - cost
    if moved > limit + 1e-9:
        why = f" ({movement.allowance(unit, window):g}\" less {cost}\" climbing {', '.join(climbed)})" if cost else ""
        out.append(f"{unit.id} ends {moved:.2f}\" from where it started; it may move up to {limit:g}\"{why}")
    if level not in heights_at(state, to):
        out.append(movement._stand_message(state, to, level))
    out += [p.message for p in movement._terrain_problems(state, unit, start, to, path, free)]
    out += [p.message for p in movement._unit_problems(state, unit, start, to, path, free)]
    if window.must and board.distance(start, to) <= board.EPS:
        out.append(f"{unit.id} must move (Slalom)")
    away = find(state, window.away_from)
    if away is not None and away.at is not None and board.distance(to, away.at) <= board.distance(start, away.at) + board.EPS:
        out.append(f"Fall Back must end further from {away.id} than it started")
    aim = find(state, window.keep_sight)
    if aim is not None and aim.at is not None:
        reach = board.distance(to, aim.at)
        if reach > 10 + board.EPS:
            out.append(f'after its move {aim.id} must be within 10"; it is {reach:.1f}" away')
        elif not sees(state, unit, aim, a_at=to, a_level=level):
            out.append(f"after its move {unit.id} must have line of sight to {aim.id}")
    return out


def test_a_moves_problems_are_the_plain_questions_asked_at_each_end() -> None:
    """`movement.move_problems` and `move_allowed` (the unit's start, abilities, allowance,
    climbable pieces, walls, units and Fight Through target read once per decision) against
    the same rules asked afresh at each end: every sampled end of seeded games' moves, a
    wrong height, an end off the table, a path by way of another unit, and Fight Through's first moves toward every enemy in reach (what
    `moves._can_fight_through` samples before the action is declared)."""
    asked = refused = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            tries: list[tuple[Unit, Window, Point, int, tuple[Point, ...]]] = []
            for event in moves.candidates(P, state):
                if isinstance(event, UnitMoved):
                    _, mover = rules._unit_mover(P, state, event.by, event.unit)
                    if mover is not None:
                        tries += [(*mover, event.to, event.level, event.path), (*mover, event.to, event.level + 1, event.path)]
                        other = next((u for u in on_board(state) if u.id != event.unit), None)
                        if other is not None and len(tries) < 40:  # off the table, and by way of another unit
                            tries += [(*mover, (event.to[0], -0.5), event.level, event.path), (*mover, event.to, event.level, (position(other),))]
            if state.turn is not None and not tries:
                for unit in on_board(state, state.turn.seat):
                    for foe in enemies_of(state, unit):
                        window = moves._first_move_window(P, unit, foe)
                        tries += [(unit, window, to, h, ()) for to, h in moves.fight_through_ends(state, unit, foe, window)]
            for unit, window, to, level, path in tries:
                problems = [p.message for p in movement.move_problems(P, state, unit, window, to, level, path)]
                assert problems == _old_move_problems(state, unit, window, to, level, path), (unit.id, to, level)
                assert movement.move_allowed(P, state, unit, window, to, level, path) == (not problems)
                if not path:
                    ground = movement.ground_allowed(state, unit, window, to, level)
                    assert (ground and movement.units_allow(state, unit, window, to, level)) == (not problems), (unit.id, to, level)
                asked += 1
                refused += bool(problems)
    assert asked > 2000 and 0 < refused < asked


def test_fight_through_is_offered_exactly_when_a_first_move_reaches_the_target() -> None:
    """`moves._can_fight_through` (the table's part of each first move remembered per table,
    unit and target across a game's decisions) against its plain reading: in reach and in
    sight already, or some sampled first move that `move_allowed` allows. Every unit and
    enemy at every decision of seeded games, in the order a game asks them."""
    asked = offered = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            for unit in on_board(state):
                for foe in enemies_of(state, unit):
                    window = moves._first_move_window(P, unit, foe)
                    away = board.distance(position(unit), position(foe))
                    plain = away <= P.engagement_range + movement.allowance(unit, window) and (
                        (away <= P.engagement_range and sees(state, unit, foe))
                        or any(movement.move_allowed(P, state, unit, window, to, h, ()) for to, h in moves.fight_through_ends(state, unit, foe, window)))
                    assert moves._can_fight_through(P, state, unit, foe) == plain, (unit.id, foe.id)
                    asked += 1
                    offered += plain
    assert asked > 1000 and 0 < offered < asked


# --- the geometry against the code before it --------------------------------------------------


def _old_sight_blocker(a: Sighted, b: Sighted, terrain: list[board.Terrain], bodies: list[Body]) -> str | None:
    """`board.sight_blocker` before its terrain and units parts were split (the reference)."""
    tallest = max(a.scale, b.scale)
    lo_x, hi_x = min(a.at[0], b.at[0]), max(a.at[0], b.at[0])
    lo_y, hi_y = min(a.at[1], b.at[1]), max(a.at[1], b.at[1])
    for piece in terrain:
        x0, y0, x1, y1 = piece.box
        if hi_x < x0 or lo_x > x1 or hi_y < y0 or lo_y > y1:
            continue
        if board._terrain_blocks(a, b, piece, tallest):
            return piece.id
    for body in bodies:
        if body.id in (a.id, b.id) or body.scale < tallest:
            continue
        bx, by = body.at
        if bx < lo_x - body.radius or bx > hi_x + body.radius or by < lo_y - body.radius or by > hi_y + body.radius:
            continue
        if board.point_segment_distance(body.at, a.at, b.at) < body.radius - board.EPS:
            return body.id
    return None


coord = st.floats(min_value=0, max_value=30, allow_nan=False).map(lambda v: round(v, 2))
points = st.tuples(coord, coord)
rects = st.tuples(coord, coord, st.floats(min_value=0.5, max_value=8).map(lambda v: round(v, 2)),
                  st.floats(min_value=0.5, max_value=8).map(lambda v: round(v, 2)), st.integers(0, 4))
ends = st.builds(Sighted, at=points, scale=st.integers(1, 5), piece=st.none(), level=st.just(0), id=st.sampled_from(["a", "b"]))
body_list = st.lists(st.tuples(points, st.sampled_from([0.5, 0.75, 1.0, 1.5]), st.integers(1, 5)), max_size=8)


@settings(max_examples=300, deadline=None)
@given(ends, ends, st.lists(rects, max_size=6), body_list)
def test_sight_split_into_terrain_and_units_gives_the_old_blocker(a: Sighted, b: Sighted, pieces: list, standing: list) -> None:
    a, b = a._replace(id="a"), b._replace(id="b")
    terrain = [make_terrain(f"t{i}", board.rectangle(x, y, x + w, y + h), s) for i, (x, y, w, h, s) in enumerate(pieces)]
    bodies = [Body(f"u{i}", at, radius, scale) for i, (at, radius, scale) in enumerate(standing)]
    expected = _old_sight_blocker(a, b, terrain, bodies)
    assert board.sight_blocker(a, b, terrain, bodies) == expected
    assert (board.terrain_blocker(a, b, terrain) or board.body_blocker(a, b, bodies)) == expected


def _old_terrain_blocks(a: Sighted, b: Sighted, piece: board.Terrain, tallest: int) -> bool:
    """`board._terrain_blocks` before a piece lower than both ends was passed by unmeasured (the reference)."""
    x0, y0, x1, y1 = piece.box
    if max(a.at[0], b.at[0]) < x0 or min(a.at[0], b.at[0]) > x1 or max(a.at[1], b.at[1]) < y0 or min(a.at[1], b.at[1]) > y1:
        return False
    if (a.piece == piece.id and a.level >= piece.scale) or (b.piece == piece.id and b.level >= piece.scale):
        return False
    through = board.length_inside(a.at, b.at, piece.outline)
    if through <= board.EPS:
        return False
    if through <= board.OPEN_SIDED_SIGHT + board.EPS and any(end.piece == piece.id and end.level in piece.open_sided for end in (a, b)):
        return False
    if piece.scale >= tallest:
        return True
    return any(piece.scale >= end.scale and board.polygon_distance(end.at, piece.outline) <= board.NEAR_TERRAIN + board.EPS for end in (a, b))


@settings(max_examples=400, deadline=None)
@given(ends, ends, rects, st.booleans(), st.integers(0, 3))
def test_a_piece_blocks_a_line_as_before(a: Sighted, b: Sighted, rect: tuple, stands_in: bool, level: int) -> None:
    """`board._terrain_blocks` against the reference, for pieces lower than, as tall as and
    taller than either end, near and far, with an end standing in the piece (open sided)."""
    x, y, w, h, scale = rect
    piece = make_terrain("t", board.rectangle(x, y, x + w, y + h), scale, open_sided=(0, 1))
    if stands_in:
        a = a._replace(at=(x + w / 2, y + h / 2), piece="t", level=min(level, scale))
    tallest = max(a.scale, b.scale)
    assert board._terrain_blocks(a, b, piece, tallest) == _old_terrain_blocks(a, b, piece, tallest)


def _old_climb(state: State, unit: Unit, start: Point, z0: int, end: Point, z1: int, path: tuple[Point, ...], *, forced: bool = False) -> tuple[int, list[str]]:
    """`movement.climb` before it walked only the pieces a unit climbs (the reference)."""
    if movement.ignores_terrain(unit):
        return 0, []
    scale = kind(unit).scale
    points = (start, *path, end)
    here, there = piece_at(state, start), piece_at(state, end)
    jumped = (here is not None and there is not None and here.id != there.id and z0 > 0 and z1 > 0
              and board.polygons_gap(here.outline, there.outline) <= scale + board.EPS)
    cost, climbed = 0, []
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    lo_x, lo_y, hi_x, hi_y = min(xs), min(ys), max(xs), max(ys)
    harnessed = has(unit, "ag_harness")
    for piece in state.terrain:
        height = movement._scale_for_movement(harnessed, piece)
        if height < scale:
            continue
        inside0 = here is not None and here.id == piece.id
        inside1 = there is not None and there.id == piece.id
        x0, y0, x1, y1 = piece.box
        if inside0 and inside1:
            step = abs(z1 - z0)
        elif inside1:
            step = max(z1 - z0, 0) if jumped else z1
        elif inside0:
            step = 0 if jumped or forced else z0
        elif hi_x < x0 or lo_x > x1 or hi_y < y0 or lo_y > y1:
            continue
        elif board.path_enters(points, piece.outline):
            step = 0 if piece.enterable() and z0 == 0 and z1 == 0 else height
        else:
            continue
        if step > 0:
            cost += step
            climbed.append(piece.id)
    return cost, climbed


def _old_through_units(state: State, unit: Unit, start: Point, to: Point, path: tuple[Point, ...]) -> list[str]:
    """`movement._unit_problems` before a base was tested along each axis first (the reference):
    the units the move ends on or passes through."""
    points = (start, *path, to)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    lo_x, lo_y, hi_x, hi_y = min(xs), min(ys), max(xs), max(ys)
    out = []
    for other in on_board(state):
        if other.id == unit.id:
            continue
        room = kind(unit).base + kind(other).base - movement.SLACK
        ox, oy = at = position(other)
        if board.distance(to, at) < room:
            out.append(f"{unit.id} would end on top of {other.id}")
        elif ox < lo_x - room or ox > hi_x + room or oy < lo_y - room or oy > hi_y + room:
            continue
        elif board.path_point_distance(points, at) < room:
            out.append(f"{unit.id} may not move through {other.id}")
    return out


def _played_position() -> State:
    """A position of a heuristic game with units on the standard table."""
    return next(s for s in _states("heuristic", 4) if s.turn is not None and len(list(on_board(s))) >= 6)


table = st.tuples(st.floats(min_value=0, max_value=44, allow_nan=False), st.floats(min_value=0, max_value=30, allow_nan=False))


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 20), table, table, st.lists(table, max_size=2), st.integers(0, 9), st.integers(0, 9), st.booleans())
def test_climbing_and_units_in_the_way_give_the_old_answers(which: int, start: Point, to: Point, path: list[Point], up: int, down: int, forced: bool) -> None:
    """From anywhere (on the ground or on a piece, at each height it has) to anywhere, and
    from where a unit stands to a point an inch away."""
    state = _played_position()
    standing = list(on_board(state))
    unit = standing[which % len(standing)]
    near = tuple(movement.snap(p) for p in path)
    begin = movement.snap(start)
    z0s, z1s = heights_at(state, begin), heights_at(state, movement.snap(to))
    z0, z1 = z0s[up % len(z0s)], z1s[down % len(z1s)]
    for other in (unit.type, "stalker_team", "colonial_exploration_team", "patrol_drone"):  # AG Harness, scale 2, Flying
        mover = replace(unit, type=other)
        end = movement.snap(to)
        assert movement.climb(state, mover, begin, z0, end, z1, near, forced=forced) == _old_climb(state, mover, begin, z0, end, z1, near, forced=forced)
    for end in (movement.snap(to), movement.snap(board.toward(position(unit), to, 1.0))):
        assert [p.message for p in movement._unit_problems(state, unit, position(unit), end, near, False)] == \
            _old_through_units(state, unit, position(unit), end, near)
    assert [p.message for p in movement._unit_problems(state, unit, begin, movement.snap(to), near, False)] == \
        _old_through_units(state, unit, begin, movement.snap(to), near)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 20), table, table, st.lists(table, max_size=2), st.booleans())
def test_walls_and_units_in_the_way_say_yes_exactly_when_they_find_no_problem(which: int, start: Point, to: Point, path: list[Point], free: bool) -> None:
    """The yes-or-no forms a sampled move asks (`_walls_clear`, `_units_clear`) against the
    rules that list problems (`_through_walls`, `_through_units`): every piece of the
    standard table taken as impassable, the units of a played position, flying or not, from
    anywhere and from where a unit stands."""
    state = _played_position()
    standing = list(on_board(state))
    unit = standing[which % len(standing)]
    near = tuple(movement.snap(p) for p in path)
    bodies = movement.bodies(state)
    for begin in (movement.snap(start), position(unit)):
        for end in (movement.snap(to), movement.snap(board.toward(begin, to, 1.0))):
            walls = movement._through_walls(state.terrain, unit, begin, end, near, free)
            assert movement._walls_clear(state.terrain, begin, end, near, free) == (next(walls, None) is None)
            units = movement._through_units(bodies, unit, kind(unit).base, begin, end, near, free)
            assert movement._units_clear(bodies, unit.id, kind(unit).base, begin, end, near, free) == (next(units, None) is None)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 20), table, st.floats(min_value=0, max_value=3, allow_nan=False), st.floats(min_value=0, max_value=360, allow_nan=False))
def test_a_unit_set_up_on_another_is_found_as_before(which: int, anywhere: Point, away: float, angle: float) -> None:
    """`rules._standing_problems` (each unit's base tested along each axis before it is
    measured) against the plain measure, anywhere and at up to 3" from a unit standing."""
    state = _played_position()
    standing = list(on_board(state))
    unit = standing[which % len(standing)]
    event = UnitDeployed(by=unit.side, unit=unit.id, point=(0.0, 0.0))
    for at in (movement.snap(anywhere), movement.snap(board.polar(position(standing[(which + 1) % len(standing)]), angle, away))):
        found = [v.message for v in rules._standing_problems(state, event, unit, at, 0, "deployment.zone") if v.rule.endswith("movement.through-units")]
        plain = [f"{at} is on top of {other.id}" for other in on_board(state)
                 if other.id != unit.id and board.distance(at, position(other)) < kind(unit).base + kind(other).base - movement.SLACK]
        assert found == plain


outline_points = st.lists(points, min_size=3, max_size=7)


@settings(max_examples=400, deadline=None)
@given(outline_points, points, points, st.floats(min_value=-2, max_value=2, allow_nan=False))
def test_a_segment_that_misses_an_outlines_box_runs_nothing_inside_it(corners: list[Point], a: Point, b: Point, shift: float) -> None:
    """`board.segment_misses_box` only passes by what `length_inside` measures as 0 (segments
    near the box's sides included: `shift` moves an end onto or just past a side)."""
    poly = tuple(corners)
    box = board.bounds(poly)
    for end in (b, (box[2] + shift * 1e-6, b[1]), (a[0], box[1] + shift), (box[0] + shift * 1e-9, box[3] - shift * 1e-9)):
        if board.segment_misses_box(a, end, box):
            assert board.length_inside(a, end, poly) == 0.0
            assert board.path_inside((a, end), poly) == 0.0


@settings(max_examples=300, deadline=None)
@given(st.lists(rects, min_size=1, max_size=4), st.lists(points, min_size=2, max_size=4))
def test_a_path_measures_inside_a_piece_as_the_sum_of_its_legs(pieces: list, path: list[Point]) -> None:
    """`board.path_inside`, which skips legs that miss the piece's box, against every leg measured."""
    for x, y, w, h, _ in pieces:
        poly = board.rectangle(x, y, x + w, y + h)
        legs = board.path_legs(path)
        assert board.path_inside(path, poly) == sum(board.length_inside(a, b, poly) for a, b in legs)


def test_an_ambush_place_is_watched_by_the_enemies_that_see_the_unit_put_there() -> None:
    """Ambush's "out of line of sight" at the new place is asked of the table as it is, the
    commando's end of each line put at the new place (`sees(..., b_at=...)`): the same
    enemies as on the table with the commando moved there."""
    asked = 0
    for bot, seed in [*GAMES, ("random", 5), ("heuristic", 6)]:
        for state in _states(bot, seed):
            for event in moves.candidates(P, state):
                if isinstance(event, AbilityUsed) and event.ability == "ambush":
                    unit = find(state, event.unit)
                    assert unit is not None
                    moved = replace(unit, at=event.points[0], level=event.level)
                    there = replace_unit(state, moved)
                    assert [e.id for e in enemies_of(state, unit) if sees(state, e, unit, b_at=event.points[0], b_level=event.level)] == \
                        [e.id for e in enemies_of(there, moved) if sees(there, e, moved)]
                    asked += 1
    assert asked > 40


def test_an_ambush_place_is_refused_exactly_when_check_finds_a_problem() -> None:
    """`legal`'s refusal of an Ambush place (the commando seen where it stands, the place
    beyond 15" or seen by one enemy, else `check`) against `check`: every place offered in
    seeded games, at the wrong height, beyond 15", and by the other seat."""
    asked = refused = 0
    for bot, seed in [*GAMES, ("random", 5), ("heuristic", 6)]:
        for state in _states(bot, seed):
            for event in moves.candidates(P, state):
                if isinstance(event, AbilityUsed) and event.ability == "ambush":
                    (x, y), = event.points
                    variants = (event, replace(event, level=event.level + 1), replace(event, points=((x + 16.0, y),)),
                                replace(event, by=_other_seat(state, event.by)), replace(event, points=((x, y), (x, y))))
                    refused += _held_to_check(moves._refused, state, variants)
                    asked += len(variants)
    assert asked > 200 and 0 < refused < asked


@settings(max_examples=200, deadline=None)
@given(table, st.floats(min_value=0, max_value=20, allow_nan=False), st.sampled_from([12, 16, 7, 24, 8]))
def test_a_sampled_ring_is_the_points_polar_gives(start: Point, radius: float, directions: int) -> None:
    """`sample_ends`' rings from the kept cosines and sines (`movement.ring`): the very
    floats `board.polar` gives at each heading, and at the whole degrees a set-up's kin ring
    (every 45), an Ambush's and a Minefield's (every 30) name, at their radii."""
    assert movement.ring(start, radius, directions) == [board.polar(start, i * 360 / directions, radius) for i in range(directions)]
    step = 360 // directions
    if step * directions == 360:
        for r in (radius, 8, 8.0, 14.0, 1.2, 4.2):
            assert movement.ring(start, r, directions) == [board.polar(start, a, r) for a in range(0, 360, step)]


def test_a_line_between_units_where_they_stand_is_the_line_from_their_places() -> None:
    """`sees` between two units where they stand (their ends and the table's lines found once
    per table, `state._units_sight`) against the same line asked with the shooter's place
    given (ends made afresh): every unit and every other unit at seeded games' decisions."""
    asked = seen = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed)[::2]:
            for a in on_board(state):
                for b in state.units:
                    if b.id != a.id:
                        answer = sees(state, a, b)
                        assert answer == (b.at is not None and sees(state, a, b, a_at=a.at, a_level=a.level)), (a.id, b.id)
                        asked += 1
                        seen += answer
    assert asked > 1000 and 0 < seen < asked


def _accepted(state: State) -> list[object]:
    """The plain reading of `legal`: every candidate `check` finds nothing wrong with."""
    return [e for e in moves.candidates(P, state) if not rules.check(P, state, e)]


def test_a_move_windows_ends_and_a_units_set_up_points_are_tested_where_they_are_made() -> None:
    """`legal` at a move window and at a set-up tests each sampled end or point as it is made
    (the decision's mover, the unit's set-up asked once) instead of filtering the candidates:
    the same events in the same order as `check`'s filter, at every such decision of seeded
    games, and with the window made shorter (more ends out of reach) or handed to the other
    seat (every move refused, passing too)."""
    asked = {"move": 0, "deployment": 0}
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            window = state.turn.windows[0] if state.stage == "play" and state.turn is not None and state.turn.windows else None
            if window is not None and window.kind == "move":
                asked["move"] += 1
                variants = [state]
                for changed in (replace(window, allowance=window.allowance / 3), replace(window, seat=_other_seat(state, window.seat))):
                    variants.append(replace(state, turn=replace(state.turn, windows=(changed, *state.turn.windows[1:]))))
            elif state.stage == "deployment":
                asked["deployment"] += 1
                variants = [state, replace(state, units=tuple(replace(u, side=_other_seat(state, u.side)) if u.status == "roster" else u for u in state.units))]
            else:
                continue
            for variant in variants:
                assert moves.legal(P, variant) == _accepted(variant)
    assert asked["move"] > 20 and asked["deployment"] > 20, asked


def test_a_unit_whose_set_up_is_refused_wherever_it_stands_offers_no_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a unit's set-up asks whatever the point (`rules.unit_deploying`) refuses every
    point at once where it finds a problem, as `rules.deploy_refused` refuses each event
    (seeded set-ups rarely meet one: the step's order is asked before its units are offered)."""
    plain = rules.unit_deploying

    def refused_anywhere(params: object, state: State, by: str | None, unit_id: str) -> tuple[list[object], object]:
        event = UnitDeployed(by=by, unit=unit_id, point=(0.0, 0.0))
        return [rules._v(event, "deployment.order", "asked before any point")], plain(params, state, by, unit_id)[1]

    monkeypatch.setattr(rules, "unit_deploying", refused_anywhere)
    monkeypatch.setattr(moves, "unit_deploying", refused_anywhere)
    asked = 0
    for state in _states("random", 3):
        if state.stage == "deployment" and any(isinstance(e, UnitDeployed) for e in moves.candidates(P, state)):
            asked += 1
            offered = moves.legal(P, state)
            assert not any(isinstance(e, UnitDeployed) for e in offered)
            assert offered == [e for e in moves.candidates(P, state) if not moves._refused(P, state, e)]
    assert asked > 5


def test_open_fire_targets_are_tested_where_they_are_made() -> None:
    """`legal` at a settled turn tests open fire's targets as it makes them (the seat, the
    unit and the target found by id, then range and sight) instead of filtering candidates:
    the same events in the same order as `check`'s filter, at every such decision of seeded
    games, and with a unit's id taken by another unit listed first (a table's mistake: a
    reserve copy of an enemy or of a shooter, a copy of a shooter on the other side), which `check` finds by id."""
    asked = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            turn = state.turn
            if state.stage != "play" or turn is None or turn.windows or turn.activation is not None:
                continue
            mine, theirs = on_board(state, turn.seat), [u for u in on_board(state) if u.side != turn.seat]
            if not mine or not theirs:
                continue
            asked += 1
            variants = [state, replace(state, units=(replace(theirs[0], status="reserve"), *state.units)),
                        replace(state, units=(replace(mine[0], side=theirs[0].side), *state.units)),
                        replace(state, units=(replace(mine[0], status="reserve"), *state.units))]
            for variant in variants:
                assert moves.legal(P, variant) == _accepted(variant)
    assert asked > 20, asked


def test_a_reaction_is_refused_exactly_when_check_finds_a_problem() -> None:
    """`rules.reaction_refused` (the decision asked once, the requirements as a yes or no)
    against `check`, for every reaction and for wrong seats, units and reactions, at every
    decision of seeded games (those without an action waiting for a reaction too, where it
    asks `check`), and with the action's unit taken off the table."""
    asked = refused = 0
    reactions = ("overwatch", "flank", "firefight", "counter_attack", "take_cover", "fall_back", "dodge")
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            turn = state.turn
            act = turn.activation if turn is not None else None
            variants = [state]
            if act is not None and (active := find(state, act.unit)) is not None:
                variants.append(replace_unit(state, replace(active, at=None)))
            for variant in variants:
                for unit in state.units[::2]:
                    for seat in state.seats:
                        for reaction in reactions:
                            event = ReactionDeclared(by=seat, unit=unit.id, reaction=reaction)
                            answer = rules.reaction_refused(P, variant, event)
                            assert answer == bool(rules.check(P, variant, event)), (event, act)
                            asked += 1
                            refused += answer
    assert asked > 2000 and 0 < refused < asked


def test_a_unit_whose_type_has_no_strategic_ability_offers_none() -> None:
    """`moves._strategic_abilities` passes a unit by when its type has none of
    `STRATEGIC_ABILITIES`: at every strategic decision of seeded games, every unit offers the
    same abilities as when each ability is asked in turn (the set taken as every ability)."""
    asked = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            turn = state.turn
            if state.stage != "play" or turn is None or turn.step != "strategic":
                continue
            for unit in on_board(state):
                quick = list(moves._strategic_abilities(state, unit.side, unit))
                with pytest.MonkeyPatch.context() as patched:
                    patched.setattr(moves, "STRATEGIC_ABILITIES", frozenset().union(*units.ABILITY_IDS.values()))
                    assert quick == list(moves._strategic_abilities(state, unit.side, unit))
                asked += 1
    assert asked > 100


def test_a_marker_is_refused_exactly_when_check_finds_a_problem() -> None:
    """`rules.marker_refused` (the step asked once, the point as a yes or no) against `check`,
    for every marker offered at seeded games' decisions and for wrong seats, other markers,
    points off the table and points round the attacker's zone and the short edges; and at
    every other decision (in play it asks `check`)."""
    asked = refused = 0
    points = [(x / 2, y / 2) for x in range(-2, 92, 7) for y in range(-2, 64, 5)]
    for bot, seed in [*GAMES, ("random", 5), ("heuristic", 6)]:
        for state in _states(bot, seed):
            offered = [e for e in moves.candidates(P, state) if isinstance(e, MarkerPlaced)]
            tries = [MarkerPlaced(by=state.seats[0], marker="strong_point", point=(10.0, 10.0))] if not offered else []
            for event in offered[:1]:
                tries += [replace(event, by=_other_seat(state, event.by))]
                tries += [replace(event, marker=other) for other in ("strong_point", "target", "vip") if other != event.marker]
                tries += [replace(event, point=p) for p in points]
            refused += _held_to_check(rules.marker_refused, state, [*offered, *tries])
            asked += len(offered) + len(tries)
    assert asked > 1000 and 0 < refused < asked


def test_a_marker_point_is_allowed_exactly_when_it_has_no_problem() -> None:
    """`missions.marker_allowed` against `marker_problem`, for every mission, marker and
    setup choice, at points over the table, off it and along the distances it measures."""
    asked = allowed = 0
    layouts = [missions.Layout(attacker_edges=a, defender_edges=d, short_edge=e)
               for a in ((), ("north",), ("south", "west")) for d in ((), ("south",), ("north",)) for e in (None, "west", "east")]
    points = [(x / 4, y / 4) for x in range(-4, 182, 5) for y in range(-4, 126, 5)]
    for mission in missions.WAVES:
        for layout in layouts:
            for kind_ in ("strong_point", "target", "vip"):
                for p in points:
                    answer = missions.marker_allowed(mission, kind_, p, layout)
                    assert answer == (missions.marker_problem(mission, kind_, p, layout) is None), (mission, kind_, p, layout)
                    asked += 1
                    allowed += answer
    assert asked > 10000 and 0 < allowed < asked


def test_a_moves_pieces_and_units_in_reach_give_the_answers_of_all_of_them() -> None:
    """`movement._Near` (the pieces and units a decision's straight moves may meet) against the
    same mover without it: at every move window of seeded games, for the window's sampled
    ends and a grid of ends over and beyond the square of reach, at every height there, also
    with a path (which is asked of every piece and unit)."""
    asked = allowed = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            window = front(state.turn) if state.stage == "play" and state.turn is not None else None
            unit = find(state, window.unit) if window is not None and window.kind == "move" else None
            if window is None or unit is None or unit.at is None:
                continue
            mover = movement.decision_mover(state, unit, window)
            assert mover.near is not None
            plain = mover._replace(near=None)
            x, y = unit.at
            reach = mover.reach + 1.5
            grid = [movement.snap((x + i * reach / 6, y + j * reach / 6)) for i in range(-6, 7) for j in range(-6, 7)]
            x0, y0, x1, y1 = mover.near.box  # and the points of the square nearest each other unit, just inside it
            grid += [movement.snap((min(max(u.at[0], x0 + 0.01), x1 - 0.01), min(max(u.at[1], y0 + 0.01), y1 - 0.01)))
                     for u in on_board(state) if u.id != unit.id and u.at is not None]
            ends = [*movement.sample_ends(state, unit, window, moves.goals(state, unit)), *((p, h) for p in grid for h in heights_at(state, p))]
            for to, h in ends:
                for path in ((), ((x, to[1]),)):
                    answer = movement.mover_allows(mover, to, h, path)
                    assert answer == movement.mover_allows(plain, to, h, path), (unit.id, to, h, path)
                    asked += 1
                    allowed += answer
    assert asked > 5000 and 0 < allowed < asked


def test_advance_and_bug_out_are_tested_where_they_are_made() -> None:
    """`legal` at a settled turn offers a unit's advance and bug out only where
    `declared_refused` would let them through (the seat, the unit found by id on the table
    and the seat's; a bug out within 10" of an evac zone), made in place instead of asked of
    `_refused`: the same events in the same order as `check`'s filter of the candidates, at
    every such decision of seeded games, with a unit's id taken by a reserve copy or by a copy
    on the other side listed first (a table's mistake, which `check` finds by id), and with
    the turn's units moved to an evac edge (more bug outs allowed). Both answers occur."""
    offered = refused = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            turn = state.turn
            if state.stage != "play" or turn is None or turn.windows or turn.activation is not None:
                continue
            mine = on_board(state, turn.seat)
            if not mine:
                continue
            edge = [replace(u, at=(u.at[0], 1.0)) for u in mine if u.at is not None]
            variants = [state, replace(state, units=(replace(mine[0], status="reserve"), *state.units)),
                        replace(state, units=(replace(mine[0], side=_other_seat(state, turn.seat)), *state.units)),
                        replace(state, units=(*edge, *state.units))]
            for variant in variants:
                legal = moves.legal(P, variant)
                assert legal == _accepted(variant)
                for unit in on_board(variant, turn.seat):
                    out = ActionDeclared(by=turn.seat, unit=unit.id, action="bug_out")
                    if out in legal:
                        offered += 1
                    else:
                        refused += 1
    assert offered > 20 and refused > 20, (offered, refused)


def test_a_units_declared_and_at_any_point_abilities_are_those_its_type_has() -> None:
    """`moves._DECLARED_ABILITIES` is, for every unit type, the four abilities a unit may
    declare at its action that `has` finds, in their order; and `_at_any_point` passes a unit
    by when its type has none of `AT_ANY_POINT`: at every decision of seeded games, every
    seat's abilities are those offered with the set taken as every ability."""
    order = ("experimental_targeting_system", "override_safety_parameters", "jump_packs", "ghost_field")
    for type_ in units.UNITS:
        unit = Unit(id="u", type=type_, side="a")
        assert moves._DECLARED_ABILITIES[type_] == tuple(a for a in order if has(unit, a))
    asked = 0
    for bot, seed in GAMES:
        for state in _states(bot, seed):
            for seat in state.seats:
                quick = list(moves._at_any_point(state, seat))
                with pytest.MonkeyPatch.context() as patched:
                    patched.setattr(moves, "AT_ANY_POINT", frozenset().union(*units.ABILITY_IDS.values()))
                    assert quick == list(moves._at_any_point(state, seat))
                asked += 1
    assert asked > 100
