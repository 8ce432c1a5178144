"""The Action Phase: abilities, movement by rarity, trampling, contact and simultaneous combat.

mercy-frontier.txt, Action Phase 1-3. A move goes space by space in one orthogonal
direction; an own token in front blocks it unless the mover tramples it; an enemy token in
front is contact, which stops the move and starts a combat. Buildings and workers have 1 hp
and no attack: an enemy token moving over their space destroys them.
"""

from __future__ import annotations

import functools

import msgspec

from events.base import Event
from rulesets.memo import last_state
from rulesets.mercyfrontier import board
from rulesets.mercyfrontier.board import Space
from rulesets.mercyfrontier.components import TITAN
from rulesets.mercyfrontier.events import AbilityUsed, CombatResolved, MercenaryMoved
from rulesets.mercyfrontier.params import Params
from rulesets.mercyfrontier.ruleids import RULE_IDS
from rulesets.mercyfrontier.state import (
    Merc,
    MoveRecord,
    Pending,
    State,
    allowance,
    card_of,
    combat_damage,
    covered,
    known,
    merc,
    move_record,
    noncombat,
    placed_mercs,
    player,
    replace,
    replace_player,
    stacks,
    uncovering,
)
from rulesets.protocol import Violation

Problems = list[Violation]


def _v(event: Event, rule: str, message: str) -> Violation:
    return RULE_IDS.violation(event, rule, message)


class Walk(msgspec.Struct, frozen=True, gc=False):
    """Where a move took the token, and what stopped it short."""

    end: Space
    steps: int
    trampled: tuple[str, ...] = ()
    entered: tuple[Space, ...] = ()
    blocked: str = ""
    """`board` (the edge), `enemy` (contact) or `own` (an own token not trampled)."""
    blocker: str = ""


def walk(params: Params, state: State, mover: Merc, direction: str, spaces: int, trample: tuple[str, ...]) -> Walk:
    """Move the token space by space (Movement 2.a-b): "a mercenary in front of another
    mercenary prevents the second from moving forward", unless it tramples its own."""
    if spaces <= 0:
        return Walk(mover.at or (0, 0), spaces)
    return walks(params, state, mover, direction, spaces, trample)[-1]


def walks(params: Params, state: State, mover: Merc, direction: str, spaces: int, trample: tuple[str, ...]) -> tuple[Walk, ...]:
    """`walk` of 1, 2, ... `spaces` spaces, in one pass: each is the walk before it and one
    step more, or the same stop once something stopped it. What stands where is asked of
    the state's token map (`stacks`, made once per state)."""
    size = card_of(mover.card).size
    at = mover.at or (0, 0)
    taken = stacks(params, state)
    trampled: list[str] = []
    entered: list[Space] = []
    out: list[Walk] = []
    for done, (front, inside, after) in enumerate(_lane(params, at, size, direction, spaces)):
        stop: Walk | None = None
        if not inside:
            stop = Walk(at, done, tuple(trampled), tuple(entered), "board")
        others: dict[str, Merc] = {}
        for space in front if stop is None else ():
            if space in taken:  # the last token on the space other than the mover, unless trampled
                top = next((m for m in reversed(taken[space]) if m.card != mover.card), None)
                if top is not None and top.card not in trampled:
                    others[top.card] = top
        for other in others.values():
            if other.owner != mover.owner:
                stop = Walk(at, done, tuple(trampled), tuple(entered), "enemy", other.card)
                break
            if other.card not in trample:
                stop = Walk(at, done, tuple(trampled), tuple(entered), "own", other.card)
                break
        if stop is not None:
            return (*out, *([stop] * (spaces - done)))
        trampled += others
        at = after
        entered += front
        out.append(Walk(at, done + 1, tuple(trampled), tuple(entered)))
    return tuple(out)


