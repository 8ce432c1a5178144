"""When things may happen in a turn (frontier.md, Turn Sequence), and how a broken rule is named.

1. Active player may make one strategic action
2. Active player chooses a unit and action
3. Reactive player may choose a reaction
4. Action roll
5. Resolve action
6. Reactive player becomes active player
"""

from __future__ import annotations

from events.base import Event
from rulesets.frontier.ruleids import RULE_IDS
from rulesets.frontier.state import State, Turn, Window
from rulesets.protocol import Severity, Violation

Problems = list[Violation]


def violation(event: Event, rule: str, message: str, severity: Severity = "error") -> Violation:
    """A Violation of a declared rule: `movement.distance` -> `frontier/movement.distance`."""
    return RULE_IDS.violation(event, rule, message, severity)


def chance_pending(turn: Turn) -> bool:
    """Dice wait to be rolled: the action roll, Experimental Nanites' D6, Neural Trojan's tests."""
    act = turn.activation
    return bool(turn.tests) or turn.nanites is not None or (act is not None and act.phase == "roll")


def settled(turn: Turn) -> bool:
    """Nothing waits: no action under way, no window open, no dice to roll."""
    return turn.activation is None and not turn.windows and not chance_pending(turn)


def at_step_two(turn: Turn) -> bool:
    """Step 1 is over and step 2 has not begun ("At the start of step 2 of the turn sequence")."""
    return turn.step == "action" and settled(turn)


def front(turn: Turn | None) -> Window | None:
    """The window decided next."""
    return turn.windows[0] if turn is not None and turn.windows else None


def reactive_seat(state: State) -> str | None:
    """The seat that may react this turn."""
    turn = state.turn
    if turn is None:
        return None
    return next((s for s in state.seats if s != turn.seat), None)


def strategic_problems(state: State, event: Event, what: str) -> Problems:
    """A strategic action is taken by the active player in step 1, once a turn."""
    turn = state.turn
    if state.stage != "play" or turn is None:
        return [violation(event, "turn.sequence", f"{what} is a strategic action: it is taken in a turn, once play has begun")]
    problems = []
    if event.by != turn.seat:
        problems.append(violation(event, "turn.player", f"it is {turn.seat}'s turn: only the active player makes a strategic action, not {event.by or 'an unnamed seat'}"))
    if turn.strategic is not None:
        problems.append(violation(event, "turn.one-strategic-action", f"{turn.seat} already made a strategic action this turn ({turn.strategic}): only one is allowed"))
    elif turn.step != "strategic":
        problems.append(violation(event, "turn.sequence", f"{what} comes after step 2 began: strategic actions are step 1"))
    if not settled(turn):
        problems.append(violation(event, "turn.sequence", f"{what} while {pending_text(turn)}"))
    return problems


def pending_text(turn: Turn) -> str:
    """What the turn is waiting for, in words."""
    if turn.nanites is not None:
        return "Experimental Nanites' D6 is still to be rolled"
    if turn.tests:
        return f"{turn.tests[0]} has still to roll against Neural Trojan"
    window = front(turn)
    if window is not None:
        what = {"move": f"{window.unit} may still move ({window.purpose})", "strong_point": "the defender has still to place the new strong point",
                "autoguns": "Autoguns' second open fire is still open", "demolition": "Unscheduled Demolition is still open",
                "focus_fire": "Focus Fire's open fire has still to be made"}[window.kind]
        return what
    act = turn.activation
    if act is not None:
        return {"move": f"{act.unit} has still to make fight through's first move", "react": "the reactive player has still to react or pass",
                "roll": "the action roll is still to be made", "resolve": "the action is still resolving"}[act.phase]
    return "nothing is pending"
