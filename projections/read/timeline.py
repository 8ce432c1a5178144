"""Scrubbing: the state at any event of a match in at most K applies.

The Timeline folds the log once and keeps every K-th state; `state_at` is a snapshot plus
at most K-1 applies. What it holds per event is small, because a designer may open the
longest logs and the dashboard keeps several Timelines at once: the events are kept as their
log lines, compressed K to a block, and decoded when one is shown; the snapshots as msgpack,
compressed, decoded when scrubbed to; violations only where there are some; and an event's
words are read when asked for, in the state before it.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

import msgspec

from events.base import Event
from events.codec import LogCodec, decode_log
from events.shared import MatchStarted, Retracted
from projections.read.foldcache import exact_msgpack
from projections.read.replay import Fold, Step, replay
from projections.read.words import words
from rulesets.protocol import Violation
from rulesets.registry import Rules

DEFAULT_EVERY = 64

_DECODED = 8
"""Blocks of events and snapshots kept decoded: scrubbing back and forth near one place
decodes each once."""


class _Recent(OrderedDict[int, Any]):
    """The few most recently decoded blocks, by index."""

    def get_or(self, index: int, make: Any) -> Any:
        found = self.get(index)
        if found is None:
            found = self[index] = make(index)
            if len(self) > _DECODED:
                self.popitem(last=False)
        else:
            self.move_to_end(index)
        return found


class LogEvents(Sequence[Event]):
    """A log's events kept as their lines, `every` lines to a compressed block, decoded
    when read: a long log's events cost a fraction of their decoded size."""

    def __init__(self, codec: LogCodec, every: int) -> None:
        self._codec = codec
        self._every = every
        self._blocks: list[bytes] = []
        self._open: list[bytes] = []
        self._count = 0
        self._decoded = _Recent()

    def add(self, line: bytes) -> None:
        """Keep the next line (a block is sealed once full)."""
        self._open.append(line)
        self._count += 1
        if len(self._open) == self._every:
            self._seal()

    def _seal(self) -> None:
        self._blocks.append(zlib.compress(b"\n".join(self._open), 1))
        self._open = []

    def __len__(self) -> int:
        return self._count

    def _block(self, index: int) -> list[Event]:
        if index == len(self._blocks):
            lines = self._open
        else:
            lines = zlib.decompress(self._blocks[index]).split(b"\n")
        start = index * self._every
        return list(decode_log(lines, self._codec, where="timeline", start=start))

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...
    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(f"event {index} is outside this log (0..{self._count - 1})")
        block, offset = divmod(index, self._every)
        if block == len(self._blocks):  # the open block changes as lines come in: not kept decoded
            return self._block(block)[offset]
        return self._decoded.get_or(block, self._block)[offset]

    def __iter__(self) -> Iterator[Event]:
        for block in range(len(self._blocks)):
            yield from self._block(block)
        if self._open:
            yield from self._block(len(self._blocks))


class _Said(Sequence[str]):
    """Each event in words, read in the state before it when asked for."""

    def __init__(self, timeline: Timeline) -> None:
        self._timeline = timeline

    def __len__(self) -> int:
        return len(self._timeline)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        timeline = self._timeline
        before = timeline.state_at(index - 1).state if index > 0 else None
        return words(timeline.rules, before, timeline.events[index])


class _Findings(Sequence[tuple[Violation, ...]]):
    """Each event's violations (most have none, and hold nothing here)."""

    def __init__(self, found: dict[int, tuple[Violation, ...]], count: int) -> None:
        self._found = found
        self._count = count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> tuple[Violation, ...]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[Violation, ...]]: ...
    def __getitem__(self, index: int | slice) -> tuple[Violation, ...] | list[tuple[Violation, ...]]:
        if isinstance(index, slice):
            return [self._found.get(i, ()) for i in range(*index.indices(self._count))]
        return self._found.get(index, ())


class _Kept(msgspec.Struct, array_like=True):
    """A Timeline as bytes (`Timeline.dump`): its blocks and snapshots are bytes already."""

    every: int
    audit: bool
    count: int
    blocks: list[bytes]
    open: list[bytes]
    snapshots: list[bytes]
    found: dict[int, tuple[Violation, ...]]
    voided: dict[int, int]


