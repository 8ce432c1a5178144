"""Folds kept under the store, so no one folds the same log under the same rules twice.

Three kinds of entry live in the store's `ResultCache` (`<store>/cache/`), each keyed by
what it was computed from: the rules (`rules_key`: the game's fingerprint, the version or
variant and every param, and the fold's own code) and the log's content (`LogDigest`: a
hash of every line up to the anchored end, and the line count; an edit anywhere in the
log, even one that leaves the chain head alone, is another key).

- `audit`: a log's `AuditReport`. `audit --all` of an unchanged store, the dashboard opening
  a match and the warehouse sync (which then folds with `apply` alone) read it.
- `fold`: a `Folded` log's last step and its findings so far, from which the fold goes on
  with only the lines written since (an append, the service's first append after a restart).
- `head`: per match and rules, how many lines the newest `fold` entry holds and their digest:
  a hint where to look, checked against the log's own lines before it is used.

An entry is only ever an answer the full fold would give: a miss, a damaged entry or a
deleted cache folds the log again. A fold is kept only where it can go on exactly as the full
fold would: not in the middle of a resynchronisation after a refused event (`Step.resync`),
and with the newest `UNDO_WINDOW` undo entries, which is as far as the audit looks back; a
run of Retracteds reaching past them folds the log again.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator
from hashlib import blake2b, sha256
from itertools import chain
from pathlib import Path
from typing import Any

import msgspec

from events.base import Event
from events.codec import LogCodec, decode_log
from events.journal import split_lines
from events.shared import MatchStarted, Retracted
from projections.read.audit import AuditReport, Findings, Found, report
from projections.read.replay import UNDO_WINDOW, Fold, Step, Undo
from projections.resultcache import ResultCache
from rulesets.protocol import Violation
from rulesets.registry import Rules

CACHE_FOLDER = "cache"
"""The cache's folder in the store: safe to delete at any time."""

_CODE = ("replay.py", "audit.py", "foldcache.py", "timeline.py")
"""The fold's own code and the kept Timeline's: a change to any of these is a change of every key."""
_code_digest: str | None = None


def _fold_code() -> str:
    """A digest of the fold's code, read once per process."""
    global _code_digest
    if _code_digest is None:
        digest = blake2b(digest_size=8)
        for name in _CODE:
            digest.update((Path(__file__).parent / name).read_bytes())
        _code_digest = digest.hexdigest()
    return _code_digest


def rules_key(rules: Rules, *, audit: bool = True) -> tuple[str, ...]:
    """Everything about the rules a fold depends on: the game's code and data (its
    fingerprint), the version or variant, each param's value, and the fold's own code."""
    params = blake2b(msgspec.json.encode(rules.params), digest_size=8).hexdigest()
    return (_fold_code(), rules.spec, rules.ruleset.fingerprint, params, "audit" if audit else "apply")


class LogDigest:
    """A running hash of a log's bytes as they are read: what the log's entries are keyed by.
    Lines are taken with their newline, so hashing lines and hashing the file agree. SHA-256:
    every kept answer is found by hashing its whole log first, and processors with SHA
    instructions (AMD since 2017, Intel since 2019, ARMv8) hash it at twice blake2b's rate."""

    __slots__ = ("_hash", "_lines", "counting", "size")

    def __init__(self, *, counting: bool = True) -> None:
        self._hash = sha256()
        self._lines = 0
        self.counting = counting
        # Whether chunks taken are counted in lines (a key needs only the bytes).
        self.size = 0
        # Bytes taken: where the next line starts.

    @property
    def lines(self) -> int:
        """Lines taken."""
        if not self.counting:
            raise ValueError("this digest does not count lines")
        return self._lines

    def take(self, line: bytes) -> bytes:
        """Take in one line (returned, so a reader hashes as it goes)."""
        self._hash.update(line)
        self._hash.update(b"\n")
        self._lines += 1
        self.size += len(line) + 1
        return line

    def take_chunk(self, chunk: bytes) -> None:
        """Take in bytes as read from the file (whole lines or not)."""
        self._hash.update(chunk)
        self.size += len(chunk)
        if self.counting:
            self._lines += chunk.count(b"\n")

    def key(self) -> tuple[str, str]:
        """The content of what was taken so far."""
        return self._hash.hexdigest()[:32], str(self.size)

    def hashed(self, lines: Iterable[bytes]) -> Iterator[bytes]:
        """`lines`, each taken in as it passes."""
        take = self.take
        for line in lines:
            yield take(line)


