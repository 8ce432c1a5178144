"""BENCHMARKS.md's speed section is rewritten in parts (`--bots-only` rewrites the bot
table and its reading): a rewrite replaces what it owns and nothing else."""

from __future__ import annotations

from benchmarks.speed import BOT_READING, replace_bot_reading

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
