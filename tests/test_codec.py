"""The log codec: one decoder per game, old shapes upcast, errors that say where."""

from __future__ import annotations

import msgspec
import pytest

from events.base import Event
from events.codec import LogCodec, decode_drafts
from events.errors import LogFormatError
from rulesets import registry
from rulesets.mortalgate.events import HeroPlaced


def test_an_old_hero_placed_line_is_upcast_to_the_current_shape() -> None:
    codec = registry.game("mortalgate").codec
    old = b'{"type":"HeroPlaced","seq":12,"by":"red","prev":"","hero":"drexir","at":[5,1]}'
    event = codec.decode(old)
    assert isinstance(event, HeroPlaced) and event.node == (5, 1) and event.at is None and event.seq == 12


def test_a_current_line_is_read_without_upcasting() -> None:
    codec = registry.game("mortalgate").codec
    line = b'{"type":"HeroPlaced","seq":12,"at":"2026-01-01T00:00:00Z","by":"red","prev":"","hero":"drexir","node":[5,1]}'
    assert codec.decode(line).node == (5, 1)  # type: ignore[attr-defined]


class Walked(Event, frozen=True, kw_only=True):
    hero: str
    path: tuple[tuple[int, int], ...]


def test_upcasters_chain_from_oldest_shape_to_newest() -> None:
    def v1_to_v2(raw: dict) -> dict:
        raw["type"] = "StrideTaken"
        raw["steps"] = [raw.pop("to")]
        return raw

    def v2_to_v3(raw: dict) -> dict:
        raw["type"] = "Walked"
        raw["path"] = raw.pop("steps")
        return raw

    codec = LogCodec([Walked], {"HeroWent": v1_to_v2, "StrideTaken": v2_to_v3})
    event = codec.decode(b'{"type":"HeroWent","hero":"x","to":[1,2]}')
    assert event == Walked(hero="x", path=((1, 2),))


def test_an_upcast_line_that_still_does_not_fit_names_the_field() -> None:
    codec = LogCodec([Walked], {"HeroWent": lambda raw: {**raw, "type": "Walked"}})
    with pytest.raises(LogFormatError, match=r"x\.jsonl:4: Walked: .*required field `path`"):
        codec.decode(b'{"type":"HeroWent","hero":"x"}', where="x.jsonl", line_no=4)


def test_drafts_skip_blank_lines_and_number_the_rest() -> None:
    codec = LogCodec([Walked])
    with pytest.raises(LogFormatError, match=r"in\.jsonl:3: "):
        decode_drafts(b'{"type":"Walked","hero":"a","path":[]}\n\n{"type":"Walked"}\n', codec, where="in.jsonl")


def test_the_schema_covers_shared_and_game_events() -> None:
    schema = LogCodec([Walked]).schema()
    assert set(schema["$defs"]) >= {"Walked", "MatchStarted", "Retracted", "MatchEnded", "Ruled"}
    assert msgspec.json.encode(schema)
