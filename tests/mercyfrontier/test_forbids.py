"""Every Mercy Frontier rule and ability that forbids an action is named where the table first
breaks it, by its own rule, once; and only a mercenary that moved to the far row wins
(mercy-frontier.txt, Objective, Worker Purchase 3.a, Building Phase 1-2, Mercenary Placement
2.a, Action Phase 1-3).

Each case plays seeded games until the situation arises, lets the table write the forbidden
event there, lets the bots play on, and audits the log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from msgspec.structs import replace

from events.base import Event
from events.shared import MatchEnded
from projections.read.audit import audit
from rulesets.mercyfrontier import board
from rulesets.mercyfrontier.events import (
    AbilityUsed,
    BuildingBuilt,
    MercenaryHired,
    MercenaryMoved,
    MercenaryPlaced,
    OutpostPurchased,
    WorkersBought,
    WorkersPlaced,
)
from rulesets.mercyfrontier.movement import walks
from rulesets.mercyfrontier.state import (
    State,
    allowance,
    building_at,
    card_of,
    free_for_token,
    in_territory,
    move_record,
    noncombat,
    placed_mercs,
    player,
    replace_player,
)
from rulesets.registry import Rules
from tests.forbid_support import broken, findings
from tests.mercyfrontier.scenario import rules

R = rules("current")
Made = Event | tuple[Event, ...] | None


def deciding(state: State, phase: str, moves: Sequence[Event] | None) -> bool:
    """A decision of the actor in `phase`, nothing waiting."""
    return moves is not None and state.phase == phase and not state.pending and state.actor is not None


def lifted(rules_: Rules, state: State) -> list[Event]:
    return list(rules_.ruleset.legal(rules_.params, state))


def far_row_placement(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """A hired one-space token placed on the opponent's edge row, out of the zone of control."""
    if not deciding(state, "placement", moves):
        return None
    seat = state.actor or ""
    for m in state.mercs:
        if m.owner == seat and m.at is None and card_of(m.card).size == 1:
            row = board.far_row(rules_.params, seat)
            for column in range(board.width(rules_.params)):
                if free_for_token(rules_.params, state, (column, row), 1):
                    return MercenaryPlaced(by=seat, card=m.card, space=(column, row))
    return None


