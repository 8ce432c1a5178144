"""Reading and writing log lines: one decode per line, errors that say where.

A ruleset hands its event types to one `LogCodec`; the codec builds a single tagged-union
decoder at construction. Old shapes of events are turned into current ones by upcasters,
tried only when the fast typed decode fails, so logs written by earlier releases keep
loading without slowing down current ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Union

import msgspec

from events.base import Event
from events.chain import GENESIS, line_hash
from events.errors import LogFormatError
from events.shared import SHARED_EVENTS, MatchStarted
from events.values import check_values

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""Turns one raw line (a dict) of an old shape into the next shape; keyed by old `type`."""

_AT_FIELD = re.compile(r"\s*-\s*at `(\$[^`]*)`$")


def _split_field(message: str) -> tuple[str, str | None]:
    """msgspec says '... - at `$.field`'; split that path off the message."""
    match = _AT_FIELD.search(message)
    if not match:
        return message, None
    return message[: match.start()], match.group(1).replace("$.", "", 1).replace("$", "") or None


class LogCodec:
    """Encodes events to lines and decodes lines to one union of event types."""

    def __init__(
        self,
        events: Sequence[type[Event]],
        upcasters: Mapping[str, Upcaster] | None = None,
    ) -> None:
        types = tuple(dict.fromkeys((*SHARED_EVENTS, *events)))
        self.types: tuple[type[Event], ...] = types
        self.by_name: dict[str, type[Event]] = {t.__name__: t for t in types}
        self.upcasters: Mapping[str, Upcaster] = dict(upcasters or {})
        self._union: Any = Union[types]  # noqa: UP007 - a runtime union of a tuple
        self._decoder = msgspec.json.Decoder(self._union)
        self._raw = msgspec.json.Decoder(dict[str, Any])
        self._encoder = msgspec.json.Encoder()

    @property
    def known_types(self) -> list[str]:
        """Event type names this codec reads, in declaration order."""
        return list(self.by_name)

    def encode(self, event: Event) -> bytes:
        """One line of JSON, without the newline."""
        return self._encoder.encode(event)

    def decode(self, line: bytes | str, *, where: str = "<input>", line_no: int | None = None) -> Event:
        """Decode one line into its event type, upcasting old shapes; errors say where."""
        try:
            return self._decoder.decode(line)
        except RecursionError:
            raise _too_deep(where, line_no) from None
        except (msgspec.DecodeError, UnicodeDecodeError) as fast_error:
            raw = self._raw_or_raise(line, where, line_no)
            upcasted = self._upcast(raw)
            if upcasted is not raw:
                try:
                    return self._decoder.decode(msgspec.json.encode(upcasted))
                except msgspec.DecodeError as error:
                    raise self._explain(error, upcasted, where, line_no) from None
            if isinstance(fast_error, UnicodeDecodeError):
                raise LogFormatError(where, line_no, f"not UTF-8 text: {fast_error.reason}") from None
            raise self._explain(fast_error, raw, where, line_no) from None

    def _raw_or_raise(self, line: bytes | str, where: str, line_no: int | None) -> dict[str, Any]:
        try:
            return self._raw.decode(line)
        except RecursionError:
            raise _too_deep(where, line_no) from None
        except UnicodeDecodeError as error:
            raise LogFormatError(where, line_no, f"not UTF-8 text: {error.reason}") from None
        except msgspec.DecodeError as error:
            message, _ = _split_field(str(error))
            if "Expected `object`" in message:
                message = "a line must be one JSON object"
            raise LogFormatError(where, line_no, f"not a JSON event object: {message}") from None

    def _upcast(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Apply upcasters until the line's type has none left (v1 -> v2 -> v3 ...)."""
        seen: set[str] = set()
        while isinstance(kind := raw.get("type"), str) and kind in self.upcasters and kind not in seen:
            seen.add(kind)
            raw = self.upcasters[kind](dict(raw))
        return raw

    def _explain(
        self, error: msgspec.DecodeError, raw: dict[str, Any], where: str, line_no: int | None
    ) -> LogFormatError:
        kind = raw.get("type")
        if not isinstance(kind, str):
            return LogFormatError(where, line_no, "missing event type", field="type")
        if kind not in self.by_name:
            known = ", ".join(self.known_types)
            return LogFormatError(where, line_no, f"unknown event type {kind!r}; known types: {known}", field="type")
        message, field = _split_field(str(error))
        if message.startswith("Object missing required field") and field is None:
            missing = [name for name in self.required(kind) if name not in raw]
            if len(missing) > 1:
                named = ", ".join(f"`{name}`" for name in missing)
                return LogFormatError(where, line_no, f"{kind}: missing required fields {named}")
        return LogFormatError(where, line_no, f"{kind}: {message}", field=field)

    def required(self, kind: str) -> list[str]:
        """The fields an event of type `kind` must give (the rest have defaults), so an
        error can name every one a line left out at once, not one per try."""
        return [field.encode_name for field in msgspec.structs.fields(self.by_name[kind]) if field.required]

    def schema(self) -> dict[str, Any]:
        """JSON Schema of every line this codec accepts, so other tools can write logs."""
        schema: dict[str, Any] = msgspec.json.schema(self._union)
        return schema


def _too_deep(where: str, line_no: int | None) -> LogFormatError:
    """The one-line error for JSON nested deeper than a decoder can follow."""
    return LogFormatError(where, line_no, "JSON nested too deeply to be an event")


HEADER_CODEC = LogCodec(())
"""Reads any log's shared events; enough to learn the ruleset from line 0."""


def read_header(line: bytes, *, where: str = "<input>") -> MatchStarted:
    """Decode line 0, which must be a MatchStarted, to learn which ruleset reads the rest."""
    try:
        event = HEADER_CODEC._decoder.decode(line)
    except RecursionError:
        raise _too_deep(where, 1) from None
    except (msgspec.DecodeError, UnicodeDecodeError):
        raw = HEADER_CODEC._raw_or_raise(line, where, 1)
        if raw.get("type") != "MatchStarted":
            raise LogFormatError(where, 1, f"the first line must be MatchStarted, not {raw.get('type')!r}", field="type") from None
        try:
            msgspec.json.decode(line, type=MatchStarted)
        except msgspec.DecodeError as error:
            raise HEADER_CODEC._explain(error, raw, where, 1) from None
        raise
    if not isinstance(event, MatchStarted):
        raise LogFormatError(where, 1, f"the first line must be MatchStarted, not {type(event).__name__}", field="type")
    return event


def decode_log(lines: Iterable[bytes], codec: LogCodec, *, where: str = "<input>") -> Iterator[Event]:
    """Decode a whole log lazily, checking the start and that seqs run 0, 1, 2, ... .

    A line of the current shape takes msgspec's typed decoder directly; only a line it
    rejects goes through `LogCodec.decode`, to be upcast or explained with its place.
    """
    fast = codec._decoder.decode
    for expected, line in enumerate(lines):
        try:
            event = fast(line)
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            event = codec.decode(line, where=where, line_no=expected + 1)
        if expected == 0 and not isinstance(event, MatchStarted):
            raise LogFormatError(where, 1, f"the first line must be MatchStarted, not {type(event).__name__}", field="type")
        if event.seq != expected:
            problem = "duplicate" if event.seq < expected else "gap"
            raise LogFormatError(where, expected + 1, f"seq {problem}: expected {expected}, found {event.seq}", field="seq")
        yield event


def decode_drafts(data: bytes | str, codec: LogCodec, *, where: str = "<input>") -> list[Event]:
    """Decode JSON-lines input meant for appending; blank lines are skipped.

    Everything is decoded before anything is written, so one bad line leaves the store as
    it was. Envelope fields may be left out: the store stamps them.
    """
    raw = data.encode() if isinstance(data, str) else data
    refuse_bom(raw, where)
    events = []
    for line_no, line in enumerate(raw.splitlines(), start=1):
        if line.strip():
            event = codec.decode(line, where=where, line_no=line_no)
            check_values(event, where=where, line_no=line_no)
            _refuse_unknown_fields(codec, line, event, where, line_no)
            events.append(event)
    return events


def _refuse_unknown_fields(codec: LogCodec, line: bytes, event: Event, where: str, line_no: int) -> None:
    """A field the event does not have would be dropped without a word: refuse it (a
    typo like `tagret_seq` must not append an event that means something else)."""
    kind = type(event).__name__
    raw = codec._raw_or_raise(line, where, line_no)
    if raw.get("type") != kind or kind in codec.upcasters:
        return  # an old shape: its upcaster decides what its fields mean
    unknown = sorted(set(raw) - {"type", *event.__struct_fields__})
    if unknown:
        fields = ", ".join(f for f in event.__struct_fields__ if f not in ("seq", "at", "prev"))
        raise LogFormatError(where, line_no, f"{kind} has no field {unknown[0]!r}; its fields: {fields}", field=unknown[0])


def refuse_bom(data: bytes, where: str) -> None:
    """A byte order mark before line 1 (some editors save one) is named as such, not as
    an invalid character at byte 0."""
    if data.startswith(b"\xef\xbb\xbf") or data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LogFormatError(where, 1, "starts with a byte order mark (BOM): save the file as UTF-8 without BOM")


def encode_chained(events: Iterable[Event]) -> list[bytes]:
    """Encode a complete log with each `prev` set to the hash of the line before."""
    encoder, prev, lines = msgspec.json.Encoder(), GENESIS, []
    for event in events:
        line = encoder.encode(msgspec.structs.replace(event, prev=prev))
        prev = line_hash(line)
        lines.append(line)
    return lines
