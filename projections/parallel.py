"""Corpus work on every core: the warehouse sync and a store-wide re-audit.

Replay is pure, so matches are independent: chunks of matches go to worker processes
(or a Dask cluster) and come back in order. Workers only read the store; the main
process stays the one writer into DuckDB. A sync worker hands back its rows already as
Arrow tables (built on its own core), so the writer's share per row is one bulk insert.
One unreadable match is reported and skipped; it never stops the rest.
"""

from __future__ import annotations

import gc
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, NamedTuple, TypeVar

import msgspec

from events.errors import TabletapeError
from projections import pool
from projections.audit import AuditReport
from projections.pool import without_cycle_collector
from projections.workspace import Workspace
from rulesets.registry import GameMissingError

if TYPE_CHECKING:  # the sync's own: loaded by the sync, so a re-audit never loads DuckDB
    import pyarrow as pa

    from projections.warehouse import Checkpoint, SyncReport, Warehouse

Progress = Callable[[int, int], None]
"""Called as progress(done, total)."""

T = TypeVar("T")
R = TypeVar("R")


class CorpusError(TabletapeError):
    """Corpus work that could not be carried out (a worker died, the cluster is unreachable)."""


def workers_or_cores(workers: int | None) -> int:
    """The worker count asked for, or every core of this machine."""
    return max(1, workers or os.cpu_count() or 1)