def exact_msgpack(value: Any, decoder: msgspec.msgpack.Decoder[Any]) -> bytes | None:
    """`value` as msgpack if it reads back exactly as it is, else None. A typed decoder gives
    a float where a float field held an int (Frontier's positions), and a message or a view
    may print the two apart: such a state is kept only as itself, never as bytes."""
    data = msgspec.msgpack.encode(value)
    return data if msgspec.msgpack.encode(decoder.decode(data)) == data else None


def digest_of(chunks: Iterable[bytes], *, lines: bool = False) -> LogDigest:
    """The digest of a whole log, from its bytes (`FileStore.chunks`); `lines`: counting them."""
    digest = LogDigest(counting=lines)
    for chunk in chunks:
        digest.take_chunk(chunk)
    return digest


class _Point(msgspec.Struct, array_like=True):
    """A kept fold: line 0, the last event and its step, the newest undo entries, the findings."""

    started: bytes
    event: bytes
    violations: tuple[Violation, ...]
    past_end: bool
    states: bytes
    """msgpack of [the state, then each undo entry's state before, newest first]."""
    undo_seqs: list[int]
    undo_depths: list[int]
    undo_events: list[bytes]
    cut: bool
    """The undo stack went deeper than what is kept."""
    found: Found
    voided: int | None


class NeedsHistory(Exception):
    """A Retracted reached past the undo entries a kept fold holds: fold the log again."""


class Folded:
    """A log folded to its last line under one version: the step there and the audit so far."""

    __slots__ = ("_cut_below", "digest", "findings", "fold", "rules", "started", "step")

    def __init__(self, rules: Rules, *, audit: bool = True) -> None:
        self.rules = rules
        self.fold: Fold[Any, Any] = Fold(rules, audit=audit)
        self.step: Step | None = None
        self.started: MatchStarted | None = None
        # Line 0.
        self.findings = Findings()
        self.digest = LogDigest()
        self._cut_below: int | None = None
        # The seq of the oldest undo entry kept, when older ones were not: voiding it would
        # leave this fold with less to undo than the full fold has.

    @property
    def events(self) -> int:
        """Lines folded."""
        return self.digest.lines

    @property
    def last_seq(self) -> int:
        """Seq of the last line folded (-1 before line 0)."""
        return self.digest.lines - 1

    def take(self, events: Iterable[Event]) -> None:
        """Fold events that follow the last one."""
        fold, add, step = self.fold, self.findings.add, self.step
        for event in events:
            if step is None:
                assert isinstance(event, MatchStarted)  # decode_log makes sure
                self.started = event
                step = fold.first(event)
            else:
                step = fold(step, event)
            if type(event) is Retracted and step.voided is not None and step.voided == self._cut_below:
                raise NeedsHistory(f"seq {event.seq} voids the oldest undo entry kept")
            add(step)
            self.step = step
        self.step = step

    def read(self, lines: Iterable[bytes], codec: LogCodec, where: str) -> None:
        """Decode and fold the lines after the last one folded, hashing them as they come."""
        self.take(decode_log(self.digest.hashed(lines), codec, where=where, start=self.events))

    def report(self) -> AuditReport:
        """The audit of the lines folded (what `projections.read.audit.audit` gives for them)."""
        return report(self.rules, self.findings, self.step.state if self.step else None, self.events)

    # --- keeping ------------------------------------------------------------------------

    def keepable(self) -> bool:
        """Whether the fold can go on from a copy exactly as from itself: not in the middle of
        a resynchronisation (its readings are not kept)."""
        step = self.step
        return step is not None and not step.resync and not step.early and not step.resync_left

    def dump(self) -> bytes | None:
        """The fold as bytes (see `keepable`), or None where its states do not read back
        exactly (`exact_msgpack`)."""
        step = self.step
        assert step is not None and self.keepable()
        codec = self.rules.ruleset.codec
        states: list[Any] = [step.state]
        seqs: list[int] = []
        depths: list[int] = []
        events: list[bytes] = []
        node = step.undo
        while node is not None and len(seqs) < UNDO_WINDOW:
            states.append(node.before)
            seqs.append(node.seq)
            depths.append(node.depth)
            events.append(codec.encode(node.event))
            node = node.below
        packed = exact_msgpack(states, msgspec.msgpack.Decoder(list[type(step.state)]))  # type: ignore[misc]
        if packed is None:
            return None
        point = _Point(
            started=codec.encode(self.started), event=codec.encode(step.event), violations=step.violations, past_end=step.past_end,
            states=packed, undo_seqs=seqs, undo_depths=depths, undo_events=events,
            cut=node is not None or self._cut_below is not None, found=self.findings.found(), voided=step.voided,
        )
        return zlib.compress(msgspec.msgpack.encode(point), 1)

    @classmethod
    def load(cls, data: bytes, rules: Rules, digest: LogDigest) -> Folded:
        """A kept fold of the lines `digest` has taken in; ValueError if it cannot be read."""
        try:
            point = msgspec.msgpack.decode(zlib.decompress(data), type=_Point)
            ruleset, params = rules.ruleset, rules.params
            started = ruleset.codec.decode(point.started)
            if not isinstance(started, MatchStarted):
                raise ValueError("line 0 is not MatchStarted")
            state_type: Any = type(ruleset.setup(params, started))
            state, *befores = msgspec.msgpack.decode(point.states, type=list[state_type])
            codec = ruleset.codec
            below: Undo | None = None
            for seq, depth, before, line in reversed(list(zip(point.undo_seqs, point.undo_depths, befores, point.undo_events, strict=True))):
                below = Undo(seq, before, below, depth, codec.decode(line))
            event = codec.decode(point.event)
        except (msgspec.MsgspecError, zlib.error, ValueError, TypeError) as error:
            raise ValueError(f"a kept fold that cannot be read: {error}") from error
        folded = cls(rules)
        folded.started = started
        folded.step = Step(event=event, state=state, violations=point.violations, voided=point.voided, undo=below,
                           past_end=point.past_end)
        folded.findings = Findings(point.found)
        folded.digest = digest
        if point.cut and point.undo_seqs:
            folded._cut_below = point.undo_seqs[-1]
        return folded


