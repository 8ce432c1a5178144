"""MortalGate: a team hero arena on a staggered hex map, with altars, Grace and blessings.

The rules come from ../shared/rules/mortalgate.txt; the versions from its design history.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from rulesets.fingerprint import fingerprint
from rulesets.mortalgate.bots import BOTS
from rulesets.mortalgate.events import EVENTS
from rulesets.mortalgate.moves import attempts, candidates, chance, legal
from rulesets.mortalgate.params import VERSIONS, Params
from rulesets.mortalgate.readings import READINGS
from rulesets.mortalgate.rulebook import RulebookReport, check_faq, check_rulebook
from rulesets.mortalgate.ruleids import RULE_IDS
from rulesets.mortalgate.rules import apply, check, outcome, setup, validate_start
from rulesets.mortalgate.state import State, seat_team
from rulesets.mortalgate.table import compose, describe, touch
from rulesets.mortalgate.upcasters import UPCASTERS
from rulesets.mortalgate.view import metrics, places, progress, view
from rulesets.protocol import Ruleset


def printed_tables(params: Params) -> RulebookReport:
    """The printed quick-reference hit table against this version's stats and base chance,
    and the numbers the FAQ prints against this version's rules."""
    report = check_rulebook(params.stats, params.base_chance)
    faq = check_faq({"capture_grace": params.capture_grace, "grace_to_win": params.grace_to_win})
    return msgspec.structs.replace(report, findings=(*report.findings, *faq))


def roster(params: Params, state: State) -> tuple[tuple[str, str], ...]:
    """(team, hero) for every hero drafted: for pick and win rates."""
    return tuple((hero.team, hero.id) for hero in state.heroes)


def side_of(seat: str) -> str:
    """A seat's team (`red2` -> red)."""
    return seat_team(seat) or seat


RULESET = Ruleset(
    name="mortalgate",
    title="MortalGate",
    events=EVENTS,
    versions=VERSIONS,
    setup=setup,
    check=check,
    apply=apply,
    outcome=outcome,
    legal=legal,
    candidates=candidates,
    attempts=attempts,
    chance=chance,
    metrics=metrics,
    view=view,
    progress=progress,
    places=places,
    validate_start=validate_start,
    fingerprint=fingerprint(Path(__file__).parent),
    bots=BOTS,
    rulebook=printed_tables,
    describe=describe,
    touch=touch,
    compose=compose,
    readings=READINGS,
    rule_ids=RULE_IDS,
    roster=roster,
    seat_side=side_of,
    upcasters=UPCASTERS,
    example_seats={"red": "red player", "blue": "blue player"},
)
