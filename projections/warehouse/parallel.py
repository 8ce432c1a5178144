"""Corpus work on every core: how it is cut and handed out, and the store-wide re-audit.

Replay is pure, so matches are independent: chunks of matches go to worker processes
(or a Dask cluster) and come back in order. Workers only read the store; the main
process stays the one writer into DuckDB. A sync worker hands back its rows already as
Arrow tables (built on its own core), so the writer's share per row is one bulk insert.
One unreadable match is reported and skipped; it never stops the rest. The warehouse sync
(`projections/warehouse/sync.py`) hands its matches out with the same `chunked` and
`ordered_map`; this module knows nothing of the warehouse, so a re-audit never loads DuckDB.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import msgspec

from events.errors import TabletapeError
from projections.corpus import pool
from projections.corpus.pool import without_cycle_collector
from projections.read.audit import AuditReport
from projections.workspace import Workspace
from rulesets.registry import GameMissingError

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


def workspace_at(home: str) -> Workspace:
    """One Workspace per store per worker process (workers serve many chunks)."""
    if home not in _WORKSPACES:
        _WORKSPACES[home] = Workspace(home)
    return _WORKSPACES[home]


@without_cycle_collector
def audit_chunk(task: AuditTask) -> list[MatchAudit]:
    """Audit a chunk of matches (runs in a worker); a bad log is a result, not a stop."""
    ws = workspace_at(task.home)
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
