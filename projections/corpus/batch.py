"""Simulated playtests at scale: seeded bot games on local processes or a Dask cluster.

A batch is cut into chunks of games; each chunk is played by a worker and comes back as
encoded, hash-chained log lines. Chunks are consumed in order and streamed into one
batch folder (events/batches.py) that is renamed into place only when every game is in,
so the same seed gives byte-identical logs whatever the number or kind of workers, and a
failed batch leaves nothing behind.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from events.batches import write_batch
from events.codec import encode_chained
from events.errors import TabletapeError
from events.shared import MatchEnded
from events.store import validate_match_id
from projections.corpus.pool import ordered_map, without_cycle_collector
from projections.corpus.simulate import BotError, bot_name, game_seed, play
from projections.workspace import Workspace
from rulesets import registry

if TYPE_CHECKING:
    from projections.stats.balance import BalanceReport

Progress = Callable[[int, int], None]
"""Called as progress(games done, games in all)."""


class SimulationError(TabletapeError):
    """A batch that could not be completed; nothing of it was stored."""


class Task(msgspec.Struct, frozen=True, kw_only=True):
    """One chunk of games for one worker: everything it needs, nothing it must look up."""

    rules: registry.RulesRef
    seats: dict[str, str]
    options: dict[str, Any] = {}
    bot: str
    seeds: list[int]
    match_ids: list[str]
    max_events: int


class Played(msgspec.Struct, frozen=True, kw_only=True):
    """A chunk's result: each game's id and lines; or the log of a game a bot broke."""

    games: list[tuple[str, list[bytes]]]
    finished: int
    failure: str | None = None
    failed_log: list[bytes] = []


class BatchReport(msgspec.Struct, kw_only=True):
    """What a simulation produced."""

    batch_id: str
    spec: str
    games: int
    finished: int
    events: int
    seconds: float
    workers: str
    match_ids: list[str]

    def summary(self) -> str:
        """One line for the command line."""
        rate = self.games / self.seconds if self.seconds else 0.0
        return (f"{self.batch_id}: {self.games} games of {self.spec} ({self.finished} finished), {self.events} events, "
                f"{self.seconds:.1f} s on {self.workers} ({rate:.1f} games/s)")


@without_cycle_collector
def play_chunk(task: Task) -> Played:
    """Play a chunk of games (runs in a worker process); stop at a bot's illegal event. The
    cycle collector is paused as for audits and sync: a game's states are freed by reference
    counting, and each full scan would walk every object the imports left (duckdb's most)."""
    rules = task.rules.rules()
    games: list[tuple[str, list[bytes]]] = []
    finished = 0
    for seed, match_id in zip(task.seeds, task.match_ids, strict=True):
        try:
            events = play(rules, task.seats, seed=seed, bot=task.bot, match_id=match_id, options=task.options,
                          max_events=task.max_events)
        except BotError as error:
            return Played(games=games, finished=finished, failure=f"{match_id}: {error}", failed_log=encode_chained(error.events))
        finished += isinstance(events[-1], MatchEnded)
        games.append((match_id, encode_chained(events)))
    return Played(games=games, finished=finished)


def _tasks(rules: registry.Rules, seats: dict[str, str], options: dict[str, Any], bot: str, games: int, seed: int,
           batch_id: str, chunk: int, max_events: int) -> list[Task]:
    return [
        Task(rules=registry.RulesRef.of(rules), seats=seats,
             options=options, bot=bot,
             seeds=[game_seed(seed, i) for i in range(start, min(start + chunk, games))],
             match_ids=[f"{batch_id}-{i:06d}" for i in range(start, min(start + chunk, games))], max_events=max_events)
        for start in range(0, games, chunk)
    ]


def simulate(
    ws: Workspace,
    spec: str,
    *,
    games: int,
    seed: int,
    bot: str | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    options: dict[str, Any] | None = None,
    max_events: int = 20_000,
    sync: bool = True,
) -> BatchReport:
    """Play `games` seeded bot games of `spec` and land them in the store (and warehouse);
    `bot` None: the game's default bot."""
    rules = ws.rules(spec)
    try:
        bot = bot_name(rules.ruleset, bot)
    except TabletapeError as error:
        raise SimulationError(str(error)) from None
    if games < 1:
        raise SimulationError("--games must be at least 1")
    workers = workers or os.cpu_count() or 1
    options = dict(options or {})
    suffix = "".join(f"-{value}" for _, value in sorted(options.items()) if isinstance(value, (str, int)))
    batch_id = validate_match_id(f"sim-{rules.ruleset.name}-{rules.version}{suffix}-{bot}-s{seed}-n{games}")
    existing = next((m for m in ws.store.batches.manifests() if m.batch_id == batch_id), None)
    if existing is not None:  # the same seed plays the same games: reuse them
        if progress is not None:
            progress(games, games)
        return BatchReport(batch_id=batch_id, spec=rules.spec, games=games, finished=int(existing.info.get("finished", 0)),  # type: ignore[call-overload]
                           events=sum(e.lines for e in existing.matches), seconds=0.0, workers="(already simulated)",
                           match_ids=[e.match_id for e in existing.matches])
    chunk = max(1, min(100, games // (workers * 4) or 1))
    tasks = _tasks(rules, dict(rules.ruleset.example_seats), options, bot, games, seed, batch_id, chunk, max_events)
    started = time.perf_counter()
    chunks = ordered_map(play_chunk, tasks, workers=workers, scheduler=scheduler, error=SimulationError, work="batch",
                         lost="nothing was stored")
    tally = {"done": 0, "finished": 0, "events": 0}
    info: dict[str, object] = {"spec": rules.spec, "seed": seed, "bot": bot, "games": games, "options": options,
                               "fingerprint": rules.ruleset.fingerprint}
    write_batch(ws.home, batch_id, _collect(ws.home, chunks, tally, games, progress), info, finalize=lambda i: i | {"finished": tally["finished"]})
    report = BatchReport(batch_id=batch_id, spec=rules.spec, games=games, finished=tally["finished"], events=tally["events"],
                         seconds=time.perf_counter() - started, workers=f"dask {scheduler}" if scheduler else f"{workers} local process(es)",
                         match_ids=[m for task in tasks for m in task.match_ids])
    if sync:
        from projections.warehouse.sync import Warehouse, parallel_sync

        parallel_sync(Warehouse(ws), workers=workers)  # on this machine's cores: a cluster may not see the store
    return report


def _collect(home: Path, chunks: Iterable[Played], tally: dict[str, int], games: int, progress: Progress | None) -> Iterator[tuple[str, list[bytes]]]:
    """Stream the games of each chunk in order, stopping the batch at a bot's illegal event."""
    for played in chunks:
        if played.failure is not None:
            failed = home / "failed"
            failed.mkdir(parents=True, exist_ok=True)
            path = failed / f"{played.failure.split(':', 1)[0]}.jsonl"
            path.write_bytes(b"".join(line + b"\n" for line in played.failed_log))
            raise SimulationError(f"a bot played an illegal event, a bug: {played.failure}; its game is in {path}; nothing else was stored")
        for game in played.games:
            tally["events"] += len(game[1])
            yield game
        tally["done"] += len(played.games)
        tally["finished"] += played.finished
        if progress is not None:
            progress(tally["done"], games)


def compare_versions(
    ws: Workspace,
    a: str,
    b: str,
    *,
    games: int,
    seed: int,
    bot: str | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    detect: float = 0.05,
    chances: int = 0,
    chance_rollouts: int = 50,
) -> BalanceReport:
    """Simulate both versions from the same seeds with the same bots (paired games) and give
    every balance verdict for exactly those games (`detect`: the change in a rate the
    games-needed advice is about). With `chances`, the first that many games of each
    version also get their win chances (`chance_rollouts` games played on from each turn
    start), and two more verdicts: how early games are decided, how often the likely
    winner changes."""
    from projections.stats.balance import (  # statistics: only for a comparison
        check_detect,
        compare_cohorts,
    )
    from projections.warehouse.sync import Warehouse, parallel_sync

    rules_a, rules_b = ws.rules(a), ws.rules(b)
    if rules_a.ruleset.name != rules_b.ruleset.name:
        raise SimulationError(f"{a} and {b} are different games")
    check_detect(detect)
    reports = simulate_pair(ws, (a, b), games=games, seed=seed, bot=bot, workers=workers, scheduler=scheduler,
                            progress=progress)
    parallel_sync(Warehouse(ws), workers=workers)
    report = compare_cohorts(ws, a, b, kind="bots", batches=((reports[0].batch_id,), (reports[1].batch_id,)),
                             stored=stored_where(ws, reports), detect=detect)
    if chances < 1:
        return report
    from dataclasses import replace

    from projections.corpus.chances import chance_verdicts
    from projections.stats.verdicts import holm

    found = chance_verdicts(ws, reports[0].match_ids[:chances], reports[1].match_ids[:chances], paired=True,
                            rollouts=chance_rollouts, bot=bot, seed=seed, workers=workers, scheduler=scheduler, detect=detect)
    return replace(report, verdicts=holm([*report.verdicts, *found]))


def simulate_pair(ws: Workspace, specs: tuple[str, str], *, games: int, seed: int, bot: str | None, workers: int | None,
                  scheduler: str | None, progress: Progress | None, done: int = 0, total: int | None = None) -> list[BatchReport]:
    """One batch of each spec from the same seed (game i of both plays from the same seed);
    progress counts both, starting at `done` of `total`."""
    total = total or 2 * games
    reports = []
    for offset, spec in enumerate(specs):
        step = (lambda n, _, o=offset: progress(done + o * games + n, total)) if progress else None
        reports.append(simulate(ws, spec, games=games, seed=seed, bot=bot, workers=workers, scheduler=scheduler,
                                progress=step, sync=False))
    return reports


def stored_where(ws: Workspace, reports: Iterable[BatchReport]) -> str:
    """Where simulated games were stored, in one line."""
    found = list(reports)
    return (f"{sum(r.games for r in found)} games stored in {ws.home / 'batches'} "
            f"(batches {', '.join(r.batch_id for r in found)}; they stay in the store, Matches lists them)")
