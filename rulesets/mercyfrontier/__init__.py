"""Mercy Frontier: an RTS-style board game for 2, with workers, buildings and a shared mercenary row.

The rules come from ../shared/rules/mercy-frontier.txt: the current rules, the accelerated
start and the play-test iterations whose changes the history names. The cards and tiles
were pictures and are lost: data/ supplies them, every value marked `assumed`.
"""

from __future__ import annotations

from pathlib import Path

from rulesets.fingerprint import fingerprint
from rulesets.mercyfrontier.bots import BOTS
from rulesets.mercyfrontier.events import EVENTS
from rulesets.mercyfrontier.moves import candidates, chance, legal
from rulesets.mercyfrontier.params import VERSIONS
from rulesets.mercyfrontier.readings import READINGS
from rulesets.mercyfrontier.ruleids import RULE_IDS
from rulesets.mercyfrontier.rules import apply, check, outcome, setup, validate_start
from rulesets.mercyfrontier.table import describe, touch
from rulesets.mercyfrontier.view import metrics, places, progress, view
from rulesets.protocol import Ruleset

RULESET = Ruleset(
    name="mercyfrontier",
    title="Mercy Frontier",
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
    bots=BOTS,
    readings=READINGS,
    rule_ids=RULE_IDS,
    describe=describe,
    touch=touch,
    example_seats={"orange": "orange player", "yellow": "yellow player"},
)
