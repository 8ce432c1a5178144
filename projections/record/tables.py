"""Frontier's set-up table taken from an earlier match: the terrain it agreed, as events.

A Frontier log records its own terrain ("You should agree with your opponent at the start
of the battle on the scale and special rules of any terrain", frontier.md, Terrain), so a
group that plays on the same table again should not place it piece by piece. `table_of`
reads the table an earlier log agreed (pure: the events in, the pieces out, with moves and
undos folded in); `earlier_tables` lists the distinct tables of the store's Frontier
matches, newest first; `table_events` is a table as the TerrainPlaced events that lay it,
written by the recorder (or `tabletape append --table-from`) in one append and audited
like any other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import msgspec

from events.base import Event
from events.errors import LogFormatError, TabletapeError
from events.shared import MatchStarted
from projections.read.replay import Fold
from projections.workspace import Workspace
from rulesets.frontier.events import TerrainPlaced
from rulesets.frontier.state import State
from rulesets.frontier.terrain import STANDARD
from rulesets.registry import Rules

GAME = "frontier"
STANDARD_NAME = "standard"
"""What `--table-from` calls the standard table (data/terrain.toml)."""
SHOWN = 12
"""Earlier tables listed at most (the newest distinct ones)."""


def table_of(rules: Rules, events: Iterable[Event]) -> tuple[TerrainPlaced, ...] | None:
    """The terrain a Frontier log agreed, each piece where it stood when the board was
    agreed (after its moves, without what was retracted); None if the log never agreed one."""
    fold: Fold[Any, Any] = Fold(rules, audit=False)
    stream = iter(events)
    first = next(stream, None)
    if not isinstance(first, MatchStarted) or first.ruleset != GAME:
        return None
    step = fold.first(first)
    for event in stream:
        step = fold(step, event)
        state: State = step.state
        if state.stage != "terrain":
            return tuple(TerrainPlaced(piece=t.id, label=t.label, outline=t.outline, scale=t.scale, levels=t.levels)
                         for t in state.terrain) or None
    return None


def table_events(pieces: Iterable[TerrainPlaced], seat: str | None) -> list[TerrainPlaced]:
    """A table as the events that lay it, made by `seat` (as the set-up's other events are)."""
    return [msgspec.structs.replace(p, by=seat, seq=-1, at=None, prev="") for p in pieces]


@dataclass(frozen=True)
class EarlierTable:
    """A table an earlier match agreed, and the match that names it."""

    match_id: str
    started: datetime | None
    title: str
    pieces: tuple[TerrainPlaced, ...]
    also: int = 0
    """Older matches that agreed the very same table (not listed again)."""

    @property
    def name(self) -> str:
        """How a person picks it: `m-17 · 2026-11-20 · Thursday at Ana's · 11 pieces`."""
        day = self.started.strftime("%Y-%m-%d") if self.started else "undated"
        title = f" · {self.title}" if self.title else ""
        more = f" (and {self.also} older match{'es' if self.also > 1 else ''})" if self.also else ""
        return f"{self.match_id} · {day}{title} · {len(self.pieces)} pieces{more}"


def _key(pieces: tuple[TerrainPlaced, ...]) -> bytes:
    return msgspec.json.encode([table_events(pieces, None)])


def earlier_tables(ws: Workspace, *, besides: str | None = None, limit: int = SHOWN) -> list[EarlierTable]:
    """The distinct tables the store's Frontier matches agreed, newest match first (the
    standard table and `besides`, the match being set up, left out). A log that cannot be
    read is skipped: one bad match never hides the others."""
    found: list[tuple[MatchStarted, tuple[TerrainPlaced, ...]]] = []
    for match_id in ws.matches():
        if match_id == besides:
            continue
        try:
            header = ws.header(match_id)
            if header.ruleset != GAME:
                continue
            pieces = table_of(ws.rules_of_header(header), ws.events(match_id))
        except (TabletapeError, ValueError):
            continue
        if pieces:
            found.append((header, pieces))
    found.sort(key=lambda hp: (hp[0].at.timestamp() if hp[0].at else 0.0, hp[0].match_id), reverse=True)
    seen: dict[bytes, int] = {_key(STANDARD): -1}
    out: list[EarlierTable] = []
    for header, pieces in found:
        key = _key(pieces)
        index = seen.get(key)
        if index is None:
            seen[key] = len(out)
            out.append(EarlierTable(header.match_id, header.at, header.title, pieces))
        elif index >= 0:
            out[index] = replace(out[index], also=out[index].also + 1)
    return out[:limit]


def table_from(ws: Workspace, source: str) -> tuple[TerrainPlaced, ...]:
    """The table `source` names: `standard`, or a Frontier match of the store that agreed one."""
    if source == STANDARD_NAME:
        return STANDARD
    header = ws.header(source)
    if header.ruleset != GAME:
        raise LogFormatError("--table-from", None, f"{source} is a {header.ruleset} match; a table comes from a Frontier match")
    pieces = table_of(ws.rules_of_header(header), ws.events(source))
    if not pieces:
        raise LogFormatError("--table-from", None, f"{source} never agreed a table (no TerrainAgreed after its terrain)")
    return pieces
