"""What-if branches: a match that leaves another at one event and plays its own line on.

A branch is an ordinary match whose log begins with its parent's events up to the event it
left from (`MatchStarted.branch_of`, `.branch_at`), so it replays, audits and syncs like
any other; these functions say where two lines of play part and what each did there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from events.base import Event
from events.shared import MatchStarted
from projections.read.replay import replay
from projections.read.words import words
from rulesets.registry import Rules


class Family(msgspec.Struct, frozen=True, kw_only=True):
    """A match among its branches: what it left (if it is a branch) and what left it."""

    match_id: str
    parent: str | None
    """The match it branched from; None for a match played from the start."""
    at: int | None
    """The parent's last event it shares."""
    children: tuple[tuple[str, int], ...]
    """(branch id, the event it left from) for every branch of this match, by that event."""


class Parting(msgspec.Struct, frozen=True, kw_only=True):
    """Where two lines of play stop being the same game: the events both share, then what
    each did next, in the game's words."""

    a: str
    b: str
    shared: int
    """The last seq both logs hold alike (0: only their line 0 is shared)."""
    next_a: str | None
    """What `a` did next, in the game's words; None when its log ends there."""
    next_b: str | None
    events_a: int
    events_b: int

    def line(self) -> str:
        """`b1 parts from m1 after event 12: m1 Red attacks ...; b1 Red moves ...`."""
        if self.next_a is None and self.next_b is None:
            return f"{self.a} and {self.b} are the same {self.shared + 1} events"
        said = "; ".join(f"{who} {what or 'ends there'}" for who, what in ((self.a, self.next_a), (self.b, self.next_b)))
        return f"{self.b} parts from {self.a} after event {self.shared}: {said}"


def same_play(a: Event, b: Event) -> bool:
    """Whether two log lines record the same play: their fields alike but the chain's hash,
    which differs once the logs' line 0 does."""
    return msgspec.structs.replace(a, prev="") == msgspec.structs.replace(b, prev="")


def parting(rules: Rules, a_id: str, a: Sequence[Event], b_id: str, b: Sequence[Event]) -> Parting:
    """Where the logs `a` and `b` part (line 0 aside, which names each match): the last
    event both hold alike and each one's next event read in the state they share."""
    shared = 0
    for first, second in zip(a[1:], b[1:], strict=False):
        if not same_play(first, second):
            break
        shared = first.seq
    state = _state_after(rules, a, shared)
    told = [words(rules, state, log[shared + 1]) if len(log) > shared + 1 else None for log in (a, b)]
    return Parting(a=a_id, b=b_id, shared=shared, next_a=told[0], next_b=told[1], events_a=len(a), events_b=len(b))


def _state_after(rules: Rules, events: Sequence[Event], seq: int) -> object:
    """The state after event `seq`, folded without the checks."""
    state: object = None
    for step in replay(events[: seq + 1], rules, audit=False):
        state = step.state
    return state


def family(match_id: str, header: MatchStarted, headers: Iterable[MatchStarted]) -> Family:
    """`match_id` among the store's line 0s: its parent and its branches."""
    children = sorted(
        ((other.match_id, other.branch_at) for other in headers
         if other.branch_of == match_id and isinstance(other.branch_at, int)),
        key=lambda child: (child[1], child[0]),
    )
    return Family(
        match_id=match_id,
        parent=header.branch_of if isinstance(header.branch_of, str) else None,
        at=header.branch_at if isinstance(header.branch_at, int) else None,
        children=tuple(children),
    )
