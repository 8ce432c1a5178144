"""Every Mercenarium rule that forbids an action is named where the table first breaks it, by
its own rule, once (mercenarium.txt, CAPTURING CARDS, Alchemy, THE LORDS, BUYING
MERCENARIES, Contracts, LEARNING HYMNS, DRAWING CARDS, ELIMINATION AND LIMBO).

Each case plays seeded games until the situation arises, lets the table write the forbidden
event there, lets the bots play on, and audits the log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from events.base import Event
from rulesets import registry
from rulesets.mercenarium import cards
from rulesets.mercenarium.events import (
    CardCaptured,
    CardSummoned,
    DrawDeclared,
    HymnLearned,
    MercenaryBought,
    TurnPassed,
)
from rulesets.mercenarium.state import State, at, clash, contract_of, house, player, unspent
from rulesets.registry import Rules
from tests.forbid_support import broken, findings

R = registry.resolve("mercenarium")
Made = Event | tuple[Event, ...] | None


def turn(state: State, moves: Sequence[Event] | None) -> str | None:
    """The seat whose turn action it is, nothing waiting."""
    return state.current if moves is not None and state.stage == "play" and not state.pending else None


def meeting(kind: str) -> Callable[[Rules, State, Sequence[Event] | None], Made]:
    """The table captures with a card that meets the enemy card as `kind` (clash)."""
    def breaker(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
        seat = turn(state, moves)
        if seat is None:
            return None
        for mine in state.board:
            if mine.owner != seat:
                continue
            for other in state.board:
                x, y = mine.space
                if other.owner != seat and abs(other.space[0] - x) + abs(other.space[1] - y) == 1 \
                        and clash(rules_.params, state, mine, other).kind == kind:
                    return CardCaptured(by=seat, card=mine.card, target=other.card)
        return None
    return breaker


def buying(pick: Callable[[State, str, str], bool], spent: bool = False) -> Callable[[Rules, State, Sequence[Event] | None], Made]:
    """The table buys the first enemy card in play `pick` allows, with a face-down capture
    (or, `spent`, one already flipped)."""
    def breaker(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
        seat = turn(state, moves)
        p = player(state, seat) if seat is not None else None
        if p is None:
            return None
        pay = [c.card for c in p.captures if c.spent] if spent else list(unspent(p))
        if not pay:
            return None
        target = next((x for x in state.board if x.owner != seat and pick(state, seat or "", x.card)), None)
        return None if target is None else MercenaryBought(by=seat, card=target.card, capture=pay[0])
    return breaker


def mercenary(card_id: str) -> bool:
    found = cards.card(card_id)
    return found is not None and found.mercenary


def under_contract(state: State, seat: str, card_id: str) -> bool:
    return mercenary(card_id) and contract_of(state, card_id) not in (None, seat)


def not_a_mercenary(state: State, seat: str, card_id: str) -> bool:
    return not mercenary(card_id)


def a_lord(state: State, seat: str, card_id: str) -> bool:
    found = cards.card(card_id)
    return found is not None and found.lord


def free_mercenary(state: State, seat: str, card_id: str) -> bool:
    return mercenary(card_id) and contract_of(state, card_id) is None


def summon_into_taken_house(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """House Summoning: "If your HOUSE is empty ... any card in your hand may be placed there"."""
    seat = turn(state, moves)
    p = player(state, seat) if seat is not None else None
    if p is None or not p.hand or at(state, house(rules_.params, p.seat)) is None:
        return None
    return CardSummoned(by=p.seat, card=p.hand[0], space=house(rules_.params, p.seat))


def draw_over_the_limit(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """DRAWING CARDS: "If you are already holding five non-hymn cards ... you must first discard one"."""
    seat = turn(state, moves)
    p = player(state, seat) if seat is not None else None
    if p is None or state.singularity or len(p.hand) < rules_.params.hand_limit or not state.deck:
        return None
    return DrawDeclared(by=p.seat)


def offering_from_play(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """LEARNING HYMNS: "You cannot make offerings out of cards that you already have in play"."""
    seat = turn(state, moves)
    p = player(state, seat) if seat is not None else None
    if p is None or state.singularity or not state.hymnal:
        return None
    for piece in state.board:
        found = cards.card(piece.card)
        if piece.owner == p.seat and found is not None and (p.hymns or found.value >= 10):
            return HymnLearned(by=p.seat, offering=(*p.hymns, piece.card))
    return None


def learn_holding_a_hymn(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """LEARNING HYMNS: "If any of these offerings are made and a player no longer has a hymn in
    their hand, they may then draw a hymn" (a player holds one hymn at most)."""
    seat = turn(state, moves)
    p = player(state, seat) if seat is not None else None
    if p is None or state.singularity or not state.hymnal or not p.hymns:
        return None
    low = [c for c in p.hand if (found := cards.card(c)) is not None and found.value <= 9][:2]
    return HymnLearned(by=p.seat, offering=tuple(low)) if len(low) == 2 else None


def passing(rules_: Rules, state: State, moves: Sequence[Event] | None) -> Made:
    """TURN ACTIONS: "You may not 'pass' your turn without taking any action"."""
    seat = turn(state, moves)
    return None if seat is None or state.turns < 6 else TurnPassed(by=seat)


CASES = {
    # CAPTURING CARDS: "adjacent to an enemy card that has fewer aura dots along its touching edge"
    "a capture through a weaker edge": (meeting("weaker"), "mercenarium/capture.aura"),
    # Consumption: "Only the consuming card in this encounter may initiate a capture"
    "a consumed card initiates a capture": (meeting("consumed"), "mercenarium/alchemy.consumption"),
    # Deadlock: "Neither can initiate a capture or annihilation on the other"
    "a deadlocked card captures": (meeting("deadlock"), "mercenarium/alchemy.deadlock"),
    # Annihilation: "both cards are discarded from play and no player receives a capture point"
    "an annihilating tie is taken as a capture": (meeting("annihilation"), "mercenarium/alchemy.annihilation"),
    # Contracts: "without the threat of another player buying it"
    "a mercenary under contract is bought": (buying(under_contract), "mercenarium/buy.contract"),
    # BUYING MERCENARIES: "10s and Lords are NOT considered mercenaries"; "Lords cannot be 'bought'"
    "a card that is no mercenary is bought": (buying(not_a_mercenary), "mercenarium/buy.mercenary"),
    "a Lord is bought": (buying(a_lord), "mercenarium/buy.mercenary"),
    # "Once a capture is flipped face-up, it has been 'spent' and cannot be used to buy anything else"
    "a spent capture buys": (buying(free_mercenary, spent=True), "mercenarium/buy.capture"),
    # House Summoning; Limbo: "This prevents that player from being able to summon new cards"
    "a summon into a taken House": (summon_into_taken_house, "mercenarium/summon.occupied"),
    # DRAWING CARDS: "You may not hold more than five (5) non-hymn cards at a time"
    "a draw over the hand limit": (draw_over_the_limit, "mercenarium/hand.limit"),
    # LEARNING HYMNS: "Offerings must be made from your hand or from your captures"
    "an offering from play": (offering_from_play, "mercenarium/hymns.offering-in-play"),
    "a hymn learned while one is held": (learn_holding_a_hymn, "mercenarium/hymns.learn-holding"),
    "a turn passed": (passing, "mercenarium/turn.no-pass"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_forbidden_action_is_named_once_by_its_own_rule_where_it_is_made(case: str) -> None:
    breaker, rule = CASES[case]
    events, seq = broken(R, breaker, seeds=range(12))
    assert findings(events, R) == [(seq, rule)]
