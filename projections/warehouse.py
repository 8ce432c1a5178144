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
import os
import shutil
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pyarrow as pa

from events.base import Event
from events.chain import line_hash
from events.errors import ChainBrokenError, LogFormatError, TabletapeError
from events.shared import MatchEnded, Retracted, Ruled
from events.values import check_values
from projections.audit import judge
from projections.replay import Fold, Step
from projections.workspace import Workspace
from rulesets import registry
from rulesets.protocol import Violation
from rulesets.registry import Rules

SCHEMA = (Path(__file__).parent / "warehouse_schema.sql").read_text()
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
    events: int = 0
    """Events replayed by this sync."""
    notes: int = 0
    """Note streams re-read."""
    seconds: float = 0.0

    def summary(self) -> str:
        """One line for the command line."""
        rebuilt = f", {len(self.rebuilt)} rebuilt" if self.rebuilt else ""
        rebuilt += f", {len(self.failed)} unreadable" if self.failed else ""
        rebuilt += f", {self.removed} removed" if self.removed else ""
        return (f"synced {self.matches} matches ({self.new} new, {self.extended} extended{rebuilt}, "
                f"{self.unchanged} unchanged): {self.events} events replayed, {self.notes} note streams "
                f"in {self.seconds:.2f} s")


class Checkpoint(msgspec.Struct, kw_only=True):
    """Where a match's projection stands, enough to resume it."""

    match_id: str
    last_seq: int
    last_hash: str
    inode: int
    fingerprint: str
    state: bytes
    metrics: str
    first_side: str | None
    declared: str | None
    """The MatchEnded in force, as JSON, or None."""
    errors: int


COLUMNS: dict[str, tuple[str, ...]] = {
    "events": ("match_id", "seq", "type", "seat", "recorded_at", "turn", "round", "phase", "actor", "voided", "detail"),
    "steps": ("match_id", "seq", "metric", "value"),
    "places": ("match_id", "seq", "what", "col", "row"),
    "violations": ("match_id", "seq", "rule", "severity", "message"),
}
"""Column order of the hot tables, whose rows are buffered as tuples."""


class Rows:
    """Row buffers per table (tuples), inserted column-wise through Arrow in large batches."""

    def __init__(self) -> None:
        self.tables: dict[str, list[tuple[Any, ...]]] = {}
        self.columns: dict[str, tuple[str, ...]] = dict(COLUMNS)
        self.count = 0

    def append(self, table: str, row: tuple[Any, ...]) -> None:
        """Buffer one row of a table whose columns are in COLUMNS (the hot path)."""
        self.tables.setdefault(table, []).append(row)
        self.count += 1

    def add(self, table: str, **row: Any) -> None:
        """Buffer one row given by column name."""
        self.columns.setdefault(table, tuple(row))
        self.append(table, tuple(row.values()))

    def extend(self, other: Rows) -> None:
        """Take every row of another buffer."""
        for table, rows in other.tables.items():
            self.columns.setdefault(table, other.columns[table])
            self.tables.setdefault(table, []).extend(rows)
        self.count += other.count

    def insert(self, con: duckdb.DuckDBPyConnection) -> None:
        """One columnar INSERT per table, then empty the buffers."""
        for table, rows in self.tables.items():
            if not rows:
                continue
            names = self.columns[table]
            con.register("incoming", pa.table(dict(zip(names, map(list, zip(*rows, strict=True)), strict=True))))
            listed = ", ".join(names)
            con.execute(f"INSERT INTO {table} ({listed}) SELECT {listed} FROM incoming")
            con.unregister("incoming")
        self.tables.clear()
        self.count = 0