def placement_on_a_building(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """A token placed over its own base, inside the zone of control."""
    if not deciding(state, "placement", moves):
        return None
    seat = state.actor or ""
    base = next(b for b in state.buildings if b.kind == "base" and b.owner == seat)
    m = next((m for m in state.mercs if m.owner == seat and m.at is None and card_of(m.card).size == 1), None)
    return None if m is None else MercenaryPlaced(by=seat, card=m.card, space=base.at)


def fresh_workers_placed(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """Workers bought this turn placed at once: "they may only be used next turn"."""
    p = player(state, state.actor) if deciding(state, "workers", moves) else None
    if p is None or p.fresh <= 0 or "bought" not in state.done:
        return None
    spaces = list(p.placed)
    for x in range(board.width(rules_.params)):
        for y in range(board.height(rules_.params)):
            if len(spaces) < p.workers + p.fresh and (x, y) not in spaces and in_territory(rules_.params, state, p.seat, (x, y)):
                spaces.append((x, y))
    return WorkersPlaced(by=p.seat, spaces=tuple(spaces)) if len(spaces) == p.workers + p.fresh else None


def everywhere(rules_: Rules, state: State) -> State:
    """The actor's workers standing on every space of its territory (to find a site no real
    worker stands on or touches)."""
    p = player(state, state.actor)
    assert p is not None
    spaces = tuple((x, y) for x in range(board.width(rules_.params)) for y in range(board.height(rules_.params))
                   if in_territory(rules_.params, state, p.seat, (x, y)))
    return replace_player(state, replace(p, placed=spaces))


def built_without_worker(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """Building Phase 1.b: "Have at least 1 worker unit on a tile that the building will be built on"."""
    p = player(state, state.actor) if deciding(state, "building", moves) else None
    if p is None:
        return None
    return next((e for e in lifted(rules_, everywhere(rules_, state))
                 if isinstance(e, BuildingBuilt) and e.space not in p.placed and building_at(state, e.space) is None), None)


def outpost_without_worker(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """Building Phase 2: "have a worker touching the covered tile in which you wish to build an outpost"."""
    p = player(state, state.actor) if deciding(state, "building", moves) else None
    if p is None:
        return None
    return next((e for e in lifted(rules_, everywhere(rules_, state)) if isinstance(e, OutpostPurchased)
                 and not any(board.touches_tile(rules_.params, s, e.tile) for s in p.placed)), None)


def unmoved(state: State) -> list[Any]:
    """The actor's tokens that have not moved this action phase."""
    return [m for m in placed_mercs(state, state.actor or "") if move_record(state, m.card) is None]


def _blocked(rules_: Rules, state: State, moves: Sequence[Event] | None, by: str) -> Made:
    """A move on through what stops it: `own` (a token not trampled) or `enemy` (contact)."""
    if not deciding(state, "action", moves) or any(m.card not in state.triggered and noncombat(m.card) for m in placed_mercs(state, state.actor or "")):
        return None
    for m in unmoved(state):
        reach = allowance(rules_.params, m.card)
        for direction in board.DIRECTIONS:
            steps = walks(rules_.params, state, m, direction, reach, ())
            stop = next((k for k, w in enumerate(steps) if w.blocked == by), None)
            if stop is not None and stop + 1 <= reach and steps[stop].steps == stop:
                return MercenaryMoved(by=m.owner, card=m.card, direction=direction, spaces=stop + 1)  # type: ignore[arg-type]
    return None


def through_own(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """Movement 2.b: "a mercenary in front of another mercenary prevents the second from moving forward"."""
    return _blocked(rules_, state, moves, "own")


def past_rarity(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """Movement 2.a: a token moving one space more than its rarity (and sprint) allows, on open ground."""
    if not deciding(state, "action", moves) or any(m.card not in state.triggered and noncombat(m.card) for m in placed_mercs(state, state.actor or "")):
        return None
    for m in unmoved(state):
        reach = allowance(rules_.params, m.card) + 1
        for direction in board.DIRECTIONS:
            w = walks(rules_.params, state, m, direction, reach, ())[-1]
            if not w.blocked and w.steps == reach:
                return MercenaryMoved(by=m.owner, card=m.card, direction=direction, spaces=reach)  # type: ignore[arg-type]
    return None


def moved_twice(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """Each mercenary moves once per action phase (a second move is only a victor's)."""
    if not deciding(state, "action", moves):
        return None
    for record in state.moves:
        if record.fought:
            continue
        again = replace(state, moves=tuple(r for r in state.moves if r.card != record.card))
        found = next((e for e in lifted(rules_, again) if isinstance(e, MercenaryMoved) and e.card == record.card), None)
        if found is not None:
            return found
    return None


def mended_twice(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """A noncombat ability triggers once, before movement (Action Phase 1.b)."""
    if not deciding(state, "action", moves) or "moved" in state.done:
        return None
    card = next((c for c in state.triggered if c in {m.card for m in placed_mercs(state, state.actor or "")}), None)
    return None if card is None else AbilityUsed(by=state.actor, card=card, ability=noncombat(card)[0])


def moved_before_mending(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """The table moves first and mends after: "it triggers before movement occurs"."""
    if not deciding(state, "action", moves) or "moved" in state.done:
        return None
    mine = placed_mercs(state, state.actor or "")
    medic = next((m for m in mine if noncombat(m.card) and m.card not in state.triggered), None)
    if medic is None:
        return None
    done = replace(state, triggered=tuple(m.card for m in mine))
    move = next((e for e in lifted(rules_, done) if isinstance(e, MercenaryMoved)), None)
    if move is None:
        return None
    return move, AbilityUsed(by=state.actor, card=medic.card, ability=noncombat(medic.card)[0])


def through_enemy(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """Combat 3.a: contact with an enemy stops the move there (read: action.no-overlap)."""
    return _blocked(rules_, state, moves, "enemy")


def _after_combat(rules_: Rules, state: State, moves: Sequence[Event] | None, turn: bool) -> Made:
    """The victor moves on one space, in its own direction or (`turn`) another one."""
    if not deciding(state, "action", moves):
        return None
    for record in state.moves:
        m = next((m for m in placed_mercs(state, state.actor or "") if m.card == record.card), None)
        if m is None or not record.fought or record.left <= 0:
            continue
        for direction in board.DIRECTIONS:
            if (direction != record.direction) == turn and not walks(rules_.params, state, m, direction, 1, ())[-1].blocked:
                return MercenaryMoved(by=m.owner, card=m.card, direction=direction, spaces=1)  # type: ignore[arg-type]
    return None


def victor_moves_on(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """Before the 6th play test the victor stops after its combat."""
    return _after_combat(rules_, state, moves, turn=False)


def victor_turns(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """"they may finish moving": on in the one orthogonal direction of its move."""
    return _after_combat(rules_, state, moves, turn=True)


def hiring(card: str) -> Callable[[State, Event], bool]:
    return lambda state, e: (isinstance(e, MercenaryHired) and e.card.startswith(card)) or isinstance(e, AbilityUsed)


def buying_workers(state: State, event: Event) -> bool:
    return isinstance(event, WorkersBought)


CASES = {
    # Mercenary Placement 2.a: "as long as the token overlaps at least one grid space on a tile within the player's zone of control"
    "a token placed on the far row": (far_row_placement, None, "mercyfrontier/mercenaries.zone-of-control"),
    # Mercenary Placement 2.c: "enough space to place the token"
    "a token placed over a building": (placement_on_a_building, None, "mercyfrontier/mercenaries.space"),
    # Worker Purchase 3.a: "they may only be used next turn"
    "workers bought this turn are placed": (fresh_workers_placed, buying_workers, "mercyfrontier/workers.next-turn"),
    # Building Phase 1.b and 2
    "a building with no worker on its space": (built_without_worker, None, "mercyfrontier/building.worker"),
    "an outpost with no worker touching its tile": (outpost_without_worker, None, "mercyfrontier/outposts.worker"),
    # Movement 2.a-b
    "a common moves past its rarity": (past_rarity, None, "mercyfrontier/action.rarity"),
    "a token moves through its own": (through_own, None, "mercyfrontier/action.no-overlap"),
    "a token moves twice": (moved_twice, None, "mercyfrontier/action.once"),
    "a token moves on through an enemy": (through_enemy, None, "mercyfrontier/action.no-overlap"),
    # Combat 3.c: "if the attacking mercenary or mercenaries have any remaining movement left, they may finish moving"
    "a victor turns after its combat": (victor_turns, None, "mercyfrontier/action.direction"),
    "a victor moves on before the 6th play test": (victor_moves_on, None, "mercyfrontier/combat.victor-continues"),
    # Action Phase 1.b, the Field Medic's mend
    "an ability triggers twice": (mended_twice, hiring("medic"), "mercyfrontier/action.ability"),
    "a token moves before its owner's ability": (moved_before_mending, hiring("medic"), "mercyfrontier/action.abilities-first"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_forbidden_action_is_named_once_by_its_own_rule_where_it_is_made(case: str) -> None:
    breaker, prefer, rule = CASES[case]
    r = rules("playtest-4") if "6th play test" in case else R
    events, seq = broken(r, breaker, prefer=prefer)
    assert findings(events, r) == [(seq, rule)]


def test_a_token_placed_on_the_far_row_wins_nothing() -> None:
    """Objective: "Get one merc to the other side of the board" is a move; the table that
    declares the placing seat the winner has not got the rules' result."""
    events, seq = broken(R, far_row_placement)
    placer = events[seq].by
    events.append(MatchEnded(seq=len(events), winner=placer, reason="its mercenary stands on the other side"))
    report = audit(events, R)
    assert [(v.seq, v.rule) for v in report.errors] == [(seq, "mercyfrontier/mercenaries.zone-of-control")]
    assert report.result.computed is None or report.result.computed.rule != "mercyfrontier/victory.far-side"
    assert not report.result.agrees and f"the table declared {placer} the winner" in report.result.message
