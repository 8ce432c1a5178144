"""Positions for rule tests: tokens, workers and tiles where a test needs them.

A position starts from the real setup of a version (home rows, bases, starting purses) and
then sets the phase, the actor and the pieces a test names. Tests feed events through the
public Ruleset functions (`check`, `apply`, `outcome`, `legal`, `view`) as a replay does.

The board is 9 x 15 spaces (3 x 5 tiles of 3 x 3): yellow's home row is rows 0-2, orange's
rows 12-14. Orange's base stands on (4, 13) with a biofuel node on (3, 13) and a neosteel
node on (5, 13); yellow's base on (4, 1), biofuel (5, 1), neosteel (3, 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import msgspec

from events.base import Event
from events.shared import MatchStarted
from rulesets import registry
from rulesets.mercyfrontier.components import card_type
from rulesets.mercyfrontier.events import TileUncovered
from rulesets.mercyfrontier.resources import Resources
from rulesets.mercyfrontier.state import Building, Merc, Pending, State, player, replace_player
from rulesets.registry import Rules

ORANGE_BASE, ORANGE_BIOFUEL, ORANGE_NEOSTEEL = (4, 13), (3, 13), (5, 13)
YELLOW_BASE, YELLOW_BIOFUEL, YELLOW_NEOSTEEL = (4, 1), (5, 1), (3, 1)
MARKET = ("raider-1", "brute-1", "warden-1", "scout-1")


def rules(version: str = "current") -> Rules:
    """A version's resolved rules."""
    return registry.resolve(f"mercyfrontier@{version}")


def started(version: str = "current", seats: Iterable[str] = ("orange", "yellow")) -> MatchStarted:
    """Line 0: orange listed first is the oldest player."""
    ruleset = registry.game("mercyfrontier")
    return MatchStarted(seq=0, match_id="test", ruleset="mercyfrontier", version=version,
                        seats={s: f"{s} player" for s in seats}, fingerprint=ruleset.fingerprint)


def opening(version: str = "current") -> State:
    """The state right after setup, before the row is flipped."""
    r = rules(version)
    return r.ruleset.setup(r.params, started(version))


def position(
    version: str = "current",
    *,
    phase: str = "action",
    actor: str = "orange",
    priority: str = "orange",
    mercs: Mapping[str, tuple[str, tuple[int, int] | None]] | None = None,
    health: Mapping[str, int] | None = None,
    purses: Mapping[str, Resources] | None = None,
    workers: Mapping[str, Iterable[tuple[int, int]]] | None = None,
    buildings: Iterable[Building] = (),
    uncovered: Mapping[tuple[int, int], str] | None = None,
    market: Iterable[str] = MARKET,
    done: Iterable[str] = (),
) -> State:
    """A turn-2 position: `mercs` maps card -> (owner, top-left space or None if unplaced);
    `uncovered` flips covered tiles to the named faces (by applying the real TileUncovered)."""
    r = rules(version)
    state = opening(version)
    for tile, face in (uncovered or {}).items():
        state = msgspec.structs.replace(state, pending=(Pending("uncover", tile=tile),))
        state = r.ruleset.apply(r.params, state, TileUncovered(tile=tile, face=face))
    placed = []
    for card, (owner, at) in (mercs or {}).items():
        found = card_type(card)
        assert found is not None, card
        placed.append(Merc(card, owner, (health or {}).get(card, found.health), at))
    used = set(mercs or {}) | set(market)
    state = msgspec.structs.replace(
        state, phase=phase, actor=actor, priority=priority, turn=2, pending=(), mercs=tuple(placed),
        market=tuple(market), deck=tuple(c for c in state.deck if c not in used),
        buildings=(*state.buildings, *buildings), done=tuple(done),
    )
    for seat, purse in (purses or {}).items():
        p = player(state, seat)
        assert p is not None
        state = replace_player(state, msgspec.structs.replace(p, resources=purse))
    for seat, spaces in (workers or {}).items():
        p = player(state, seat)
        assert p is not None
        state = replace_player(state, msgspec.structs.replace(p, placed=tuple(spaces)))
    return state


def violations(state: State, event: Event, version: str = "current") -> list[str]:
    """Rule ids the event breaks here (errors and warnings)."""
    r = rules(version)
    return [v.rule for v in r.ruleset.check(r.params, state, event) if v.severity != "info"]


def messages(state: State, event: Event, version: str = "current") -> list[str]:
    """The violations' messages."""
    r = rules(version)
    return [v.message for v in r.ruleset.check(r.params, state, event)]


def play(state: State, *events: Event, version: str = "current") -> State:
    """Apply events in order (checking nothing)."""
    r = rules(version)
    for event in events:
        state = r.ruleset.apply(r.params, state, event)
    return state


def legal(state: State, version: str = "current") -> list[Event]:
    """The legal events here."""
    r = rules(version)
    return list(r.ruleset.legal(r.params, state))


def merc_at(state: State, card: str) -> tuple[int, int] | None:
    """Where a token stands (None: not placed or gone)."""
    return next((m.at for m in state.mercs if m.card == card), None)


def health_of(state: State, card: str) -> int | None:
    """A hired mercenary's health tokens (None once defeated)."""
    return next((m.health for m in state.mercs if m.card == card), None)
