"""Equally likely chance outcomes, each made when read.

A chance step answers every outcome with its weight; a deck's draw in Mercenarium is one
outcome per card the deck holds, about forty events made and weighed to play one of them.
`Uniform` is that list unmade: its length and weights are known from the values drawn from,
the i-th outcome's event is made only when read, and `simulate.draw` reads one. Read any
other way (iterated, indexed, sliced) it is the list `[(make(v), 1 / n) for v in values]`,
so every reader of `chance` (replay's resync, the Record page's dice pad, mutations, the
contract suite) sees what it saw. `totals` are `rng.choices`' running total of those
weights, the same floats, so a seed draws the same outcome as from the list.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate, repeat
from typing import Any, TypeVar, overload

T = TypeVar("T")


@functools.lru_cache(maxsize=256)
def running_totals(count: int) -> tuple[float, ...]:
    """The running total of `count` weights of `1 / count` each, added in order as
    `random.choices` adds them (so the same floats, not `i / count`)."""
    return tuple(accumulate(repeat(1 / count, count)))


class Uniform(Sequence[tuple[T, float]]):
    """`(make(value), 1 / n)` for each of the n `values`, in order, each event made when read."""

    __slots__ = ("_make", "_values", "weight")

    def __init__(self, values: Sequence[Any], make: Callable[[Any], T]) -> None:
        if not values:
            raise ValueError("a chance step has at least one outcome")
        self._values = values
        self._make = make
        self.weight = 1 / len(values)

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, index: int) -> tuple[T, float]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[T, float]]: ...
    def __getitem__(self, index: int | slice) -> tuple[T, float] | Sequence[tuple[T, float]]:
        if isinstance(index, slice):
            return [(self._make(v), self.weight) for v in self._values[index]]
        return self._make(self._values[index]), self.weight

    def __iter__(self) -> Iterator[tuple[T, float]]:
        make, weight = self._make, self.weight
        return ((make(v), weight) for v in self._values)

    def event(self, index: int) -> T:
        """The index-th outcome's event alone."""
        return self._make(self._values[index])

    def totals(self) -> tuple[float, ...]:
        """The running total of the weights, as `random.choices` adds them."""
        return running_totals(len(self._values))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Uniform | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a list's equality, so unhashable like a list

    def __repr__(self) -> str:
        return f"Uniform({list(self)!r})"