def cache_of(home: Path) -> ResultCache:
    """The store's result cache."""
    return ResultCache(home / CACHE_FOLDER)


class _Audit(msgspec.Struct, array_like=True):
    """A kept audit: the report, and the findings as the fold left them (before rulings)."""

    report: AuditReport
    found: Found


def kept_audit(cache: ResultCache, rules: Rules, digest: LogDigest) -> tuple[AuditReport, Found] | None:
    """The audit of a log whose bytes have this digest, and its findings, if kept."""
    data = cache.get("audit", (*rules_key(rules), *digest.key()))
    if data is None:
        return None
    try:
        kept = msgspec.msgpack.decode(data, type=_Audit)
    except msgspec.MsgspecError:
        return None
    return kept.report, kept.found


def keep_audit(cache: ResultCache, rules: Rules, digest: LogDigest, folded: Folded) -> AuditReport:
    """Keep the audit of a whole log (folded, its bytes hashed as `digest`); return it."""
    audited = folded.report()
    cache.put("audit", (*rules_key(rules), *digest.key()), msgspec.msgpack.encode(_Audit(audited, folded.findings.found())))
    return audited


def follows_the_log(found: Found) -> bool:
    """Whether the audited fold of a log with these findings only ever applied its events:
    nothing refused (no reading of the table's other readings taken), nothing undone. Its
    states are then those of `apply` alone."""
    return not found.retracted and all(v.severity == "info" for found_at in found.violations.values() for v in found_at)


def kept_fold(cache: ResultCache, match_id: str, rules: Rules, chunks: Iterator[bytes]) -> tuple[Folded, Iterator[bytes]] | None:
    """The newest kept fold of `match_id` under `rules`, if the log (its bytes, `chunks`)
    still begins with what it folded, and the lines after that; else None."""
    key = rules_key(rules)
    hint = cache.get("head", (*key, match_id))
    if hint is None:
        return None
    try:
        size, expected = msgspec.msgpack.decode(hint, type=tuple[int, str])
    except msgspec.MsgspecError:
        return None
    digest = LogDigest()
    rest = b""
    for chunk in chunks:
        wanted = size - digest.size
        digest.take_chunk(chunk[:wanted])
        if len(chunk) >= wanted:
            rest = chunk[wanted:]
            break
    if digest.key() != (expected, str(size)):
        return None
    data = cache.get("fold", (*key, *digest.key()))
    if data is None:
        return None
    try:
        folded = Folded.load(data, rules, digest)
    except ValueError:
        return None
    return folded, split_lines(chain((rest,), chunks))


def keep_fold(cache: ResultCache, match_id: str, folded: Folded) -> bool:
    """Keep a fold (if it can be gone on from) and point the match's hint at it; whether
    it was kept."""
    if not folded.keepable():
        return False
    dumped = folded.dump()
    if dumped is None:
        return False
    key = rules_key(folded.rules)
    cache.put("fold", (*key, *folded.digest.key()), dumped)
    cache.put("head", (*key, match_id), msgspec.msgpack.encode((folded.digest.size, folded.digest.key()[0])))
    return True
