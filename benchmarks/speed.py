"""Where designers wait: bot games per core, Frontier's audited replay, and
corpus work (sync, re-audit) on every core, each against a baseline of the same run.

    python -m benchmarks.speed                 # the figures for BENCHMARKS.md
    python -m benchmarks.speed --quick         # fewer games (writes .bench/BENCHMARKS-speed.md)
    python -m benchmarks.speed --bots-only     # the bot games table alone, replaced in place
    python -m benchmarks.speed --bots-only --game frontline   # one game's bots, printed only
    python -m benchmarks.speed --sync-only     # corpus work and sync before/after alone, printed (BENCHMARKS.md untouched)
    python -m benchmarks.speed --frontier-only --baseline REV   # Frontier against eventsourcing, before and now, its table replaced

Bot games and Frontier's replay are measured twice in the same run: by this code and by
the baseline commit (`--baseline`, `283b883` unless told, extracted with `git archive` into
.bench/, run in its own process on the same seeds). Each pair is timed in CPU seconds
of its process, so the ratio holds on a machine shared with other work. Both must give
the same logs, byte for byte (the rules fingerprint in line 0 aside: it hashes the code).
Corpus work is timed in wall seconds, since it spans processes; its baseline is one
core's audited replay of the same corpus, measured in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import msgspec

if TYPE_CHECKING:
    from projections.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / ".bench"
REPORT = ROOT / "BENCHMARKS.md"
BASELINE = "283b883"
"""The baseline commit: the code before any of the techniques of docs/architecture.md, "How replay
and the bots are fast" (`legal` filtered by `check`, every event made)."""
SYNC_BASELINE = "f9b011d"
"""The code before sync's per-event projection was cut down (one loop, rows column by column,
the line's own bytes as the detail): one-process sync is compared with it in the same run."""
DOCUMENTED = {("mortalgate", "random"): 0.66, ("mortalgate", "heuristic"): 6.38, ("mercenarium", "random"): 16.38,
              ("mercenarium", "heuristic"): 23.11, ("frontier", "random"): 7.07, ("frontier", "heuristic"): 5.40}
"""games/s per core in BENCHMARKS.md's Simulation section, where it has them."""
GAMES = {("mortalgate", "random"): 4, ("mercyfrontier", "random"): 4}
"""Games per bot for the slow pairs; every other pair plays `--games`."""


WARM_UP_SEED = 9
"""One untimed game per bot, on a seed no measured game uses, before the timed ones."""


@contextlib.contextmanager
def steady() -> Iterator[None]:
    """The timed games as `simulate`'s workers play a chunk: with the cycle collector paused.

    A designer's run is thousands of games, so the figure is a game's cost in a long run, not a
    process's start: an untimed warm-up game pays the one-off set-up (a table built, a map's
    walks), and the collector's full scans of the import-time objects (duckdb's, about 70 ms in
    a process's first games, a quarter of Frontier's random figure) are left out as
    `projections.corpus.batch.play_chunk` leaves them out. The clock stops before the collector is
    back: re-enabling it may start a full collection at once, whose cost is that of the whole
    process's heap (in the full run, every game's replays and caches before it: about 90 ms
    that once fell into one Mercenarium game and halved its figure), not of the game timed.
    Both codes are measured alike (this module runs in the baseline's process too)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def bots(games: int, only: str = "") -> dict[str, dict[str, object]]:
    """games/s per core and a hash of the logs, per game and bot (run in the code measured);
    `only` one game's, when named. Each bot plays a warm-up game first, and the timed games
    are `steady`."""
    from events.codec import encode_chained
    from projections.corpus.batch import game_seed
    from projections.corpus.simulate import play
    from rulesets import registry

    out: dict[str, dict[str, object]] = {}
    for name in [only] if only else registry.built_in():
        ruleset = registry.game(name)
        rules = registry.resolve(f"{name}@{ruleset.newest}")
        for bot in ruleset.bots:
            count = GAMES.get((name, bot), games)
            digest, events, cpu = hashlib.sha256(), 0, 0.0
            play(rules, ruleset.example_seats, seed=game_seed(WARM_UP_SEED, 0), bot=bot, match_id="warm-up")
            for index in range(count):
                with steady():  # timed inside: re-enabling the collector may run a full collection at once
                    started = time.process_time()
                    log = play(rules, ruleset.example_seats, seed=game_seed(1, index), bot=bot, match_id=f"bench-{index}")
                    cpu += time.process_time() - started
                events += len(log)
                log[0] = msgspec.structs.replace(log[0], fingerprint="")
                for line in encode_chained(log):
                    digest.update(line)
            out[f"{name}/{bot}"] = {"games": count, "cpu": cpu, "events": events, "logs": digest.hexdigest()[:16]}
    return out


def audited_replays(games: int) -> dict[str, dict[str, float]]:
    """Audited replay of every game's bot games (both bots, seeds 2/i), events and CPU seconds."""
    from projections.corpus.batch import game_seed
    from projections.corpus.simulate import play
    from projections.read.replay import replay
    from rulesets import registry

    out = {}
    for name in registry.built_in():
        ruleset = registry.game(name)
        rules = registry.resolve(name)
        count = GAMES.get((name, "random"), games)
        logs = [play(rules, ruleset.example_seats, seed=game_seed(2, i), bot=bot, match_id=f"r-{i}")
                for bot in ruleset.bots for i in range(count)]
        logs = [[msgspec.structs.replace(log[0], fingerprint=""), *log[1:]] for log in logs]
        started = time.process_time()
        events = sum(1 for log in logs for _ in replay(log, rules, audit=True))
        out[name] = {"events": events, "cpu": time.process_time() - started}
    return out


