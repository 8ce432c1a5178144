"""Legal events as a sequence built on demand.

A random bot picks one index of the legal events (`options[rng.randrange(len(options))]`),
so building every event of a decision to hand one over is mostly wasted. A game's `legal`
may instead return a `Chain` of parts in the order it would have listed them: a plain list
for a kind that is cheap to list, or a `Lazy` run whose length is known from the rules'
counts and whose events are made only when asked for (by index, or all at once when the
sequence is iterated). The random bot then makes one event; a bot that weighs every event
iterates them as before. Same events, same order, same index: a seed keeps its log.

The contract suite holds a lazy `legal` both ways: iterated, it equals the candidates
`check` accepts, and item by index it equals the iterated list (`projections/authoring/contract.py`).
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from typing import Any, TypeVar, overload

T = TypeVar("T")


class Lazy(Sequence[T]):
    """A run of `count` events of one kind, made when asked: `item(i)` makes the i-th alone,
    `items()` (if given) all of them in order, cheaper than one at a time when a bot weighs
    them all. Each event is made at most once, so asking twice gives the same object."""

    __slots__ = ("_all", "_count", "_item", "_items", "_made")

    def __init__(self, count: int, item: Callable[[int], T] | None, items: Callable[[], list[T]] | None = None) -> None:
        self._count = count
        self._item = item
        self._items = items
        self._made: dict[int, T] = {}
        self._all: list[T] | None = None

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if self._all is not None:
            return self._all[index]
        if isinstance(index, slice):
            return self.built()[index]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        made = self._made.get(index)
        if made is None:
            made = self._made[index] = self._make(index)
        return made

    def _make(self, index: int) -> T:
        """The index-th event, made (a subclass may make it from its own fields instead)."""
        if self._item is None:
            raise NotImplementedError("a lazy run with no item maker overrides _make")
        return self._item(index)

    def _make_all(self) -> list[T] | None:
        """Every event in order, made at once; None to make them one at a time."""
        return self._items() if self._items is not None else None

    def built(self) -> list[T]:
        """Every event of the run, in order (made once, keeping any already handed out)."""
        if self._all is None:
            every = None if self._made else self._make_all()
            if every is None:
                self._all = [self[i] for i in range(self._count)]
            else:
                if len(every) != self._count:
                    raise ValueError(f"a lazy run of {self._count} events built {len(every)}")
                self._all = every
        return self._all

    def __iter__(self) -> Iterator[T]:
        return iter(self.built())

    def handed_out(self, value: object) -> bool:
        """Whether this very object is one of the run's events already made."""
        if self._all is not None:
            return any(made is value for made in self._all)
        return any(made is value for made in self._made.values())

    def __contains__(self, value: object) -> bool:
        """An event handed out (the bots' case) is found by identity, without making the rest."""
        return self.handed_out(value) or value in self.built()


