"""The warehouse: every log and note as DuckDB tables, kept in step incrementally.

The logs are the truth; the warehouse is a read model that can be rebuilt at any time.
`sync` replays only what is new in each match, from its checkpoint (last seq, the hash of
that line, the file's identity, and a snapshot of the state there). A match is projected
whole again when its log changed underneath (the seam's hash or the file differ) or when
an undo or a ruling reaches back before the checkpoint. Rows go in column-wise through
Arrow, a few large inserts per sync.

DuckDB allows one writer per file and no other process beside it. So sync writes the
primary file under a lock file and then publishes a read replica by copy and atomic
rename: readers (the dashboard, `query`) open the replica read-only, are never blocked by
a sync, and never block one.
"""

from __future__ import annotations

import fcntl
import gc
import hashlib
import itertools
import operator
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import msgspec
import numpy as np
import pyarrow as pa

from events.base import Event
from events.batches import BatchLog
from events.chain import line_hash
from events.codec import read_header
from events.errors import ChainBrokenError, LogFormatError, TabletapeError, UnknownMatchError
from events.shared import MatchEnded, Retracted, Ruled
from events.values import check_values
from projections.corpus.pool import without_cycle_collector
from projections.read.audit import Found, judge, outcome_of
from projections.read.foldcache import digest_of, follows_the_log, kept_audit
from projections.read.replay import Fold, Step
from projections.warehouse.parallel import chunked, ordered_map, workers_or_cores, workspace_at
from projections.workspace import WAREHOUSE, WAREHOUSE_REPLICA, Workspace
from rulesets.protocol import Place, Progress, Violation
from rulesets.registry import GameMissingError, Rules

SCHEMA = (Path(__file__).parent / "warehouse_schema.sql").read_text()
_SCHEMA_ID = f" schema {hashlib.sha256(SCHEMA.encode()).hexdigest()[:16]}"
"""Part of the published stamp: a replica published under another schema is published again."""
MATCH_TABLES = ("matches", "seats", "rosters")
"""Rewritten whole whenever a match changes."""
EVENT_TABLES = ("events", "steps", "places", "violations")
"""Appended to when a match grows; rewritten when it is projected whole."""
FLUSH_ROWS = 250_000
_encoder = msgspec.json.Encoder()


class WarehouseError(TabletapeError):
    """The warehouse cannot be read or written (missing, held too long by another sync)."""


class SyncReport(msgspec.Struct, kw_only=True):
    """What one sync did."""

    matches: int = 0
    new: int = 0
    extended: int = 0
    rebuilt: list[tuple[str, str]] = msgspec.field(default_factory=list)
    """(match id, why) for matches projected whole again."""
    unchanged: int = 0
    removed: int = 0
    removed_ids: list[str] = msgspec.field(default_factory=list)
    """Matches whose log is gone: their rows left the warehouse."""
    torn: list[str] = msgspec.field(default_factory=list)
    """One line per torn tail met (bytes of an interrupted write; `tabletape repair`)."""
    failed: list[tuple[str, str]] = msgspec.field(default_factory=list)
    """(match id, the one-line error) for logs that cannot be read; their rows stay as
    the last good sync left them."""
    missing: list[tuple[str, str]] = msgspec.field(default_factory=list)
    """(match id, what it needs) for logs whose game is not installed here: skipped, their
    rows (if any) kept, and synced once the game is installed."""
    events: int = 0
    """Events replayed by this sync."""
    notes: int = 0
    """Note streams re-read."""
    seconds: float = 0.0
    projected_on: str = "this process"
    """Where the matches were projected: this process, local worker processes or a Dask cluster."""

    def summary(self) -> str:
        """One line for the command line."""
        rebuilt = f", {len(self.rebuilt)} rebuilt" if self.rebuilt else ""
        rebuilt += f", {len(self.failed)} unreadable" if self.failed else ""
        rebuilt += f", {len(self.missing)} skipped (game not installed)" if self.missing else ""
        rebuilt += f", {self.removed} removed" if self.removed else ""
        return (f"synced {self.matches} matches ({self.new} new, {self.extended} extended{rebuilt}, "
                f"{self.unchanged} unchanged): {self.events} events replayed, {self.notes} note streams "
                f"in {self.seconds:.2f} s" + (f" on {self.projected_on}" if self.projected_on != "this process" else ""))


class Checkpoint(msgspec.Struct, kw_only=True):
    """Where a match's projection stands, enough to resume it."""

    match_id: str
    last_seq: int
    last_hash: str
    inode: int
    fingerprint: str
    state: bytes
    """The state at `last_seq` (msgpack), to go on from. Empty, as are `metrics` and
    `declared`, for a match in a batch file, which is written whole and never grows
    (`_plan`), so nothing resumes it: a store of bot games then holds only seams, and a
    sync's checkpoint does not rewrite every match's state."""
    metrics: str
    first_side: str | None
    declared: str | None
    """The MatchEnded in force, as JSON, or None."""
    errors: int