FRONTIER_SEEDS = 12
"""Frontier's bot games per bot replayed against the `eventsourcing` library (seeds 2/i)."""
FRONTIER_PASSES = 7
"""Timed audited replays of those games per run (after an untimed one); the least is the figure."""
ES_EVENTS, ES_REBUILDS = 50_000, 3
"""The `eventsourcing` aggregate's events, and its timed rebuilds per run (the least is the figure)."""


def frontier_against_eventsourcing() -> dict[str, object]:
    """In this process's code: Frontier's bot games replayed with the full audit (the least CPU
    of `FRONTIER_PASSES` passes after an untimed one), the `eventsourcing` library rebuilding one
    aggregate in the same process, and hashes of the logs and of every step's state and findings."""
    import rulesets
    from benchmarks.baseline import Stored
    from projections.corpus.batch import game_seed
    from projections.corpus.simulate import play
    from projections.read.replay import replay
    from rulesets import registry

    ruleset = registry.game("frontier")
    rules = registry.resolve("frontier")
    logs = [play(rules, ruleset.example_seats, seed=game_seed(2, i), bot=bot, match_id=f"r-{i}")
            for bot in ruleset.bots for i in range(FRONTIER_SEEDS)]
    logs = [[msgspec.structs.replace(log[0], fingerprint=""), *log[1:]] for log in logs]
    log_digest, step_digest = hashlib.sha256(), hashlib.sha256()
    for log in logs:
        for event in log:
            log_digest.update(msgspec.json.encode(event))
        for step in replay(log, rules, audit=True):
            step_digest.update(msgspec.json.encode((step.state, step.violations)))
    events = sum(len(log) for log in logs)
    cpu = float("inf")
    with steady():
        for _ in range(FRONTIER_PASSES):
            started = time.process_time()
            for log in logs:
                for _ in replay(log, rules, audit=True):
                    pass
            cpu = min(cpu, time.process_time() - started)
    stored = Stored(ES_EVENTS)
    stored.rebuild()
    es_cpu = float("inf")
    with steady():
        for _ in range(ES_REBUILDS):
            started = time.process_time()
            stored.rebuild()
            es_cpu = min(es_cpu, time.process_time() - started)
    return {"events": events, "cpu": cpu, "es_events": ES_EVENTS, "es_cpu": es_cpu,
            "logs": log_digest.hexdigest()[:12], "steps": step_digest.hexdigest()[:12],
            "code": str(Path(rulesets.__file__).parent.parent)}


FRONTIER_TABLE = "### Frontier's audited replay against the `eventsourcing` library"
"""The heading of the speed section's table that `--frontier-only` replaces."""
FRONTIER_READING = """
**Target not met.** What was cut: the units' index (each unit by id and its place in the tuple, the units
standing of each seat, their bodies, the points destroyed) is carried from one units tuple to the next by
`state.replace_unit`, the one changed unit put in or taken out at its place, instead of being built again from
the whole tuple after every event that changes a unit (two events in five); an action's roll reads the
roller's printed abilities once rather than asking `has` per source, passes over enemies that impose nothing
on discipline and finds the target's guards among the units standing; a turn settles without walking windows,
tests or a Nanites roll it does not have, and a roll spends the abilities only of units with some primed.
Counted in Python bytecode instructions per pass over these games (`sys.settrace` opcode events: a figure the
machine's load does not move), the audited replay went from 4.89 to 4.37 million (-11%).

Why such cuts cannot reach 2x: with the checks left out (`apply` alone, in the same fold) a pass over these
games took 38 of the 71 ms the audited pass took before (the code at `470d4c9`, one process); 2x the library's
rebuild (35,193 events/s on a quieter machine: about 70,000) is 34 ms per pass for check and apply together,
less than `apply` alone costs. The profile is flat: no function above 5% of the instructions (the shared fold
5%, the index's carry 4%, sight lines' terrain and units parts about 4% each, `find` and the memos it asks
6%), the rest tens of rule functions at 1-2% each.

One pass per event, measured: a `step(params, state, event) -> (state, problems)` in the protocol (the game's
own, else `check` then `apply`), called once per event by the audited fold, with Frontier's own step sharing
the move's unit, window and roll between its two halves, took the pass from 4.36 to 4.28 million
instructions (-2%); timed, within the noise (at load 5, apply alone 41 ms a pass, check then apply 78, the
step 73; at load 7, 54, 96 and 99). What check and apply both look up (a unit by its id, its open window,
an activation's rolls, a move's mover, the sight lines' terrain part) is already answered once per state by
the identity memos (`rulesets/memo.py`), so asking again costs a memo's call, not the work; beyond that each
does its own. The step was not kept: a second way into every game's rules for 2%. What would reach 2x takes
out the interpreter's cost per small call rather than the calls (some 64 Python calls and 1,800
instructions an event): the rules compiled (mypyc gave about 1.3x when tried on `board`, `state`,
`movement`, `rolls`, `rules`, `effects`, `abilities` and `memo`, once annotations that let an int pass for
a float are mended) or run under a JIT; or no fold at all where the audit is known, which the fold cache
already gives a stored log (`audit --all` of an unchanged store, 23x).
"""
"""What that table says: where the time went and what was cut (follows the table)."""