class Chain(Sequence[T]):
    """Parts in order, each any sequence (a list, a `Lazy` run): one sequence of all their
    events, whose length is known before any lazy run is made, and whose i-th event makes
    only that event. `kinds`, if given, names for each part the event types it may hold
    (empty: any), so a filter or a search by type passes over the other parts unmade."""

    __slots__ = ("_count", "_kinds", "_last", "_parts", "_starts")

    def __init__(self, parts: Sequence[Sequence[T]], kinds: Sequence[tuple[type, ...]] = ()) -> None:
        self._join(parts, kinds or [()] * len(parts), list(map(len, parts)))

    def _join(self, parts: Sequence[Sequence[T]], kinds: Sequence[tuple[type, ...]], sizes: Sequence[int]) -> None:
        """The chain's fields from its parts, their kinds and their sizes, empty parts left
        out (a subclass that knows its parts' sizes calls this without asking each its length)."""
        kept: list[Sequence[T]] = []
        held: list[tuple[type, ...]] = []
        starts: list[int] = []
        count = 0
        for part, kind, size in zip(parts, kinds, sizes, strict=True):
            if size:
                kept.append(part)
                held.append(kind)
                starts.append(count)
                count += size
        self._laid(kept, held, starts, count)

    def _laid(self, parts: list[Sequence[T]], kinds: list[tuple[type, ...]], starts: list[int], count: int) -> None:
        """The chain's fields as they are kept: every part holding events, their kinds,
        `starts` the index of each part's first event, `count` them all. A subclass that has
        them at hand calls this alone (MortalGate's turn events, made at most decisions)."""
        self._parts = parts
        self._kinds = kinds
        self._starts = starts
        self._count = count
        self._last: object = _NOTHING
        # The last event handed out by index: what a bot picked, asked for again at once.

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
        event = self._parts[at][index - self._starts[at]]
        self._last = event
        return event

    def __iter__(self) -> Iterator[T]:
        return chain.from_iterable(self._parts)

    def __contains__(self, value: object) -> bool:
        """The event last handed out (what a bot returns) is found at once; then the very
        object among those made, making no lazy run; then an equal event, anywhere."""
        if value is self._last:
            return True
        parts = [part for part, held in zip(self._parts, self._kinds, strict=True) if not held or isinstance(value, held)]
        for part in parts:
            if part.handed_out(value) if isinstance(part, Lazy) else any(event is value for event in part):
                return True
        return any(value in part for part in parts)

    def __eq__(self, other: object) -> bool:
        return _equal(self, other)

    __hash__ = None  # type: ignore[assignment]  # equal to the list of its events, so unhashable like one

    def __repr__(self) -> str:
        return f"Chain({len(self._parts)} parts, {self._count} events)"

    def keep(self, predicate: Callable[[Any], bool], kinds: tuple[type, ...]) -> Sequence[T]:
        """The events `predicate` accepts, in order; `predicate` must accept every event not
        of `kinds`, so a lazy run of other kinds is passed over without being made. The
        chain itself when it drops none, else a view of it without the dropped indices."""
        dropped: list[int] = []
        for start, part, held in zip(self._starts, self._parts, self._kinds, strict=True):
            if held and not _any_of(held, kinds):
                continue
            for offset, event in enumerate(part):
                if isinstance(event, kinds) and not predicate(event):
                    dropped.append(start + offset)
        return Kept(self, dropped) if dropped else self


class Kept(Sequence[T]):
    """A sequence less some of its indices (sorted): what `Chain.keep` leaves, still made
    only where read."""

    __slots__ = ("_base", "_dropped")

    def __init__(self, base: Sequence[T], dropped: list[int]) -> None:
        self._base = base
        self._dropped = dropped

    def __len__(self) -> int:
        return len(self._base) - len(self._dropped)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return list(self)[index]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(index)
        for gone in self._dropped:  # each dropped index at or before it moves it one on
            if gone <= index:
                index += 1
            else:
                break
        return self._base[index]

    def __iter__(self) -> Iterator[T]:
        events = list(self._base)
        for gone in reversed(self._dropped):
            del events[gone]
        return iter(events)

    def __contains__(self, value: object) -> bool:
        """The event last handed out is found at once; any other is looked for in order."""
        base = self._base
        if isinstance(base, Chain) and value is base._last:
            return True
        return any(event is value or event == value for event in self)

    def __eq__(self, other: object) -> bool:
        return _equal(self, other)

    __hash__ = None  # type: ignore[assignment]


_NOTHING = object()


@functools.lru_cache(maxsize=256)  # pure, over a few tuples of types asked at every decision
def _any_of(held: tuple[type, ...], kinds: tuple[type, ...]) -> bool:
    """Whether any type held is one of kinds."""
    return any(issubclass(kind, kinds) for kind in held)


def _equal(events: Sequence[Any], other: object) -> bool | Any:
    """Equal to any sequence (a list, another chain) of equal events in the same order."""
    if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
        return len(other) == len(events) and all(a == b for a, b in zip(events, other, strict=True))
    return NotImplemented


def keep(events: Sequence[T], predicate: Callable[[Any], bool], kinds: tuple[type, ...]) -> Sequence[T]:
    """The events `predicate` accepts (it must accept every event not of `kinds`), in order:
    a `Chain` stays lazy where it can, any other sequence is filtered into a list."""
    if isinstance(events, Chain):  # MortalGate's TurnEvents is one too
        return events.keep(predicate, kinds)
    return [event for event in events if not isinstance(event, kinds) or predicate(event)]


def sequence_of(events: Iterable[T]) -> Sequence[T]:
    """`legal`'s answer as a sequence, without making a lazy one's events (any other iterable
    is listed). A sequence class is found in its own bases first: an abstract class's
    `isinstance` costs a simulation step a fifth of a microsecond."""
    kind = type(events)
    if kind is list or Sequence in kind.__mro__:
        return events  # type: ignore[return-value]  # a Sequence subclass, as isinstance would say
    return events if isinstance(events, Sequence) else list(events)