_TEXT, _INT, _WHEN = pa.string(), pa.int32(), pa.timestamp("us", tz="UTC")
SCHEMAS: dict[str, pa.Schema] = {
    "events": pa.schema([("match_id", _TEXT), ("seq", _INT), ("type", _TEXT), ("seat", _TEXT), ("recorded_at", _WHEN),
                         ("turn", _INT), ("round", _INT), ("phase", _TEXT), ("actor", _TEXT), ("voided", pa.bool_())]),
    "steps": pa.schema([("match_id", _TEXT), ("seq", _INT), ("metric", _TEXT), ("value", pa.float64())]),
    "places": pa.schema([("match_id", _TEXT), ("seq", _INT), ("what", _TEXT), ("col", _INT), ("row", _INT)]),
    "violations": pa.schema([("match_id", _TEXT), ("seq", _INT), ("rule", _TEXT), ("severity", _TEXT), ("message", _TEXT)]),
}
"""The hot tables, typed as the warehouse declares them: Arrow converts each column knowing its
type (no inference; a time without a zone is read as UTC). An event's line itself is not stored
again: the log holds it (the Parquet export reads it back from there)."""
COLUMNS: dict[str, tuple[str, ...]] = {table: tuple(schema.names) for table, schema in SCHEMAS.items()}
"""Column order of the hot tables."""


