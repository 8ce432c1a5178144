"""The benchmark corpus: bot-played MortalGate logs in a real store, made once and cached.

Bot play runs at roughly a thousand events a second per core, so a million events take
minutes. The logs depend only on the rules code (its fingerprint), the sizes asked for and
this generator, so they are kept under `.bench/` keyed by all three and made again when
any of them changes; a stale corpus of other rules is deleted.

Two kinds of log, both under the designer variant `bench-long` (Grace never decides):

- the corpus: heuristic-vs-heuristic games, seeds 1, 2, 3 ... until it holds the events
  asked for (the last game is cut there). These bots capture altars, so their games end
  by "all 8 altars" after hundreds to a few thousand events whatever the Grace threshold:
  the corpus is many realistic games, not a few long ones.
- the long log: one game of random bots that never make a move that would end it
  (`LONG_BOT`), seeds 0, 1, 2 ..., the first still going after `long` events, cut there.
  Plain random bots do end their games by holding all altars, tens of thousands of events
  in, so whether any seed lasted `long` events was luck of the rules of the day; these bots
  play the plain random game, draw for draw, up to the move that would end it and then
  choose another, so every event is still legal and the game lasts as long as asked. Only
  the dice can still end it (a wipe); such seeds are skipped and recorded, and after
  `LONG_SEEDS` of them the run stops with one line saying so. Its prefixes (10k, 100k, the
  whole) are stored as their own matches for `state_at` and for the memory of a streaming
  replay.

Every log goes in through `Workspace.import_log`, so it is validated and hash-chained
exactly like a user's import, and the store can be opened by the `tabletape` command.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import random
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from events.base import Event
from events.codec import read_header
from events.shared import MatchEnded
from projections.corpus.simulate import play
from projections.workspace import Workspace
from rulesets import registry
from rulesets.registry import Rules

ROOT = Path(__file__).resolve().parent.parent / ".bench"
"""Scratch space of the benchmarks (gitignored): corpora, append files, profiles."""
GAME = "mortalgate"
VARIANT = "bench-long"
VARIANT_TOML = """\
extends = "mortalgate@2.5"
title = "Benchmark: Grace never decides"
notes = "Grace to win so high that games end only by the altars or a wipe (benchmarks/corpus.py)."

