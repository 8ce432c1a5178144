"""Reading and writing log lines: one decode per line, errors that say where.

A ruleset hands its event types to one `LogCodec`; the codec builds a single tagged-union
decoder at construction. Old shapes of events are turned into current ones by upcasters,
tried only when the fast typed decode fails, so logs written by earlier releases keep
loading without slowing down current ones.
"""

from __future__ import annotations

import json
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
        self.flat_keys: dict[str, frozenset[str]] = {
            t.__name__: frozenset({"type", *(f.encode_name for f in msgspec.structs.fields(t))})
            for t in types if not _holds_struct(msgspec.inspect.type_info(t), top=True)
        }
        # Keys a line of each type may give, for the types with no Struct inside their
        # fields (a line's top-level keys are then all there is to check).

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


def _holds_struct(info: msgspec.inspect.Type, *, top: bool = False) -> bool:
    """Whether a type has a Struct anywhere inside it (`top`: below itself), whose keys
    are checked one level down."""
    if isinstance(info, msgspec.inspect.StructType):
        return not top or any(_holds_struct(field.type) for field in info.fields)
    inner = [getattr(info, name) for name in ("type", "item_type", "key_type", "value_type") if hasattr(info, name)]
    inner += [*getattr(info, "types", ()), *getattr(info, "item_types", ())]
    return any(_holds_struct(t) for t in inner)


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


def decode_log(lines: Iterable[bytes], codec: LogCodec, *, where: str = "<input>", exact: bool = False,
               start: int = 0) -> Iterator[Event]:
    """Decode a whole log lazily, checking the start and that seqs run 0, 1, 2, ... .

    A line of the current shape takes msgspec's typed decoder directly; only a line it
    rejects goes through `LogCodec.decode`, to be upcast or explained with its place.
    `exact` (a log coming in) refuses a line that gives a key twice or a field its event
    does not have (`refuse_inexact`); a stored log is read as it is. `start`: the seq of the
    first line given (a log read on from where a kept fold stopped).
    """
    fast = codec._decoder.decode
    for expected, line in enumerate(lines, start=start):
        try:
            event = fast(line)
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            event = codec.decode(line, where=where, line_no=expected + 1)
        if exact:
            refuse_inexact(codec, line, event, where=where, line_no=expected + 1)
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
            refuse_inexact(codec, line, event, where=where, line_no=line_no)
            events.append(event)
    return events


def _keep_more(event: Event) -> str:
    """What an error about a field the store would not keep tells a person to do instead."""
    seq = event.seq if event.seq >= 0 else "SEQ"
    return f"to keep more than an event holds, write it in a note on the event (`tabletape notes add MATCH --at {seq} --text ...`)"


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as the key-value pairs its text holds, in order, a repeated key kept."""


_UNKNOWN: Any = object()
"""`_first_inexact`'s "what the event holds here is not known" (an old shape's line)."""


def refuse_inexact(codec: LogCodec, line: bytes, event: Event, *, where: str, line_no: int) -> None:
    """LogFormatError if the line gives a key twice or a field its event does not have.

    msgspec keeps the last of a repeated key and drops a field it does not know, so the
    event would be stored as something other than what was sent: input is kept exactly
    or refused. `inexact_key` is the plain reading of the rule; cheaper proofs that a line
    is exact come first (it is the event's own encoding, whitespace aside, as every log
    tabletape writes and many another tool's is; or `_is_plain_and_once`), so a large
    import walks only the lines they do not settle. A test holds them to the same answers.
    """
    own = codec.encode(event)
    if line == own:
        return  # the event's own encoding: each field once, nothing else (every log tabletape writes)
    compact = msgspec.json.format(line, indent=-1)
    if compact == own or _is_plain_and_once(codec, compact, event):
        return
    found = inexact_key(codec, line, event, where=where, line_no=line_no)
    if found is None:
        return
    kind = type(event).__name__
    path, twice = found
    if twice:
        raise LogFormatError(where, line_no, f"{kind}: key {path!r} is given twice; give each field once", field=path)
    if "." in path or "[" in path:
        raise LogFormatError(where, line_no, f"{kind}: {path!r} is not a field of its value; {_keep_more(event)}", field=path)
    fields = ", ".join(f for f in event.__struct_fields__ if f not in ("seq", "at", "prev"))
    raise LogFormatError(where, line_no, f"{kind} has no field {path!r}; its fields: {fields}; {_keep_more(event)}", field=path)


def _is_plain_and_once(codec: LogCodec, compact: bytes, event: Event) -> bool:
    """Whether a line (`compact`: without whitespace) gives no key twice (decoded into
    dicts, which keep one value per key, and encoded again it is itself) and, for an event
    with no Struct inside its fields, no key but the event's; False is "not shown"."""
    try:
        said = codec._raw.decode(compact)
    except (msgspec.DecodeError, RecursionError):
        return False
    if msgspec.json.encode(said) != compact:
        return False
    keys = codec.flat_keys.get(type(event).__name__)
    return keys is not None and said.keys() <= keys


def inexact_key(codec: LogCodec, line: bytes, event: Event, *, where: str, line_no: int) -> tuple[str, bool] | None:
    """(path, twice) of the first key the line gives twice (twice) or that its decoded
    event has no place for; None if the line says exactly what the event holds.

    The line is read again with every JSON object kept as its list of pairs, and walked
    beside the event as plain data.
    """
    try:
        said = json.loads(line, object_pairs_hook=_Pairs)
    except RecursionError:
        raise _too_deep(where, line_no) from None
    except ValueError as error:
        raise LogFormatError(where, line_no, f"not a JSON event object: {error}") from None
    held = msgspec.to_builtins(event, str_keys=True)
    if not _is_old_shape(codec, line):
        return _first_inexact(said, held, "")
    # An old shape: its keys are the old names, so repeated keys are looked for in the line
    # and keys the event has no place for in what its upcaster made of it.
    if (found := _first_inexact(said, _UNKNOWN, "")) is not None:
        return found
    return next(((key, False) for key in codec._upcast(codec._raw.decode(line)) if key not in held), None)


def repeated_key(data: bytes) -> str | None:
    """The path of the first key a JSON text gives twice (`seats.red`), or None: JSON
    parsers keep the last value of a repeated key, so what was sent and what was read
    would differ without a word."""
    return found[0] if (found := _first_inexact(json.loads(data, object_pairs_hook=_Pairs), _UNKNOWN, "")) else None


def _is_old_shape(codec: LogCodec, line: bytes) -> bool:
    """Whether an upcaster made the line's event (the typed decoder refuses the line)."""
    if not codec.upcasters:
        return False
    try:
        codec._decoder.decode(line)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return True
    return False


def _first_inexact(said: Any, held: Any, path: str) -> tuple[str, bool] | None:
    """(path, twice) of the first key the text gives twice (twice) or that the decoded
    event, as plain data (`held`), has no place for; None if the text says what it holds."""
    if isinstance(said, _Pairs):
        seen: set[str] = set()
        for key, value in said:
            at = f"{path}.{key}" if path else key
            if key in seen:
                return at, True
            seen.add(key)
            inner = _UNKNOWN
            if isinstance(held, dict):
                if key not in held:
                    return at, False
                inner = held[key]
            if (found := _first_inexact(value, inner, at)) is not None:
                return found
    elif isinstance(said, list):
        for index, item in enumerate(said):
            inner = held[index] if isinstance(held, list | tuple) and index < len(held) else _UNKNOWN
            if (found := _first_inexact(item, inner, f"{path}[{index}]")) is not None:
                return found
    return None


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
