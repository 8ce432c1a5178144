"""A memo for pure functions of (params, state) asked many times about one state.

Legal-move generation checks every candidate against the same state, and each check asks
again whether the game is over; replay checks and then applies each event to the same
state. States and params are frozen, so a state object always means the same value: the
last answer can be reused for the same objects. Only the last call is kept (one state
alive, no growth), and it is keyed on identity, never on a costly hash of a whole state.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from operator import is_
from typing import Any, Protocol, TypeVar, cast

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


def last_state(fn: Callable[[Any, Any], R]) -> Callable[[Any, Any], R]:
    """fn(params, state), answered again without work when asked about the same objects."""
    last: list[tuple[Any, Any, Any]] = [(None, None, None)]

    @functools.wraps(fn)
    def remembered(params: Any, state: Any) -> R:
        # One tuple, read and replaced whole: a thread (the dashboard serves several) never
        # sees one call's state beside another call's answer.
        seen_params, seen_state, answer = last[0]
        if seen_state is state and seen_params is params:
            return answer
        result = fn(params, state)
        last[0] = (params, state, result)
        return result

    return remembered



class LastOne(Protocol[R_co]):
    """A `last_one` function: called, it answers; `known(value)` is its kept answer for that
    very object, or None, never worked out (for a caller that may use it only when it is free);
    `keep(value, answer)` keeps an answer the caller carried over from the value before."""

    def __call__(self, value: Any) -> R_co: ...

    def known(self, value: Any) -> R_co | None: ...

    def keep(self, value: Any, answer: Any) -> None: ...


def last_one(fn: Callable[[Any], R]) -> LastOne[R]:
    """fn(value), answered again without work when asked about the same object: for an index
    over one frozen part of a state (its buildings, its tiles), which the states after it
    share until that part changes."""
    last: list[tuple[Any, Any]] = [(None, None)]

    @functools.wraps(fn)
    def remembered(value: Any) -> R:
        seen, answer = last[0]
        if seen is value:
            return answer
        result = fn(value)
        last[0] = (value, result)
        return result

    def known(value: Any) -> R | None:
        seen, answer = last[0]
        return answer if seen is value else None

    def keep(value: Any, answer: R) -> None:
        """Keep `answer` as fn(value): worked out by the caller from the answer for the value
        before it, which differs from it in one entry (it must equal fn(value))."""
        last[0] = (value, answer)

    remembered.known = known  # type: ignore[attr-defined]
    remembered.keep = keep  # type: ignore[attr-defined]
    return cast(LastOne[R], remembered)


def last_args(fn: Callable[..., R]) -> Callable[..., R]:
    """fn(*args), answered again without work when asked about the same objects: for an
    answer that depends on a few frozen parts of a state (its tiles and its buildings), so
    that the states after it share the answer until one of those parts changes."""
    last: list[tuple[tuple[Any, ...], Any]] = [((), None)]

    @functools.wraps(fn)
    def remembered(*args: Any) -> R:
        seen, answer = last[0]
        if len(seen) == len(args) and all(map(is_, seen, args)):  # in C: a generator costs a microsecond
            return answer
        result = fn(*args)
        last[0] = (args, result)
        return result

    return remembered


def last_args_each(fn: Callable[..., R]) -> Callable[..., R]:
    """fn(key, *args), answered again without work when asked with the same key about the same
    objects as the last call with that key: `last_args` kept once per key (a seat), for an
    answer about one seat's frozen parts that the seats ask in turn (a single last call would
    miss at every turn). The arguments are compared as a tuple: the same objects are equal at
    once, in C, and equal frozen values (fn being pure over them) have the same answer.
    Bounded: a long run of games with new keys starts afresh."""
    last: dict[Any, tuple[tuple[Any, ...], Any]] = {}

    @functools.wraps(fn)
    def remembered(key: Any, *args: Any) -> R:
        seen = last.get(key)
        if seen is not None and seen[0] == args:  # the same objects compare equal at once, in C (half `is_`'s map)
            answer: R = seen[1]
            return answer
        result = fn(key, *args)
        if len(last) >= 256:
            last.clear()
        last[key] = (args, result)
        return result

    return remembered