def frontier_table(rev: str, repeat: int, load_before: float) -> list[str]:
    """Frontier's audited replay against the `eventsourcing` rebuild, under the code of `rev` and
    under this code, each in processes of their own taking turns `repeat` times; each figure the
    least CPU of its runs. Its heading, words and table, as BENCHMARKS.md shows them."""
    runs: dict[str, list[dict[str, object]]] = {"before": [], "after": []}
    for _ in range(repeat):
        runs["before"].append(measured_in(code_tree(rev), "benchmarks.speed", "frontier_against_eventsourcing()"))
        runs["after"].append(measured_in(ROOT, "benchmarks.speed", "frontier_against_eventsourcing()"))
    best: dict[str, dict[str, float]] = {}
    for label, measured in runs.items():
        if len({(m["logs"], m["steps"]) for m in measured}) != 1:
            raise SystemExit(f"{label}: the same code gave different logs or audits in two runs")
        best[label] = {"replay": min(float(m["events"]) / float(m["cpu"]) for m in measured),  # type: ignore[arg-type]
                       "es": min(float(m["es_events"]) / float(m["es_cpu"]) for m in measured)}  # type: ignore[arg-type]
    es = max(best["before"]["es"], best["after"]["es"])
    before, after = runs["before"][0], runs["after"][0]
    same = (f"yes (logs `{after['logs']}`, states and findings `{after['steps']}`)"
            if (before["logs"], before["steps"]) == (after["logs"], after["steps"])
            else f"**no** (logs `{before['logs']}` to `{after['logs']}`, states and findings `{before['steps']}` to `{after['steps']}`)")
    old, new = best["before"]["replay"], best["after"]["replay"]
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = (load_before, os.getloadavg()[0])
    return [f"{FRONTIER_TABLE} (target: at least 2x)", "",
            f"Measured {when} by `python -m benchmarks.speed --frontier-only --baseline {rev}{f' --repeat {repeat}' if repeat != 3 else ''}` on {os.cpu_count()} cores "
            f"({'quiet' if max(load) < 1.5 else 'shared with other work'}: load average {load[0]:.2f} before, {load[1]:.2f} after).",
            f"Frontier's bot games (both bots, {FRONTIER_SEEDS} seeds each, seeds 2/i as above: {int(after['events']):,} events) replayed with the full",  # type: ignore[call-overload]
            f"audit, in CPU seconds, the least of {FRONTIER_PASSES} passes after an untimed one; the `eventsourcing` library rebuilding one",
            f"aggregate of {ES_EVENTS:,} events (`benchmarks/baseline.py`), the least of {ES_REBUILDS} rebuilds, in the same processes",
            "(the best of every run's, either code's, is the figure both are set against).",
            f"The code before (`{rev}`, extracted with `benchmarks.speed.code_tree`) and this code each ran {repeat} times in",
            "processes of their own, taking turns; each figure is the least CPU time of its runs.", "",
            "| code | audited replay, events/s (CPU) | eventsourcing rebuild, events/s (best of the run) | ratio to eventsourcing | ratio to before | same logs and audits |",
            "|---|---|---|---|---|---|",
            f"| `{rev}` (before) | {old:,.0f} | {es:,.0f} | {old / es:.2f}x | | |",
            f"| this code | {new:,.0f} | {es:,.0f} | {new / es:.2f}x | {new / old:.2f}x | {same} |"]


def with_frontier_table(section: str, text: str) -> str:
    """The speed `section` a full run wrote, with Frontier's table against `eventsourcing` as
    `text` (BENCHMARKS.md) has it, before the corpus work (a full run does not measure it)."""
    _, found, rest = text.partition(FRONTIER_TABLE)
    if not found:
        return section
    table = found + rest.partition("\n### ")[0].rstrip() + "\n\n"
    head, corpus, tail = section.partition("### Corpus work")
    return head + table + corpus + tail if corpus else section


def replace_frontier_table(text: str, table: list[str], reading: str) -> str:
    """`text` (BENCHMARKS.md) with Frontier's table against `eventsourcing` replaced, from its
    heading to the next heading; `reading` (what the figures say) follows the table."""
    head, found, rest = text.partition(FRONTIER_TABLE)
    if not found:
        raise SystemExit(f"BENCHMARKS.md has no '{FRONTIER_TABLE}' table to replace")
    _, _, tail = rest.partition("\n### ")
    return head + "\n".join(table) + "\n\n" + reading.strip() + "\n\n### " + tail


