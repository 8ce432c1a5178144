"""A ready demo store: bot-played matches of every game and version, for a first look."""

from __future__ import annotations

import msgspec

from projections.simulate import play
from projections.workspace import Workspace
from rulesets import registry


def save_events(ws: Workspace, events: list) -> str:
    """Store a complete log (e.g. a simulated game) through the checked import path."""
    data = b"".join(msgspec.json.encode(event) + b"\n" for event in events)
    return ws.import_log(data, where=events[0].match_id).match_id


def ensure_demo(ws: Workspace, *, games_per_version: int = 2) -> list[str]:
    """Fill an empty store with seeded bot games of every version; a filled store is left alone."""
    if ws.matches():
        return []
    made = []
    for name in registry.GAMES:
        ruleset = registry.game(name)
        for version in ruleset.versions:
            rules = registry.resolve(f"{name}@{version}")
            for seed in range(1, games_per_version + 1):
                events = play(rules, ruleset.example_seats, seed=seed, bot="heuristic",
                              match_id=f"demo-{name}-{version.replace('.', '_')}-{seed}")
                made.append(save_events(ws, events))
    return made
