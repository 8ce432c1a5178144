"""The one contract every game implements, and the plain values it returns.

A game is a frozen bundle of pure functions over frozen states (`Ruleset`), so replay,
audit, the dashboard and the bots work for any game without knowing which it is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, is_dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, Generic, Literal, TypeVar

import msgspec

from events.base import Event
from events.codec import LogCodec, Upcaster
from events.errors import TabletapeError
from events.shared import MatchStarted
from rulesets.provenance import Sourced
from rulesets.view import BoardView, Compose, Panel, Touch

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


class NoParams(msgspec.Struct, frozen=True, kw_only=True):
    """The params of a game that has one version and nothing to tune."""


def no_violations(params: Any, state: Any, event: Event) -> list[Violation]:
    """No checks: every event is taken as the table wrote it."""
    return []


def no_outcome(params: Any, state: Any) -> Outcome | None:
    """No victory condition known: the rules never end the game, the table does."""
    return None


def no_moves(params: Any, state: Any) -> Iterable[Event]:
    """No move generator: nothing to offer a picker or a bot."""
    return ()


def no_chance(params: Any, state: Any) -> Sequence[tuple[Event, float]] | None:
    """No chance step known: dice are written by the table as decisions."""
    return None


def no_metrics(params: Any, state: Any) -> dict[str, float]:
    """No per-step numbers for analytics."""
    return {}


def accepts_any_start(params: Any, started: MatchStarted) -> list[str]:
    """Any seating and options: the game names no problems before line 0."""
    return []


def progress_from_fields(params: Any, state: Any) -> Progress:
    """Where the state stands, read from its own `turn`, `round`, `phase` and `actor` fields
    where it has them: enough for pacing and for the simulator to ask whose decision it is."""
    turn = getattr(state, "turn", 0)
    turn = turn if isinstance(turn, int) and not isinstance(turn, bool) else 0
    played = getattr(state, "round", turn)
    actor = getattr(state, "actor", None)
    phase = getattr(state, "phase", "")
    return Progress(turn=turn, round=played if isinstance(played, int) and not isinstance(played, bool) else turn,
                    phase=phase if isinstance(phase, str) else str(phase), actor=actor if isinstance(actor, str) else None)


def state_table(params: Any, state: Any, seat: str | None) -> BoardView:
    """No board: the state's own fields as one table of label/value rows, so a game that only
    replays is still shown in readable form (every field, so hidden hands are not hidden)."""
    if isinstance(state, msgspec.Struct):
        fields: Iterable[tuple[str, Any]] = ((name, getattr(state, name)) for name in state.__struct_fields__)
    elif is_dataclass(state) and not isinstance(state, type):
        fields = ((f.name, getattr(state, f.name)) for f in dataclass_fields(state))
    elif isinstance(state, Mapping):
        fields = ((str(key), value) for key, value in state.items())
    else:
        fields = (("state", state),)
    rows = tuple((name, _shown(value)) for name, value in fields)
    return BoardView(geometry="grid", width=1, height=1, panels=(Panel(title="state", rows=rows),),
                     note="no board: the state as the game keeps it (a `view` draws a board)")


def _shown(value: Any) -> str:
    """A field's value in one line, as plain data (Structs as their JSON)."""
    try:
        text = msgspec.json.encode(value).decode()
    except (TypeError, msgspec.EncodeError):
        text = repr(value)
    return text if len(text) <= 200 else text[:199] + "…"


def random_bot(params: Any, state: Any, legal: Sequence[Event], rng: random.Random) -> Event:
    """One of the legal events, uniformly: the bot every game with `legal` has."""
    return legal[rng.randrange(len(legal))]


def _one_version() -> Mapping[str, Version[Any]]:
    return {"1": Version(id="1", params=NoParams(), title="the one version")}


