"""Frontier: a two-player skirmish war game on an open 30" x 44" table, measured in inches.

The rules come from ../shared/rules/frontier.md: one version; the mission, the points
limit and (optionally) each side's faction and army are options of the match.
"""

from __future__ import annotations

from pathlib import Path

from rulesets.fingerprint import fingerprint
from rulesets.frontier.bots import BOTS
from rulesets.frontier.events import EVENTS
from rulesets.frontier.moves import candidates, chance, compose, legal
from rulesets.frontier.params import OPTIONS, VERSIONS
from rulesets.frontier.readings import READINGS
from rulesets.frontier.ruleids import RULE_IDS
from rulesets.frontier.rules import apply, check, outcome, setup, validate_start
from rulesets.frontier.table import describe, touch
from rulesets.frontier.view import metrics, places, progress, roster, view
from rulesets.protocol import Ruleset

RULESET = Ruleset(
    name="frontier",
    title="Frontier",
    events=EVENTS,
    versions=VERSIONS,
    setup=setup,
    check=check,
    apply=apply,
    outcome=outcome,
    legal=legal,
    candidates=candidates,
    chance=chance,
    metrics=metrics,
    places=places,
    view=view,
    progress=progress,
    validate_start=validate_start,
    fingerprint=fingerprint(Path(__file__).parent),
    roster=roster,
    options=OPTIONS,
    bots=BOTS,
    readings=READINGS,
    rule_ids=RULE_IDS,
    describe=describe,
    touch=touch,
    compose=compose,
    example_seats={"p1": "player 1", "p2": "player 2"},
)
