"""The Python API over one store: what the command line and the dashboard both call.

A `Workspace` ties a FileStore (logs, notes, variants) to the ruleset registry. Every
method takes plain values and returns plain values or typed errors; no printing here.
"""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from events.base import Event
from events.codec import (
    LogCodec,
    decode_drafts,
    decode_log,
    encode_chained,
    read_header,
    refuse_bom,
)
from events.errors import LogFormatError, TabletapeError, UnknownRulesetError
from events.journal import ChainReport, Written, verify_lines
from events.notes import Notebook
from events.shared import MatchStarted, Retracted, Source
from events.store import FileStore, import_log, new_match_id, validate_match_id
from projections.read import retype
from projections.read.audit import AuditReport
from projections.read.branches import Family, Parting, family, parting
from projections.read.compare import Comparison, compare
from projections.read.foldcache import (
    Folded,
    NeedsHistory,
    cache_of,
    digest_of,
    keep_audit,
    keep_fold,
    kept_audit,
    kept_fold,
    rules_key,
)
from projections.read.frames import Frame, frames
from projections.read.replay import Step, replay
from projections.read.rulenotes import MatchRule, RuleNotes, game_of_rule, gather
from projections.read.timeline import Timeline
from projections.read.words import words
from projections.resultcache import ResultCache
from rulesets import freeform, registry
from rulesets.levels import level_of
from rulesets.registry import Rules
from rulesets.variants import Variant, read_variant

HOME_ENV = "TABLETAPE_HOME"
WAREHOUSE = "warehouse.duckdb"
"""The warehouse's primary file in the store's folder (projections/warehouse/sync.py)."""
WAREHOUSE_REPLICA = "warehouse.read.duckdb"
"""The read replica a sync publishes: readers open it, and it exists once a sync has run."""


class Imported(msgspec.Struct, frozen=True, kw_only=True):
    """A log just stored and its audit under the rules it names: said when it comes in, so
    a log recorded under other rules is noticed there, not later as a jump in a page's
    count of violations."""

    started: MatchStarted
    """Line 0 as stored (its match id is the one the log is stored under)."""
    report: AuditReport

    @property
    def broken(self) -> int:
        """Events that break a rule (an event breaking two is counted once)."""
        return len({violation.seq for violation in self.report.errors})

    @property
    def mostly_broken(self) -> bool:
        """More than half of the log's events break a rule: likely read under the wrong rules."""
        return self.broken * 2 > self.report.events

    def summary(self) -> str:
        """`m1: 387 events under mortalgate@2.5: 4 rule violations, 0 warnings, 2 rulings or infos`."""
        return f"{self.started.match_id}: {self.report.events:,} events under {self.report.rules}: {self.report.tally.text()}"

    def warning(self) -> str | None:
        """The plain question when most events break the rules, else None."""
        if not self.mostly_broken:
            return None
        return (f"most of these events break the rules of {self.report.rules}: was this recorded under another game "
                f"or version? ({self.broken:,} of {self.report.events:,} events break a rule; "
                f"`tabletape audit {self.started.match_id} --against {self.started.ruleset}@VERSION` reads it under another version)")


def default_home() -> Path:
    """`$TABLETAPE_HOME`, else `./data`."""
    return Path(os.environ.get(HOME_ENV) or "data")