class Projection:
    """One match folded into rows: the whole log, or only what came after a checkpoint."""

    def __init__(self, ws: Workspace, match_id: str, resume: Checkpoint | None) -> None:
        self.ws, self.match_id = ws, match_id
        self.header = ws.header(match_id)
        check_values(self.header, where=str(ws.store.source_path(match_id)), line_no=1)
        self.rules: Rules = ws.rules_of(match_id)
        self.fold = Fold(self.rules)
        self.rows = Rows()
        self.resume = resume
        self.violations: dict[int, list[Violation]] = {}
        self.rulings: list[Ruled] = []
        self.event_rows: dict[int, int] = {}
        self.declared: MatchEnded | None = None
        self.first_side = resume.first_side if resume else None
        self.metrics: dict[str, float] = msgspec.json.decode(resume.metrics) if resume else {}
        self.step: Step | None = None
        self.replayed = 0
        self.last_line = b""
        """The last line projected: the checkpoint's hash is its hash, never a newer line's."""
        self.last_at: datetime | None = None

    def run(self) -> Checkpoint | None:
        """Fold the events; None if an undo or ruling reaches before the checkpoint."""
        ruleset, params = self.rules.ruleset, self.rules.params
        store = self.ws.store
        if self.resume is None:
            lines: Iterable[bytes] = store.lines(self.match_id)
        else:
            lines = store.tail(self.match_id, self.resume.last_seq)
            state = msgspec.msgpack.decode(self.resume.state, type=type(ruleset.setup(params, self.header)))
            self.step = Step(self.header, state)
            if self.resume.declared:
                self.declared = msgspec.json.decode(self.resume.declared, type=MatchEnded)
        floor = -1 if self.resume is None else self.resume.last_seq
        codec, where = ruleset.codec, str(store.source_path(self.match_id))
        for expected, line in enumerate(lines, start=floor + 1):
            event = codec.decode(line, where=where, line_no=expected + 1)
            if event.seq != expected:
                raise LogFormatError(where, expected + 1, f"seq {event.seq} where {expected} was expected", field="seq")
            if isinstance(event, Retracted) and event.target_seq <= floor:
                return None
            if isinstance(event, Ruled) and event.applies_to is not None and event.applies_to <= floor:
                return None
            self._fold(event, line)
            self.last_line = line
        return self._finish()

    def _fold(self, event: Event, line: bytes) -> None:
        """One event: its step, its row (the line itself is the detail), metric changes."""
        ruleset, params, match_id, seq = self.rules.ruleset, self.rules.params, self.match_id, event.seq
        before = self.step
        step = self.fold.first(event) if before is None else self.fold(before, event)  # type: ignore[arg-type]
        self.step = step
        if ruleset.places is not None and before is not None:
            for place in ruleset.places(params, before.state, step.state, event):
                self.rows.append("places", (match_id, seq, place.what, place.col, place.row))
        self.replayed += 1
        progress = ruleset.progress(params, step.state)
        if self.first_side is None and progress.turn >= 1 and progress.actor:
            self.first_side = self._side(progress.actor)
        events = self.rows.tables.setdefault("events", [])
        self.event_rows[seq] = len(events)
        events.append((match_id, seq, type(event).__name__, event.by, event.at, progress.turn, progress.round,
                       progress.phase, progress.actor, False, line.decode()))
        self.rows.count += 1
        self.last_at = event.at or self.last_at
        known = self.metrics
        for name, value in ruleset.metrics(params, step.state).items():
            if known.get(name) != value:
                known[name] = value
                self.rows.append("steps", (match_id, seq, name, float(value)))
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
        index = self.event_rows.get(seq)
        if index is not None:
            row = self.rows.tables["events"][index]
            self.rows.tables["events"][index] = (*row[:9], True, row[10])
        self.violations.pop(seq, None)
        self.rulings = [r for r in self.rulings if r.seq != seq]
        if self.declared is not None and self.declared.seq == seq:
            self.declared = None

    def _side(self, seat: str) -> str:
        side_of = self.rules.ruleset.seat_side
        return side_of(seat) if side_of else seat

    def _finish(self) -> Checkpoint:
        """Violation rows, the match's own rows, and the new checkpoint."""
        ruled = {(r.applies_to, r.rule): r for r in self.rulings}
        errors = self.resume.errors if self.resume else 0
        for seq in sorted(self.violations):
            for v in self.violations[seq]:
                ruling = ruled.get((seq, v.rule))
                severity = "info" if ruling else v.severity
                message = f"ruled by the table (seq {ruling.seq}: {ruling.decision}): {v.message}" if ruling else v.message
                errors += severity == "error"
                self.rows.append("violations", (self.match_id, seq, v.rule, severity, message))
        assert self.step is not None
        self._match_rows(errors)
        last_seq, last_hash = self.ws.store.last(self.match_id)
        if self.replayed:  # appends may have landed since: the seam is the last line projected
            last_hash = line_hash(self.last_line)
        return Checkpoint(
            match_id=self.match_id, last_seq=self.step.event.seq if self.replayed else last_seq, last_hash=last_hash,
            inode=_inode(self.ws, self.match_id), fingerprint=self.rules.ruleset.fingerprint,
            state=msgspec.msgpack.encode(self.step.state), metrics=_encoder.encode(self.metrics).decode(),
            first_side=self.first_side, declared=_encoder.encode(self.declared).decode() if self.declared else None,
            errors=errors,
        )

    def _match_rows(self, errors: int) -> None:
        ruleset, params, header = self.rules.ruleset, self.rules.params, self.header
        assert self.step is not None
        state = self.step.state
        progress = ruleset.progress(params, state)
        outcome = ruleset.outcome(params, state)
        result = judge(self.declared, outcome)
        last_seq = self.ws.store.last(self.match_id)[0] if self.replayed == 0 else self.step.event.seq
        self.rows.add(
            "matches", match_id=self.match_id, ruleset=header.ruleset, version=header.version, base_version=self.rules.base,
            source=header.source, title=header.title, batch=_batch_of(self.ws, self.match_id), seed=header.seed, fingerprint=header.fingerprint,
            seat_count=len(header.seats), started_at=header.at, ended_at=self.last_at or header.at,
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


def _batch_of(ws: Workspace, match_id: str) -> str | None:
    batched = ws.store.batches.get(match_id)
    return batched.batch_id if batched else None


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
        self.path = ws.home / "warehouse.duckdb"
        self.replica = ws.home / "warehouse.read.duckdb"
        self._lock_path = ws.home / "warehouse.lock"
        self._fingerprints: set[str] = set()

    @property
    def exists(self) -> bool:
        """Whether a sync has published a replica to read."""
        return self.replica.exists()

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
    def _writer(self, wait: float) -> Iterator[duckdb.DuckDBPyConnection]:
        """The one writer: the lock file first (a second sync waits), then the primary."""
        self.ws.home.mkdir(parents=True, exist_ok=True)
        temp = self.replica.with_name(self.replica.name + ".tmp")
        self._refuse_links(self._lock_path, self.path, self.path.with_name(self.path.name + ".wal"), self.replica, temp)
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
            con = duckdb.connect(str(self.path))
            try:
                con.execute(SCHEMA)
                yield con
                con.execute("CHECKPOINT")
            finally:
                con.close()
            with suppress(FileNotFoundError):
                os.unlink(temp)  # a killed sync's copy; never written through
            shutil.copyfile(self.path, temp)
            os.replace(temp, self.replica)

    @staticmethod
    def _refuse_links(*paths: Path) -> None:
        """WarehouseError if a warehouse file is a symbolic link: never written through."""
        for path in paths:
            if path.is_symlink():
                raise WarehouseError(f"{path} is a symbolic link; the warehouse is never read or written through links (remove it)")

    def sync(self, *, verify: bool = False, wait: float = 600.0) -> SyncReport:
        """Bring the warehouse up to date with every log and note stream.

        The cycle collector is paused meanwhile: states and rows are trees that reference
        counting frees, and a sync allocates millions of them, each allocation burst
        triggering a full scan that finds nothing (about a tenth of the time).
        """
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._sync(verify=verify, wait=wait)
        finally:
            if collecting:
                gc.enable()

    def _sync(self, *, verify: bool, wait: float) -> SyncReport:
        started = time.perf_counter()
        report = SyncReport()
        self._fingerprints = {registry.game(name).fingerprint for name in registry.GAMES}
        with self._writer(wait) as con:
            checkpoints = self._checkpoints(con)
            matches = self.ws.matches()
            batch = Rows()
            touched: dict[str, str] = {}
            done: list[Checkpoint] = []
            for match_id in matches:
                report.matches += 1
                try:
                    plan, why = self._plan(match_id, checkpoints.get(match_id), verify)
                    if plan == "unchanged":
                        report.unchanged += 1
                        continue
                    projection, checkpoint, plan, why = self._project(match_id, checkpoints.get(match_id), plan, why, report)
                except TabletapeError as error:  # one unreadable log must not hide all the others
                    report.failed.append((match_id, str(error)))
                    continue
                report.events += projection.replayed
                batch.extend(projection.rows)
                touched[match_id] = plan
                done.append(checkpoint)
                if plan == "new":
                    report.new += 1
                elif plan == "extend":
                    report.extended += 1
                else:
                    report.rebuilt.append((match_id, why))
                if batch.count >= FLUSH_ROWS:
                    self._write(con, batch, touched, done)
                    touched, done = {}, []
            self._write(con, batch, touched, done)
            gone = sorted(set(checkpoints) - set(matches))
            if gone:
                self._delete(con, gone, (*MATCH_TABLES, *EVENT_TABLES, "notes", "checkpoints", "note_checkpoints"))
                report.removed, report.removed_ids = len(gone), gone
            report.notes = self._sync_notes(con, matches, report)
        report.seconds = time.perf_counter() - started
        report.torn = torn_lines(self.ws)
        return report

    def _project(self, match_id: str, old: Checkpoint | None, plan: str, why: str,
                 report: SyncReport) -> tuple[Projection, Checkpoint, str, str]:
        """Project a match from its checkpoint, or whole if an undo or ruling reaches back."""
        projection = Projection(self.ws, match_id, old if plan == "extend" else None)
        checkpoint = projection.run()
        if checkpoint is None:
            plan, why = "rebuild", "a Retracted or Ruled reaches back before the last sync"
            report.events += projection.replayed
            projection = Projection(self.ws, match_id, None)
            checkpoint = projection.run()
            assert checkpoint is not None
        return projection, checkpoint, plan, why

    def _checkpoints(self, con: duckdb.DuckDBPyConnection) -> dict[str, Checkpoint]:
        rows = con.execute("SELECT * FROM checkpoints").fetchall()
        names = [d[0] for d in con.description or ()]
        return {row[0]: Checkpoint(**dict(zip(names, row, strict=True))) for row in rows}

    def _plan(self, match_id: str, old: Checkpoint | None, verify: bool) -> tuple[str, str]:
        """unchanged / extend / new / rebuild, and why a rebuild.

        Cheap for an unchanged match (no header read, no decoding): a sync that finds
        nothing new costs little however large the store.
        """
        if old is None:
            return "new", ""
        if old.fingerprint not in self._fingerprints:
            return "rebuild", "the rules changed since the last sync"
        if verify:
            _refuse_unverified(self.ws, match_id)
        if _inode(self.ws, match_id) != old.inode:
            return "rebuild", "the log file was replaced"
        if self.ws.store.batches.get(match_id) is not None:
            return "unchanged", ""  # batch files are written whole and never change
        line = _line_at(self.ws, match_id, old.last_seq)
        if line is None or line_hash(line) != old.last_hash:
            return "rebuild", f"line {old.last_seq + 1} changed since the last sync"
        if self.ws.store.last(match_id)[0] == old.last_seq:
            return "unchanged", ""
        return "extend", ""

    def _write(self, con: duckdb.DuckDBPyConnection, batch: Rows, touched: dict[str, str], done: list[Checkpoint]) -> None:
        """One transaction: clear what is replaced, insert the rows, move the checkpoints."""
        if not touched:
            return
        con.execute("BEGIN")
        try:
            self._delete(con, list(touched), (*MATCH_TABLES, "checkpoints"))
            whole = [m for m, plan in touched.items() if plan != "extend"]
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
        for match_id in matches:
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

