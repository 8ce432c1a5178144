"""The one contract every game implements, and the plain values it returns.

A game is a frozen bundle of pure functions over frozen states (`Ruleset`), so replay,
audit, the dashboard and the bots work for any game without knowing which it is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

import msgspec

from events.base import Event
from events.codec import LogCodec, Upcaster
from events.shared import MatchStarted
from rulesets.provenance import Sourced
from rulesets.view import BoardView, Touch

Severity = Literal["error", "warning", "info"]

Bot = Callable[[Any, Any, Sequence[Event], random.Random], Event]
"""A policy: (params, state, legal events, seeded generator) -> the event it plays."""


class Violation(msgspec.Struct, frozen=True, kw_only=True):
    """One rule an event broke; `rule` is a stable id pointing at a section of the text."""

    seq: int
    rule: str
    """Stable id such as `mortalgate/combat.line-of-sight`."""
    message: str
    severity: Severity = "error"


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a game ended by its rules: who won (a side id) or a draw, and why."""

    winner: str | None
    draw: bool = False
    reason: str
    """Plain words: 'red reached 20 Grace'."""
    rule: str
    """The victory condition's rule id."""


class Progress(msgspec.Struct, frozen=True, kw_only=True):
    """Where in the game a state stands: for event tables, pacing and the timeline."""

    turn: int
    """Turns begun so far (0 during setup)."""
    round: int
    phase: str
    actor: str | None
    """Seat (or side) whose decision it is now."""


class Place(msgspec.Struct, frozen=True, kw_only=True):
    """A board space where something worth a heatmap happened (`mercenary died`), in the
    coordinates of the game's BoardView."""

    what: str
    col: int
    row: int


class Reading(msgspec.Struct, frozen=True, kw_only=True):
    """How an ambiguous or self-contradicting passage is read, shown to the designer."""

    rule: str
    kind: Literal["ambiguity", "contradiction"]
    passage: str
    """Where the text says it (quoted)."""
    reading: str
    """What tabletape does, and why."""


class Change(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a version's changelog: which rule changed and why (from the text)."""

    rules: tuple[str, ...]
    text: str


P = TypeVar("P")


class Version(msgspec.Struct, Generic[P], frozen=True, kw_only=True):
    """A selectable rule version: its Params and what changed from the one before."""

    id: str
    params: P
    changelog: tuple[Change, ...] = ()
    sources: Mapping[str, Sourced] = msgspec.field(default_factory=dict)
    """Per param name, where its value in this version comes from."""
    title: str = ""


class Option(msgspec.Struct, frozen=True, kw_only=True):
    """A per-match option (mission, army, race) with its allowed values."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""


@dataclass(frozen=True)
class Ruleset(Generic[P]):
    """A game: its versions and the pure functions that fold, check and show its logs."""

    name: str
    title: str
    events: tuple[type[Event], ...]
    versions: Mapping[str, Version[P]]
    """Oldest first; the last one is what a bare game name means."""
    setup: Callable[[P, MatchStarted], Any]
    check: Callable[[P, Any, Event], list[Violation]]
    apply: Callable[[P, Any, Event], Any]
    outcome: Callable[[P, Any], Outcome | None]
    legal: Callable[[P, Any], Iterable[Event]]
    """At a decision, every event the rules allow, in a fixed order (a seeded bot picks by
    index). Any iterable will do; a sequence that makes its events only when read
    (`rulesets.legal.Chain`) is handed to the bots as it is, so a random bot makes one."""
    chance: Callable[[P, Any], Sequence[tuple[Event, float]] | None]
    """At a chance step (dice, a draw), every outcome with its probability; else None."""
    metrics: Callable[[P, Any], dict[str, float]]
    """Per-step numbers for analytics. `score`, if given, is positive while the side of the
    first seat (in seating order) leads: lead changes and comebacks are read from it."""
    view: Callable[[P, Any, str | None], BoardView]
    progress: Callable[[P, Any], Progress]
    validate_start: Callable[[P, MatchStarted], list[str]]
    """Problems with a MatchStarted (seats, options) before any event is written."""
    fingerprint: str
    roster: Callable[[P, Any], tuple[tuple[str, str], ...]] | None = None
    """(side, piece) pairs of what each side brought: heroes, units, a faction. For pick
    and win rates; None if the game has no such choice."""
    seat_side: Callable[[str], str] | None = None
    """The side (team) a seat plays for, where outcomes name sides; None: the seat itself."""
    example_seats: Mapping[str, str] = field(default_factory=dict)
    """A valid seating for demos, tests and simulations."""
    options: tuple[Option, ...] = ()
    upcasters: Mapping[str, Upcaster] = field(default_factory=dict)
    bots: Mapping[str, Bot] = field(default_factory=dict)
    """Bot name -> policy choosing one of the legal events at a decision."""
    readings: tuple[Reading, ...] = ()
    """Every ambiguity or contradiction of the text and how it is read."""
    rulebook: Callable[[Any], Any] | None = None
    """Recomputes the rulebook's printed tables under params; has `.lines()`."""
    describe: Callable[[P, Any, Event], str] | None = None
    """An event in the game's words and board names, read in the state before it:
    'Seiren moves 3 to the altar at F7', 'tens 4, ones 7: 47 hits (35 needed), 3 damage'.
    Event lists (Record, Replay, CLI) and the dice pad show it; None: the fields."""
    touch: Callable[[P, Any, Event], Touch] | None = None
    """Where a legal event is made on the board (the piece, then the place), so the
    recorder turns taps into events; None: every event is a button beside the board."""
    places: Callable[[P, Any, Any, Event], tuple[Place, ...]] | None = None
    """(params, state before, state after, event) -> where on the board the event made
    something happen worth a heatmap (where a token was lost, say). The warehouse keeps them
    (`places` table) for the Compare page's heatmaps; None: the game offers none."""
    candidates: Callable[[P, Any], Iterable[Event]] | None = None
    """At a decision, every event the move generator proposes before any rule is checked.
    `legal` may build its moves directly (faster), but must equal exactly, in order, the
    candidates `check` accepts: the contract suite holds it to that on seeded positions."""
    attempts: Callable[[P, Any], Iterable[Event]] | None = None
    """Mistakes a table makes that `candidates` never proposes (a hero walked past its
    movement). Never searched by `legal` or the bots; the recorder offers them so a tap on
    one shows the rule it breaks, and the table may insist."""

    @property
    def newest(self) -> str:
        """Id of the newest version: what `mortalgate` alone means."""
        return list(self.versions)[-1]

    @property
    def codec(self) -> LogCodec:
        """The one decoder of this game's lines (its events plus the shared ones)."""
        return _codec_for(self)


_CODECS: dict[str, LogCodec] = {}


def _codec_for(ruleset: Ruleset[Any]) -> LogCodec:
    """One codec per game, built once (decoders are costly to build, cheap to use)."""
    codec = _CODECS.get(ruleset.name)
    if codec is None:
        codec = _CODECS[ruleset.name] = LogCodec(ruleset.events, ruleset.upcasters)
    return codec