[params]
grace_to_win = 100000
"""
GENERATOR = 3
"""Bump when the way logs are generated changes, so cached corpora are made again."""
MAX_GAME_EVENTS = 200_000
"""Cap on one heuristic game (none comes near it; it only bounds a runaway)."""
LONG_SEEDS = 64
"""Seeds tried for the long log before giving up (only a wipe by the dice ends one early)."""
LONG_BOT = "random-unending"
"""The long log's bot: the game's random bot, but never a move that would end the game."""
PREFIXES = (10_000, 100_000)
"""Lengths of the long log stored as their own matches, besides the whole of it."""

Progress = Callable[[str], None]


class CorpusError(Exception):
    """The corpus cannot be made as asked: one line saying why."""


class LongTry(msgspec.Struct, frozen=True, array_like=True):
    """A random-bot seed tried for the long log: how long its game ran and how it ended."""

    seed: int
    events: int
    ended: str


class Manifest(msgspec.Struct, frozen=True, kw_only=True):
    """What a cached corpus holds; written last, so its presence means the corpus is whole."""

    fingerprint: str
    generator: int
    events: int
    games: list[str]
    """Match ids of the corpus games, in seed order."""
    endings: dict[str, int]
    """How the corpus games ended (reason -> games); `unfinished` for the one cut short."""
    mix: dict[str, int]
    """Event type -> count over the corpus."""
    long_seed: int
    long_events: int
    long_mix: dict[str, int]
    """Event type -> count over the long log."""
    long_tried: list[LongTry]
    """Seeds whose game ended before `long_events` (skipped), then the one used."""
    prefixes: dict[int, str]
    """Length -> match id of that prefix of the long log (the longest is the whole)."""
    seconds: float
    """Wall time generation took (2 processes)."""
    made: str


@dataclass(frozen=True)
class Corpus:
    """An opened corpus: its store, the rules every log in it was recorded under."""

    home: Path
    manifest: Manifest
    workspace: Workspace
    rules: Rules


def corpus_home(events: int, long: int) -> Path:
    """Where the corpus for the current rules code and these sizes is cached."""
    fingerprint = registry.game(GAME).fingerprint
    return ROOT / f"corpus-{fingerprint}-{events}-{long}-g{GENERATOR}"


def ensure(events: int, long: int, *, say: Progress = print) -> Corpus:
    """The cached corpus, generating it first if the rules or sizes changed."""
    home = corpus_home(events, long)
    manifest_path = home / "corpus.json"
    if not manifest_path.is_file():
        _drop_stale(registry.game(GAME).fingerprint, say)
        _generate(home, events, long, say)
    manifest = msgspec.json.decode(manifest_path.read_bytes(), type=Manifest)
    workspace = Workspace(home)
    return Corpus(home=home, manifest=manifest, workspace=workspace, rules=workspace.rules(f"{GAME}@{VARIANT}"))


def _drop_stale(fingerprint: str, say: Progress) -> None:
    """Delete corpora of other rules code: they can never be used again (about 150 MB each)."""
    if not ROOT.is_dir():
        return
    for old in ROOT.glob("corpus-*"):
        if old.is_dir() and not old.name.startswith(f"corpus-{fingerprint}-"):
            say(f"corpus: removing {old.name} (made under other rules)")
            shutil.rmtree(old)


def _generate(home: Path, events: int, long: int, say: Progress) -> None:
    """Play and import every log into a temp folder, then rename it into place."""
    began = time.perf_counter()
    partial = home.with_name(f".{home.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    (partial / "variants").mkdir(parents=True)
    (partial / "variants" / f"{VARIANT}.toml").write_text(VARIANT_TOML, encoding="utf-8")
    workspace = Workspace(partial)
    say(f"corpus: generating {events:,} events of heuristic-bot games and a {long:,}-event random-bot log "
        f"in {partial} (2 processes; cached for later runs)")
    context = multiprocessing.get_context("fork")
    with context.Pool(2, initializer=_init_worker, initargs=(str(partial),)) as pool:  # exit terminates the rest
        games, endings, mix = _corpus_games(pool, workspace, events, say)
    with context.Pool(2, initializer=_init_worker, initargs=(str(partial),)) as pool:
        tried, data = _long_log(pool, long, say)
    prefixes = _store_prefixes(workspace, data, long)
    type_of = msgspec.json.Decoder(_Type)
    long_mix = Counter(type_of.decode(line).type for line in data.split(b"\n"))
    manifest = Manifest(
        fingerprint=registry.game(GAME).fingerprint, generator=GENERATOR, events=events, games=games,
        endings=dict(endings.most_common()), mix=dict(mix.most_common()), long_seed=tried[-1].seed,
        long_events=long, long_mix=dict(long_mix.most_common()), long_tried=tried, prefixes=prefixes, seconds=round(time.perf_counter() - began, 1),
        made=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    (partial / "corpus.json").write_bytes(msgspec.json.format(msgspec.json.encode(manifest)))
    partial.rename(home)
    say(f"corpus: done in {manifest.seconds:.0f} s -> {home}")


_RULES: Rules | None = None


def _init_worker(home: str) -> None:
    """Resolve the variant once per worker process."""
    global _RULES
    _RULES = with_unending_bot(registry.resolve(f"{GAME}@{VARIANT}", Path(home)))


def with_unending_bot(rules: Rules) -> Rules:
    """The same rules with one more bot, `LONG_BOT`: the game's random bot, except that when
    its pick would end the game it picks at random among the events that do not (the pick
    stands if every event ends it). Until then it draws exactly what the random bot draws,
    so its game is the random bot's game up to the move that would have ended it; every
    event it makes is one `legal` offered, so the log is as legal as any bot game."""
    ruleset = rules.ruleset
    pick, apply, outcome = ruleset.bots["random"], ruleset.apply, ruleset.outcome

    def unending(params: Any, state: Any, legal: Sequence[Event], rng: random.Random) -> Event:
        event = pick(params, state, legal, rng)
        if outcome(params, apply(params, state, event)) is None:
            return event
        going_on = [e for e in legal if outcome(params, apply(params, state, e)) is None]
        return going_on[rng.randrange(len(going_on))] if going_on else event

    bots = {**ruleset.bots, LONG_BOT: unending}
    return msgspec.structs.replace(rules, ruleset=dataclasses.replace(ruleset, bots=bots))


def _play(task: tuple[int, str, str, int]) -> tuple[int, bytes, int, str]:
    """Play one game in a worker: (seed, its log as JSON lines, events, how it ended)."""
    seed, bot, match_id, max_events = task
    assert _RULES is not None
    log = play(_RULES, _RULES.ruleset.example_seats, seed=seed, bot=bot, match_id=match_id, max_events=max_events)
    last = log[-1]
    ended = last.reason if isinstance(last, MatchEnded) else "unfinished"
    codec = _RULES.ruleset.codec
    return seed, b"\n".join(codec.encode(event) for event in log), len(log), ended


class _Type(msgspec.Struct):
    """Only a line's type: enough to count the event mix without decoding the event."""

    type: str