@dataclass(frozen=True)
class Ruleset(Generic[P]):
    """A game: its versions and the pure functions that fold, check and show its logs.

    Only what replay needs is required: a name, the event types, `setup` and `apply`.
    Every other part is optional, and each one a game adds switches a feature on
    (`rulesets.levels` says which); where a part is missing, a neutral default stands in
    so nothing that reads a game has to ask first: no violations, no outcome, no moves,
    no chance step, no metrics, the state as a table for a board, progress read from the
    state's own fields, any seating accepted.
    """

    name: str
    events: tuple[type[Event], ...]
    setup: Callable[[P, MatchStarted], Any]
    apply: Callable[[P, Any, Event], Any]
    title: str = ""
    """Shown wherever the game is named; the name when left out."""
    versions: Mapping[str, Version[P]] = field(default_factory=_one_version)
    """Oldest first; the last one is what a bare game name means. Left out: one version,
    `1`, with no params."""
    check: Callable[[P, Any, Event], list[Violation]] = no_violations
    outcome: Callable[[P, Any], Outcome | None] = no_outcome
    legal: Callable[[P, Any], Iterable[Event]] = no_moves
    """At a decision, every event the rules allow, in a fixed order (a seeded bot picks by
    index). Any iterable will do; a sequence that makes its events only when read
    (`rulesets.legal.Chain`) is handed to the bots as it is, so a random bot makes one."""
    chance: Callable[[P, Any], Sequence[tuple[Event, float]] | None] = no_chance
    """At a chance step (dice, a draw), every outcome with its probability; else None."""
    metrics: Callable[[P, Any], dict[str, float]] = no_metrics
    """Per-step numbers for analytics. `score`, if given, is positive while the side of the
    first seat (in seating order) leads: lead changes and comebacks are read from it."""
    view: Callable[[P, Any, str | None], BoardView] = state_table
    progress: Callable[[P, Any], Progress] = progress_from_fields
    validate_start: Callable[[P, MatchStarted], list[str]] = accepts_any_start
    """Problems with a MatchStarted (seats, options) before any event is written."""
    fingerprint: str = ""
    """Hash of the game's code and data; left out, the registry computes it from the
    package the game was loaded from."""
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
    """Bot name -> policy choosing one of the legal events at a decision, weakest first:
    the last is the one simulations and the demo use unless told. A game with `legal`
    always has `random` (a uniform pick) if it names none of that name."""
    readings: tuple[Reading, ...] = ()
    """Every ambiguity or contradiction of the text and how it is read."""
    rule_ids: RuleIds | None = None
    """The game's one table of rule ids (`rulesets.protocol`): every id its checks, outcomes,
    readings and changelogs name, with the passage of the text it stands for; None: the game
    declares none, and its findings show no passage."""
    rulebook: Callable[[Any], Any] | None = None
    """Recomputes the rulebook's printed tables under params; has `.lines()`."""
    describe: Callable[[P, Any, Event], str] | None = None
    """An event in the game's words and board names, read in the state before it:
    'Seiren moves 3 to the altar at F7', 'tens 4, ones 7: 47 hits (35 needed), 3 damage'.
    Event lists (Record, Replay, CLI) and the dice pad show it; None: the fields."""
    touch: Callable[[P, Any, Event], Touch] | None = None
    """Where a legal event is made on the board (the piece, then the place), so the
    recorder turns taps into events; None: every event is a button beside the board."""
    compose: Callable[[P, Any], tuple[Compose, ...]] | None = None
    """At a decision, the choices the table makes by pointing at several things in turn (a
    turn order, an army within points), so the recorder builds them tap by tap instead of
    listing every combination; None or empty: every choice is one tap or a button."""
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
    resync_span: int | None = None
    """How many events after a refused one the audit keeps the readings of it (the states the
    table may really have been in) for a later event to choose from; None: the replay's
    `RESYNC_SPAN`. A game whose hands are hidden sets its longest game here: a card a log
    left out shows only when someone asks for it, which may be at the very end."""
    package: str = ""
    """`pig 0.2`: the distribution the registry loaded the game from, recorded in the logs
    it starts; empty for tabletape's own games."""
    own_bots: tuple[str, ...] | None = field(default=None, compare=False)
    """The bots the game itself brought, set from `bots` when it is made (kept by
    `dataclasses.replace`, so the random bot added below never counts as the game's own)."""

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", self.name)
        if self.own_bots is None:
            object.__setattr__(self, "own_bots", tuple(self.bots))
        if self.legal is not no_moves and "random" not in self.bots:
            object.__setattr__(self, "bots", {"random": random_bot, **self.bots})

    def gives(self, part: str) -> bool:
        """Whether the game itself defines `part` (not a neutral default standing in)."""
        value = getattr(self, part)
        if part == "bots":
            return bool(self.own_bots)
        if part in _DEFAULTS:
            return value is not _DEFAULTS[part]
        return bool(value)

    @property
    def default_bot(self) -> str | None:
        """The bot simulations and the demo use unless told: the game's last (strongest) own
        bot, else the random one; None for a game without legal moves."""
        return self.own_bots[-1] if self.own_bots else next(iter(self.bots), None)

    @property
    def newest(self) -> str:
        """Id of the newest version: what `mortalgate` alone means."""
        return list(self.versions)[-1]

    @property
    def codec(self) -> LogCodec:
        """The one decoder of this game's lines (its events plus the shared ones)."""
        return _codec_for(self)


