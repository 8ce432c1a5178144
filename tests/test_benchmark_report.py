"""BENCHMARKS.md's speed section is rewritten in parts (`--bots-only` rewrites the bot
table and its reading): a rewrite replaces what it owns and nothing else."""

from __future__ import annotations

from benchmarks.speed import (
    BOT_READING,
    replace_bot_reading,
    replace_frontier_table,
    with_frontier_table,
)

SECTION = """### Reading the figures

- Same logs: every bot game above gives, seed for seed, the log the baseline commit gives.
- Bot games are timed as an older run wrote.
- Bot games: an older reading,
  over two lines.
- Sync: in CPU against one core's audited replay.
- Re-audit: workers return counts only.
"""


def test_the_bot_reading_replaces_every_older_bot_bullet_once_and_keeps_the_rest() -> None:
    rewritten = replace_bot_reading(SECTION)
    assert "older" not in rewritten
    assert rewritten.count(BOT_READING[0]) == 1
    assert rewritten.startswith("### Reading the figures\n\n- Same logs: every bot game")
    assert rewritten.endswith("- Sync: in CPU against one core's audited replay.\n- Re-audit: workers return counts only.\n")
    assert replace_bot_reading(rewritten) == rewritten


SPEED = """### Audited replay of the same bot logs

| game | events |

### Frontier's audited replay against the `eventsourcing` library (target: at least 2x)

An older table.

| code | ratio |

An older reading.

### Corpus work on every core (300 heuristic MortalGate games)

| figure | events |
"""


def test_frontier_against_eventsourcing_replaces_its_own_table_and_reading_and_nothing_else() -> None:
    table = ["### Frontier's audited replay against the `eventsourcing` library (target: at least 2x)", "", "A newer table."]
    rewritten = replace_frontier_table(SPEED, table, "A newer reading.\n")
    assert "older" not in rewritten
    assert rewritten.startswith("### Audited replay of the same bot logs\n\n| game | events |\n\n### Frontier's")
    assert "A newer table.\n\nA newer reading.\n\n### Corpus work on every core" in rewritten
    assert rewritten.endswith("| figure | events |\n")
    assert replace_frontier_table(rewritten, table, "A newer reading.\n") == rewritten


def test_a_full_speed_run_keeps_frontiers_table_against_eventsourcing() -> None:
    written = "## Speed\n\n### Audited replay of the same bot logs\n\n| game | events |\n\n### Corpus work on every core\n\n| new |\n"
    kept = with_frontier_table(written, SPEED)
    assert "An older table.\n\n| code | ratio |\n\nAn older reading.\n\n### Corpus work on every core\n\n| new |\n" in kept
    assert kept.startswith("## Speed\n\n### Audited replay of the same bot logs\n\n| game | events |\n\n### Frontier's")
    assert with_frontier_table(written, "# Benchmarks\n") == written
