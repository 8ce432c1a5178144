"""Bots that play Mercy Frontier for simulated playtests.

A bot is a policy: given the params, the state and the legal events, it returns one of
them, using only the seeded generator it is handed, so a simulation replays byte for byte
from its seed. The random bot first picks a kind of event, then one of that kind, so a
phase's single "finished" event is not drowned by hundreds of placements.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import NamedTuple

from events.base import Event
from rulesets.mercyfrontier import board
from rulesets.mercyfrontier.board import Space
from rulesets.mercyfrontier.components import card_type
from rulesets.mercyfrontier.events import (
    AbilityUsed,
    BuildingBuilt,
    MarketSwept,
    MercenaryHired,
    MercenaryMoved,
    MercenaryPlaced,
    OutpostPurchased,
    WorkersBought,
    WorkersPlaced,
)
from rulesets.mercyfrontier.movement import Walk, budget, contact, trampling_walks, walk, walks
from rulesets.mercyfrontier.params import Params
from rulesets.mercyfrontier.state import Merc, State, card_of, damage, merc, player


def random_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """A uniformly random kind of legal event, then a uniformly random one of that kind."""
    kinds = sorted({type(e).__name__ for e in legal})
    kind = kinds[rng.randrange(len(kinds))]
    options = [e for e in legal if type(e).__name__ == kind]
    return options[rng.randrange(len(options))]


def heuristic_bot(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Collect on nodes, refine, claim tiles, hire the strongest mercenary it can afford,
    place it as far forward as it may, and push it toward the far side, fighting only
    combats it wins and smashing buildings on the way."""
    look = Look(params, state)
    return max(legal, key=lambda event: (_score(params, state, event, look), rng.random()))


class Look:
    """What every candidate's score asks of one position, worked out once per decision: the
    node spaces, each seat's enemy building sites, and each token's walks in a direction (a move of n spaces
    is the n-th of them: `movement.walks`)."""

    def __init__(self, params: Params, state: State) -> None:
        self.params, self.state = params, state
        self._sites: dict[str, set[Space]] = {}
        self._walks: dict[tuple[str, str, tuple[str, ...] | None], tuple[Walk, ...]] = {}
        self._tokens: dict[str, Token | None] = {}
        self._contacts: dict[tuple[str, Space, str], tuple[str, ...]] = {}
        self.nodes = {at for at, _ in state.nodes}
        # The spaces with a resource node (`node_at` is not None).

    def enemy_sites(self, seat: str) -> set[Space]:
        """Where the seat's enemy has buildings."""
        if seat not in self._sites:
            self._sites[seat] = {b.at for b in self.state.buildings if b.owner != seat}
        return self._sites[seat]

    def contact(self, m: Merc, at: Space, direction: str) -> tuple[str, ...]:
        """`movement.contact`, once per token, end space and direction."""
        key = (m.card, at, direction)
        if key not in self._contacts:
            self._contacts[key] = contact(self.params, self.state, m, at, direction)
        return self._contacts[key]

    def token(self, card: str) -> Token | None:
        """What a move of the card's token asks of it, once per decision (None: not on the board)."""
        if card not in self._tokens:
            m = merc(self.state, card)
            found = None
            if m is not None and m.at is not None:
                size = card_of(m.card).size
                found = Token(m, budget(self.params, self.state, m.card), size, _front(self.params, m.owner, m.at[1], size),
                              board.far_row(self.params, m.owner))
            self._tokens[card] = found
        return self._tokens[card]

    def walk(self, t: Token, direction: str, spaces: int, trample: tuple[str, ...]) -> Walk:
        """`movement.walk`, from the token's walks up to its budget in that direction."""
        m = t.merc
        if not 1 <= spaces <= t.most:
            return walk(self.params, self.state, m, direction, spaces, trample)
        key = (m.card, direction, trample)
        found = self._walks.get(key)
        if found is None:
            shared = self._walks.get((m.card, direction, None))
            if shared is None:  # what legal traced
                shared = self._walks[m.card, direction, None] = trampling_walks(self.params, self.state, m, direction)
            if shared[spaces - 1].trampled == trample:  # it trampled exactly these: the same walk
                return shared[spaces - 1]
            found = self._walks[key] = walks(self.params, self.state, m, direction, t.most, trample)
        return found[spaces - 1]


class Token(NamedTuple):
    """A token on the board as a decision's move scores read it."""

    merc: Merc
    most: int
    """Spaces it may still move (`movement.budget`)."""
    size: int
    front: int
    """How far forward its foremost row stands now (`_front`)."""
    far_row: int
    """The row its owner must reach."""


NOT_WANTED = -1.0
"""A purchase the heuristic does not want now (more workers, another outpost): below any event
it has no score for, above sweeping the market."""


@functools.lru_cache(maxsize=4096)  # pure: asked for the rows of every move a bot weighs
def _forward(params: Params, seat: str, row: int) -> int:
    """How far a row is toward the seat's far side (higher is closer)."""
    return row if board.far_row(params, seat) > 0 else board.height(params) - 1 - row


def _score(params: Params, state: State, event: Event, look: Look) -> float:
    if type(event) is MercenaryMoved:  # the commonest candidates, asked first
        return _move_score(params, state, event, look)
    if type(event) is WorkersPlaced:  # the next commonest
        return float(sum(map(look.nodes.__contains__, event.spaces)))  # the spaces on a node
    p = player(state, event.by)
    match event:
        case WorkersBought(count=count):
            return 3.0 if count == 1 and p is not None and p.workers + p.fresh < 5 and p.resources.total() > 8 else NOT_WANTED
        case BuildingBuilt(kind=kind):
            return 6.0 if kind == "refinery" else 4.0
        case OutpostPurchased():
            return 5.0 if p is not None and p.outposts < 2 else NOT_WANTED
        case MercenaryHired(card=card, paid=paid):
            found = card_type(card)
            return 10.0 + (found.attack + found.health if found else 0) - 0.5 * paid.total()
        case MarketSwept():
            return -5.0
        case MercenaryPlaced(space=space):
            return 10.0 + _forward(params, event.by or "", space[1])
        case AbilityUsed():
            return 20.0
        case MercenaryMoved():
            return _move_score(params, state, event, look)
    return 0.0


def _move_score(params: Params, state: State, event: MercenaryMoved, look: Look) -> float:
    """Progress toward the far side, buildings smashed, combats won; trampling costs."""
    t = look.token(event.card)
    if t is None:
        return -50.0
    m = t.merc
    path = look.walk(t, event.direction, event.spaces, event.trample)
    size = t.size
    seat = m.owner
    score = 3.0 * (_front(params, seat, path.end[1], size) - t.front)
    if path.end[1] <= t.far_row < path.end[1] + size:
        score += 100.0
    smashed = set(path.entered) & look.enemy_sites(seat)
    score += 20.0 * len(smashed) - 8.0 * len(path.trampled)
    for enemy in look.contact(m, path.end, event.direction):
        foe = merc(state, enemy)
        if foe is None:
            continue
        wins = damage(m.card, enemy) >= foe.health
        survives = m.health > damage(enemy, m.card)
        score += 15.0 if wins and survives else 5.0 if wins else -10.0
    return score + (1.0 if event.direction in ("east", "west") else 0.0) * 0.5


def _front(params: Params, seat: str, top: int, size: int) -> int:
    """How far forward the foremost row of a token whose top row is `top` stands (`_forward`
    grows or shrinks with the row, so the foremost is the first or last of its rows)."""
    return _forward(params, seat, top + size - 1 if board.far_row(params, seat) > 0 else top)


BOTS = {"random": random_bot, "heuristic": heuristic_bot}

