"""What Frontier's terrain set-up costs the Record page per position, against play.

At each set-up position the page asks for the legal events (every standard piece at every
sample point, every piece on the table moved to every sample point), the ones the rules
refuse, and groups them by taps (`projections.record.taps`). This times that for the set-up
positions of a seeded bot game and for its first decisions in play, in the same run, and
reports the ratio.

    python -m benchmarks.terrain_taps          # into BENCHMARKS.md
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from benchmarks.sections import write_section
from events.shared import MatchEnded
from projections.corpus.simulate import play
from projections.read.replay import replay
from projections.record.taps import tap_map
from rulesets import registry

SEED = 2
ROUNDS = 3


def _cost(rules: Any, state: Any) -> float:
    """Milliseconds for one position's tap map, as the page builds it (the refused events are
    placed only once a tap lands where nothing legal is made)."""
    began = time.perf_counter()
    legal = list(rules.ruleset.legal(rules.params, state))
    tap_map(rules, state, legal).board_data()
    return (time.perf_counter() - began) * 1000


def main() -> None:
    """Time both kinds of position `ROUNDS` times (the first round cold) and write the section."""
    rules = registry.resolve("frontier")
    ruleset = rules.ruleset
    events = play(rules, ruleset.example_seats, seed=SEED, max_events=400)
    if isinstance(events[-1], MatchEnded):
        events = events[:-1]
    states = [s.state for s in replay(events, rules, audit=False)]
    terrain = [s for s in states if s.stage == "terrain"]
    played = [s for s in states if s.stage == "play" and ruleset.chance(rules.params, s) is None][:60]
    cold = [_cost(rules, s) for s in terrain]
    warm: list[float] = []
    base: list[float] = []
    for _ in range(ROUNDS):
        warm += [_cost(rules, s) for s in terrain]
        base += [_cost(rules, s) for s in played]
    load = os.getloadavg()[0]
    text = "\n".join([
        "## Frontier's terrain set-up on the Record page", "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.terrain_taps` (load average "
        f"{load:.2f}): one position's legal events, refused events and tap map, as the Record page builds them, over the "
        f"{len(terrain)} set-up positions of the heuristic bot game of seed {SEED} (the empty table to all 13 pieces) against "
        f"its first {len(played)} decisions in play, {ROUNDS} rounds.", "",
        f"- set-up, first time a position is asked: median {statistics.median(cold):.0f} ms, max {max(cold):.0f} ms",
        f"- set-up, asked again (the page asks for legal, refused and what is forced): median {statistics.median(warm):.0f} ms, "
        f"max {max(warm):.0f} ms",
        f"- in play (baseline, same run): median {statistics.median(base):.1f} ms, max {max(base):.0f} ms",
        f"- ratio set-up / play at the median: {statistics.median(cold) / statistics.median(base):.0f}x cold, "
        f"{statistics.median(warm) / statistics.median(base):.0f}x asked again: about 800 sampled placements and "
        "moves a position, each checked for overlap, against a few dozen actions in play",
    ])
    print(text)
    write_section("terrain-taps", text)


if __name__ == "__main__":
    main()
