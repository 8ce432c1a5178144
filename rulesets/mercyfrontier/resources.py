"""The three resources and a purse of tokens: what is held, paid, collected or costs.

mercy-frontier.txt, Required materials: "90 Resource Tokens (30 green biofuel, 30 blue
neosteel, 30 white lucite crystal)". The text names crystal three ways (lusorite, lucite,
compressed lucite); tabletape calls it `crystal`.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Resource = Literal["biofuel", "neosteel", "crystal"]
RESOURCES: tuple[Resource, ...] = ("biofuel", "neosteel", "crystal")


class Resources(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Tokens of each resource; a field left out is 0, so `{"biofuel": 2}` is a purse."""

    biofuel: int = 0
    neosteel: int = 0
    crystal: int = 0

    def of(self, resource: str) -> int:
        """Tokens of one resource."""
        return int(getattr(self, resource))

    def total(self) -> int:
        """Tokens of every resource together."""
        return self.biofuel + self.neosteel + self.crystal

    def plus(self, other: Resources) -> Resources:
        """Both purses together."""
        return Resources(biofuel=self.biofuel + other.biofuel, neosteel=self.neosteel + other.neosteel,
                         crystal=self.crystal + other.crystal)

    def minus(self, other: Resources) -> Resources:
        """This purse less another (a negative count says the table paid what it did not have)."""
        return Resources(biofuel=self.biofuel - other.biofuel, neosteel=self.neosteel - other.neosteel,
                         crystal=self.crystal - other.crystal)

    def covers(self, other: Resources) -> bool:
        """Whether this purse holds at least every token of the other."""
        return self.biofuel >= other.biofuel and self.neosteel >= other.neosteel and self.crystal >= other.crystal

    def negative(self) -> bool:
        """A count below zero: a purse nobody can hold or pay."""
        return self.biofuel < 0 or self.neosteel < 0 or self.crystal < 0

    def text(self) -> str:
        """`2 biofuel, 1 crystal` (or `nothing`)."""
        parts = [f"{self.of(r)} {r}" for r in RESOURCES if self.of(r)]
        return ", ".join(parts) or "nothing"


def single(resource: str, count: int = 1) -> Resources:
    """A purse of `count` tokens of one resource."""
    return msgspec.convert({resource: count}, Resources)


NOTHING = Resources()
