"""Mercenarium's bots as their strategies read: the plain policies the fast ones in `bots` play.

Each reference weighs every event it may play as the strategy says, takes the best, and
breaks ties by the draws the fast bot takes: one `random()` per playable event in `legal`'s
order, the highest winning among equal scores, then the first, as a `max` over (score,
draw, -index) keeps it. The fast heuristic bounds every candidate and scores best bound first
from what `legal` made a turn of; the contract (`projections.authoring.contract.
check_bot_plays_as_its_reference`) holds it to this at every decision of seeded games. The
weights are the heuristic's own (`bots.STEP` and the rest), read when a score is asked.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.base import Event
from rulesets.mercenarium import bots, cards
from rulesets.mercenarium.events import (
    CardCaptured,
    CardMoved,
    CardsAnnihilated,
    CardSummoned,
    DrawDeclared,
    ExtrasReturned,
    HymnLearned,
    HymnSung,
    MercenaryBought,
)
from rulesets.mercenarium.params import Params
from rulesets.mercenarium.state import Placed, State, clash, house, next_seat, player


def random_reference(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Any event it may play (`bots.checkable`; any at all when that leaves none), uniformly."""
    options = [event for event in legal if bots.checkable(state, event)] or list(legal)
    return options[rng.randrange(len(options))]


def heuristic_reference(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """The event it may play with the best `score`, ties to the highest draw, then the first."""
    options = [event for event in legal if bots.checkable(state, event)] or list(legal)
    draws = [rng.random() for _ in options]
    best = max(range(len(options)), key=lambda i: (score(params, state, options[i]), draws[i], -i))
    return options[best]


def score(params: Params, state: State, event: Event) -> float:
    """What the heuristic makes of one event.

    A step: `STEP`, `STEP_THREATENS` if it ends beside an enemy it captures, less `EXPOSED`
    if one there captures it, `LEAVES_THREAT` if one captures it where it stands, `ONTO_HOUSE`
    onto an enemy's House, less `REPEATS` bringing back a position seen, less
    `STEP_PER_DISTANCE` per step to the nearest goal. A summon: `SUMMON_EARLY` (`SUMMON` with
    `EARLY_CARDS` in play), `SUMMON_THREATENS` and `EXPOSED` likewise, `SUMMON_PER_VALUE` per
    point of face value, less `SUMMON_PER_DISTANCE` per step. A capture, a buy, an
    annihilation, a song, an offering, a draw: as its weight says."""
    seat = event.by or ""
    if isinstance(event, CardMoved):
        piece = next((p for p in reversed(state.board) if p.card == event.card), None)  # the last, as a dict by card keeps
        if piece is None:
            return 0.0
        threatened, threatening = exposure(params, state, Placed(event.card, event.to, seat), event.card)
        total = bots.STEP + bots.STEP_THREATENS * threatening - bots.EXPOSED * threatened
        total += bots.LEAVES_THREAT * exposure(params, state, piece, None)[0]
        if event.to in [house(params, s) for s in state.seats if s != seat]:
            total += bots.ONTO_HOUSE
        after = tuple(Placed(event.card, event.to, seat) if p.card == event.card else p for p in state.board)
        if (next_seat(state, seat), after) in state.history:
            total -= bots.REPEATS
        return total - bots.STEP_PER_DISTANCE * distance(params, state, seat, event.to)
    if isinstance(event, CardSummoned):
        threatened, threatening = exposure(params, state, Placed(event.card, event.space, seat), None)
        early = sum(p.owner == seat for p in state.board) < bots.EARLY_CARDS
        total = bots.SUMMON_EARLY if early else bots.SUMMON
        total += bots.SUMMON_THREATENS * threatening - bots.EXPOSED * threatened + bots.SUMMON_PER_VALUE * value(event.card)
        return total - bots.SUMMON_PER_DISTANCE * distance(params, state, seat, event.space)
    if isinstance(event, CardCaptured):
        return bots.CAPTURE + value(event.target)
    if isinstance(event, MercenaryBought):
        return bots.BUY + value(event.card)
    if isinstance(event, CardsAnnihilated):
        return bots.ANNIHILATION + value(event.target) - value(event.card)
    if isinstance(event, HymnSung):
        return bots.FIREYES_SONG if state.singularity and event.hymn == cards.FIREYES else bots.SONG
    if isinstance(event, HymnLearned):
        return bots.OFFERING - len(event.offering)
    if isinstance(event, DrawDeclared):
        drawer = player(state, event.by)
        short = (len(drawer.hand) if drawer else 0) < bots.SHORT_HAND
        return (bots.DRAW_SHORT if short else bots.DRAW) - (bots.DISCARD_PER_VALUE * value(event.discard) if event.discard else 0)
    if isinstance(event, ExtrasReturned):
        return -sum(value(c) for c in event.cards)
    return 0.0


def exposure(params: Params, state: State, piece: Placed, leaving: str | None) -> tuple[bool, bool]:
    """(an enemy beside the piece captures it, it captures an enemy beside it), every
    neighbour's clash asked (`leaving`: the card's own space, when it is a step)."""
    size = params.board_size
    threatened = threatening = False
    x, y = piece.space
    for near in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
        if not (0 <= near[0] < size and 0 <= near[1] < size):
            continue
        other = next((p for p in state.board if p.space == near), None)
        if other is None or other.owner == piece.owner or other.card == leaving:
            continue
        threatened = threatened or clash(params, state, other, piece).kind == "capture"
        threatening = threatening or clash(params, state, piece, other).kind == "capture"
    return threatened, threatening


def distance(params: Params, state: State, seat: str, space: tuple[int, int]) -> int:
    """Fewest orthogonal steps to an enemy card or an empty enemy's House (0 with none)."""
    owners = {p.owner for p in state.board}
    goals = [p.space for p in state.board if p.owner != seat]
    goals += [house(params, s) for s in state.seats if s != seat and s not in owners]
    return min((abs(space[0] - gx) + abs(space[1] - gy) for gx, gy in goals), default=0)


def value(card_id: str) -> int:
    """The card's face value (0 for a hymn or an unknown id)."""
    found = cards.card(card_id)
    return found.value if found else 0


REFERENCES = {"random": random_reference, "heuristic": heuristic_reference}
"""Each bot of `bots.BOTS` by name, as its strategy reads."""
