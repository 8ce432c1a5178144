"""Events every ruleset shares: how a match starts and ends, undo, and table rulings."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from events.base import Event

Source = Literal["playtest", "simulation", "import"]


class MatchStarted(Event, frozen=True, kw_only=True, gc=False):
    """Line 0 of every log: which rules, who sits where, and what recorded it."""

    match_id: str
    ruleset: str
    """Game name in the registry, e.g. `mortalgate`."""
    version: str
    """Version id (`2.5`) or designer variant id (`fast-grace`)."""
    seats: dict[str, str]
    """Seat id -> player name, in seating order."""
    options: dict[str, Any] = {}
    """Per-match options the ruleset defines (mission, army, races...)."""
    params: dict[str, Any] = {}
    """Param overrides a variant applied when the match was recorded, so the log stays
    self-contained even if the variant file changes later."""
    seed: int | None = None
    source: Source = "playtest"
    title: str = ""
    fingerprint: str = ""
    """Hash of the rules code and data that recorded the log: replaying under changed
    rules is detected and said, never silently shown as a game that did not happen."""
    package: str | msgspec.UnsetType = msgspec.UNSET
    """`pig 0.2`: the distribution a designer's game was installed from, so a store without
    it can say what to install. Unset, and then absent from the line, for tabletape's own
    games: their logs read as they always did."""
    branch_of: str | msgspec.UnsetType = msgspec.UNSET
    """The match this one branched from ("what if red had attacked instead"): its lines
    1..`branch_at` are the parent's events, the rest its own line of play. Unset, and so
    absent from the line, for a match played from the start."""
    branch_at: int | msgspec.UnsetType = msgspec.UNSET
    """The parent's last event this match shares: where the two lines part."""

    @property
    def is_branch(self) -> bool:
        """Whether this match left another one partway (win rates leave it out unless asked)."""
        return isinstance(self.branch_of, str)


class Retracted(Event, frozen=True, kw_only=True, gc=False):
    """Undo at the table: voids the latest event that is not already retracted."""

    target_seq: int
    reason: str = ""


class MatchEnded(Event, frozen=True, kw_only=True, gc=False):
    """What the table declared; the audit compares it with what the rules say."""

    winner: str | None = None
    """Winning side (team or seat) as the ruleset names it; None with `draw` or abandoned."""
    draw: bool = False
    reason: str = ""


class Ruled(Event, frozen=True, kw_only=True, gc=False):
    """The table settled a rules question or played a house rule.

    With `applies_to`, violations of `rule` at that seq are shown as ruled, not as errors.
    """

    rule: str
    decision: str
    applies_to: int | None = None


SHARED_EVENTS: tuple[type[Event], ...] = (MatchStarted, Retracted, MatchEnded, Ruled)