def measure_here(games: int, replay_games: int, only: str = "") -> dict[str, object]:
    """Both measurements in this process's code (and where that code was imported from);
    bot games only when `replay_games` is 0, one game's when `only` names it."""
    import rulesets

    replays = audited_replays(replay_games) if replay_games else {}
    return {"bots": bots(games, only), "replays": replays, "code": str(Path(rulesets.__file__).parent.parent)}


def measure_baseline(rev: str, games: int, replay_games: int, only: str = "") -> dict[str, object]:
    """The same measurements under the code of `rev`, in a process of its own."""
    return measured_in(code_tree(rev), "benchmarks.speed", f"measure_here({games}, {replay_games}, {only!r})")


def best_of(runs: list[dict[str, object]]) -> dict[str, object]:
    """Several measurements of one code as one: each figure's least CPU time (what the code
    costs when the machine lets it run; a shared machine only ever adds), the logs' hashes
    checked equal between runs."""
    first = runs[0]
    bots_: dict[str, dict[str, object]] = {k: dict(v) for k, v in first["bots"].items()}  # type: ignore[attr-defined]
    replays: dict[str, dict[str, float]] = {k: dict(v) for k, v in first["replays"].items()}  # type: ignore[attr-defined]
    for run in runs[1:]:
        for key, figure in run["bots"].items():  # type: ignore[attr-defined]
            if figure["logs"] != bots_[key]["logs"]:
                raise SystemExit(f"{key}: the same code gave different logs in two runs")
            bots_[key]["cpu"] = min(bots_[key]["cpu"], figure["cpu"])
        for key, figure in run["replays"].items():  # type: ignore[attr-defined]
            replays[key]["cpu"] = min(replays[key]["cpu"], figure["cpu"])
    return {**first, "bots": bots_, "replays": replays, "runs": len(runs)}


def alternating(rev: str, games: int, replay_games: int, repeat: int, only: str = "") -> tuple[dict[str, object], dict[str, object]]:
    """The baseline's and this code's measurements, each in processes of its own, taking turns
    `repeat` times, so a burst of other work on the machine slows both alike; the best of each."""
    base, here = [], []
    for _ in range(repeat):
        base.append(measure_baseline(rev, games, replay_games, only))
        here.append(measured_in(ROOT, "benchmarks.speed", f"measure_here({games}, {replay_games}, {only!r})"))
    return best_of(base), best_of(here)


def code_tree(rev: str) -> Path:
    """The code of commit `rev`, extracted once into .bench/ with `git archive`."""
    tree = BENCH / f"baseline-{rev.replace('~', '-')}"
    if not (tree / "rulesets").exists():
        shutil.rmtree(tree, ignore_errors=True)
        tree.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def measured_in(tree: Path, module: str, call: str) -> dict[str, object]:
    """`module.call` (a function of this checkout's benchmarks returning JSON-able figures and
    `code`, where its rules were imported from), run in a process whose code is `tree`."""
    name = call.split("(", 1)[0]
    script = (f"import json, sys; sys.path.insert(0, {str(ROOT)!r}); from {module} import {name}; "
              f"from benchmarks import layout; sys.path.remove({str(ROOT)!r}); layout.install(); "
              f"print(json.dumps({call}))")
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", script], cwd=tree, env=env, check=True, capture_output=True, text=True)
    measured: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(str(measured["code"])) != tree:
        raise SystemExit(f"the measurement ran the code in {measured['code']}, not {tree}")
    return measured


def sync_and_replay(home: str, repeats: int = 3) -> dict[str, object]:
    """CPU seconds of one core's audited replay of a store and of a one-process sync of it
    from scratch, in this process's code (`Warehouse.sync` exists in every version): each
    the least of `repeats` runs, the two alternating (a loaded machine only ever slows a run
    down, and a ratio of two runs is skewed by whichever of them was slowed)."""
    from collections import deque

    import rulesets
    from projections.warehouse.sync import Warehouse
    from projections.workspace import Workspace
    from rulesets import registry

    ws = Workspace(home)

    def from_scratch() -> None:
        for name in ("warehouse.duckdb", "warehouse.read.duckdb"):
            (Path(home) / name).unlink(missing_ok=True)
        Warehouse(ws).sync()

    from_scratch()  # warm: imports (DuckDB's Arrow bridge imports pandas), memos
    replay = sync = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        for match_id in ws.matches():
            deque(ws.replay(match_id, audit=True), maxlen=0)
        replay = min(replay, time.process_time() - started)
        started = time.process_time()
        from_scratch()
        sync = min(sync, time.process_time() - started)
    return {"replay": replay, "sync": sync, "code": str(Path(rulesets.__file__).parent.parent),
            "tables": table_digests(Path(home) / "warehouse.read.duckdb"), "rules": registry.game("mortalgate").fingerprint}


COMPARED_TABLES = ("matches", "seats", "rosters", "events", "steps", "places", "violations", "notes")
"""What two codes' syncs of one corpus must write alike (the checkpoints hold the code's own
rules fingerprint and state encoding, so they are left out)."""
NOT_COMPARED = {"events": ("detail",)}
"""Columns an older code wrote that this code no longer does: each event's line (the log holds it)."""