@functools.lru_cache(maxsize=1 << 12)
def _lane(params: Params, at: Space, size: int, direction: str, spaces: int) -> tuple[tuple[tuple[Space, ...], bool, Space], ...]:
    """Each step of a straight move from `at` on an empty board: the spaces the token enters,
    whether they are all on the board (`board.on_board` of each), and where its top-left
    then stands (pure geometry, memoised: every walk of a decision asks it)."""
    wide, high = board.width(params), board.height(params)
    out = []
    for _ in range(spaces):
        front = board.ahead(at, size, direction)
        at = board.step(at, direction)
        out.append((front, all(0 <= x < wide and 0 <= y < high for x, y in front), at))
    return tuple(out)


def trampling_walks(params: Params, state: State, mover: Merc, direction: str) -> tuple[Walk, ...]:
    """The mover's `walks` in a direction up to its `budget`, trampling any own token in its
    way: every move the rules may offer that way is one of them (a walk that trampled
    nothing is the walk that tramples nothing; one that trampled some tokens, the walk that
    tramples those). Legal moves and the heuristic's scores ask the same ones of one state:
    each is traced once per state."""
    table = _trampling_table(params, state)
    key = (mover.card, mover.owner, mover.at, direction)
    found = table.get(key)
    if found is None:
        everyone = tuple(m.card for m in placed_mercs(state, mover.owner))
        found = table[key] = walks(params, state, mover, direction, budget(params, state, mover.card), everyone)
    return found


@last_state  # legal and the bot ask of the same state (rulesets/memo.py); filled as they ask
def _trampling_table(params: Params, state: State) -> dict[tuple[str, str, Space | None, str], tuple[Walk, ...]]:
    return {}


def contact(params: Params, state: State, mover: Merc, at: Space, direction: str) -> tuple[str, ...]:
    """Enemy tokens directly in front of the mover: they enter combat with it (Combat 3.a)."""
    taken = stacks(params, state)  # made once per state; the last token on a space other than the mover is `occupancy`'s
    front = board.ahead(at, card_of(mover.card).size, direction)
    found = set()
    for space in front:
        top = next((m for m in reversed(taken.get(space, ())) if m.card != mover.card), None)
        if top is not None and top.owner != mover.owner:
            found.add(top.card)
    return tuple(sorted(found))


# --- abilities (Action Phase 1) -----------------------------------------------------------------


def untriggered(params: Params, state: State, event: Event) -> Problems:
    """Action Phase 1.b: "If a mercenary has a noncombat ability, it triggers before movement
    occurs" (named once, at the first move or at the end of the seat's action phase)."""
    if "moved" in state.done:
        return []
    return [_v(event, "action.abilities-first", f"{m.card}'s {ability} triggers before movement and was not used")
            for m in placed_mercs(state, event.by or "") for ability in noncombat(m.card) if m.card not in state.triggered]


def check_ability(params: Params, state: State, event: AbilityUsed) -> Problems:
    """A noncombat ability of one's own placed mercenary, once, before any movement."""
    m = merc(state, event.card)
    if m is None or m.owner != event.by or m.at is None or not known(event.card):
        return [_v(event, "action.card", f"{event.card!r} is not a mercenary {event.by} has on the board")]
    problems = []
    if event.ability not in noncombat(event.card):
        problems.append(_v(event, "action.ability", f"{event.card} has no noncombat ability {event.ability!r}"))
    elif event.card in state.triggered:
        problems.append(_v(event, "action.ability", f"{event.card}'s {event.ability} already triggered this action phase"))
    if "moved" in state.done:
        problems.append(_v(event, "action.abilities-first", "noncombat abilities trigger before movement occurs"))
    return problems


def apply_ability(params: Params, state: State, event: AbilityUsed) -> State:
    """Mend: one health token back, never above the printed health."""
    m = merc(state, event.card)
    if m is None or not known(event.card):
        return state
    if event.ability == "mend":
        healed = replace(m, health=min(m.health + 1, card_of(m.card).health))
        state = replace(state, mercs=tuple(healed if x.card == m.card else x for x in state.mercs))
    return replace(state, triggered=(*state.triggered, event.card))


