"""Mercenarium: card placement and capture on the Anthromancer board, for 2-4 players.

The rules come from ../shared/rules/mercenarium.txt. It is the first game with hidden
information (hands, the deck, hymns): the log holds every fact, `view` shows each seat
only what it saw.
"""

from __future__ import annotations

from pathlib import Path

from rulesets.fingerprint import fingerprint
from rulesets.mercenarium.bots import BOTS
from rulesets.mercenarium.events import EVENTS
from rulesets.mercenarium.moves import candidates, chance, legal
from rulesets.mercenarium.params import VERSIONS
from rulesets.mercenarium.readings import READINGS
from rulesets.mercenarium.ruleids import RULE_IDS
from rulesets.mercenarium.rules import apply, check, outcome, setup, validate_start
from rulesets.mercenarium.table import describe, touch
from rulesets.mercenarium.view import metrics, progress, view
from rulesets.protocol import Ruleset

RULESET = Ruleset(
    name="mercenarium",
    title="Mercenarium",
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
    bots=BOTS,
    readings=READINGS,
    rule_ids=RULE_IDS,
    describe=describe,
    touch=touch,
    example_seats={"red": "red player", "yellow": "yellow player"},
)
