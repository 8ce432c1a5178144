"""MortalGate's bots as their strategies read: the plain policies the fast ones in `bots` play.

Each reference weighs every legal event as the strategy says, takes the best, and breaks ties
by the draws the fast bot takes: one `random()` per event in `legal`'s order, the highest
winning among equal scores, as a `max` over (score, draw) keeps it. The fast heuristic reads
a hero's moves without making them and stops once no move can reach the best score; the
contract (`projections.authoring.contract.check_bot_plays_as_its_reference`) holds it to this at every
decision of seeded games, so the fast one may be as clever as it needs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.base import Event
from rulesets.mortalgate import board, bots
from rulesets.mortalgate.events import HeroMoved
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.state import State, acting_hero, game_map


def random_reference(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """Any legal event, uniformly."""
    return legal[rng.randrange(len(legal))]


def heuristic_reference(params: Params, state: State, legal: Sequence[Event], rng: random.Random) -> Event:
    """The event with the best `score`, ties to the highest draw."""
    draws = [rng.random() for _ in legal]
    return max(zip(legal, draws, strict=True), key=lambda pair: (score(params, state, pair[0]), pair[1]))[0]


def score(params: Params, state: State, event: Event) -> float:
    """A move ending in the zone of an altar the team does not hold scores `ZONE_SCORE`; any
    other move `NEAR_SCORE` less `NEAR_PER_STEP` per step to the nearest such altar or enemy
    hero on the map (`NO_GOAL_SCORE` with neither). Every other event scores as `bots._score`
    weighs it: an altar captured, a heal for the badly wounded, an attack on the weakest."""
    if not isinstance(event, HeroMoved):
        return bots._score(params, state, event)
    hero = acting_hero(state)
    team = hero.team if hero else None
    gmap = game_map(params)
    end = event.path[-1]
    open_altars = [a for a, owner in zip(gmap.altars, state.altars, strict=True) if owner != team]
    if any(end in altar.zone for altar in open_altars):
        return bots.ZONE_SCORE
    goals = [a.node for a in open_altars] + [h.node for h in state.heroes if h.team != team and h.node is not None]
    if not goals:
        return bots.NO_GOAL_SCORE
    return bots.NEAR_SCORE - min(board.distance(end, goal) for goal in goals) * bots.NEAR_PER_STEP


REFERENCES = {"random": random_reference, "heuristic": heuristic_reference}
"""Each bot of `bots.BOTS` by name, as its strategy reads."""