class Workspace:
    """One store of matches and the rules to read them with."""

    def __init__(self, home: Path | str | None = None) -> None:
        self.home = Path(home) if home is not None else default_home()
        self.store = FileStore(self.home)
        self.notes = Notebook(self.store)
        self.cache: ResultCache = cache_of(self.home)
        # Folds and audits already done, keyed by the log's content and the rules
        # (`projections.read.foldcache`); deleting it changes no answer.

    def has_warehouse(self) -> bool:
        """Whether a sync has published the warehouse, known without loading DuckDB (a
        command that would keep it current has nothing to keep when there is none)."""
        return (self.home / WAREHOUSE_REPLICA).exists()

    # --- rules ----------------------------------------------------------------------

    def rules(self, spec: str) -> Rules:
        """Resolve `game[@version-or-variant]` against the built-in games and this store's variants."""
        return registry.resolve(spec, self.home)

    def rulesets(self) -> list[dict[str, Any]]:
        """Every game with its versions and this store's variants; a variant file that
        cannot be read is left out and named in `store.skipped` with its error."""
        variants = self._readable_variants()
        out = []
        for ruleset in registry.games():
            name = ruleset.name
            out.append({
                "name": name,
                "title": ruleset.title,
                "newest": ruleset.newest,
                "level": level_of(ruleset).line(),
                "bots": list(ruleset.bots),
                "versions": [{"id": v.id, "title": v.title} for v in ruleset.versions.values()],
                "variants": [{"id": v.id, "extends": v.extends, "title": v.title} for v in variants if v.game == name],
            })
        return out

    def unloadable(self) -> dict[str, str]:
        """Installed games that cannot load -> the one-line error (every other game works)."""
        return registry.problems()

    def _readable_variants(self) -> list[Variant]:
        """Every variant file of the store that reads; the others go to `store.skipped`."""
        directory = registry.variants_dir(self.home)
        found = []
        for path in sorted(directory.glob("*.toml")) if directory and directory.is_dir() else ():
            try:
                found.append(read_variant(path))
            except (TabletapeError, OSError) as error:
                self.store.skipped[str(path)] = str(error).removeprefix(f"{path}: ")
        return found

    def rules_of(self, match_id: str, against: str | None = None) -> Rules:
        """The rules a match was recorded under, or `against` for a re-audit."""
        header = self.header(match_id)
        if against:
            return self._same_game(match_id, header, against)
        return self.rules_recorded(header)

    def rules_recorded(self, header: MatchStarted) -> Rules:
        """The rules a log's line 0 says it was recorded under (for a caller holding it)."""
        registry.game_of_log(header)
        return registry.rules_for_log(header.ruleset, header.version, header.params, self.home)

    def _same_game(self, match_id: str, header: MatchStarted, spec: str) -> Rules:
        """Another version of the match's own game; another game's rules cannot read its log."""
        rules = self.rules(spec)
        if rules.ruleset.name != header.ruleset:
            raise UnknownRulesetError(f"{spec} is a version of {rules.ruleset.name}, but match {match_id} is a "
                                 f"{header.ruleset} game: name a {header.ruleset} version, e.g. {header.ruleset}@{header.version}")
        return rules

    # --- writing --------------------------------------------------------------------

    def new_match(
        self,
        spec: str,
        seats: dict[str, str],
        *,
        title: str = "",
        options: dict[str, Any] | None = None,
        source: Source = "playtest",
        seed: int | None = None,
        match_id: str | None = None,
        at: datetime | None = None,
    ) -> MatchStarted:
        """Start a match: check seats and options against the rules, then write line 0."""
        rules = self.rules(spec)
        when = at or datetime.now(UTC)
        match_id = validate_match_id(match_id or new_match_id(when, rules.ruleset.name))
        started = MatchStarted(
            seq=0, at=when, match_id=match_id, ruleset=rules.ruleset.name, version=rules.version,
            seats=dict(seats), options=dict(options or {}), params=dict(rules.overrides), seed=seed,
            source=source, title=title, fingerprint=rules.ruleset.fingerprint,
            package=rules.ruleset.package or msgspec.UNSET,
        )
        problems = rules.ruleset.validate_start(rules.params, started)
        if problems:
            raise LogFormatError("--seats", None, problems[0])
        return self.store.create(started)

    def append(self, match_id: str, data: bytes | str, *, expected_seq: int | None = None, where: str = "<input>") -> Written[Event]:
        """Decode JSON-lines input and append it; all or nothing.

        Without `expected_seq` the current last seq is used (a person at the CLI); a
        recorder passes the seq it last saw so a concurrent writer gets a conflict.
        """
        events = decode_drafts(data, self.codec(match_id), where=where)
        return self.append_events(match_id, events, expected_seq=expected_seq, where=where)

    def append_events(self, match_id: str, events: Sequence[Event], *, expected_seq: int | None = None, where: str = "<input>") -> Written[Event]:
        """Append typed events (the recorder and bots use this): the events as stamped, with
        the lines they were written as."""
        for line_no, event in enumerate(events, start=1):
            if isinstance(event, MatchStarted):
                raise LogFormatError(where, line_no, "MatchStarted can only be line 0 of a new match", field="type")
        last = self.store.last(match_id)[0] if expected_seq is None else expected_seq
        for line_no, event in enumerate(events, start=1):
            if event.seq not in (-1, last + line_no):
                problem = "duplicate" if event.seq <= last else "gap"
                raise LogFormatError(where, line_no, f"seq {problem}: this line would be seq {last + line_no}, it says {event.seq}", field="seq")
        self._check_retractions(match_id, events, last, where)
        self._check_seats(match_id, events, where)
        return self.store.append(match_id, events, expected_seq=last)

    def _check_retractions(self, match_id: str, events: Sequence[Event], last: int, where: str) -> None:
        """A Retracted must void the latest event still in force: refuse one that cannot."""
        if not any(isinstance(e, Retracted) for e in events):
            return
        in_force = self._in_force(match_id, last)
        for line_no, event in enumerate(events, start=1):
            seq = last + line_no
            if isinstance(event, Retracted):
                latest = in_force[-1] if in_force else None
                if event.target_seq != latest:
                    raise LogFormatError(where, line_no, f"Retracted must name the latest event still in force (seq {latest}), not {event.target_seq}", field="target_seq")
                in_force.pop()
            else:
                in_force.append(seq)

    def _check_seats(self, match_id: str, events: Sequence[Event], where: str) -> None:
        """A log-only match has no rules to check, but a seat it lacks is a slip of the pen:
        refuse an event that names one (who did it, whose score, whom the turn passes to)."""
        if not any(isinstance(e, freeform.EVENTS) for e in events):
            return
        header = self.header(match_id)
        if header.ruleset != freeform.NAME:
            return
        for line_no, event in enumerate(events, start=1):
            problem = freeform.unknown_seat(header, event)
            if problem:
                raise LogFormatError(where, line_no, problem, field="seat")

    def verbs_used(self, title: str, *, match_id: str | None = None) -> list[str]:
        """The verbs a designer's game (log-only matches of this title) has been played with:
        those of `match_id` first, in their first use, then the other matches' by how often
        each was used. The recorder offers them, so a table names an action the same way
        every time."""
        own: list[str] = []
        counts: dict[str, int] = {}
        for other in self.matches():
            try:
                header = self.header(other)
            except TabletapeError:
                continue
            if header.ruleset != freeform.NAME or (header.title != title and other != match_id):
                continue
            for event in self.events(other):
                if isinstance(event, freeform.ActionTaken):
                    if other == match_id and event.verb not in own:
                        own.append(event.verb)
                    counts[event.verb] = counts.get(event.verb, 0) + 1
        others = sorted((v for v in counts if v not in own), key=lambda v: (-counts[v], v))
        return own + others

    def _in_force(self, match_id: str, upto: int) -> list[int]:
        """Seqs of events not voided by a Retracted up to seq `upto`, oldest first (line 0
        excluded). Lines past `upto` belong to a writer who got there first: this append
        then fails the store's expected-seq check, and must not be refused for them."""
        in_force: list[int] = []
        for event in self.events(match_id):
            if event.seq > upto:
                break
            if isinstance(event, Retracted):
                if in_force:
                    in_force.pop()
            elif event.seq > 0:
                in_force.append(event.seq)
        return in_force

    def import_log(self, data: bytes, *, match_id: str | None = None, where: str = "<input>") -> MatchStarted:
        """Import a whole log file; nothing is stored unless every line checks."""
        refuse_bom(data, where)
        lines = data.split(b"\n", 1)
        header = read_header(lines[0], where=where)
        self.rules_of_header(header)
        if match_id is not None and match_id != header.match_id:
            data = self._renamed(data, header, match_id, where)
        return import_log(self.store, match_id or header.match_id, data,
                          lambda h: registry.game_of_log(h).codec, where=where)

    def retype(self, match_id: str, spec: str, map_path: Path, *, new_id: str | None = None) -> MatchStarted:
        """A log-only match re-read as the typed game `spec` through a map of its verbs
        (`projections.read.retype`), stored as a new match that names the original in a note;
        the original is left as it was."""
        header = self.header(match_id)
        if header.ruleset != freeform.NAME:
            raise TabletapeError(f"match {match_id} is a {header.ruleset} game, not log-only: only a log-only match is retyped")
        rules = self.rules(spec)
        if rules.ruleset.name == freeform.NAME:
            raise TabletapeError(f"--as names the game to retype {match_id} as; {spec} is log-only itself")
        mapping = retype.read_map(map_path)
        new_id = validate_match_id(new_id or new_match_id(datetime.now(UTC), rules.ruleset.name))
        data = retype.retyped_lines(list(self.events(match_id)), rules, mapping, match_id=new_id, where=f"{match_id} retyped by {map_path}")
        started = self.import_log(data, where=f"{match_id} retyped by {map_path}")
        self.notes.add(started.match_id, from_seq=0, author="tabletape",
                       text=f"retyped from the log-only match {match_id} as {rules.spec} with the map {map_path.name}")
        return started

    def branch(self, match_id: str, at: int, *, new_id: str | None = None, title: str = "") -> MatchStarted:
        """A new match whose log is the parent's events up to `at` (chained anew under its
        own line 0, which names the parent and `at`), to be played on from there; the
        parent is left as it was."""
        header = self.header(match_id)
        self.rules_recorded(header)
        last = self.store.last(match_id)[0]
        if not 0 <= at <= last:
            raise TabletapeError(f"--at {at} is outside match {match_id} (events 0..{last})")
        new_id = validate_match_id(new_id or new_match_id(datetime.now(UTC), header.ruleset))
        started = msgspec.structs.replace(
            header, match_id=new_id, prev="", branch_of=match_id, branch_at=at,
            title=title or f"{header.title or match_id}, from event {at}",
        )
        shared = [event for event in self.events(match_id) if 1 <= event.seq <= at]
        self.store.import_lines(new_id, encode_chained([started, *shared]))
        return started

    def family(self, match_id: str) -> Family:
        """The match's parent (if it is a branch) and its branches, to step between them."""
        header = self.header(match_id)
        return family(match_id, header, self._headers())

    def parting(self, a: str, b: str) -> Parting:
        """Where two matches of one game (a branch and its parent, two branches) part: the
        events they share and what each did next."""
        first, second = self.header(a), self.header(b)
        if first.ruleset != second.ruleset:
            raise TabletapeError(f"{a} is a {first.ruleset} game and {b} a {second.ruleset} game: they share no play")
        return parting(self.rules_recorded(first), a, list(self.events(a)), b, list(self.events(b)))

    def notes_on_rule(self, rule: str, *, version: str | None = None, branches: bool = False) -> RuleNotes:
        """Every note about `rule` (on matches of `version` only, if given; branches only when
        asked), with the audit's findings of that rule, by game and version. The rule belongs
        to the game its id names and to every game a note about it was taken on (a designer's
        package may play one rules text as several games, each naming its ids `pig/...`)."""
        prefix = game_of_rule(rule)
        headers = [h for h in self._headers()
                   if (branches or not h.is_branch) and (not version or h.version == version)]
        noted = {h.match_id: notes for h in headers
                 if (notes := tuple(note for note in self.notes.list(h.match_id) if note.rule == rule))}
        games = {prefix} | {h.ruleset for h in headers if h.match_id in noted}
        if not any(name in registry.names() for name in games):
            raise TabletapeError(f"--rule {rule}: no installed game is named {prefix!r} and no note names this rule")
        found = [
            MatchRule(match_id=h.match_id, game=h.ruleset, version=h.version, notes=noted.get(h.match_id, ()),
                      findings=sum(1 for violation in self.audit(h.match_id).violations if violation.rule == rule))
            for h in headers if h.ruleset in games
        ]
        return gather(rule, found, order={game: tuple(registry.game(game).versions) for game in games if game in registry.names()})

    def _headers(self) -> Iterator[MatchStarted]:
        """Line 0 of every match whose log reads and whose game is installed."""
        for match_id in self.matches():
            try:
                header = self.header(match_id)
            except TabletapeError:
                continue
            if self.missing_game(header) is None:
                yield header

    def imported(self, started: MatchStarted) -> Imported:
        """A log `import_log` just stored, audited under the rules it names: what a person
        importing it is told (the command line and the Matches page)."""
        return Imported(started=started, report=self.audit(started.match_id))

    def _renamed(self, data: bytes, header: MatchStarted, match_id: str, where: str) -> bytes:
        """The log with line 0 naming `match_id`, re-chained: its chain is checked first (when it
        has one), since renaming changes line 0 and so every hash after it."""
        validate_match_id(match_id)
        lines = [line for line in data.split(b"\n") if line.strip()]
        events = list(decode_log(lines, registry.game_of_log(header).codec, where=where, exact=True))
        if any(event.prev for event in events):
            report = verify_lines(lines)
            if not report.ok:
                raise LogFormatError(where, report.first_bad_line or 1, report.message.split(": ", 1)[-1], field="prev")
        events[0] = msgspec.structs.replace(events[0], match_id=match_id)
        return b"".join(line + b"\n" for line in encode_chained(events))

    def missing_game(self, header: MatchStarted) -> str | None:
        """What a log needs that is not installed here (`needs the package pig 0.2`); None
        when its game loads. Such a log is still listed, exported and verified."""
        try:
            registry.game_of_log(header)
        except registry.GameMissingError as error:
            return str(error)
        return None

    def rules_of_header(self, header: MatchStarted) -> Rules:
        """The rules named by a MatchStarted (fails clearly if the game is not installed)."""
        registry.game_of_log(header)
        return registry.rules_for_log(header.ruleset, header.version, header.params, self.home)

    # --- reading ----------------------------------------------------------------------

    def matches(self) -> list[str]:
        """Every match id in the store, oldest first."""
        return self.store.matches()

    def header(self, match_id: str) -> MatchStarted:
        """Line 0 of a match."""
        return read_header(self.store.first_line(match_id), where=str(self.store.source_path(match_id)))

    def headers(self) -> Iterator[tuple[str, MatchStarted | TabletapeError]]:
        """Line 0 of every match, or the one-line error reading it, oldest first: from the
        store's header index, so a listing reads only the logs that changed since the last."""
        for match_id, path, line in self.store.header_lines():
            if isinstance(line, TabletapeError):
                yield match_id, line
                continue
            try:
                yield match_id, read_header(line, where=str(path))
            except TabletapeError as error:
                yield match_id, error

    def codec(self, match_id: str) -> LogCodec:
        """The decoder of a match's lines: one per game, whatever version or variant."""
        return registry.game_of_log(self.header(match_id)).codec

    def events(self, match_id: str) -> Iterator[Event]:
        """Decode a match's log lazily with its game's codec."""
        return decode_log(self.store.lines(match_id), self.codec(match_id), where=str(self.store.source_path(match_id)))

    def tail(self, match_id: str, after_seq: int) -> list[Event]:
        """Events written after `after_seq`: what a live view polls for."""
        codec = self.codec(match_id)
        where = str(self.store.source_path(match_id))
        return [codec.decode(line, where=where, line_no=after_seq + 2 + i) for i, line in enumerate(self.store.tail(match_id, after_seq))]

    def replay(self, match_id: str, *, against: str | None = None, audit: bool = True) -> Iterator[Step]:
        """Stream the match's steps under its own rules or `against` another version."""
        return replay(self.events(match_id), self.rules_of(match_id, against), audit=audit)

    def timeline(self, match_id: str, *, against: str | None = None, every: int = 64) -> Timeline:
        """Random access to every state of the match (for scrubbing); kept in the store's
        cache by the log's content and the rules, so opening it again reads it back."""
        rules = self.rules_of(match_id, against)
        digest = digest_of(self.store.chunks(match_id), lines=True)
        key = (*rules_key(rules), *digest.key(), str(every))
        kept = self.cache.get("timeline", key)
        if kept is not None:
            try:
                return Timeline.load(kept, rules)
            except ValueError:
                pass
        timeline = Timeline.read(self.store.lines(match_id), rules, every=every, where=str(self.store.source_path(match_id)))
        dumped = timeline.dump()
        if dumped is not None and timeline.last_seq + 1 == digest.lines:  # the log as hashed (no append since)
            self.cache.put("timeline", key, dumped)
        return timeline

    def frames(self, match_id: str, *, seat: str | None = None, against: str | None = None, start: int = 0,
               stop: int | None = None) -> list[Frame]:
        """Events `start` up to `stop` (None: through the last) as `seat` sees them (None:
        the whole table), each with its board, words and audit findings: what a player of
        the match's recording is handed (`projections.read.frames`)."""
        header = self.header(match_id)
        if seat is not None and seat not in header.seats:
            raise TabletapeError(f"match {match_id} has no seat {seat!r} (its seats: {', '.join(header.seats)})")
        timeline = self.timeline(match_id, against=against)
        if not 0 <= start <= (timeline.last_seq + 1 if stop is None else stop) <= timeline.last_seq + 1:
            raise TabletapeError(f"events {start}..{stop} are outside match {match_id} (events 0..{timeline.last_seq})")
        violations = self.audit(match_id, against=against).violations
        return list(frames(timeline, seat, start, stop, violations=violations))

    def state_at(self, match_id: str, seq: int, *, against: str | None = None) -> Step:
        """The step at event `seq` (the state after it), in one streaming pass that stops there."""
        return self.position(match_id, seq, against=against, recent=0)[0]

    def position(self, match_id: str, seq: int, *, against: str | None = None, recent: int = 5) -> tuple[Step, dict[int, str]]:
        """The step at event `seq` and the last `recent` events up to it in words (by seq),
        each read in the state before it. The log is read and folded only up to `seq` and
        only those events are described, so a position early in a long log costs the
        events before it, not the log."""
        last = self.store.last(match_id)[0]
        if not 0 <= seq <= last:
            raise TabletapeError(f"--at {seq} is outside match {match_id} (events 0..{last})")
        rules = self.rules_of(match_id, against)
        befores: deque[tuple[Any, Event]] = deque(maxlen=recent)
        before = None
        for step in replay(self.events(match_id), rules, audit=False):
            if recent:
                befores.append((before, step.event))
                before = step.state
            if step.event.seq == seq:
                return step, {event.seq: words(rules, state, event) for state, event in befores}
        raise TabletapeError(f"--at {seq} is outside match {match_id}")

    def audit(self, match_id: str, *, against: str | None = None) -> AuditReport:
        """Every violation and the result check, under the match's rules or another version.

        Kept in the store's cache by the log's content and the rules: asked again of an
        unchanged log, it is read back; of a log appended to since a kept fold, only the
        new lines are folded."""
        rules = self.rules_of(match_id, against)
        digest = digest_of(self.store.chunks(match_id))
        kept = kept_audit(self.cache, rules, digest)
        if kept is not None:
            return kept[0]
        if self.cache.get("head", (*rules_key(rules), match_id)) is not None:  # a match being appended to
            folded = self.folded(match_id, against=against)
            digest = folded.digest
        else:
            folded = Folded(rules)
            folded.read(self.store.lines(match_id), rules.ruleset.codec, str(self.store.source_path(match_id)))
        return keep_audit(self.cache, rules, digest, folded)

    def kept_audit(self, match_id: str, *, against: str | None = None) -> AuditReport | None:
        """The audit `audit` would read back from the store's cache, if it is kept (else None:
        nothing is folded)."""
        chunks = iter(self.store.chunks(match_id))  # one read: line 0 names the rules, the bytes are the key
        first = next(chunks, None)
        if first is None:
            return None
        header = read_header(first.split(b"\n", 1)[0], where=str(match_id))
        rules = self._same_game(match_id, header, against) if against else self.rules_recorded(header)
        kept = kept_audit(self.cache, rules, digest_of(itertools.chain((first,), chunks)))
        return kept[0] if kept is not None else None

    def folded(self, match_id: str, *, against: str | None = None) -> Folded:
        """The audited fold of the whole log, gone on from the newest kept fold of its
        beginning (folding only the lines written since), and kept again for the next append."""
        rules = self.rules_of(match_id, against)
        where = str(self.store.source_path(match_id))
        codec = rules.ruleset.codec
        kept = kept_fold(self.cache, match_id, rules, self.store.chunks(match_id))
        try:
            if kept is None:
                folded = Folded(rules)
                folded.read(self.store.lines(match_id), codec, where)
            else:
                folded, rest = kept
                folded.read(rest, codec, where)
        except NeedsHistory:
            folded = Folded(rules)
            folded.read(self.store.lines(match_id), codec, where)
        keep_fold(self.cache, match_id, folded)
        return folded

    def compare(self, match_id: str, a: str, b: str) -> Comparison:
        """Replay a match under two versions: first disagreement and how the outcome changes."""
        header = self.header(match_id)
        first, second = self._same_game(match_id, header, a), self._same_game(match_id, header, b)
        return compare(list(self.events(match_id)), first, second)

    def verify(self, match_id: str) -> ChainReport:
        """Check the match's hash chain."""
        return self.store.verify(match_id)

    def export(self, match_id: str) -> bytes:
        """The match's log exactly as stored."""
        return b"".join(line + b"\n" for line in self.store.lines(match_id))

    def describe(self, spec: str) -> dict[str, Any]:
        """A version's params with provenance, its changelog, the game's readings, and its
        table of rule ids, each with the passage of the rules text it stands for."""
        rules = self.rules(spec)
        ruleset = rules.ruleset
        version = ruleset.versions[rules.base]
        params = []
        for name in rules.params.__struct_fields__:
            source = version.sources.get(name)
            value = getattr(rules.params, name)
            overridden = name in rules.overrides
            params.append({
                "name": name, "value": value,
                "source": "variant" if overridden else (source.source if source else "rules"),
                "note": f"set by variant {rules.version}" if overridden else (source.note if source else ""),
            })
        return {
            "spec": rules.spec, "title": version.title, "base": rules.base, "params": params,
            "changelog": [{"rules": list(c.rules), "text": c.text} for c in version.changelog],
            "readings": [to_builtins(r) for r in ruleset.readings],
            "rule_ids": [{"id": r.id, "passage": r.passage, "forbids": r.forbids} for r in ruleset.rule_ids or ()],
        }

    def rulebook(self, spec: str) -> Any:
        """The game's rulebook check under a version's params (printed tables vs the rules)."""
        rules = self.rules(spec)
        if rules.ruleset.rulebook is None:
            raise TabletapeError(f"{rules.ruleset.name} prints no tables to check")
        return rules.ruleset.rulebook(rules.params)

    def schema(self, game: str) -> dict[str, Any]:
        """JSON Schema of every line a game's logs may hold."""
        return registry.game(game).codec.schema()


def to_builtins(value: Any) -> Any:
    """Plain JSON-ready data from Structs (for printing and the dashboard)."""
    return msgspec.to_builtins(value)
