"""The outside baseline: the Python `eventsourcing` library rebuilding one aggregate.

tabletape's replay is set against what a general event-sourcing library does with
the same number of events: read them from its store, turn each stored record back into
a domain event and apply it. The aggregate here is as cheap as the library allows (one
`@event` method that sets two attributes), so the figure is the library's own cost per
event, a generous baseline; each event carries a payload shaped like a `HeroMoved` line
(a hero id and a path of three nodes). Persistence is the library's in-memory POPO
module, so no disk time enters either side.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

SAVE_BATCH = 10_000
"""Events saved per `app.save` while building the store (building is not timed)."""


class Hero(Aggregate):
    """One hero walking the board: every event moves it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.node: list[int] | None = None
        self.moves = 0

    @event("Moved")
    def move(self, hero: str, path: list[list[int]]) -> None:
        """The whole apply: where the hero stands now, and how many moves it made."""
        self.node = path[-1]
        self.moves += 1


class Stored:
    """An application whose store holds one aggregate of exactly `events` events."""

    def __init__(self, events: int) -> None:
        self.events = events
        self.app: Application[Any] = Application(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
        hero = Hero("zadita")  # its Created event is event 1
        for index in range(1, events):
            column = index % 20
            hero.move(hero="zadita", path=[[17, column], [16, column], [15, column]])
            if index % SAVE_BATCH == 0:
                self.app.save(hero)
        self.app.save(hero)
        self.aggregate_id = hero.id

    def rebuild(self) -> int:
        """Rebuild the aggregate from the store; returns how many events were applied."""
        hero: Hero = self.app.repository.get(self.aggregate_id)
        assert hero.version == self.events, (hero.version, self.events)
        return int(hero.version)
