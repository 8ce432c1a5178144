"""The shipped logs the audit benchmarks replay: every game's golden logs and the demo playtests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from events.base import Event
from events.codec import decode_log, read_header
from rulesets import registry
from rulesets.registry import Rules

ROOT = Path(__file__).resolve().parent.parent
LOGS = (ROOT / "tests", "*/golden/*.jsonl"), (ROOT / "data" / "demo", "*.jsonl")
"""Where they are (designer notes files aside)."""


def read_logs() -> Iterator[tuple[str, Rules, list[Event]]]:
    """Every golden and demo log: its game, its rules version and its events."""
    for folder, pattern in LOGS:
        for path in sorted(folder.glob(pattern)):
            if path.name.endswith(".notes.jsonl"):
                continue
            lines = path.read_bytes().splitlines()
            header = read_header(lines[0], where=str(path))
            rules = registry.resolve(f"{header.ruleset}@{header.version}")
            yield header.ruleset, rules, list(decode_log(lines, rules.ruleset.codec, where=str(path)))
