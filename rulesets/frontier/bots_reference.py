"""Frontier's bots as their strategies read: the plain policies the fast ones in `bots` play.

Each reference weighs every event it may choose as the strategy says (each kind of event by
its own score in `bots`, written as the strategy reads), takes the best, and breaks ties by
the draws the fast bot takes: one `random()` per event in `legal`'s order, the highest
winning among equal scores. While the board is set up, both put down the standard table
piece by piece and then agree it. The contract (`projections.authoring.contract.
check_bot_plays_as_its_reference`) holds each fast bot to its reference at every decision
of seeded games, so the fast one may be as clever as it needs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.base import Event
from rulesets.frontier import bots
from rulesets.frontier.events import TerrainAgreed, TerrainPlaced
from rulesets.frontier.params import Params
from rulesets.frontier.state import State


def random_reference(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Any event of `choices`, uniformly."""
    options = choices(state, legal)
    return options[rng.randrange(len(options))]


def heuristic_reference(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """The event of `choices` with the best score (`bots._score`), ties to the highest draw."""
    options = choices(state, legal)
    draws = [rng.random() for _ in options]
    return max(zip(options, draws, strict=True), key=lambda pair: (bots._score(params, state, pair[0]), pair[1]))[0]


def choices(state: State, legal: Sequence[Event]) -> list[Event]:
    """What a bot chooses from: while the board is set up, the first standard piece it can
    lay where the standard table has it, else agreeing the table; otherwise every legal event."""
    if state.stage != "terrain":
        return list(legal)
    laid: list[Event] = [e for e in legal if isinstance(e, TerrainPlaced) and bots._HOME.get(e.piece) == e.outline]
    agreed: list[Event] = [e for e in legal if isinstance(e, TerrainAgreed)]
    return laid[:1] or agreed or list(legal)


REFERENCES = {"random": random_reference, "heuristic": heuristic_reference}
"""Each bot of `bots.BOTS` by name, as its strategy reads."""