class Timeline:
    """Random access to the states of one log; also keeps every event's violations."""

    events: Sequence[Event]
    """Every event, by seq (a log read from the store: kept as its lines, `LogEvents`)."""

    def __init__(self, events: Sequence[Event], rules: Rules, *, every: int = DEFAULT_EVERY, audit: bool = True) -> None:
        """The Timeline of events in memory (kept as they are: the caller holds them anyway)."""
        self._start(rules, every, audit)
        self.events = events
        self._fold(events)

    @classmethod
    def read(cls, lines: Iterable[bytes], rules: Rules, *, every: int = DEFAULT_EVERY, audit: bool = True,
             where: str = "<log>") -> Timeline:
        """The Timeline of a log's lines, each kept as it is written (not encoded again)."""
        timeline = cls.__new__(cls)
        timeline._start(rules, every, audit)
        kept = timeline.events
        assert isinstance(kept, LogEvents)
        timeline._fold(decode_log(timeline._keeping(kept, lines), rules.ruleset.codec, where=where))
        return timeline

    def _start(self, rules: Rules, every: int, audit: bool) -> None:
        self.rules = rules
        self.every = every
        self.audit = audit
        self.events = LogEvents(rules.ruleset.codec, every)
        self.voided: dict[int, int] = {}
        # Retracted seq -> the seq it voided.
        self._found: dict[int, tuple[Violation, ...]] = {}
        self._snapshots: list[Step | bytes] = []
        # Every `every`-th step: msgpack of its state, compressed, where that is all the step
        # is; the Step itself after a refused event (the readings it carries decide the
        # states after it) or where a Retracted follows in its block (the undo stack).
        self._snapshot_decoder: Any = None
        self._thawed = _Recent()

    def dump(self) -> bytes | None:
        """The Timeline as bytes, or None where a snapshot is more than a state (after a
        refused event, or before a Retracted): those steps are kept only in memory."""
        snapshots, events = self._snapshots, self.events
        if not isinstance(events, LogEvents) or not all(isinstance(snapshot, bytes) for snapshot in snapshots):
            return None
        return msgspec.msgpack.encode(_Kept(
            every=self.every, audit=self.audit, count=len(events), blocks=events._blocks, open=events._open,
            snapshots=snapshots, found=self._found, voided=self.voided,  # type: ignore[arg-type]
        ))

    @classmethod
    def load(cls, data: bytes, rules: Rules) -> Timeline:
        """A Timeline from `dump`; ValueError if the bytes are not one."""
        try:
            kept = msgspec.msgpack.decode(data, type=_Kept)
        except msgspec.MsgspecError as error:
            raise ValueError(f"not a kept Timeline: {error}") from error
        timeline = cls.__new__(cls)
        timeline._start(rules, kept.every, kept.audit)
        events = timeline.events
        assert isinstance(events, LogEvents)
        events._blocks, events._open, events._count = kept.blocks, kept.open, kept.count
        if kept.count != len(kept.blocks) * kept.every + len(kept.open) or len(kept.snapshots) != -(-kept.count // kept.every):
            raise ValueError("a kept Timeline whose parts do not add up")
        timeline._snapshots = list(kept.snapshots)
        timeline._found, timeline.voided = kept.found, kept.voided
        started = events[0]
        if not isinstance(started, MatchStarted):
            raise ValueError("a kept Timeline whose line 0 is not MatchStarted")
        state_type = type(rules.ruleset.setup(rules.params, started))
        timeline._snapshot_decoder = msgspec.msgpack.Decoder(tuple[int, bool, state_type])  # type: ignore[valid-type]
        return timeline

    @staticmethod
    def _keeping(events: LogEvents, lines: Iterable[bytes]) -> Iterator[bytes]:
        add = events.add
        for line in lines:
            add(line)
            yield line

    def _fold(self, events: Iterable[Event]) -> None:
        every, found, voided, snapshots = self.every, self._found, self.voided, self._snapshots
        newest: Step | None = None
        # The newest snapshot, kept whole until its block is read: a Retracted in the block
        # may void events before it, which only its undo stack knows.
        undone = False
        for step in replay(events, self.rules, audit=self.audit):
            seq = step.event.seq
            if step.violations:
                found[seq] = step.violations
            if step.voided is not None:
                voided[seq] = step.voided
            if type(step.event) is Retracted:
                undone = True
            if seq % every == 0:
                if newest is not None:
                    snapshots[-1] = newest if undone else self._frozen(newest)
                elif seq == 0:
                    state_type = type(step.state)
                    self._snapshot_decoder = msgspec.msgpack.Decoder(tuple[int, bool, state_type])  # type: ignore[valid-type]
                newest, undone = step, False
                snapshots.append(step)
        if newest is None:
            raise ValueError("a log starts with MatchStarted")
        snapshots[-1] = newest if undone else self._frozen(newest)

    def _frozen(self, step: Step) -> Step | bytes:
        """A snapshot as little as it can be: its state's bytes, unless the step carries more
        than its state (readings after a refused event)."""
        if not (step.resync or step.early):
            packed = exact_msgpack((step.event.seq, step.past_end, step.state), self._snapshot_decoder)
            if packed is not None:
                return zlib.compress(packed, 1)
        return msgspec.structs.replace(step, undo=None)

    def _thaw(self, index: int) -> Step:
        snapshot = self._snapshots[index]
        if isinstance(snapshot, Step):
            return snapshot
        return self._thawed.get_or(index, self._decode)

    def _decode(self, index: int) -> Step:
        snapshot = self._snapshots[index]
        assert isinstance(snapshot, bytes)
        seq, past_end, state = self._snapshot_decoder.decode(zlib.decompress(snapshot))
        return Step(event=self.events[seq], state=state, past_end=past_end)

    @property
    def violations(self) -> Sequence[tuple[Violation, ...]]:
        """Each event's violations, by seq."""
        return _Findings(self._found, len(self.events))

    @property
    def said(self) -> Sequence[str]:
        """Each event in words, read in the state before it (`projections.read.words`)."""
        return _Said(self)

    def __len__(self) -> int:
        return len(self.events)

    @property
    def last_seq(self) -> int:
        """Seq of the last event."""
        return len(self.events) - 1

    def curves(self) -> dict[str, list[float | None]]:
        """Each of the game's metrics (`Ruleset.metrics`) after every event, in seq order:
        how the score went, for a chart where the game draws no board (None where a metric
        is not given yet). Folded again on each call: a page asks once per match."""
        metrics, params = self.rules.ruleset.metrics, self.rules.params
        rows = [metrics(params, step.state) for step in replay(self.events, self.rules, audit=False)]
        names = list(dict.fromkeys(name for row in rows for name in row))
        return {name: [row.get(name) for row in rows] for name in names}

    def steps(self, start: int, stop: int) -> Iterator[Step]:
        """The steps of events `start` up to `stop` (exclusive), each equal to `state_at`'s,
        folded once from one snapshot per stretch of `every` events rather than once each."""
        if not 0 <= start <= stop <= len(self.events):
            raise IndexError(f"events {start}..{stop} are outside this log (0..{self.last_seq})")
        seq = start
        while seq < stop:
            block = (seq // self.every) * self.every
            end = min(block + self.every, stop)
            step = self._thaw(seq // self.every)
            # As in `state_at`: a stretch with a finding in it is folded with the checks (a
            # fold with them gives the same states as one without up to the first finding).
            flagged = self.audit and (bool(step.resync) or any(s in self._found for s in range(block, end)))
            fold: Fold[Any, Any] = Fold(self.rules, audit=flagged)
            for at in range(block, end):
                if at > block:
                    step = fold(step, self.events[at])
                if at >= seq:
                    yield Step(event=step.event, state=step.state, violations=self.violations[at], voided=self.voided.get(at),
                               undo=step.undo)
            seq = end

    def state_at(self, seq: int) -> Step:
        """The step at event `seq` (the state after it); at most `every` applies."""
        if not 0 <= seq < len(self.events):
            raise IndexError(f"seq {seq} is outside this log (0..{self.last_seq})")
        start = (seq // self.every) * self.every
        step = self._thaw(seq // self.every)
        # A refused event lets the next one resynchronise the replay (`Step.resync`), which
        # takes the checks: only a stretch with a finding in it is folded with them.
        found = self._found
        flagged = self.audit and (bool(step.resync) or any(s in found for s in range(start, seq + 1)))
        fold: Fold[Any, Any] = Fold(self.rules, audit=flagged)
        for event in self.events[start + 1 : seq + 1]:
            step = fold(step, event)
        return Step(event=step.event, state=step.state, violations=found.get(seq, ()), voided=self.voided.get(seq),
                    undo=step.undo)

