"""Plain-text rendering of API results for the command line (no logic, only words)."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

import click
import msgspec

from events.base import ENVELOPE
from projections.read.audit import AuditReport
from projections.read.compare import Comparison
from projections.read.replay import Step
from projections.read.words import label
from rulesets.protocol import Violation
from rulesets.registry import Rules
from rulesets.view import space_name


def violation_line(v: Violation) -> str:
    """`seq 12  error  mortalgate/combat.range  message`."""
    return f"seq {v.seq:>5}  {v.severity:<7}  {v.rule}  {v.message}"


def hides_anything(rules: Rules, state: Any, seats: Iterable[str]) -> bool:
    """Does some seat see less than the table does here (hands, a deck, hidden cards)?"""
    everything = msgspec.json.encode(msgspec.structs.replace(rules.ruleset.view(rules.params, state, None), seat=None, note=""))
    return any(msgspec.json.encode(msgspec.structs.replace(rules.ruleset.view(rules.params, state, seat), seat=None, note=""))
               != everything for seat in seats)


RECENT = 5
"""Events leading to the position, listed in words."""


def step_summary(match_id: str, rules: Rules, step: Step, last_seq: int, said: Mapping[int, str] | None = None, *,
                 seat: str | None = None, seats: Iterable[str] = ()) -> str:
    """A readable page for one position from one seat's view (None: the whole table): where,
    scores, pieces by board name, the events that led here in words (`said`: the words of
    the last RECENT events up to this one, by seq), and what broke."""
    ruleset = rules.ruleset
    progress = ruleset.progress(rules.params, step.state)
    board = ruleset.view(rules.params, step.state, seat)
    ended = ruleset.outcome(rules.params, step.state)
    seq = step.event.seq
    said = said if seat is None else None  # an event's words may name a card this seat cannot see
    acting = f"to act: {progress.actor or '-'}" if ended is None else (
        "game over: " + ("a draw" if ended.draw else f"{ended.winner} won") + f" ({ended.reason}; {ended.rule})")
    lines = [
        f"{match_id}  {rules.spec}  event {seq}/{last_seq}: {said[seq] if said else type(step.event).__name__}",
        f"turn {progress.turn}  round {progress.round}  phase {progress.phase}  {acting}",
    ]
    if seat is not None:
        lines.append(f"as seat {seat} sees it" + (f": {board.note}" if board.note else ""))
    elif hides_anything(rules, step.state, seats):
        lines.append("shows everything, every seat's hidden cards included; --seat SEAT shows what one seat sees")
    for panel in board.panels:
        lines.append(f"{panel.title}: " + ", ".join(f"{k} {v}" for k, v in panel.rows))
    for piece in board.pieces:
        health = f" {piece.health[0]}/{piece.health[1]}" if piece.health else ""
        badges = f" [{', '.join(piece.badges)}]" if piece.badges else ""
        lines.append(f"  {piece.label:<10} {piece.side or '-':<5} at {space_name(board.geometry, piece.x, piece.y)}{health}{badges}")
    if said:
        lines.append("events:")
        lines += [f"  {n}. {said[n]}" for n in range(max(seq - RECENT + 1, 1), seq + 1)]
    lines += [violation_line(v) for v in step.violations]
    return "\n".join(lines)


def raw_event_line(line: dict[str, Any]) -> str:
    """A log line read without its game: `3. HeroMoved: by red · hero drexir`."""
    shown = [f"by {line['by']}"] if line.get("by") else []
    shown += [f"{name} {label(value)}" for name, value in line.items() if name not in ENVELOPE and name != "type" and value is not None]
    return f"{line.get('seq')}. {line.get('type')}: {' · '.join(shown)}"


def audit_text(match_id: str, report: AuditReport, notes: int | None = None) -> str:
    """The audit as a designer reads it; `notes` is how many designer notes the match has."""
    lines = [f"audit of {match_id} under {report.rules}: {report.events} events"]
    lines += [violation_line(v) for v in report.violations]
    if cited := {v.rule: report.passages[v.rule] for v in report.violations if v.rule in report.passages}:
        lines.append("where the rules text says it:")
        lines += [f"  {rule}  {passage}" for rule, passage in cited.items()]
    lines.append(report.tally.text() + ("" if notes is None else f"; {notes} designer note{'' if notes == 1 else 's'}"))
    lines.append(("result OK: " if report.result.agrees else "result WRONG: ") + report.result.message)
    return "\n".join(lines)


def comparison_text(match_id: str, c: Comparison) -> str:
    """Where two versions first disagree and how the outcome changes."""
    lines = [f"{match_id}: {c.a} vs {c.b} over {c.events} events"]
    if c.first is None:
        lines.append("the two versions agree on every event")
    else:
        d = c.first
        lines.append(f"first disagreement at seq {d.seq} ({d.event_type}):")
        changed = lambda v: "  (changed between the versions)" if v.rule in c.changed else ""  # noqa: E731
        lines += [f"  only under {c.a}: {v.rule}  {v.message}{changed(v)}" for v in d.only_a]
        lines += [f"  only under {c.b}: {v.rule}  {v.message}{changed(v)}" for v in d.only_b]
        lines += [f"  {name}: {a:g} under {c.a}, {b:g} under {c.b}" for name, (a, b) in d.metrics.items()]
        if d.outcomes:
            lines.append(f"  under {c.a}: {d.outcomes[0]}; under {c.b}: {d.outcomes[1]}")
    lines += [f"under {spec}: {counted.text()}" for spec, counted in ((c.a, c.tally_a), (c.b, c.tally_b))]
    for spec, outcome in ((c.a, c.outcome_a), (c.b, c.outcome_b)):
        lines.append(f"outcome under {spec}: " + (f"{outcome.winner or 'draw'} ({outcome.reason})" if outcome else "game not over"))
    if c.ends_differ:
        for spec, end in ((c.a, c.end_a), (c.b, c.end_b)):
            lines.append(f"under {spec} the game " + (f"ends at seq {end.seq} (turn {end.turn}): {end.why}" if end else "does not end"))
    if c.changed:
        lines.append(f"rules changed between the versions: {', '.join(c.changed)}")
    same = "the outcome is the same" + (", but the game ends at a different event" if c.ends_differ else "")
    lines.append("the outcome changes" if c.outcome_changes else same)
    return "\n".join(lines)


def _distinct(columns: list[str]) -> list[str]:
    """Column names made unique for JSON keys (`n`, `n_2`, ...): a key is never dropped."""
    seen: dict[str, int] = {}
    names = []
    for column in columns:
        seen[column] = seen.get(column, 0) + 1
        name = column if seen[column] == 1 else f"{column}_{seen[column]}"
        while name in columns and seen[column] > 1:
            name += "_"
        names.append(name)
    return names


def _json_value(value: Any) -> Any:
    """NaN and infinities have no JSON form: they are written as null."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def table(columns: list[str], rows: list[tuple[Any, ...]], fmt: str) -> None:
    """Print a query result as an aligned table, CSV or JSON."""
    if fmt == "json":
        names = _distinct(columns)
        records = [{name: _json_value(value) for name, value in zip(names, row, strict=True)} for row in rows]
        click.echo(json.dumps(records, indent=2, default=str, allow_nan=False))
        return
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(columns)
        writer.writerows(rows)
        click.echo(out.getvalue(), nl=False)
        return
    cells = [[("" if v is None else str(v)) for v in row] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
    click.echo("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)))
    for row in cells:
        click.echo("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)))
    click.echo(f"({len(rows)} rows)")
