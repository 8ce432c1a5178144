"""Legal events as a sequence built on demand (issue 18).

A random bot picks one index of the legal events (`options[rng.randrange(len(options))]`),
so building every event of a decision to hand one over is mostly wasted. A game's `legal`
may instead return a `Chain` of parts in the order it would have listed them: a plain list
for a kind that is cheap to list, or a `Lazy` run whose length is known from the rules'
counts and whose events are made only when asked for (by index, or all at once when the
sequence is iterated). The random bot then makes one event; a bot that weighs every event
iterates them as before. Same events, same order, same index: a seed keeps its log.

The contract suite holds a lazy `legal` both ways: iterated, it equals the candidates
`check` accepts, and item by index it equals the iterated list (`tests/contract.py`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from typing import Any, TypeVar, overload

T = TypeVar("T")


class Lazy(Sequence[T]):
    """A run of `count` events of one kind, made when asked: `item(i)` makes the i-th alone,
    `items()` (if given) all of them in order, cheaper than one at a time when a bot weighs
    them all. Each event is made at most once, so asking twice gives the same object."""

    __slots__ = ("_all", "_count", "_item", "_items", "_made", "kinds")

    def __init__(self, count: int, item: Callable[[int], T], items: Callable[[], list[T]] | None = None, *, kinds: tuple[type, ...] = ()) -> None:
        self._count = count
        self._item = item
        self._items = items
        self._made: dict[int, T] = {}
        self._all: list[T] | None = None
        self.kinds = kinds
        """The types its events may be, when known: `Chain.keep` leaves a run whole when its
        predicate looks at none of them."""

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return self.built()[index]
        if self._all is not None:
            return self._all[index]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        made = self._made.get(index)
        if made is None:
            made = self._made[index] = self._item(index)
        return made

    def built(self) -> list[T]:
        """Every event of the run, in order (made once, keeping any already handed out)."""
        if self._all is None:
            if self._items is None or self._made:
                self._all = [self[i] for i in range(self._count)]
            else:
                self._all = self._items()
                if len(self._all) != self._count:
                    raise ValueError(f"a lazy run of {self._count} events built {len(self._all)}")
        return self._all

    def __iter__(self) -> Iterator[T]:
        return iter(self.built())

    def handed_out(self, value: object) -> bool:
        """Whether this very object is one of the run's events already made."""
        if self._all is not None:
            return any(made is value for made in self._all)
        return any(made is value for made in self._made.values())

    def __contains__(self, value: object) -> bool:
        """An event handed out (the bots' case) is found by identity, one of a type the run
        never holds at once, and only another is looked for among all its events."""
        if self.handed_out(value):
            return True
        if self.kinds and not isinstance(value, self.kinds):
            return False
        return value in self.built()


class Chain(Sequence[T]):
    """Parts in order, each any sequence (a list, a `Lazy` run): one sequence of all their
    events, whose length is known before any lazy run is made, and whose i-th event makes
    only that event."""

    __slots__ = ("_count", "_parts", "_starts")

    def __init__(self, parts: Iterable[Sequence[T]]) -> None:
        self._parts = [part for part in parts if len(part)]
        self._starts: list[int] = []
        count = 0
        for part in self._parts:
            self._starts.append(count)
            count += len(part)
        self._count = count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        at = bisect_right(self._starts, index) - 1
        return self._parts[at][index - self._starts[at]]

    def __iter__(self) -> Iterator[T]:
        return chain.from_iterable(self._parts)

    def __contains__(self, value: object) -> bool:
        """The very object handed out (what a bot returns) first, by identity, making no lazy
        run; then an equal event, anywhere."""
        for part in self._parts:
            if part.handed_out(value) if type(part) is Lazy else any(event is value for event in part):
                return True
        return any(value in part for part in self._parts)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(other) == self._count and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to the list of its events, so unhashable like one

    def __repr__(self) -> str:
        return f"Chain({len(self._parts)} parts, {self._count} events)"

    def keep(self, predicate: Callable[[Any], bool], kinds: tuple[type, ...]) -> Chain[T]:
        """The events `predicate` accepts, in order; `predicate` must accept every event not
        of `kinds`, so a lazy run of another kind is kept whole without being made."""
        parts: list[Sequence[T]] = []
        dropped = False
        for part in self._parts:
            if type(part) is Lazy and part.kinds and not any(issubclass(kind, kinds) for kind in part.kinds):
                parts.append(part)
            else:
                kept = [event for event in part if not isinstance(event, kinds) or predicate(event)]
                dropped = dropped or len(kept) < len(part)
                parts.append(kept)
        return Chain(parts) if dropped else self


def keep(events: Sequence[T], predicate: Callable[[Any], bool], kinds: tuple[type, ...]) -> Sequence[T]:
    """The events `predicate` accepts (it must accept every event not of `kinds`), in order:
    a `Chain` stays lazy where it can, any other sequence is filtered into a list."""
    if isinstance(events, Chain):
        return events.keep(predicate, kinds)
    return [event for event in events if not isinstance(event, kinds) or predicate(event)]


def sequence_of(events: Sequence[T]) -> Sequence[T]:
    """`legal`'s answer as a sequence, without making a lazy one's events (any other iterable
    is listed)."""
    return events if isinstance(events, Sequence) else list(events)