class Rows:
    """Row buffers per table, kept column by column, inserted through Arrow in large
    batches; tables that arrive already as Arrow (from worker processes) are queued whole.

    A hot table's rows come a match at a time (`add_match`): its match_id column is kept as
    runs (one id, how many rows) and goes to Arrow as a dictionary, not one string per row."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, list[Any]]] = {}
        self.runs: dict[str, list[tuple[str, int]]] = {}
        # Per hot table: (match id, rows) in row order.
        self.arrow: list[tuple[str, pa.Table]] = []
        self.count = 0

    def columns(self, table: str, names: Iterable[str]) -> dict[str, list[Any]]:
        """The column lists of a table, made empty on first use."""
        columns = self.tables.get(table)
        if columns is None:
            columns = self.tables[table] = {name: [] for name in names}
        return columns

    def add(self, table: str, **row: Any) -> None:
        """Buffer one row given by column name (the small tables: matches, seats, notes...)."""
        assert table not in SCHEMAS, f"{table} rows come a match at a time (add_match)"
        columns = self.columns(table, row)
        for name, value in row.items():
            columns[name].append(value)
        self.count += 1

    def add_match(self, table: str, match_id: str, count: int, **columns: Iterable[Any]) -> None:
        """Buffer `count` rows of one match in a hot table, given column by column
        (every column of `COLUMNS[table]` but match_id)."""
        if not count:
            return
        mine = self.columns(table, COLUMNS[table][1:])
        for name, values in columns.items():
            mine[name].extend(values)
        self.runs.setdefault(table, []).append((match_id, count))
        self.count += count

    def extend(self, other: Rows) -> None:
        """Take every row of another buffer."""
        for table, columns in other.tables.items():
            mine = self.columns(table, columns)
            for name, values in columns.items():
                mine[name].extend(values)
        for table, runs in other.runs.items():
            self.runs.setdefault(table, []).extend(runs)
        self.arrow += other.arrow
        self.count += other.count

    def take(self, tables: dict[str, pa.Table], rows: int) -> None:
        """Queue tables already in Arrow form (a worker's rows) for the next insert."""
        self.arrow.extend(tables.items())
        self.count += rows

    def to_arrow(self) -> dict[str, pa.Table]:
        """The buffered rows as one Arrow table per table (what DuckDB inserts in bulk)."""
        out = {}
        for table, columns in self.tables.items():
            schema = SCHEMAS.get(table)
            if schema is None:
                if any(columns.values()):
                    out[table] = pa.table({name: pa.array(values) for name, values in columns.items()})
            elif table in self.runs:
                ids = _runs(self.runs[table])
                out[table] = pa.table([ids, *(_column(columns[f.name], f.type) for f in schema if f.name != "match_id")],
                                      names=schema.names)
        return out

    def insert(self, con: duckdb.DuckDBPyConnection) -> None:
        """One columnar INSERT per table, then empty the buffers."""
        grouped: dict[str, list[pa.Table]] = {}
        for table, data in [*self.arrow, *self.to_arrow().items()]:
            grouped.setdefault(table, []).append(data)
        for table, parts in grouped.items():  # one INSERT per table, however many chunks came
            data = parts[0] if len(parts) == 1 else pa.concat_tables(parts, promote_options="permissive")
            con.register("incoming", data)
            listed = ", ".join(data.column_names)
            con.execute(f"INSERT INTO {table} ({listed}) SELECT {listed} FROM incoming")
            con.unregister("incoming")
        self.arrow.clear()
        self.tables.clear()
        self.runs.clear()
        self.count = 0


def _column(values: list[Any], kind: pa.DataType) -> pa.Array:
    """A hot table's column as Arrow. Times are converted once per distinct time: Arrow asks
    each zoned time for its offset in Python, and a corpus of bot games repeats the same
    few hundred times across its games (a dict lookup per row is a quarter of a conversion)."""
    if kind != _WHEN:
        return pa.array(values, kind)
    distinct: dict[Any, int] = {}
    index = [distinct.setdefault(value, len(distinct)) for value in values]
    if len(distinct) * 2 > len(values):
        return pa.array(values, kind)
    return pa.array(list(distinct), kind).take(pa.array(index, pa.int32()))


def _runs(runs: list[tuple[str, int]]) -> pa.DictionaryArray:
    """A match_id column from its runs: each id once, and a small integer per row."""
    ids, counts = zip(*runs, strict=True)
    positions = np.repeat(np.arange(len(ids), dtype=np.int32), counts)
    return pa.DictionaryArray.from_arrays(pa.array(positions), pa.array(ids, _TEXT))


_BY, _AT, _NAME = operator.attrgetter("by"), operator.attrgetter("at"), operator.attrgetter("__name__")
_TURN, _ROUND, _PHASE, _ACTOR = (operator.attrgetter(name) for name in ("turn", "round", "phase", "actor"))
"""The events' and standings' columns, read in C (`map`) rather than per row in Python."""

_TABLE_SAYS = frozenset({Retracted, Ruled, MatchEnded})
"""Events that say something about other events (an undo, a ruling, a declared result), by
exact type as the fold dispatches them: kept for the match's rows, and the two that may
reach back before a checkpoint."""


def _reaches_before(event: Event, floor: int) -> bool:
    """Whether an undo or a ruling concerns an event at or before `floor` (the checkpoint)."""
    if type(event) is Retracted:
        return event.target_seq <= floor
    if type(event) is Ruled:
        return event.applies_to is not None and event.applies_to <= floor
    return False


class Projection:
    """One match folded into rows: the whole log, or only what came after a checkpoint.

    Per event the fold keeps only what it must (the event, its line, where the game
    stands, metrics that changed); the events' rows are built column by column when the
    match is done, so a sync costs little more than an audited replay of the same logs.
    """

    def __init__(self, ws: Workspace, match_id: str, resume: Checkpoint | None) -> None:
        self.ws, self.match_id = ws, match_id
        self.log = ws.store.log(match_id)
        # The log's reader, looked up once.
        self.source = self.log.path
        # The file the lines are read from.
        self.where = str(self.source)
        self.lines_read: Iterator[bytes] = self.log.lines() if resume is None else self.log.tail(resume.last_seq)
        # The lines to fold: the whole log, or what came after the checkpoint (one read).
        first = next(self.lines_read if resume is None else self.log.lines(), None)
        if first is None:
            raise UnknownMatchError(f"match {match_id!r} has an empty log")
        self.header = read_header(first, where=self.where)
        if resume is None:
            self.lines_read = itertools.chain((first,), self.lines_read)
        check_values(self.header, where=self.where, line_no=1)
        self.rules: Rules = ws.rules_recorded(self.header)
        self.known: Found | None = self._known_to_follow() if resume is None else None
        # The findings of a kept audit of this very log under these rules, where its
        # audited fold only applied its events: then it is folded with `apply` alone.
        self.fold: Fold[Any, Any] = Fold(self.rules, audit=self.known is None)
        self.rows = Rows()
        self.resume = resume
        self.violations: dict[int, list[Violation]] = {}
        self.rulings: list[Ruled] = []
        self.voided: set[int] = set()
        self.declared: MatchEnded | None = None
        self.first_side = resume.first_side if resume else None
        self.metrics: dict[str, float] = msgspec.json.decode(resume.metrics) if resume else {}
        self.step: Step | None = None
        self.events: list[Event] = []
        self.last_line: bytes | None = None
        # The last line projected: the checkpoint's hash is its hash.
        self.standings: list[Progress] = []
        # Where the game stands after each event projected.
        self.changes: tuple[list[int], list[str], list[float]] = ([], [], [])
        # The steps rows (seq, metric, value): each metric's value where it changed.
        self.spots: tuple[list[int], list[str], list[int], list[int]] = ([], [], [], [])
        # The places rows (seq, what, col, row).
        self.first_seq = 0 if resume is None else resume.last_seq + 1

    @property
    def batched(self) -> bool:
        """Whether the log lives in a batch file (written whole, never extended)."""
        return isinstance(self.log, BatchLog)

    def _known_to_follow(self) -> Found | None:
        kept = kept_audit(self.ws.cache, self.rules, digest_of(self.log.chunks()))
        return kept[1] if kept is not None and follows_the_log(kept[1]) else None

    @property
    def replayed(self) -> int:
        """Events folded by this projection."""
        return len(self.events)

    def run(self) -> Checkpoint | None:
        """Fold the events; None if an undo or ruling reaches before the checkpoint."""
        ruleset, params = self.rules.ruleset, self.rules.params
        step = None
        lines = self.lines_read
        if self.resume is not None:
            state = msgspec.msgpack.decode(self.resume.state, type=type(ruleset.setup(params, self.header)))
            step = Step(event=self.header, state=state)
            if self.resume.declared:
                self.declared = msgspec.json.decode(self.resume.declared, type=MatchEnded)
        floor = self.first_seq - 1
        codec, where = ruleset.codec, self.where
        progress, metrics, where_on_board = ruleset.progress, ruleset.metrics, ruleset.places
        fold = self.fold if self.known is None else self.fold.applied  # a log known to follow the table
        keep_event, keep_standing = self.events.append, self.standings.append
        shown: dict[str, float] | None = None
        for expected, line in enumerate(lines, start=floor + 1):
            event = codec.decode(line, where=where, line_no=expected + 1)
            if event.seq != expected:
                raise LogFormatError(where, expected + 1, f"seq {event.seq} where {expected} was expected", field="seq")
            said = type(event) in _TABLE_SAYS
            if said and _reaches_before(event, floor):
                return None
            before, step = step, self.fold.first(event) if step is None else fold(step, event)
            state = step.state
            keep_event(event)
            keep_standing(progress(params, state))
            if where_on_board is not None and before is not None and (found := where_on_board(params, before.state, state, event)):
                self._places(found, expected)  # most events name no place: no call for them
            now = metrics(params, state)
            if now is not shown and now != shown:  # most events change no metric (a game may answer the same dict)
                self._metric_rows(expected, now)
                shown = now
            if said or step.violations:
                self._table_said(step, event)
            self.last_line = line
        self.step = step
        if self.known is not None:  # what the audited fold would have found (infos only)
            self.violations = {seq: list(found) for seq, found in self.known.violations.items()}
        return self._finish()

    def _metric_rows(self, seq: int, now: dict[str, float]) -> None:
        """A steps row per metric whose value changed at `seq`."""
        known = self.metrics
        seqs, names, values = self.changes
        for name, value in now.items():
            if known.get(name) != value:
                known[name] = value
                seqs.append(seq)
                names.append(name)
                values.append(float(value))

    def _places(self, places: tuple[Place, ...], seq: int) -> None:
        """A places row per place the game names for the event at `seq`."""
        seqs, what, cols, rows = self.spots
        for place in places:
            seqs.append(seq)
            what.append(place.what)
            cols.append(place.col)
            rows.append(place.row)

    def _table_said(self, step: Step, event: Event) -> None:
        """An undo, a broken rule, a declared result or a ruling: kept for the match's rows."""
        if step.voided is not None:
            self._void(step.voided)
        if step.violations:
            self.violations[event.seq] = list(step.violations)
        if isinstance(event, MatchEnded):
            self.declared = event
        elif isinstance(event, Ruled):
            self.rulings.append(event)

    def _void(self, seq: int) -> None:
        """A Retracted voided `seq`: mark its row and forget what it broke or declared."""
        self.voided.add(seq)
        self.violations.pop(seq, None)
        self.rulings = [r for r in self.rulings if r.seq != seq]
        if self.declared is not None and self.declared.seq == seq:
            self.declared = None

    def _side(self, seat: str) -> str:
        side_of = self.rules.ruleset.seat_side
        return side_of(seat) if side_of else seat

    def _event_rows(self) -> None:
        """Every projected event's row, built column by column."""
        events, places, count = self.events, self.standings, len(self.events)
        seqs = range(self.first_seq, self.first_seq + count)
        voided = self.voided
        self.rows.add_match(
            "events", self.match_id, count, seq=seqs, type=list(map(_NAME, map(type, events))),
            seat=list(map(_BY, events)), recorded_at=list(map(_AT, events)), turn=list(map(_TURN, places)),
            round=list(map(_ROUND, places)), phase=list(map(_PHASE, places)), actor=list(map(_ACTOR, places)),
            voided=[seq in voided for seq in seqs] if voided else [False] * count,
        )
        seq, metric, value = self.changes
        self.rows.add_match("steps", self.match_id, len(seq), seq=seq, metric=metric, value=value)
        seq, what, col, row = self.spots
        self.rows.add_match("places", self.match_id, len(seq), seq=seq, what=what, col=col, row=row)
        if self.first_side is None:
            first = next((p for p in places if p.turn >= 1 and p.actor), None)
            if first is not None:
                self.first_side = self._side(first.actor)  # type: ignore[arg-type]

    def _finish(self) -> Checkpoint:
        """Event and violation rows, the match's own rows, and the new checkpoint."""
        self._event_rows()
        ruled = {(r.applies_to, r.rule): r for r in self.rulings}
        errors = self.resume.errors if self.resume else 0
        seqs: list[int] = []
        rules: list[str] = []
        severities: list[str] = []
        messages: list[str] = []
        for seq in sorted(self.violations):
            for v in self.violations[seq]:
                ruling = ruled.get((seq, v.rule))
                severity = "info" if ruling else v.severity
                message = f"ruled by the table (seq {ruling.seq}: {ruling.decision}): {v.message}" if ruling else v.message
                errors += severity == "error"
                seqs.append(seq)
                rules.append(v.rule)
                severities.append(severity)
                messages.append(message)
        self.rows.add_match("violations", self.match_id, len(seqs), seq=seqs, rule=rules, severity=severities, message=messages)
        assert self.step is not None
        if self.replayed:  # appends may have landed since: the seam is the last line projected
            assert self.last_line is not None
            last_seq, last_hash = self.step.event.seq, line_hash(self.last_line)
        else:
            last_seq, last_hash = self.log.last()
        self._match_rows(errors, last_seq)
        return Checkpoint(
            match_id=self.match_id, last_seq=last_seq, last_hash=last_hash,
            inode=os.stat(self.source).st_ino, fingerprint=self.rules.ruleset.fingerprint,
            state=b"" if self.batched else msgspec.msgpack.encode(self.step.state),
            metrics="" if self.batched else _encoder.encode(self.metrics).decode(), first_side=self.first_side,
            declared=_encoder.encode(self.declared).decode() if self.declared and not self.batched else None,
            errors=errors,
        )

    def _match_rows(self, errors: int, last_seq: int) -> None:
        ruleset, params, header = self.rules.ruleset, self.rules.params, self.header
        assert self.step is not None
        state = self.step.state
        progress = ruleset.progress(params, state)
        outcome = outcome_of(self.rules, state, self.declared)
        result = judge(self.declared, outcome)
        last_at = next((e.at for e in reversed(self.events) if e.at), None)
        self.rows.add(
            "matches", match_id=self.match_id, ruleset=header.ruleset, version=header.version, base_version=self.rules.base,
            source=header.source, title=header.title, branch_of=header.branch_of if header.is_branch else None, batch=self.log.batch_id if isinstance(self.log, BatchLog) else None, seed=header.seed, fingerprint=header.fingerprint,
            seat_count=len(header.seats), started_at=header.at, ended_at=last_at or header.at,
            events=last_seq + 1, turns=progress.turn, rounds=progress.round, first_side=self.first_side,
            finished=outcome is not None, winner=outcome.winner if outcome else None, draw=bool(outcome and outcome.draw),
            win_reason=outcome.reason if outcome else None, win_rule=outcome.rule if outcome else None,
            declared=self.declared is not None, declared_winner=self.declared.winner if self.declared else None,
            declared_draw=bool(self.declared and self.declared.draw), result_agrees=result.agrees, violations=errors,
        )
        for position, (seat, player) in enumerate(header.seats.items()):
            self.rows.add("seats", match_id=self.match_id, seat=seat, player=player, side=self._side(seat), seat_order=position)
        if ruleset.roster is not None:
            for side, piece in ruleset.roster(params, state):
                self.rows.add("rosters", match_id=self.match_id, side=side, piece=piece)


class Writing:
    """The writer's connection, and whether this sync changed a row (else the replica
    already holds what the primary does, and is not copied again)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.changed = False


def _identity(path: Path) -> str:
    """A file's size, modification time and inode: what changes when DuckDB writes it."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return ""
    return f"{found.st_size} {found.st_mtime_ns} {found.st_ino}"


class Seam(msgspec.Struct, array_like=True):
    """The part of a checkpoint that plans a sync: the projection's last line, the file it
    came from, the rules it was folded under."""

    match_id: str
    last_seq: int
    last_hash: str
    inode: int
    fingerprint: str


class Sources:
    """Where each match's lines come from, looked up once per sync: the batched matches'
    part files from the manifests, each part's inode read once for all its matches."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.parts = ws.store.batches.parts()
        self._inodes: dict[Path, int] = {}

    def batched(self, match_id: str) -> bool:
        """Whether the match lives in a batch file (written whole, never changed)."""
        return match_id in self.parts

    def inode(self, match_id: str) -> int:
        """The inode of the file the match's lines are read from."""
        part = self.parts.get(match_id)
        if part is None:
            return _inode(self.ws, match_id)
        if part not in self._inodes:
            self._inodes[part] = os.stat(part).st_ino
        return self._inodes[part]


def _inode(ws: Workspace, match_id: str) -> int:
    return os.stat(ws.store.source_path(match_id)).st_ino


def _refuse_unverified(ws: Workspace, match_id: str) -> None:
    """`sync --verify`: a log whose chain or end anchor does not verify is not projected
    (its previous rows stay); ChainBrokenError names the line."""
    report = ws.verify(match_id)
    if not report.ok:
        raise ChainBrokenError(f"{ws.store.source_path(match_id)}: does not verify, its previous rows are kept: {report.message}")


def torn_lines(ws: Workspace) -> list[str]:
    """What the sync met of interrupted writes, one line each."""
    return [t.warning(Path(t.path).name.removesuffix(".jsonl")) for t in ws.store.torn_tails if not t.quarantined_to]


def _line_at(ws: Workspace, match_id: str, seq: int) -> bytes | None:
    """The stored line of `seq` (None if the log is shorter now)."""
    for index, line in enumerate(ws.store.tail(match_id, seq - 1)):
        return line if index == 0 else None
    return None


class Warehouse:
    """The DuckDB read model of one store (`<home>/warehouse.duckdb` and its read replica)."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.path = ws.home / WAREHOUSE
        self.replica = ws.home / WAREHOUSE_REPLICA
        self._lock_path = ws.home / "warehouse.lock"
        self._published_path = ws.home / "warehouse.published"
        self._fingerprints: set[str] = set()

    @property
    def exists(self) -> bool:
        """Whether a sync has published a replica to read."""
        return self.ws.has_warehouse()

    # --- reading ------------------------------------------------------------------------

    def connect(self, *, sandboxed: bool = True, memory_limit: str | None = None) -> duckdb.DuckDBPyConnection:
        """A read-only connection to the replica; sandboxed ones cannot touch files."""
        self._refuse_links(self.replica)
        if not self.replica.exists():
            raise WarehouseError(f"{self.replica}: no warehouse yet; run `tabletape sync`")
        config: dict[str, Any] = {}
        if sandboxed:
            config = {"enable_external_access": False, "autoload_known_extensions": False,
                      "autoinstall_known_extensions": False, "lock_configuration": True}
        if memory_limit:
            config["memory_limit"] = memory_limit
        return duckdb.connect(str(self.replica), read_only=True, config=config)

    # --- writing ------------------------------------------------------------------------

    @contextmanager
    def _writer(self, wait: float) -> Iterator[Writing]:
        """The one writer: the lock file first (a second sync waits), then the primary.

        Publishing the replica copies the whole primary, the one cost of a sync that grows
        with the warehouse. A sync that wrote no row skips it while the replica is still the
        copy of the primary (`warehouse.published` holds the primary's identity and the schema
        when it was last published, so a sync killed between writing and publishing is
        published by the next one, a replica deleted by hand comes back, and a schema changed
        by an upgrade reaches readers).
        """
        self.ws.home.mkdir(parents=True, exist_ok=True)
        temp = self.replica.with_name(self.replica.name + ".tmp")
        self._refuse_links(self._lock_path, self.path, self.path.with_name(self.path.name + ".wal"), self.replica, temp,
                           self._published_path)
        with open(self._lock_path, "a+") as lock:
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise WarehouseError(f"{self.path}: another sync held the warehouse for {wait:.0f} s") from None
                    time.sleep(0.05)
            current = self.replica.is_file() and self._published() == _identity(self.path) + _SCHEMA_ID
            con = duckdb.connect(str(self.path))
            writing = Writing(con)
            try:
                con.execute(SCHEMA)
                yield writing
                con.execute("CHECKPOINT")
            finally:
                con.close()
            if not (current and not writing.changed):
                with suppress(FileNotFoundError):
                    os.unlink(temp)  # a killed sync's copy; never written through
                shutil.copyfile(self.path, temp)
                os.replace(temp, self.replica)
            self._published_path.write_text(_identity(self.path) + _SCHEMA_ID)

    def _published(self) -> str | None:
        """The primary's identity when the replica was last published from it (None: never)."""
        try:
            return self._published_path.read_text()
        except (FileNotFoundError, UnicodeDecodeError):
            return None

    @staticmethod
    def _refuse_links(*paths: Path) -> None:
        """WarehouseError if a warehouse file is a symbolic link: never written through."""
        for path in paths:
            if path.is_symlink():
                raise WarehouseError(f"{path} is a symbolic link; the warehouse is never read or written through links (remove it)")

    def sync(self, *, verify: bool = False, wait: float = 600.0, workers: int = 1, scheduler: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> SyncReport:
        """Bring the warehouse up to date with every log and note stream: matches are
        projected in this process, or on `workers` processes or a Dask cluster
        (`sync_store`), this process the one writer."""
        return sync_store(self, workers=workers, scheduler=scheduler, verify=verify, wait=wait, progress=progress)

    def _project(self, match_id: str, old: Checkpoint | None, plan: str, why: str,
                 report: SyncReport) -> tuple[Projection, Checkpoint, str, str]:
        """Project a match from its checkpoint, or whole if an undo or ruling reaches back."""
        if plan == "extend" and not (old and old.state):  # a batched match's seam: never grows, so never kept
            plan, why = "rebuild", "no state was kept to go on from"
        projection = Projection(self.ws, match_id, old if plan == "extend" else None)
        checkpoint = projection.run()
        if checkpoint is None:
            plan, why = "rebuild", "a Retracted or Ruled reaches back before the last sync"
            report.events += projection.replayed
            projection = Projection(self.ws, match_id, None)
            checkpoint = projection.run()
            assert checkpoint is not None
        return projection, checkpoint, plan, why

    def _seams(self, con: duckdb.DuckDBPyConnection) -> dict[str, Seam]:
        """Where every match's projection stands, without the saved states (a sync reads
        those only for the matches it extends)."""
        rows = con.execute(f"SELECT {', '.join(Seam.__struct_fields__)} FROM checkpoints").fetchall()
        return {row[0]: Seam(*row) for row in rows}

    def _checkpoints(self, con: duckdb.DuckDBPyConnection, match_ids: list[str]) -> dict[str, Checkpoint]:
        """The whole checkpoints of these matches."""
        if not match_ids:
            return {}
        con.register("wanted", pa.table({"match_id": match_ids}))
        rows = con.execute("SELECT * FROM checkpoints WHERE match_id IN (SELECT match_id FROM wanted)").fetchall()
        names = [d[0] for d in con.description or ()]
        con.unregister("wanted")
        return {row[0]: Checkpoint(**dict(zip(names, row, strict=True))) for row in rows}

    def _plan(self, match_id: str, old: Seam | None, verify: bool, sources: Sources) -> tuple[str, str]:
        """unchanged / extend / new / rebuild, and why a rebuild.

        Cheap for an unchanged match (no header read, no decoding; a batched match is a
        dictionary lookup): a sync that finds nothing new costs little however large the
        store.
        """
        if old is None:
            return "new", ""
        if old.fingerprint not in self._fingerprints:
            return "rebuild", "the rules changed since the last sync"
        if verify:
            _refuse_unverified(self.ws, match_id)
        if sources.inode(match_id) != old.inode:
            return "rebuild", "the log file was replaced"
        if sources.batched(match_id):
            return "unchanged", ""  # batch files are written whole and never change
        if self.ws.store.last(match_id) == (old.last_seq, old.last_hash):
            return "unchanged", ""
        line = _line_at(self.ws, match_id, old.last_seq)
        if line is None or line_hash(line) != old.last_hash:
            return "rebuild", f"line {old.last_seq + 1} changed since the last sync"
        return "extend", ""

    def _write(self, con: duckdb.DuckDBPyConnection, batch: Rows, touched: dict[str, str], done: list[Checkpoint]) -> None:
        """One transaction: clear what is replaced, insert the rows, move the checkpoints."""
        if not touched:
            return
        con.execute("BEGIN")
        try:
            known = [m for m, plan in touched.items() if plan != "new"]  # a new match has no rows to clear
            if known:
                self._delete(con, known, (*MATCH_TABLES, "checkpoints"))
            whole = [m for m, plan in touched.items() if plan == "rebuild"]
            if whole:
                self._delete(con, whole, EVENT_TABLES)
            batch.insert(con)
            for checkpoint in done:
                batch.add("checkpoints", **msgspec.structs.asdict(checkpoint))
            batch.insert(con)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    def _delete(self, con: duckdb.DuckDBPyConnection, match_ids: list[str], tables: Iterable[str]) -> None:
        con.register("doomed", pa.table({"match_id": match_ids}))
        for table in tables:
            con.execute(f"DELETE FROM {table} WHERE match_id IN (SELECT match_id FROM doomed)")
        con.unregister("doomed")

    def _sync_notes(self, con: duckdb.DuckDBPyConnection, matches: list[str], report: SyncReport) -> int:
        """Re-read the note streams that grew since the last sync (they are small); an
        unreadable one is listed in the report and keeps its previous rows."""
        seen = dict(con.execute("SELECT match_id, notes_seq FROM note_checkpoints").fetchall())
        changed, read = [], {}
        noted = self.ws.store.noted()  # most matches have no notes: only these and the synced are read
        for match_id in matches if noted is None else [m for m in matches if m in noted or m in seen]:
            try:
                last = self.ws.store.notes_journal(match_id).last()[0]
                if seen.get(match_id, -1) != last:
                    read[match_id] = self.ws.notes.list(match_id, include_removed=True)
                    changed.append((match_id, last))
            except TabletapeError as error:
                report.failed.append((f"{match_id} (notes)", str(error)))
        if not changed:
            return 0
        rows = Rows()
        for match_id, last in changed:
            for note in read[match_id]:
                rows.add("notes", match_id=match_id, note_id=note.id, from_seq=note.from_seq, to_seq=note.to_seq,
                         author=note.author, text=note.text, tags=list(note.tags), rule=note.rule,
                         removed=note.removed, replies=len(note.replies), created_at=note.created_at)
            rows.add("note_checkpoints", match_id=match_id, notes_seq=last)
        con.execute("BEGIN")
        self._delete(con, [m for m, _ in changed], ("notes", "note_checkpoints"))
        rows.insert(con)
        con.execute("COMMIT")
        return len(changed)


# --- the sync on one core or many -------------------------------------------------------------


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
    return _project_jobs(workspace_at(task.home), task.jobs)


def _project_jobs(ws: Workspace, jobs: list[tuple[str, Checkpoint | None, str, str]]) -> Projected:
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
                  wait: float = 600.0, progress: Callable[[int, int], None] | None = None) -> SyncReport:
    """`Warehouse.sync` on every core (or `workers` processes, or a Dask cluster)."""
    return sync_store(warehouse, workers=workers_or_cores(workers), scheduler=scheduler, verify=verify, wait=wait,
                      progress=progress)


def sync_store(warehouse: Warehouse, *, workers: int, scheduler: str | None, verify: bool, wait: float,
               progress: Callable[[int, int], None] | None) -> SyncReport:
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
          progress: Callable[[int, int], None] | None) -> SyncReport:
    started = time.perf_counter()
    report = SyncReport()
    warehouse._fingerprints = _fingerprints()
    ws = warehouse.ws
    with warehouse._writer(wait) as writing:
        con = writing.con
        seams = warehouse._seams(con)
        matches = ws.matches()
        sources = Sources(ws)
        planned = []
        for match_id in matches:
            try:  # one bad match is listed, never stops the sync
                plan, why = warehouse._plan(match_id, seams.get(match_id), verify, sources)
                if not sources.batched(match_id):
                    with suppress(TabletapeError):  # an unreadable log fails in its projection, with the line named
                        ws.store.last(match_id)  # a torn tail is met here, in the process that reports it
            except TabletapeError as error:
                report.failed.append((match_id, str(error)))
                continue
            if plan == "unchanged":
                report.unchanged += 1
            else:
                planned.append((match_id, plan, why))
        checkpoints = warehouse._checkpoints(con, [match_id for match_id, plan, _ in planned if plan == "extend"])
        jobs = [(match_id, checkpoints.get(match_id), plan, why) for match_id, plan, why in planned]
        report.matches = len(matches)
        tasks = [ProjectTask(home=str(ws.home), jobs=chunk) for chunk in chunked(jobs, workers)]
        in_process = not scheduler and (workers == 1 or len(tasks) <= 1)  # as ordered_map decides
        project: Callable[[ProjectTask], Projected] = (lambda task: _project_jobs(ws, task.jobs)) if in_process else project_chunk
        if not in_process:
            report.projected_on = f"a Dask cluster ({scheduler})" if scheduler else f"{workers} processes"
        batch, touched, done = Rows(), {}, []
        finished = report.unchanged
        for projected in ordered_map(project, tasks, workers=workers, scheduler=scheduler, work="sync"):
            report.failed += projected.failed
            report.missing += projected.missing
            batch.take(projected.tables, projected.rows)
            writing.changed |= bool(projected.done)
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
        gone = sorted(set(seams) - set(matches))
        if gone:
            warehouse._delete(con, gone, (*MATCH_TABLES, *EVENT_TABLES, "notes", "checkpoints", "note_checkpoints"))
            report.removed, report.removed_ids = len(gone), gone
        report.failed.sort(key=lambda failure: failure[0])  # in match order, as one process meets them
        report.notes = warehouse._sync_notes(con, matches, report)
        writing.changed |= bool(gone or report.notes)
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
