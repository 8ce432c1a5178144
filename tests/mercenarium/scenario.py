"""Positions for rule tests: cards where a test needs them, without dealing a whole game.

Tests then feed events through the public Ruleset functions (`check`, `apply`, `outcome`,
`legal`, `view`), exactly as a replay does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets import registry
from rulesets.mercenarium import cards
from rulesets.mercenarium.state import Capture, Placed, Player, State, clockwise, sort_cards
from rulesets.registry import Rules

R = registry.resolve("mercenarium")
P = R.params
RULESET = R.ruleset
TWO = ("red", "yellow")
THREE = ("red", "orange", "yellow")
FOUR = ("red", "orange", "yellow", "green")
SEATS = {2: TWO, 3: THREE, 4: FOUR}
"""Seat ids are House colours; red south, orange west, yellow north, green east."""
HOUSES = {"red": (3, 6), "orange": (0, 3), "yellow": (3, 0), "green": (6, 3)}


def started(seats: Iterable[str] = TWO, match_id: str = "test") -> MatchStarted:
    """A line 0 for these seats."""
    return MatchStarted(seq=0, match_id=match_id, ruleset="mercenarium", version="1.0",
                        seats={s: f"{s} player" for s in seats}, fingerprint=RULESET.fingerprint)


def position(
    seats: Iterable[str] = TWO,
    *,
    board: Mapping[str, tuple[tuple[int, int], str]] | None = None,
    hands: Mapping[str, Iterable[str]] | None = None,
    hymns: Mapping[str, Iterable[str]] | None = None,
    captures: Mapping[str, Iterable[str | tuple[str, bool]]] | None = None,
    current: str = "red",
    deck: Iterable[str] | None = None,
    hymnal: Iterable[str] | None = None,
    discard: Iterable[str] = (),
    singularity: bool = False,
    contracts: Iterable[tuple[str, str]] = (),
    face_up: Mapping[str, Iterable[str]] | None = None,
    turns: int = 5,
) -> State:
    """A play position: `board` maps card -> (space, controller); `current` is to act.

    The deck and hymnal default to every card not placed elsewhere.
    """
    order = clockwise(P, list(seats))
    board, hands, hymns = dict(board or {}), dict(hands or {}), dict(hymns or {})
    captures, face_up = dict(captures or {}), dict(face_up or {})
    players = []
    used: set[str] = set(board) | set(discard)
    for seat in order:
        taken = tuple((c, False) if isinstance(c, str) else c for c in captures.get(seat, ()))
        players.append(Player(seat=seat, hand=sort_cards(tuple(hands.get(seat, ()))), hymns=sort_cards(tuple(hymns.get(seat, ()))),
                              captures=tuple(Capture(c, s) for c, s in taken), face_up=tuple(face_up.get(seat, ()))))
        used |= set(hands.get(seat, ())) | set(hymns.get(seat, ())) | {c for c, _ in taken}
    pieces = tuple(sorted((Placed(c, space, owner) for c, (space, owner) in board.items()), key=lambda p: cards.ORDER[p.card]))
    return State(
        seats=order, players=tuple(players), stage="play", board=pieces,
        deck=sort_cards(tuple(deck) if deck is not None else tuple(c for c in cards.DECK if c not in used)),
        hymnal=sort_cards(tuple(hymnal) if hymnal is not None else tuple(h for h in cards.HYMNAL if h not in used)),
        discard=sort_cards(tuple(discard)), singularity=singularity, first=order[0], current=current, turns=turns,
        contracts=tuple(contracts),
    )


def violations(state: State, event: Event) -> list[str]:
    """Rule ids the event breaks here (errors and warnings; infos left out)."""
    return [v.rule for v in RULESET.check(P, state, event) if v.severity != "info"]


def notes(state: State, event: Event) -> list[tuple[str, str, str]]:
    """Every violation with its severity and message."""
    return [(v.rule, v.severity, v.message) for v in RULESET.check(P, state, event)]


def play(state: State, *events: Event) -> State:
    """Apply events in order (checking nothing)."""
    for event in events:
        state = RULESET.apply(P, state, event)
    return state


def legal(state: State) -> list[Event]:
    """The legal events here."""
    return list(RULESET.legal(P, state))


def piece(state: State, card: str) -> Placed | None:
    """The card in play, if it is."""
    return next((p for p in state.board if p.card == card), None)


def hand(state: State, seat: str) -> tuple[str, ...]:
    """The seat's non-hymn cards."""
    return next(p.hand for p in state.players if p.seat == seat)


def seat_player(state: State, seat: str) -> Player:
    """The seat's hand and captures."""
    return next(p for p in state.players if p.seat == seat)


def with_(state: State, **changes: object) -> State:
    """The state with fields replaced."""
    return msgspec.structs.replace(state, **changes)


def rules() -> Rules:
    """The resolved rules (the one version)."""
    return R