# --- movement (Action Phase 2, Combat 3.c) -----------------------------------------------------------


def budget(params: Params, state: State, card: str) -> int:
    """Spaces the mercenary may still move: its full allowance, or what its last move left."""
    record = move_record(state, card)
    return record.left if record is not None else allowance(params, card)


def check_move(params: Params, state: State, event: MercenaryMoved) -> Problems:
    """Movement by rarity in one orthogonal direction; no overlapping; trampling; the victor
    finishing its movement after a combat."""
    m = merc(state, event.card)
    if m is None or m.owner != event.by or m.at is None or not known(event.card):
        return [_v(event, "action.card", f"{event.card!r} is not a mercenary {event.by} has on the board")]
    problems = untriggered(params, state, event)
    again = _check_again(params, state, event)
    problems += again
    limit = budget(params, state, event.card)
    if any(p.rule == "mercyfrontier/action.once" for p in again):
        limit = allowance(params, event.card)  # moving at all is the mistake, named once: judge the rest as a first move
    if not 1 <= event.spaces <= limit:
        rarity = card_of(event.card).rarity
        problems.append(_v(event, "action.rarity", f"{event.card} ({rarity}) may move 1 to {limit} spaces now, not {event.spaces}"))
    path = walk(params, state, m, event.direction, min(event.spaces, max(limit, 0)), event.trample)
    messages = {
        "board": f"{event.card} would leave the board after {path.steps} space(s)",
        "enemy": f"{event.card} meets {path.blocker} after {path.steps} space(s): contact stops it there and starts a combat",
        "own": f"{event.card} runs into {event.by}'s own {path.blocker} after {path.steps} space(s): mercenaries cannot overlap unless it tramples",
    }
    if path.blocked:
        problems.append(_v(event, "action.board" if path.blocked == "board" else "action.no-overlap", messages[path.blocked]))
    for card in event.trample:
        if card not in path.trampled:
            other = merc(state, card)
            why = "is not its owner's" if other is not None and other.owner != event.by else "is not in its way"
            problems.append(_v(event, "action.trample", f"{card} {why}: a mercenary tramples only its owner's mercenaries in front of it"))
    return problems


def _check_again(params: Params, state: State, event: MercenaryMoved) -> Problems:
    """A second move is only the victor finishing its movement (Combat 3.c)."""
    record = move_record(state, event.card)
    if record is None:
        return []
    if not record.fought or record.left <= 0:
        return [_v(event, "action.once", f"{event.card} already moved this action phase")]
    problems = []
    if event.direction != record.direction:
        problems.append(_v(event, "action.direction", f"{event.card} moves {record.direction} this phase: movement is in one orthogonal direction"))
    if not params.victor_continues:
        problems.append(_v(event, "combat.victor-continues", f"{event.card} moves on after its combat: before the 6th play test the victor stops"))
    return problems


def apply_move(params: Params, state: State, event: MercenaryMoved) -> State:
    """The token moves as far as it can; trampled own mercenaries are destroyed; enemy
    buildings and workers it passes over are destroyed; it may uncover tiles (before the
    7th play test) and start a combat."""
    m = merc(state, event.card)
    if m is None or m.at is None or not known(event.card):
        return state
    limit = budget(params, state, event.card)
    path = walk(params, state, m, event.direction, max(event.spaces, 0), event.trample)
    for card in path.trampled:
        state = remove_merc(state, card)
    state = _trample_ground(params, state, m.owner, path.entered)
    moved = replace(m, at=path.end, arrived=_arrives(params, m, m.at, path.end))
    state = replace(state, mercs=tuple(moved if x.card == m.card else x for x in state.mercs))
    defenders = contact(params, state, moved, path.end, event.direction)
    record = MoveRecord(event.card, event.direction, max(limit - path.steps, 0), fought=bool(defenders))
    moves = (*(r for r in state.moves if r.card != event.card), record)
    steps: list[Pending] = []
    if params.uncovering == "mercenary":
        for pos in sorted({board.tile_of(params, s) for s in board.footprint(path.end, card_of(m.card).size)}):
            if covered(state, pos):
                steps += uncovering(params, state, pos)
    if defenders:
        steps.append(Pending("combat", seat=m.owner, attacker=m.card, defenders=defenders))
    done = state.done if "moved" in state.done else (*state.done, "moved")
    return replace(state, moves=moves, pending=(*state.pending, *steps), done=done)


