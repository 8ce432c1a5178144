"""The report: one table of figures, each with its same-run baseline, target and result.

The same table goes to stdout and to BENCHMARKS.md, so what a person saw scroll by is what
was committed. BENCHMARKS.md is shared with the other benchmark runs (warehouse,
simulation): this run owns its marked section only (`benchmarks.sections`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One row: what was measured, its value, and how it compares."""

    name: str
    value: str
    ratio: str = ""
    """Against a baseline measured in the same run, e.g. `0.06x A, 2.5x B`."""
    target: str = ""
    passed: bool | None = None
    """None when the figure has no target (a baseline, a contrast)."""

    @property
    def result(self) -> str:
        """`pass`, `FAIL` or empty."""
        return "" if self.passed is None else ("pass" if self.passed else "FAIL")


def table(figures: Sequence[Figure]) -> str:
    """A Markdown table (readable as plain text too)."""
    rows = [("figure", "value", "ratio (same run)", "target", "result")]
    rows += [(f.name, f.value, f.ratio, f.target, f.result) for f in figures]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = ["| " + " | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) + " |" for row in rows]
    lines.insert(1, "|" + "|".join("-" * (width + 2) for width in widths) + "|")
    return "\n".join(lines)


def document(*, title: str, heading: Sequence[str], figures: Sequence[Figure], sections: Sequence[tuple[str, str]]) -> str:
    """One section of BENCHMARKS.md: its title, heading lines, the table, then titled notes."""
    parts = [f"## {title}", "", *heading, "", table(figures), ""]
    for name, body in sections:
        parts += [f"### {name}", "", body.strip(), ""]
    return "\n".join(parts)


def rate(value: float) -> str:
    """Events per second, grouped: `123,456 events/s`."""
    return f"{value:,.0f} events/s"


def ms(seconds: float) -> str:
    """Milliseconds with three significant-ish digits."""
    value = seconds * 1000
    return f"{value:.3f} ms" if value < 1 else f"{value:.2f} ms" if value < 100 else f"{value:,.0f} ms"


def mb(size: float) -> str:
    """Bytes as MB (10^6)."""
    return f"{size / 1e6:.2f} MB"


def times(value: float) -> str:
    """A ratio: `12.3x`."""
    return f"{value:.2f}x" if value < 10 else f"{value:.1f}x"
