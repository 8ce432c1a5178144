"""Re-reading a log-only match as a typed game, once the designer has encoded it.

A table recorded a playtest before its game had rules in code (`rulesets.freeform`):
actions named by verbs, dice, scores, turns. When the game exists, a map says which event
type each verb (and each generic event) becomes and which of its values fill which
field; the match is written again, under the typed game, as a new match, and audited
there. The log-only original is never changed: the retyped match names it in a note.

A map (TOML):

    [verbs.rolls]                      # ActionTaken with verb "rolls" ...
    type = "Rolled"                    # ... becomes a Rolled
    [verbs.moves]
    type = "HeroMoved"
    fields = { to = "target" }         # data["to"] fills the field `target`
    [events.DiceRolled]
    type = "Landed"
    fields = { face = "face" }         # a roll's values: dice, faces, face (the first), sum
    [events.TurnPassed]
    skip = true                        # the typed game passes turns by its own rules

An ActionTaken's values are its `data`; a ScoreChanged's are seat, delta, total and
reason; a TurnPassed's `to`. `by` and the time of each event are kept. The shared events
(rulings, undo, the result) are kept as they are, their seqs renumbered past what was
skipped.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from events.base import ENVELOPE, Event
from events.codec import decode_drafts, encode_chained
from events.errors import LogFormatError
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from rulesets import freeform
from rulesets.registry import Rules


class Rewrite(msgspec.Struct, frozen=True, kw_only=True):
    """What one verb or generic event becomes: an event type of the typed game, or nothing."""

    type: str = ""
    fields: dict[str, str] = {}
    """Value name in the log-only event -> field of the typed event."""
    skip: bool = False
    """Leave these events out (the typed game's own rules imply them)."""


class RetypeMap(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A whole map: per verb, and per generic event other than ActionTaken."""

    verbs: dict[str, Rewrite] = {}
    events: dict[str, Rewrite] = {}


GENERIC = {kind.__name__ for kind in freeform.EVENTS} - {"ActionTaken"}


def read_map(path: Path) -> RetypeMap:
    """The map in `path`; a clear one-line error naming what is wrong in it."""
    where = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        found = msgspec.convert(raw, RetypeMap)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise LogFormatError(where, None, f"not a TOML map: {error}") from None
    except msgspec.ValidationError as error:
        raise LogFormatError(where, None, f"not a retype map: {error}") from None
    for name, rewrite in [*found.verbs.items(), *found.events.items()]:
        if not rewrite.skip and not rewrite.type:
            raise LogFormatError(where, None, f"{name} needs `type = \"EventType\"` or `skip = true`")
    if unknown := set(found.events) - GENERIC:
        raise LogFormatError(where, None, f"[events.{sorted(unknown)[0]}] is not a generic event; they are {', '.join(sorted(GENERIC))}")
    return found


def values(event: Event) -> dict[str, Any]:
    """What a generic event holds, by the names a map's `fields` use."""
    match event:
        case freeform.ActionTaken(data=data):
            return dict(data)
        case freeform.DiceRolled(dice=dice, faces=faces):
            return {"dice": dice, "faces": list(faces), "face": faces[0], "sum": sum(faces)}
        case freeform.ScoreChanged(seat=seat, delta=delta, total=total, reason=reason):
            return {"seat": seat, "delta": delta, "total": total, "reason": reason}
        case freeform.TurnPassed(to=to):
            return {"to": to}
    return {}


def retyped_lines(events: Sequence[Event], rules: Rules, mapping: RetypeMap, *, match_id: str, where: str) -> bytes:
    """The log-only `events` as a log of the typed game `rules`, as JSON lines to import:
    every event mapped (or skipped), seqs renumbered, times kept, then chained."""
    header = events[0]
    assert isinstance(header, MatchStarted)
    started = MatchStarted(seq=0, at=header.at, match_id=match_id, ruleset=rules.ruleset.name, version=rules.version,
                           seats=dict(header.seats), params=dict(rules.overrides), source="import", title=header.title,
                           fingerprint=rules.ruleset.fingerprint, package=rules.ruleset.package or msgspec.UNSET)
    _check_types(mapping, rules, where)
    out: list[Event] = [started]
    new_seq: dict[int, int] = {0: 0}
    codec = rules.ruleset.codec
    for event in events[1:]:
        draft = _rewritten(event, mapping, new_seq, where)
        if draft is None:
            continue
        draft |= {"seq": len(out), "at": event.at.isoformat() if event.at else None, "by": event.by}
        try:
            [typed] = decode_drafts(json.dumps(draft), codec, where=where)
        except LogFormatError as error:
            raise LogFormatError(where, None, f"event {event.seq} ({_named(event)}) as {draft['type']}: {error.reason}",
                                 field=error.field) from None
        new_seq[event.seq] = typed.seq
        out.append(typed)
    return b"".join(line + b"\n" for line in encode_chained(out))


def _check_types(mapping: RetypeMap, rules: Rules, where: str) -> None:
    """Every type the map names is an event of the typed game, and every field one it has."""
    kinds = {kind.__name__: kind for kind in rules.ruleset.events}
    for name, rewrite in [*((f"[verbs.{v}]", r) for v, r in mapping.verbs.items()), *((f"[events.{e}]", r) for e, r in mapping.events.items())]:
        if rewrite.skip:
            continue
        kind = kinds.get(rewrite.type)
        if kind is None:
            raise LogFormatError(where, None, f"{name}: {rules.ruleset.name} has no event {rewrite.type!r}; its events: {', '.join(kinds)}")
        own = [f for f in kind.__struct_fields__ if f not in ENVELOPE]
        for field in rewrite.fields.values():
            if field not in own:
                raise LogFormatError(where, None, f"{name}: {rewrite.type} has no field {field!r}; its fields: {', '.join(own) or 'none'}")


def _rewritten(event: Event, mapping: RetypeMap, new_seq: Mapping[int, int], where: str) -> dict[str, Any] | None:
    """The typed event's fields (with its `type`) for one log-only event; None to leave it out."""
    if isinstance(event, Retracted):
        target = new_seq.get(event.target_seq)
        return None if target is None else {"type": "Retracted", "target_seq": target, "reason": event.reason}
    if isinstance(event, Ruled):
        applies = None if event.applies_to is None else new_seq.get(event.applies_to)
        return {"type": "Ruled", "rule": event.rule, "decision": event.decision, "applies_to": applies}
    if isinstance(event, MatchEnded):
        return {"type": "MatchEnded", "winner": event.winner, "draw": event.draw, "reason": event.reason}
    kind = type(event).__name__
    rewrite = mapping.verbs.get(event.verb) if isinstance(event, freeform.ActionTaken) else mapping.events.get(kind)
    if rewrite is None:
        table = f"[verbs.{event.verb}]" if isinstance(event, freeform.ActionTaken) else f"[events.{kind}]"
        raise LogFormatError(where, None, f"event {event.seq} ({_named(event)}): the map has no {table}; give its type or `skip = true`")
    if rewrite.skip:
        return None
    held = values(event)
    missing = [name for name in rewrite.fields if name not in held]
    if missing:
        raise LogFormatError(where, None, f"event {event.seq} ({_named(event)}) has no value {missing[0]!r} to fill {rewrite.fields[missing[0]]!r}")
    return {"type": rewrite.type, **{field: held[name] for name, field in rewrite.fields.items()}}


def _named(event: Event) -> str:
    """A log-only event in a few words, for an error about it."""
    return f"ActionTaken {event.verb!r}" if isinstance(event, freeform.ActionTaken) else type(event).__name__