def _arrives(params: Params, mover: Merc, start: Space, end: Space) -> bool:
    """The move leaves the token on the far row, having come from off it (or having reached
    it by an earlier move): a token the table placed there has not reached it."""
    size = card_of(mover.card).size
    if not board.on_far_row(params, mover.owner, end, size):
        return False
    return mover.arrived or not board.on_far_row(params, mover.owner, start, size)


def _trample_ground(params: Params, state: State, mover: str, entered: tuple[Space, ...]) -> State:
    """Buildings and workers have 1 hp: an enemy token entering their space destroys them, and
    from the 4th play test "destroying a building with a worker on top also kills the worker"."""
    spaces = set(entered)
    hit = [b for b in state.buildings if b.owner != mover and b.at in spaces]
    if hit:
        state = replace(state, buildings=tuple(b for b in state.buildings if b not in hit))
        for b in hit:
            p = player(state, b.owner)
            if p is not None:
                state = replace_player(state, replace(p, lost=p.lost + 1))
    if not params.workers_vulnerable:
        return state
    for p in state.players:
        if p.seat != mover and spaces & set(p.placed):
            killed = [s for s in p.placed if s in spaces]
            state = replace_player(state, replace(p, placed=tuple(s for s in p.placed if s not in spaces), workers=max(p.workers - len(killed), 0)))
    return state


def remove_merc(state: State, card: str) -> State:
    """A defeated or trampled mercenary: its token leaves the board and its contract card goes
    to the discard pile (Combat 3.b.ii); the beacon's creature leaves the game."""
    mercs = tuple(m for m in state.mercs if m.card != card)
    discard = state.discard if card == TITAN else tuple(sorted((*state.discard, card)))
    return replace(state, mercs=mercs, discard=discard)


# --- combat (Action Phase 3) ------------------------------------------------------------------------


def check_combat(params: Params, state: State, event: CombatResolved) -> Problems:
    """"Damage is done simultaneously": the mover's damage to every enemy in front of it, the
    enemies' damage combined on the mover (Combat 3.b.i, 3.b.iv)."""
    pending = state.pending[0] if state.pending else None
    if pending is None or pending.kind != "combat":
        return [_v(event, "combat.contact", "no combat is waiting: combat follows a move that meets an enemy")]
    problems = []
    if event.attacker != pending.attacker or tuple(sorted(event.defenders)) != pending.defenders:
        problems.append(_v(event, "combat.contact", f"the combat is {pending.attacker} against {', '.join(pending.defenders)}: "
                                                    "all mercenaries interacting this way enter combat"))
    due = dict(combat_damage(pending.attacker, pending.defenders))
    dealt = dict(event.damage)
    if dealt != due:
        told = ", ".join(f"{card} takes {hit}" for card, hit in due.items())
        problems.append(_v(event, "combat.simultaneous", f"recorded {', '.join(f'{c} {h}' for c, h in event.damage) or 'no damage'}; "
                                                         f"simultaneous damage gives: {told}"))
    return problems


def apply_combat(params: Params, state: State, event: CombatResolved) -> State:
    """Health tokens are removed as recorded; a mercenary with none left is defeated."""
    for card, hit in event.damage:
        m = merc(state, card)
        if m is None:
            continue
        if m.health - hit <= 0:
            state = remove_merc(state, card)
        else:
            state = replace(state, mercs=tuple(replace(x, health=x.health - hit) if x.card == card else x for x in state.mercs))
    if state.pending and state.pending[0].kind == "combat":
        state = replace(state, pending=state.pending[1:])
    return state
