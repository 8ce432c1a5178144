"""BENCHMARKS.md is shared by several benchmark runs: each owns one marked section."""

from __future__ import annotations

from pathlib import Path

REPORT = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"


def write_section(name: str, markdown: str, path: Path = REPORT) -> None:
    """Replace (or append) the section between `<!-- begin NAME -->` and `<!-- end NAME -->`."""
    begin, end = f"<!-- begin {name} -->", f"<!-- end {name} -->"
    block = f"{begin}\n{markdown.rstrip()}\n{end}\n"
    text = path.read_text() if path.exists() else "# Benchmarks\n\n"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + block + tail.lstrip("\n")
    else:
        text = text.rstrip() + "\n\n" + block
    path.write_text(text)
