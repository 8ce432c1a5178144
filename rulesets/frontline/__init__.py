"""Warcraft: Frontline: an economy game in which military force pushes a frontline, for 2.

The rules come from ../shared/rules/warcraft-frontline.txt: one version; each player's
race (Orc or Human) is an option of the match. The card, track and map images are lost:
data/cards.toml and data/map.toml supply them, every value marked `rules` or `assumed`.
"""

from __future__ import annotations

from pathlib import Path

from rulesets.fingerprint import fingerprint
from rulesets.frontline.bots import BOTS
from rulesets.frontline.events import EVENTS
from rulesets.frontline.moves import candidates, chance, legal
from rulesets.frontline.params import OPTIONS, VERSIONS
from rulesets.frontline.readings import READINGS
from rulesets.frontline.ruleids import RULE_IDS
from rulesets.frontline.rules import apply, check, outcome, setup, validate_start
from rulesets.frontline.table import describe, touch
from rulesets.frontline.view import metrics, progress, roster, view
from rulesets.protocol import Ruleset

RULESET = Ruleset(
    name="frontline",
    title="Warcraft: Frontline",
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
    example_seats={"a": "player A", "b": "player B"},
)