def table_digests(path: Path) -> dict[str, str]:
    """Rows and a hash of every compared table's sorted rows, as a sync left them (a table
    the code does not have is left out)."""
    import duckdb

    con = duckdb.connect(str(path), read_only=True)
    try:
        present = {name for (name,) in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        out = {}
        for table in COMPARED_TABLES:
            if table in present:
                names = [name for (name, *_) in con.execute(f"DESCRIBE {table}").fetchall() if name not in NOT_COMPARED.get(table, ())]
                rows = con.execute(f"SELECT {', '.join(names)} FROM {table} ORDER BY ALL").fetchall()
                out[table] = f"{len(rows)} rows, {hashlib.sha256(repr(rows).encode()).hexdigest()[:16]}"
        return out
    finally:
        con.close()


def sync_before_after(rev: str, games: int, rounds: int = 2) -> dict[str, object]:
    """One-process sync efficiency (replay CPU / sync CPU) under the code of `rev` and under
    this code, in processes of their own taking turns on one copy of the corpus; each CPU
    figure the least of every run (a loaded machine only ever slows a run down). `differs`
    names the tables both codes have and wrote differently, `only_after` those only this
    code writes."""
    home = BENCH / "speed-sync-copy"
    shutil.rmtree(home, ignore_errors=True)
    shutil.copytree(corpus(games), home, ignore=shutil.ignore_patterns("warehouse*", "cache"))  # every sync folds and checks
    least = {(label, kind): float("inf") for label in ("before", "after") for kind in ("replay", "sync")}
    tables: dict[str, dict[str, str]] = {}
    rules: dict[str, str] = {}
    for _ in range(rounds):
        for label, tree in (("before", code_tree(rev)), ("after", ROOT)):
            measured = measured_in(tree, "benchmarks.speed", f"sync_and_replay({str(home)!r})")
            for kind in ("replay", "sync"):
                least[label, kind] = min(least[label, kind], float(measured[kind]))  # type: ignore[arg-type]
            tables[label] = table_digests(home / "warehouse.read.duckdb")  # by this code: the columns both write
            rules[label] = str(measured["rules"])
    shutil.rmtree(home, ignore_errors=True)
    before, after = tables["before"], tables["after"]
    return {"before": least["before", "replay"] / least["before", "sync"],
            "after": least["after", "replay"] / least["after", "sync"],
            "differs": [table for table in before if table in after and before[table] != after[table]],
            "only_after": [table for table in after if table not in before],
            "rules": (rules["before"], rules["after"])}


def corpus(games: int) -> Path:
    """A store of heuristic MortalGate bot games, made once per rules fingerprint."""
    from projections.corpus.batch import simulate
    from projections.workspace import Workspace
    from rulesets import registry

    home = BENCH / f"speed-corpus-{registry.game('mortalgate').fingerprint}-{games}"
    if not (home / "batches").exists():
        shutil.rmtree(home, ignore_errors=True)
        simulate(Workspace(home), "mortalgate@2.5", games=games, seed=1, sync=False)
    return home


class Work(NamedTuple):
    """One corpus figure: events, wall seconds, and CPU seconds of this process and its workers."""

    name: str
    workers: int
    events: float
    wall: float
    cpu: float


def _cpu() -> float:
    """CPU seconds used so far by this process and by its finished child processes."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def corpus_work(games: int) -> list[Work]:
    """One core's audited replay, then sync and re-audit on 1 and 2 processes, each timed in
    wall seconds and in CPU seconds of every process taking part (worker pools are shut
    down, so their CPU is counted, before each figure ends)."""
    from collections import deque

    from projections.warehouse.parallel import audit_all
    from projections.warehouse.sync import Warehouse, parallel_sync
    from projections.workspace import Workspace

    home = corpus(games)
    ws = Workspace(home)
    _warm_up(ws)

    def replay_all() -> int:
        events = 0
        for match_id in ws.matches():
            steps = deque(ws.replay(match_id, audit=True), maxlen=1)
            events += steps[0].event.seq + 1
        return events

    def sync(workers: int) -> int:
        for name in ("warehouse.duckdb", "warehouse.read.duckdb"):
            (home / name).unlink(missing_ok=True)
        return parallel_sync(Warehouse(ws), workers=workers).events

    runs: list[tuple[str, int, Callable[[], int]]] = [("audited replay (read + decode + check + apply)", 1, replay_all)]
    runs += [("sync from scratch", n, lambda n=n: sync(n)) for n in (1, 2)]  # type: ignore[misc]
    runs += [("re-audit (audit --all)", n, lambda n=n: audit_all(ws, workers=n).events) for n in (1, 2)]  # type: ignore[misc]
    out = []
    for name, workers, run in runs:
        shutil.rmtree(home / "cache", ignore_errors=True)  # every figure folds and checks (benchmarks.cache measures the kept ones)
        wall, cpu = time.perf_counter(), _cpu()
        events = run()
        out.append(Work(name, workers, events, time.perf_counter() - wall, _cpu() - cpu))
    return out


def _warm_up(ws: Workspace) -> None:
    """One untimed pass first, so that no figure pays for what only the first pays: imports
    (this machine writes no bytecode caches, so an import compiles), DuckDB's Arrow bridge,
    and the geometry memos, which worker processes inherit warm when they fork."""
    from collections import deque

    from projections.warehouse.sync import _fingerprints

    _fingerprints()
    with contextlib.suppress(ImportError):
        import pandas  # noqa: F401  (DuckDB imports it on the first Arrow registration)
    for match_id in ws.matches():
        deque(ws.replay(match_id, audit=True), maxlen=0)


BOT_TABLE = "### Bot games per core"
"""The heading that opens the bot games table (what `--bots-only` replaces)."""


def bot_table(here: dict[str, object], base: dict[str, object], baseline: str, note: str = "") -> list[str]:
    """The bot games table: heading, columns and a row per game and bot."""
    lines = [f"{BOT_TABLE} (baseline: the code at `{baseline}`, same seeds, run in the same run{note})", "",
             "| game / bot | games | games/s per core | baseline games/s | ratio | BENCHMARKS.md (Simulation) | ratio to it | same logs |",
             "|---|---|---|---|---|---|---|---|"]
    mine: dict[str, dict[str, float]] = here["bots"]  # type: ignore[assignment]
    theirs: dict[str, dict[str, float]] = base["bots"]  # type: ignore[assignment]
    for key, now in mine.items():
        old = theirs[key]
        rate, old_rate = now["games"] / now["cpu"], old["games"] / old["cpu"]
        game, bot = key.split("/")
        documented = DOCUMENTED.get((game, bot))
        doc = f"{documented:.2f}" if documented else "not measured then"
        doc_ratio = f"{rate / documented:.1f}x" if documented else ""
        same = "yes" if now["logs"] == old["logs"] else f"**no** ({now['logs']} vs {old['logs']})"
        lines.append(f"| {game} / {bot} | {int(now['games'])} | {rate:.2f} ({now['events'] / now['cpu']:,.0f} events/s) | "
                     f"{old_rate:.2f} | {rate / old_rate:.1f}x | {doc} | {doc_ratio} | {same} |")
    return lines


def replace_bot_table(text: str, table: list[str]) -> str:
    """`text` (BENCHMARKS.md) with the bot games table of the speed section replaced: from its
    heading to the next heading."""
    head, found, rest = text.partition(BOT_TABLE)
    if not found:
        raise SystemExit(f"BENCHMARKS.md has no '{BOT_TABLE}' table to replace: run the whole benchmark first")
    _, _, tail = rest.partition("\n### ")
    return head + "\n".join(table) + "\n\n### " + tail


BOT_READING = [
    "- Bot games are timed as a long run plays them: each bot plays one untimed warm-up game first (a table",
    "  built, a map's walks: one-off set-up), and the timed games run with the cycle collector paused, as",
    "  `simulate`'s workers now run them (its full scans of duckdb's import-time objects were about 70 ms of a",
    "  process's first games, a quarter of Frontier's random figure). Both codes are measured alike.",
    "- Bot games: the time went where a profile of the baseline says, `legal` checking every candidate and the",
    "  heuristic bots scoring them. What was done: MortalGate, Warcraft: Frontline, Mercenarium and Mercy",
    "  Frontier build their legal moves from the rules instead of a `check` per candidate (held to `check` by",
    "  the contract suite at seeded positions and along the golden games); Mercenarium's is a lazy sequence",
    "  (`rulesets/legal.py`: counted, each event made when read, so a random bot makes the one it picks);",
    "  Frontier still samples its continuous table and filters by the rules, but a sampled move stops at the",
    "  first rule it breaks, what depends on the unit alone is asked once per decision, sight lines keep their",
    "  terrain part by their two ends, and a segment that passes a piece's bounding box by is not traced",
    "  through it; what every candidate asks of one state is answered once (keyed on the part of the state it",
    "  reads, so later states share it until that part changes: Frontline's actions other than worker moves,",
    "  Mercy Frontier's trampling walks); the play loop checks only events the rules did not offer themselves",
    "  and asks whether the game is over once per step; the heuristic bots of MortalGate and Mercenarium score",
    "  best bound first (every tie-break drawn first, so the same choices), and every heuristic works out per",
    "  decision what it reads of the board. MortalGate's and Mercenarium's `legal` hand a turn over",
    "  as a chain that keeps what its events are made from (a move's path, a step's card, space and enemy), so",
    "  the heuristics weigh them unmade and make only the event they play; Frontier's exact geometry reads",
    "  each outline's sides as flat numbers once and keeps a sight line's terrain part by where its ends stand",
    "  (the same floats), and refuses a sampled move or a declared action as a yes or no (the same tests,",
    "  no problem lists; held to `check`); Mercenarium's deals and draws are equally likely outcomes made",
    "  when read (`rulesets/outcomes.Uniform`: `simulate.draw` makes the one drawn, from the same running",
    "  totals `rng.choices` adds). Mercenarium's turn is laid out at once, a move applied with",
    "  the board's index `legal` built, and its random bot skips a turn's songs as one run (same draw);",
    "  Frontier's `legal` tests each candidate where it is made, with what a decision's mover or unit asks",
    "  asked once, and makes an event only for those the rules accept. Per-map tables for",
    "  MortalGate (walks, distances, sight as masks), its draft, placement and a turn's first decision scored",
    "  per kind; Mercenarium's heuristic weighed from a heap, its clashes read from the two touching edges and a",
    "  new hand's offerings kept, so a long run's first meetings cost little. MortalGate's `legal`",
    "  with fewer calls per decision (combat read by cell, blessings for the last altars asked), its bot's goals",
    "  as cells and its turn starts' cooldowns per tuple; Mercenarium's heuristic leaves unweighed what the",
    "  best known score rules out, its distances read from rings; Frontier's declarations tested where they are",
    "  made. What is left is spread over the whole loop",
    "  (docs/architecture.md, 'How replay and the bots are fast').",
    "  MortalGate's heuristic logs are not those of the baseline because a rules change after it (2f31b7b:",
    "  a hero slain in its own upkeep returns only at its next turn) changed those games; they equal, seed",
    "  for seed, the logs of 2f31b7b itself (checked when that change was made).",
]
"""What the bot games table says (kept apart so `--bots-only` and the full run say the same)."""


def replace_bot_reading(text: str) -> str:
    """`text` (BENCHMARKS.md) with the speed section's bullets on bot games (those between
    "Same logs" and "Sync") replaced by `BOT_READING`."""
    head, found, rest = text.partition("\n- Same logs:")
    line, _, rest = rest.partition("\n")
    _, sync, tail = rest.partition("\n- Sync:")
    if not found or not sync:
        return text
    return head + found + line + "\n" + "\n".join(BOT_READING) + sync + tail


def report(here: dict[str, object], base: dict[str, object], work: list[Work], args: argparse.Namespace,
           seconds: float, load: tuple[float, float]) -> str:
    """The section for BENCHMARKS.md."""
    lines = ["## Speed where designers wait", "",
             f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.speed"
             f"{' --quick' if args.quick else ''}` (part of `make bench-all`) in {seconds / 60:.1f} min on {os.cpu_count()} cores "
             f"({'quiet' if max(load) < 1.5 else 'shared with other work'}: load average {load[0]:.2f} before, {load[1]:.2f} after). "
             f"Every figure is a ratio to a baseline measured in the same run; the baseline and this code each ran "
             f"{args.repeat} times in processes of their own, taking turns, and each figure is the least CPU time of its runs.", "",
             *bot_table(here, base, args.baseline)]
    lines += ["", "### Audited replay of the same bot logs (both bots, seeds 2/i; Frontier's target: 5x)", "",
              "| game | events | baseline events/s (CPU) | this code | ratio |", "|---|---|---|---|---|"]
    now_replays: dict[str, dict[str, float]] = here["replays"]  # type: ignore[assignment]
    old_replays: dict[str, dict[str, float]] = base["replays"]  # type: ignore[assignment]
    for game, now in now_replays.items():
        old = old_replays[game]
        rate, old_rate = now["events"] / now["cpu"], old["events"] / old["cpu"]
        lines.append(f"| {game} | {now['events']:,.0f} | {old_rate:,.0f} | {rate:,.0f} | {rate / old_rate:.2f}x |")
    lines += ["", "Each code replays the logs its own bots play: the same logs for every game but MortalGate, whose heuristic "
              "games differ since the rules change 2f31b7b (see below), so its row compares two sets of games of about the same length."]
    lines += corpus_table(work, args)
    lines += ["", "### Reading the figures", "",
              "- Same logs: every bot game above gives, seed for seed, the log the baseline commit gives.",
              *BOT_READING,
              "- Sync: in CPU against one core's audited replay (1), it folds every event as that replay does (0.94), asks",
              "  the game where it stands, what its metrics are and where on the board the event fell after each event",
              "  (about 0.23, the game's own code), keeps the rows (0.1), makes them Arrow (0.1) and DuckDB inserts them",
              "  (0.11, no longer each line's text again: the logs hold it) with the writer's open, checkpoint and copy",
              "  (0.05): about 1.7 in all. 0.8 x 2 would need the whole sync within 1.25",
              "  replays, which the fold plus the game's own per-event answers nearly take already (docs/architecture.md,",
              "  'Sync's own cost').",
              "- Re-audit: workers return counts only; its efficiency is that of replay itself.",
              "- 16 cores and a Dask cluster, on paper: docs/architecture.md, 'Corpus work on every core'."]
    return "\n".join(lines)


def corpus_table(work: list[Work], args: argparse.Namespace) -> list[str]:
    """The corpus work table (sync and re-audit against one core's audited replay) and the
    one-process sync before and after, with whether both codes wrote the same tables."""
    lines = [
              "", f"### Corpus work on every core ({args.corpus} heuristic MortalGate games)", "",
              "Wall-clock rates on a machine shared with other work say little about what more processes give, so each figure is",
              "also timed in CPU seconds of every process taking part (the main process, the one writer, included).",
              "*Efficiency* is events per CPU-second against one core's audited replay; on idle cores a figure's rate",
              "is at most efficiency x processes x one core's replay (perfect balance assumed): the column the target reads.", "",
              "| figure | events | events/s wall (x one core's replay) | events per CPU-second | efficiency | on idle cores (x one core's replay) | target |",
              "|---|---|---|---|---|---|---|"]
    replay = work[0]
    per_cpu = replay.events / replay.cpu
    cores = 2
    for w in work:
        rate, cpu_rate = w.events / w.wall, w.events / w.cpu
        if w is replay:
            lines.append(f"| {w.name}, 1 process | {w.events:,.0f} | {rate:,.0f} | {cpu_rate:,.0f} | baseline (one core) | | |")
            continue
        idle = f"{cpu_rate / per_cpu * w.workers:.2f}x" if w.workers > 1 else f"{cpu_rate / per_cpu:.2f}x"
        target = f">= {0.8 * cores:.1f}x" if w.workers == cores else ""
        lines.append(f"| {w.name}, {w.workers} process(es) | {w.events:,.0f} | {rate:,.0f} ({rate / (replay.events / replay.wall):.2f}x) | "
                     f"{cpu_rate:,.0f} | {cpu_rate / per_cpu:.2f} | {idle} | {target} |")
    for kind in ("sync", "re-audit"):
        one, two = (next(w for w in work if w.name.startswith(kind) and w.workers == n) for n in (1, 2))
        lines.append(f"| scaling of {kind}, 1 -> 2 processes (wall) | | {one.wall / two.wall:.2f}x | | | | |")
    both = args.sync_before_after
    differs = both["differs"]
    compared = [table for table in COMPARED_TABLES if table not in both["only_after"]]
    same = ("the same tables (" + ", ".join(compared) + ")" if not differs
            else "**different tables: " + ", ".join(differs) + "**")
    if both["only_after"]:
        same += " (" + ", ".join(both["only_after"]) + ": this code's only)"
    if "places" in differs:
        same += " (this code's MortalGate reports places: where heroes fall and altars change hands)"
    if differs and both["rules"][0] != both["rules"][1]:
        same += (f" - but MortalGate's rules differ between the two codes (fingerprint {both['rules'][0]} and "
                 f"{both['rules'][1]}), so their audits may: compare with a commit of the same rules")
    lines += ["", f"One-process sync from scratch of the same corpus under the code at `{args.sync_baseline}` and under this code, "
              "taking turns in processes of their own (`sync_before_after`; efficiency = one core's audited replay CPU / "
              f"sync CPU, each code's own replay, each the least of every run): **{both['before']:.2f} before, {both['after']:.2f} now "
              f"({both['after'] / both['before']:.2f}x)**; both wrote {same}; events' `detail` (each line stored again, "
              "the log holds it) is left out of the comparison."]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare bot games and replay against")
    parser.add_argument("--bots-only", action="store_true", help="measure bot games alone and replace only their table")
    parser.add_argument("--sync-baseline", default=SYNC_BASELINE, help="commit to compare one-process sync against")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each code, taking turns; each figure is the least CPU of its runs")
    parser.add_argument("--game", default="", help="with --bots-only: one game's bots, printed, nothing written")
    parser.add_argument("--sync-only", action="store_true",
                        help="measure corpus work (sync, re-audit) and sync before/after alone; print, write nothing")
    parser.add_argument("--frontier-only", action="store_true",
                        help="measure Frontier's audited replay against the eventsourcing library alone, before "
                             "(--baseline) and now, and replace only its table")
    args = parser.parse_args()
    games = 3 if args.quick else 12
    replay_games = 4 if args.quick else 15
    args.corpus = 40 if args.quick else 300
    load0 = os.getloadavg()[0]
    started = time.perf_counter()
    if args.sync_only:
        work = corpus_work(args.corpus)
        args.sync_before_after = sync_before_after(args.sync_baseline, args.corpus)
        print(f"measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `python -m benchmarks.speed --sync-only"
              f"{' --quick' if args.quick else ''}` in {(time.perf_counter() - started) / 60:.1f} min, load average "
              f"{load0:.2f} before, {os.getloadavg()[0]:.2f} after")
        print("\n".join(corpus_table(work, args)))
        return 0
    if args.frontier_only:
        table = frontier_table(args.baseline, args.repeat, load0)
        print("\n".join(table))
        if not args.quick:
            REPORT.write_text(replace_frontier_table(REPORT.read_text(), table, FRONTIER_READING))
        return 0
    if args.bots_only:
        base, here = alternating(args.baseline, games, 0, args.repeat, args.game)
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        note = (f"; measured {when} by `python -m benchmarks.speed --bots-only`, load average "
                f"{load0:.2f} before, {os.getloadavg()[0]:.2f} after")
        table = bot_table(here, base, args.baseline, note)
        print("\n".join(table))
        if not args.quick and not args.game:
            REPORT.write_text(replace_bot_reading(replace_bot_table(REPORT.read_text(), table)))
        return 0
    base, here = alternating(args.baseline, games, replay_games, args.repeat)
    work = corpus_work(args.corpus)
    args.sync_before_after = sync_before_after(args.sync_baseline, args.corpus)
    text = report(here, base, work, args, time.perf_counter() - started, (load0, os.getloadavg()[0]))
    text = with_frontier_table(text, REPORT.read_text())
    print(text)
    from benchmarks.sections import write_section

    target = BENCH / "BENCHMARKS-speed.md" if args.quick else ROOT / "BENCHMARKS.md"
    BENCH.mkdir(exist_ok=True)
    write_section("speed", text, target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