_DEFAULTS: dict[str, object] = {
    "check": no_violations, "outcome": no_outcome, "legal": no_moves, "chance": no_chance,
    "metrics": no_metrics, "view": state_table, "progress": progress_from_fields,
    "validate_start": accepts_any_start,
}
"""The neutral default of each optional function, to tell it from the game's own."""

_CODECS: dict[tuple[str, tuple[type[Event], ...]], LogCodec] = {}


def _codec_for(ruleset: Ruleset[Any]) -> LogCodec:
    """One codec per game, built once (decoders are costly to build, cheap to use); a game
    loaded again (its module reimported) gets one of its new event classes."""
    key = (ruleset.name, ruleset.events)
    codec = _CODECS.get(key)
    if codec is None:
        codec = _CODECS[key] = LogCodec(ruleset.events, ruleset.upcasters)
    return codec


# --- a game's rule ids, declared once ----------------------------------------------------------
# A finding is only as useful as the passage it points the designer to. So a game names its
# rules in one table (id, the section of its rules text, what the rule forbids) and builds every
# Violation and Outcome through it: an id the table does not declare cannot be named, the
# Rulebook page lists the table, and the audit shows each finding's passage beside its id.


class UndeclaredRuleError(TabletapeError, KeyError):
    """A check named a rule id its game's table does not declare: a slip in the game's code."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Rule(msgspec.Struct, frozen=True, kw_only=True):
    """One declared rule: its id, where the rules text says it, and what it forbids."""

    id: str
    """`mortalgate/movement.points`: the game's name, a slash, the id within the game."""
    section: str
    """The heading of the rules text the rule comes from, as printed ("Movement Phase")."""
    forbids: str
    """What breaking it looks like, in the game's words ("moving past the movement attribute")."""
    text: str
    """The rules text the section is in (`mortalgate.txt`)."""

    @property
    def passage(self) -> str:
        """Where to read it: `mortalgate.txt, "Movement Phase"`."""
        return f'{self.text}, "{self.section}"' if self.text else f'"{self.section}"'


class RuleIds:
    """A game's table of rule ids. Declared as {id within the game: (section, what it forbids)};
    `violation` and `id` refuse any id the table does not hold, so a check names only these."""

    __slots__ = ("_by_id", "_by_short", "game", "text")

    def __init__(self, game: str, text: str, rules: Mapping[str, tuple[str, str]]) -> None:
        self.game = game
        self.text = text
        # The rules text the sections are in (`mortalgate.txt`).
        self._by_short = {short: Rule(id=f"{game}/{short}", section=section, forbids=forbids, text=text)
                          for short, (section, forbids) in rules.items()}
        self._by_id = {rule.id: rule for rule in self._by_short.values()}

    def id(self, short: str) -> str:
        """The full id of a declared rule: `movement.points` -> `mortalgate/movement.points`."""
        return self.rule(short).id

    def rule(self, short: str) -> Rule:
        """The declared rule by its id within the game; UndeclaredRuleError if there is none."""
        try:
            return self._by_short[short]
        except KeyError:
            raise UndeclaredRuleError(f"{self.game}/{short} is not a declared rule of {self.game}: "
                                      f"add it to the game's table of rule ids with its passage") from None

    def violation(self, event: Event, short: str, message: str, severity: Severity = "error") -> Violation:
        """The event broke the declared rule `short`."""
        return Violation(seq=event.seq, rule=self.rule(short).id, message=message, severity=severity)

    def get(self, rule_id: str) -> Rule | None:
        """The declared rule of a full id (`mortalgate/movement.points`), or None."""
        return self._by_id.get(rule_id)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._by_id

    def __iter__(self) -> Iterator[Rule]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)


def passages(tables: Iterable[RuleIds | None], rule_ids: Iterable[str]) -> dict[str, str]:
    """For each id one of the tables declares, where to read it: `{id: 'mortalgate.txt, "Death"'}`."""
    found: dict[str, str] = {}
    known = [table for table in tables if table is not None]
    for rule_id in rule_ids:
        for table in known:
            if (rule := table.get(rule_id)) is not None:
                found[rule_id] = rule.passage
                break
    return found
