"""Mercy Frontier's bots as their strategies read: the plain policies the fast ones in `bots`
play.

The heuristic weighs every legal event (`bots._score`), takes the best, and breaks ties by
the draws the fast bot takes: one `random()` per event in `legal`'s order, the highest
winning among equal scores. The fast one shares the walks a token's moves trace in one
direction between moves (`bots.Look`); the reference walks each move afresh (`Afresh`). The
contract (`projections.authoring.contract.check_bot_plays_as_its_reference`) holds each fast bot to
its reference at every decision of seeded games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.base import Event
from rulesets.mercyfrontier import bots
from rulesets.mercyfrontier.board import Space
from rulesets.mercyfrontier.movement import Walk, contact, walk
from rulesets.mercyfrontier.params import Params
from rulesets.mercyfrontier.state import Merc, State


def random_reference(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """A kind of legal event uniformly (by name, in order), then one of that kind uniformly."""
    kinds = sorted({type(e).__name__ for e in legal})
    kind = kinds[rng.randrange(len(kinds))]
    options = [e for e in legal if type(e).__name__ == kind]
    return options[rng.randrange(len(options))]


def heuristic_reference(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """The event with the best score, each weighed afresh, ties to the highest draw."""
    draws = [rng.random() for _ in legal]
    return max(zip(legal, draws, strict=True), key=lambda pair: (bots._score(params, state, pair[0], Afresh(params, state)), pair[1]))[0]


class Afresh(bots.Look):
    """What a score asks of the position, each walk and contact worked out when asked."""

    def walk(self, t: bots.Token, direction: str, spaces: int, trample: tuple[str, ...]) -> Walk:
        return walk(self.params, self.state, t.merc, direction, spaces, trample)

    def contact(self, m: Merc, at: Space, direction: str) -> tuple[str, ...]:
        return contact(self.params, self.state, m, at, direction)


REFERENCES = {"random": random_reference, "heuristic": heuristic_reference}
"""Each bot of `bots.BOTS` by name, as its strategy reads."""
