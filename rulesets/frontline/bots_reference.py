"""Warcraft: Frontline's bots as their strategies read: the plain policies the fast ones in
`bots` play.

The heuristic goes down its list of wishes (`bots._wishes`, most wanted first) and plays the
first wish any legal event fulfils: of the events that do, shuffled by the seeded generator,
the unit with the most force. The fast one groups the legal events by kind once and asks
each wish only of its kind; the contract (`projections.authoring.contract.
check_bot_plays_as_its_reference`) holds each fast bot to its reference at every decision of
seeded games, so the fast one may be as clever as it needs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.base import Event
from rulesets.frontline import bots
from rulesets.frontline.events import BuildingDestroyed, RoundEnded
from rulesets.frontline.params import Params
from rulesets.frontline.state import State, side


def random_reference(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Any legal event but a building's self-destruction (unless that is all), uniformly."""
    options = [e for e in legal if not isinstance(e, BuildingDestroyed)] or list(legal)
    return options[rng.randrange(len(options))]


def heuristic_reference(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """The first wish the legal events fulfil, its strongest event after a shuffle; else the
    round's end. A lone legal event, or no side to act, is played as it is."""
    acting = side(state, state.current)
    if acting is None or len(legal) == 1:
        return legal[0]
    for kind, wanted in bots._wishes(params, state, acting):
        found = [e for e in legal if type(e) is kind and wanted(e)]
        if found:
            rng.shuffle(found)
            return max(found, key=bots._strength)
    return next(e for e in legal if isinstance(e, RoundEnded))


REFERENCES = {"random": random_reference, "heuristic": heuristic_reference}
"""Each bot of `bots.BOTS` by name, as its strategy reads."""
