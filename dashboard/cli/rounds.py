"""What a designer watches while `compare-versions --until-decided` plays its rounds.

On a terminal: one line per round, redrawn in place while the round's games are played
(`round 2/5 [#####-----] 14/40 games, deciding seat_balance, first_player`) and closed
with what that look decided and each measure's difference so far. Elsewhere (a pipe, a CI
log) only the closing lines, one per round, as they happen: no bar characters, no flood.
"""

from __future__ import annotations

import shutil
from typing import IO, Any

WIDTH = 24
"""Characters of the bar."""


def bar(done: int, total: int, width: int = WIDTH) -> str:
    """`[######------]` filled in proportion."""
    filled = round(width * done / total) if total else width
    return "[" + "#" * filled + "-" * (width - filled) + "]"


def playing(round_no: int, rounds: int, done: int, total: int, deciding: list[str], *, columns: int = 200) -> str:
    """The line while a round's games are played (both versions' games count), then while
    the warehouse takes them in and the verdicts are weighed; within `columns` (the bar
    shrinks first, then the end is cut: a wrapped line could not be redrawn in place)."""
    doing = "deciding" if done < total else "games in; weighing the evidence on"
    head, tail = f"round {round_no}/{rounds} ", f" {done}/{total} games, {doing} {', '.join(deciding)}"
    room = min(WIDTH, max(columns - len(head) - len(tail) - 2, 6))
    return (head + bar(done, total, room) + tail)[:columns]


def closing(look: dict[str, Any]) -> str:
    """The line a look leaves: games per version, and per measure its decision and difference."""
    said = "; ".join(f"{m} {decision}" + (f" ({look['estimates'][m]})" if m in look.get("estimates", {}) else "")
                     for m, decision in look["decisions"].items())
    return f"round {look['round']}/{look['rounds']}: {look['games']} games per version, alpha spent {look['alpha']:.4f}: {said}"


class RoundLines:
    """Progress callbacks for `projections.corpus.sequential.until_decided` writing to `out`."""

    def __init__(self, out: IO[str], measures: list[str], *, live: bool) -> None:
        self.out, self.live = out, live
        self.undecided = list(measures)
        self.drawn = False

    def progress(self, round_no: int, rounds: int, done: int, total: int) -> None:
        """Redraw the current round's line (a terminal only)."""
        if self.live:
            columns = shutil.get_terminal_size().columns - 1
            self.out.write("\r\x1b[2K" + playing(round_no, rounds, done, total, self.undecided, columns=columns))
            self.out.flush()
            self.drawn = True

    def looked(self, look: dict[str, Any]) -> None:
        """Close the round's line with what it decided."""
        self.undecided = [m for m, decision in look["decisions"].items() if decision == "undecided"]
        self.out.write(("\r\x1b[2K" if self.drawn else "") + closing(look) + "\n")
        self.out.flush()
        self.drawn = False
