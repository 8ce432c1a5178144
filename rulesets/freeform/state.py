"""What a log-only game keeps while it replays: scores, the turn, the verbs used."""

from __future__ import annotations

import msgspec

from rulesets.freeform.events import Number


class State(msgspec.Struct, frozen=True, kw_only=True):
    """The table's bookkeeping, nothing of the game's own rules."""

    seats: tuple[str, ...]
    """In seating order: the turn passes along it."""
    players: dict[str, str]
    """Seat -> player, so events read with the names said at the table."""
    scores: dict[str, Number]
    """Seat -> score, in seating order (shown as it is in the state table)."""
    actor: str | None
    """Whose turn it is (None in a game without seats)."""
    turn: int = 1
    verbs: tuple[str, ...] = ()
    """Every verb used so far, first use first: what the recorder offers again."""
    actions: int = 0
    rolls: int = 0

    def score(self, seat: str) -> Number:
        """A seat's score (0 for a seat the match does not have)."""
        return self.scores.get(seat, 0)

    def who(self, seat: str | None) -> str:
        """The player at a seat, as the table says it (the seat itself if it has none)."""
        return "the table" if seat is None else self.players.get(seat) or seat
