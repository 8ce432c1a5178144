"""The benchmark corpus (`benchmarks/corpus.py`) reaches the sizes it is asked for, whatever
the rules of the day make of a plain random game's length."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import corpus
from events.shared import MatchEnded
from projections.corpus.simulate import play
from projections.read.audit import audit
from rulesets import registry
from rulesets.registry import Rules

SEED = 11
"""A seed whose plain random game ends by the altars before `LONG` events."""
LONG = 6000


def bench_rules(home: Path) -> Rules:
    (home / "variants").mkdir(parents=True)
    (home / "variants" / f"{corpus.VARIANT}.toml").write_text(corpus.VARIANT_TOML, encoding="utf-8")
    return registry.resolve(f"{corpus.GAME}@{corpus.VARIANT}", home)


def test_the_long_log_bot_outlasts_a_random_game_that_ends_and_plays_it_until_then(tmp_path: Path) -> None:
    rules = bench_rules(tmp_path)
    seats = rules.ruleset.example_seats
    plain = play(rules, seats, seed=SEED, bot="random", max_events=LONG)
    assert isinstance(plain[-1], MatchEnded), "the seed must be one whose random game ends before LONG events"
    long = play(corpus.with_unending_bot(rules), seats, seed=SEED, bot=corpus.LONG_BOT, max_events=LONG)
    assert len(long) == LONG and not any(isinstance(e, MatchEnded) for e in long)
    assert long[1 : len(plain) - 2] == plain[1:-2]  # the random game, draw for draw, up to its winning move
    assert not audit(iter(long), rules).violations  # every event one the rules offered


def test_the_corpus_builder_makes_the_corpus_and_the_long_log_of_the_sizes_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus, "ROOT", tmp_path)
    made = corpus.ensure(3000, 4000, say=lambda _: None)
    store = made.workspace.store
    assert made.manifest.events == 3000
    assert sum(len(list(store.lines(match_id))) for match_id in made.manifest.games) == 3000
    assert made.manifest.prefixes == {4000: "bench-long-4000"}
    assert len(list(store.lines("bench-long-4000"))) == 4000
    assert made.manifest.long_tried[-1].ended == "unfinished"
    said: list[str] = []
    again = corpus.ensure(3000, 4000, say=said.append)
    assert said == [] and again.manifest == made.manifest  # cached: nothing is played again