def chunked(items: Sequence[T], workers: int, *, largest: int = 50, smallest: int = 4) -> list[list[T]]:
    """Items cut into chunks: about eight per worker, so the last chunks to finish leave a
    core idle for little of the run; never more than `largest` (progress stays live on big
    stores), never fewer than `smallest` where there are enough (a chunk's own cost, its
    trip to and from the worker, stays small beside its work)."""
    size = max(1, min(largest, max(smallest, len(items) // (workers * 8))))
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def ordered_map(fn: Callable[[T], R], tasks: Sequence[T], *, workers: int, scheduler: str | None = None,
                work: str) -> Iterator[R]:
    """fn over tasks on local processes or a Dask cluster, results in task order."""
    return pool.ordered_map(fn, tasks, workers=workers, scheduler=scheduler, error=CorpusError, work=work,
                            lost="nothing was written")


# --- store-wide re-audit -------------------------------------------------------------------


class AuditTask(msgspec.Struct, frozen=True, kw_only=True):
    """A chunk of matches to audit: everything a worker needs, nothing it must look up."""

    home: str
    match_ids: list[str]
    against: str | None = None


class MatchAudit(msgspec.Struct, frozen=True, kw_only=True):
    """One match's audit, reduced to what a corpus summary counts."""

    match_id: str
    rules: str = ""
    events: int = 0
    broken: dict[str, int] = {}
    """Rule id -> how many errors and warnings of it the match has (rulings excluded)."""
    errors: int = 0
    agrees: bool = True
    skipped: str | None = None
    """Why the match was not audited (another game than --against)."""
    failed: str | None = None
    """The one-line error of a log that cannot be read."""
    missing: str | None = None
    """What the log needs that is not installed (`needs the package pig 0.2`)."""


class RuleCount(msgspec.Struct, frozen=True, kw_only=True):
    """How often one rule broke across the corpus."""

    rule: str
    violations: int
    matches: int


class CorpusAudit(msgspec.Struct, kw_only=True):
    """A store-wide re-audit: which rules break how often, and what could not be audited."""

    against: str | None
    matches: int = 0
    audited: int = 0
    clean: int = 0
    events: int = 0
    disagreeing: list[str] = msgspec.field(default_factory=list)
    """Matches whose declared result is not the rules' result."""
    rules: list[RuleCount] = msgspec.field(default_factory=list)
    """Most often broken first."""
    skipped: int = 0
    failed: list[tuple[str, str]] = msgspec.field(default_factory=list)
    missing: list[tuple[str, str]] = msgspec.field(default_factory=list)
    """(match id, what it needs) for logs whose game is not installed: not audited, not wrong."""
    seconds: float = 0.0
    workers: str = ""

    def lines(self) -> list[str]:
        """The summary as text lines for the command line."""
        under = f" under {self.against}" if self.against else " under their own rules"
        rate = self.events / self.seconds if self.seconds else 0.0
        out = [f"audited {self.audited} of {self.matches} matches{under}: {self.clean} clean, "
               f"{self.audited - self.clean} with errors or a wrong result; {self.events} events in "
               f"{self.seconds:.1f} s ({rate:,.0f} events/s on {self.workers})"]
        if self.rules:
            out.append(f"  {'rule':<44} {'violations':>10} {'matches':>8}")
            out += [f"  {r.rule:<44} {r.violations:>10} {r.matches:>8}" for r in self.rules]
        if self.disagreeing:
            shown = ", ".join(self.disagreeing[:5]) + (" ..." if len(self.disagreeing) > 5 else "")
            out.append(f"  declared result differs from the rules' in {len(self.disagreeing)} match(es): {shown}")
        if self.skipped:
            out.append(f"  skipped {self.skipped} match(es) of other games than {self.against}")
        out += [f"  skipped {match_id}: {needs}" for match_id, needs in self.missing]
        out += [f"  unreadable {match_id}: {error}" for match_id, error in self.failed]
        return out


_WORKSPACES: dict[str, Workspace] = {}


def _workspace(home: str) -> Workspace:
    """One Workspace per store per worker process (workers serve many chunks)."""
    if home not in _WORKSPACES:
        _WORKSPACES[home] = Workspace(home)
    return _WORKSPACES[home]


@without_cycle_collector
def audit_chunk(task: AuditTask) -> list[MatchAudit]:
    """Audit a chunk of matches (runs in a worker); a bad log is a result, not a stop."""
    ws = _workspace(task.home)
    target = ws.rules(task.against).ruleset.name if task.against else None
    out = []
    for match_id in task.match_ids:
        try:
            if target is not None and (game := ws.header(match_id).ruleset) != target:
                out.append(MatchAudit(match_id=match_id, skipped=f"a {game} match"))
                continue
            report = ws.audit(match_id, against=task.against)
        except GameMissingError as error:
            out.append(MatchAudit(match_id=match_id, missing=str(error)))
            continue
        except TabletapeError as error:
            out.append(MatchAudit(match_id=match_id, failed=str(error)))
            continue
        out.append(_summary(match_id, report))
    return out


def _summary(match_id: str, report: AuditReport) -> MatchAudit:
    broken = Counter(v.rule for v in report.violations if v.severity in ("error", "warning"))
    return MatchAudit(match_id=match_id, rules=report.rules, events=report.events, broken=dict(broken),
                      errors=len(report.errors), agrees=report.result.agrees)


def _kept(ws: Workspace, matches: list[str], against: str | None) -> dict[str, MatchAudit]:
    """The matches whose audit the store's cache keeps, read here: only the others go to workers
    (which would cost more to start than reading these)."""
    out = {}
    for match_id in matches:
        try:
            report = ws.kept_audit(match_id, against=against)
        except TabletapeError:  # another game than --against, or a log a worker will report
            continue
        if report is not None:
            out[match_id] = _summary(match_id, report)
    return out


def audit_all(ws: Workspace, *, against: str | None = None, workers: int | None = None, scheduler: str | None = None,
              progress: Progress | None = None) -> CorpusAudit:
    """Audit every match of the store, under its own rules or `against` (matches of that
    game only), on every core; a summary of which rules break how often."""
    if against:
        ws.rules(against)  # an unknown version fails here, in one line, before any work
    started = time.perf_counter()
    count = workers_or_cores(workers)
    matches = ws.matches()
    found = _kept(ws, matches, against)
    left = [match_id for match_id in matches if match_id not in found]
    tasks = [AuditTask(home=str(ws.home), match_ids=chunk, against=against) for chunk in chunked(left, count)] if left else []
    result = CorpusAudit(against=against, matches=len(matches),
                         workers=f"dask {scheduler}" if scheduler else f"{count} local process(es)")
    violations: Counter[str] = Counter()
    touched: Counter[str] = Counter()
    done = len(found)
    for audits in ordered_map(audit_chunk, tasks, workers=count, scheduler=scheduler, work="audit") if tasks else ():
        for one in audits:
            found[one.match_id] = one
        done += len(audits)
        if progress is not None:
            progress(done, len(matches))
    for match_id in matches:
        _tally(result, found[match_id], violations, touched)
    result.rules = [RuleCount(rule=rule, violations=n, matches=touched[rule])
                    for rule, n in sorted(violations.items(), key=lambda item: (-item[1], item[0]))]
    result.seconds = time.perf_counter() - started
    return result


def _tally(result: CorpusAudit, one: MatchAudit, violations: Counter[str], touched: Counter[str]) -> None:
    if one.failed is not None:
        result.failed.append((one.match_id, one.failed))
        return
    if one.missing is not None:
        result.missing.append((one.match_id, one.missing))
        return
    if one.skipped is not None:
        result.skipped += 1
        return
    result.audited += 1
    result.events += one.events
    result.clean += one.errors == 0 and one.agrees
    if not one.agrees:
        result.disagreeing.append(one.match_id)
    violations.update(one.broken)
    touched.update(one.broken.keys())


# --- the warehouse sync on every core ----------------------------------------------------------


class ProjectTask(msgspec.Struct, frozen=True, kw_only=True):
    """A chunk of matches to project: (match id, checkpoint to resume from, plan, why)."""

    home: str
    jobs: list[tuple[str, Checkpoint | None, str, str]]


class Projected(NamedTuple):
    """A chunk's projection: every table's rows as Arrow, and per match what happened."""

    tables: dict[str, pa.Table]
    rows: int
    done: list[tuple[str, Checkpoint, str, str, int]]
    """(match id, new checkpoint, plan, why, events replayed) per projected match."""
    failed: list[tuple[str, str]]
    missing: list[tuple[str, str]]
    """(match id, what it needs) for matches whose game is not installed here."""


@without_cycle_collector
def project_chunk(task: ProjectTask) -> Projected:
    """Project a chunk of matches in a worker: rows built, and made Arrow, on its core."""
    return _project_jobs(_workspace(task.home), task.jobs)


def _project_jobs(ws: Workspace, jobs: list[tuple[str, Checkpoint | None, str, str]]) -> Projected:
    from projections.warehouse import Rows, SyncReport, Warehouse

    warehouse = Warehouse(ws)
    rows = Rows()
    done, failed, missing = [], [], []
    for match_id, old, plan, why in jobs:
        tally = SyncReport()
        try:
            projection, checkpoint, plan, why = warehouse._project(match_id, old, plan, why, tally)
        except GameMissingError as error:
            missing.append((match_id, str(error)))
            continue
        except TabletapeError as error:
            failed.append((match_id, str(error)))
            continue
        rows.extend(projection.rows)
        done.append((match_id, checkpoint, plan, why, tally.events + projection.replayed))
    return Projected(rows.to_arrow(), rows.count, done, failed, missing)


def parallel_sync(warehouse: Warehouse, *, workers: int | None = None, scheduler: str | None = None, verify: bool = False,
                  wait: float = 600.0, progress: Progress | None = None) -> SyncReport:
    """`Warehouse.sync` on every core (or `workers` processes, or a Dask cluster)."""
    return sync_store(warehouse, workers=workers_or_cores(workers), scheduler=scheduler, verify=verify, wait=wait,
                      progress=progress)


def sync_store(warehouse: Warehouse, *, workers: int, scheduler: str | None, verify: bool, wait: float,
               progress: Progress | None) -> SyncReport:
    """The sync: the plan per match, the writes and the notes in this process, the one
    writer; the matches projected here (one worker) or on worker processes or a cluster.

    The cycle collector is paused meanwhile: states and rows are trees that reference
    counting frees, and a sync allocates millions of them, each allocation burst
    triggering a full scan that finds nothing (about a tenth of the time).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _sync(warehouse, workers=workers, scheduler=scheduler, verify=verify, wait=wait, progress=progress)
    finally:
        if collecting:
            gc.enable()


def _sync(warehouse: Warehouse, *, workers: int, scheduler: str | None, verify: bool, wait: float,
          progress: Progress | None) -> SyncReport:
    from projections.warehouse import (
        EVENT_TABLES,
        FLUSH_ROWS,
        MATCH_TABLES,
        Rows,
        SyncReport,
        torn_lines,
    )

    started = time.perf_counter()
    report = SyncReport()
    warehouse._fingerprints = _fingerprints()
    ws = warehouse.ws
    with warehouse._writer(wait) as con:
        checkpoints = warehouse._checkpoints(con)
        matches = ws.matches()
        jobs = []
        for match_id in matches:
            try:  # one bad match is listed, never stops the sync
                plan, why = warehouse._plan(match_id, checkpoints.get(match_id), verify)
                if ws.store.batches.get(match_id) is None:
                    with suppress(TabletapeError):  # an unreadable log fails in its projection, with the line named
                        ws.store.last(match_id)  # a torn tail is met here, in the process that reports it
            except TabletapeError as error:
                report.failed.append((match_id, str(error)))
                continue
            if plan == "unchanged":
                report.unchanged += 1
            else:
                jobs.append((match_id, checkpoints.get(match_id), plan, why))
        report.matches = len(matches)
        tasks = [ProjectTask(home=str(ws.home), jobs=chunk) for chunk in chunked(jobs, workers)]
        in_process = not scheduler and (workers == 1 or len(tasks) <= 1)  # as ordered_map decides
        project: Callable[[ProjectTask], Projected] = (lambda task: _project_jobs(ws, task.jobs)) if in_process else project_chunk
        batch, touched, done = Rows(), {}, []
        finished = report.unchanged
        for projected in ordered_map(project, tasks, workers=workers, scheduler=scheduler, work="sync"):
            report.failed += projected.failed
            report.missing += projected.missing
            batch.take(projected.tables, projected.rows)
            for match_id, checkpoint, plan, why, replayed in projected.done:
                _count_plan(report, match_id, plan, why)
                report.events += replayed
                touched[match_id] = plan
                done.append(checkpoint)
            finished += len(projected.done) + len(projected.failed) + len(projected.missing)
            if progress is not None:
                progress(finished, len(matches))
            if batch.count >= FLUSH_ROWS:
                warehouse._write(con, batch, touched, done)
                touched, done = {}, []
        warehouse._write(con, batch, touched, done)
        gone = sorted(set(checkpoints) - set(matches))
        if gone:
            warehouse._delete(con, gone, (*MATCH_TABLES, *EVENT_TABLES, "notes", "checkpoints", "note_checkpoints"))
            report.removed, report.removed_ids = len(gone), gone
        report.failed.sort(key=lambda failure: failure[0])  # in match order, as one process meets them
        report.notes = warehouse._sync_notes(con, matches, report)
    report.seconds = time.perf_counter() - started
    report.torn = torn_lines(ws)
    return report


def _fingerprints() -> set[str]:
    from rulesets import registry

    return {ruleset.fingerprint for ruleset in registry.games()}


def _count_plan(report: SyncReport, match_id: str, plan: str, why: str) -> None:
    if plan == "new":
        report.new += 1
    elif plan == "extend":
        report.extended += 1
    else:
        report.rebuilt.append((match_id, why))