def _corpus_games(pool: Any, workspace: Workspace, events: int, say: Progress) -> tuple[list[str], Counter[str], Counter[str]]:
    """Heuristic games in seed order until `events`; the last one is cut to fit exactly."""
    type_of = msgspec.json.Decoder(_Type)
    tasks: Iterator[tuple[int, str, str, int]] = ((seed, "heuristic", f"bench-h{seed:06d}", MAX_GAME_EVENTS)
                                                  for seed in range(1, events // 50 + 100))
    games: list[str] = []
    endings: Counter[str] = Counter()
    mix: Counter[str] = Counter()
    total, began, shown = 0, time.perf_counter(), 0
    for seed, data, count, ended in pool.imap(_play, tasks):
        lines = data.split(b"\n")
        if total + count > events:
            lines, ended = lines[: events - total], "unfinished"
        match_id = f"bench-h{seed:06d}"
        workspace.import_log(b"\n".join(lines) + b"\n", match_id=match_id)
        games.append(match_id)
        endings[ended] += 1
        mix.update(type_of.decode(line).type for line in lines)
        total += len(lines)
        if total >= shown + events // 20 or total >= events:
            shown = total
            rate = total / (time.perf_counter() - began)
            say(f"corpus: {total:>10,} / {events:,} events, {len(games):,} games ({rate:,.0f} events/s)")
        if total >= events:
            break
    else:
        raise CorpusError(f"corpus: ran out of seeds at {total:,} events")
    return games, endings, mix


def _long_log(pool: Any, long: int, say: Progress) -> tuple[list[LongTry], bytes]:
    """The first `LONG_BOT` game (by seed) still going after `long` events, cut there."""
    tasks = ((seed, LONG_BOT, "bench-long", long) for seed in range(LONG_SEEDS))
    tried: list[LongTry] = []
    began = time.perf_counter()
    for seed, data, count, ended in pool.imap(_play, tasks):
        tried.append(LongTry(seed=seed, events=count, ended=ended))
        say(f"corpus: long log, {LONG_BOT} seed {seed}: {count:,} events, {ended} ({time.perf_counter() - began:.0f} s)")
        if ended == "unfinished" and count == long:
            return tried, data
    endings = "; ".join(f"seed {t.seed}: {t.events:,} events, {t.ended}" for t in tried)
    raise CorpusError(f"corpus: none of the first {LONG_SEEDS} {LONG_BOT} games lasts {long:,} events ({endings})")


def _store_prefixes(workspace: Workspace, data: bytes, long: int) -> dict[int, str]:
    """Store the long log and its prefixes, each as its own match (line 0 renamed)."""
    lines = data.split(b"\n")
    header = read_header(lines[0])
    codec = registry.game(GAME).codec
    prefixes: dict[int, str] = {}
    for size in sorted({*(p for p in PREFIXES if p < long), long}):
        match_id = f"bench-long-{size}"
        first = codec.encode(msgspec.structs.replace(header, match_id=match_id))
        workspace.import_log(b"\n".join([first, *lines[1:size]]) + b"\n", match_id=match_id)
        prefixes[size] = match_id
    return prefixes
