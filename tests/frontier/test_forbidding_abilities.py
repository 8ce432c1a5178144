"""Every ability that forbids something is named by its own rule at the first event that
breaks it, and the events that follow from that one mistake give no second finding.

Each case is a whole log (set-up, deployment, then the turn that breaks the rule) audited as
a designer audits a playtest (`projections.read.audit.audit`). p1 attacks with Colonial
Government units from the north edge; p2 defends with Rebels in the south half.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import msgspec
import pytest

from events.base import Event
from events.shared import MatchStarted
from projections.read.audit import audit
from rulesets import registry
from rulesets.frontier.board import Point, rectangle
from rulesets.frontier.events import (
    AbilityUsed,
    ActionDeclared,
    ActionRolled,
    ArmySelected,
    EdgeChosen,
    FactionChosen,
    Level,
    MarkerPlaced,
    Passed,
    ReactionDeclared,
    RoleChosen,
    RolesRolled,
    TerrainAgreed,
    TerrainPlaced,
    UnitDeployed,
    UnitMoved,
    UnitReserved,
)

R = registry.resolve("frontier")
SENTRY, SYNTHS, BIKER, INSURGENT = "p1/sentry_gun-1", "p1/mk1_combat_synths-1", "p2/recon_biker-1", "p2/insurgent-1"
SCALE_0 = TerrainPlaced(piece="crater", outline=rectangle(0, 0, 1, 1), scale=0, levels=(Level(height=0),))
SCALE_3 = TerrainPlaced(piece="tower", outline=rectangle(43, 0, 44, 1), scale=3, levels=(Level(height=3),))
WALL = TerrainPlaced(piece="wall", outline=rectangle(10, 3, 30, 4), scale=1, levels=(Level(height=1),))
"""A scale 1 wall across the south half: the biker (scale 1) climbs it to cross."""


def opening(p1: dict[str, Point], p2: dict[str, Point], *terrain: TerrainPlaced,
            factions: tuple[str, str] = ("colonial_government", "rebels"), reserved: tuple[str, ...] = ()) -> list[Event]:
    """A clean log up to p1's first turn of an assault: the table (a scale 0 and a scale 3
    piece in the corners, and `terrain`), p1 attacking with `p1`'s units (type: where, within
    10" of the north edge) and holding the `reserved` types in reserve (Orbital Drop), p2
    defending in the south half with `p2`'s."""
    started = MatchStarted(seq=0, match_id="forbidding", ruleset="frontier", version=R.version, seats={"p1": "ana", "p2": "ben"},
                           options={"mission": "assault"}, fingerprint=R.ruleset.fingerprint)
    events: list[Event] = [started, SCALE_0, SCALE_3, *terrain, TerrainAgreed(by="p1"), RolesRolled(rolls={"p1": 6, "p2": 1}),
                           RoleChosen(by="p1", role="attacker"), FactionChosen(by="p1", faction=factions[0]),
                           FactionChosen(by="p2", faction=factions[1]), ArmySelected(by="p1", units=(*p1, *reserved)),
                           ArmySelected(by="p2", units=tuple(p2)), EdgeChosen(by="p2", edges=("south",))]
    events += [UnitDeployed(by="p2", unit=f"p2/{kind}-1", point=at) for kind, at in p2.items()]
    events += [UnitDeployed(by="p1", unit=f"p1/{kind}-1", point=at) for kind, at in p1.items()]
    events += [UnitReserved(by="p1", unit=f"p1/{kind}-1") for kind in reserved]
    events.append(MarkerPlaced(by="p1", marker="strong_point", point=(40.0, 5.0)))
    return events


def numbered(events: Sequence[Event]) -> list[Event]:
    return [msgspec.structs.replace(e, seq=i) for i, e in enumerate(events)]


def findings(events: Sequence[Event]) -> list[tuple[int, str]]:
    """(seq, rule) of every error and warning the audit names."""
    return [(v.seq, v.rule) for v in audit(numbered(events), R).violations if v.severity != "info"]


class Case(NamedTuple):
    ability: str
    what: str
    """The event that breaks the rule, in words (the test's id)."""
    setup: Sequence[Event]
    before: Sequence[Event]
    """Legal events after the opening, up to the one that breaks the rule."""
    breaks: Event
    after: Sequence[Event]
    """What the table did next, following from the same mistake."""
    rule: str


SENTRY_AND_BIKER = opening({"sentry_gun": (20.0, 21.0), "mk1_combat_synths": (35.0, 25.0)}, {"recon_biker": (20.0, 13.0)})
"""The sentry gun 8" north of the biker, which sees it."""
SENTRY_FAR = opening({"sentry_gun": (20.0, 25.0), "mk1_combat_synths": (35.0, 25.0)}, {"recon_biker": (20.0, 13.0)})
"""The sentry gun 12" from the biker: in open fire's range, out of fight through's 10"."""
SPECIALIST, SABOTEUR = "p1/specialist-1", "p2/saboteur-1"
AUTOGUNS = opening({"specialist": (20.0, 25.0)}, {"insurgent": (20.0, 13.0), "saboteur": (23.0, 13.0)},
                   factions=("central_systems_marine_corp", "rebels"))
"""A specialist 12" from an insurgent, a saboteur 3" beside it: Autoguns fires at the second."""
HOLOFIELD = opening({"insurgent": (20.0, 21.0)}, {"rifleman": (20.0, 9.0), "aegis_unit": (22.0, 13.0)},
                    factions=("rebels", "central_systems_marine_corp"))
"""An insurgent 12" from a rifleman, the AEGIS unit 4.5" from it and 8.2" from the insurgent:
Holofield makes the AEGIS unit the target, too close for open fire."""
TAKE_COVER = [ActionDeclared(by="p1", unit=SYNTHS, action="open_fire", target=BIKER), ReactionDeclared(by="p2", unit=BIKER, reaction="take_cover"),
              ActionRolled(active=(1,), reactive=(5,))]
"""The synths open fire on the biker, who takes cover and wins: Slalom's move is open."""

CASES = [
    Case("kill_zone", "advance", SENTRY_FAR, [], ActionDeclared(by="p1", unit=SENTRY, action="advance"),
         [Passed(by="p2", step="reaction"), UnitMoved(by="p1", unit=SENTRY, to=(20.0, 28.0))], "frontier/abilities.kill_zone"),
    Case("kill_zone", "advance, then an overwatch moves it", SENTRY_FAR, [], ActionDeclared(by="p1", unit=SENTRY, action="advance"),
         [ReactionDeclared(by="p2", unit=BIKER, reaction="overwatch"), ActionRolled(active=(1,), reactive=(6,)),
          UnitMoved(by="p2", unit=SENTRY, to=(20.0, 28.0))], "frontier/abilities.kill_zone"),
    Case("kill_zone", "flank", SENTRY_AND_BIKER, [ActionDeclared(by="p1", unit=SYNTHS, action="advance"), Passed(by="p2", step="reaction"),
                                        Passed(by="p1", step="move", unit=SYNTHS), ActionDeclared(by="p2", unit=BIKER, action="advance")],
         ReactionDeclared(by="p1", unit=SENTRY, reaction="flank"),
         [ActionRolled(active=(1,), reactive=(4,)), UnitMoved(by="p1", unit=SENTRY, to=(23.0, 21.0))], "frontier/abilities.kill_zone"),
    Case("kill_zone", "fall back", SENTRY_AND_BIKER, [ActionDeclared(by="p1", unit=SYNTHS, action="advance"), Passed(by="p2", step="reaction"),
                                        Passed(by="p1", step="move", unit=SYNTHS), ActionDeclared(by="p2", unit=BIKER, action="fight_through", target=SENTRY),
                                        Passed(by="p2", step="move", unit=BIKER)],
         ReactionDeclared(by="p1", unit=SENTRY, reaction="fall_back"),
         [ActionRolled(active=(1,), reactive=(4,)), UnitMoved(by="p1", unit=SENTRY, to=(20.0, 25.0))], "frontier/abilities.kill_zone"),
    Case("kill_zone", "fight through out of reach", SENTRY_FAR, [], ActionDeclared(by="p1", unit=SENTRY, action="fight_through", target=BIKER),
         [Passed(by="p1", step="move", unit=SENTRY)], "frontier/abilities.kill_zone"),
    Case("kill_zone", "move in fight through's first move", SENTRY_AND_BIKER, [ActionDeclared(by="p1", unit=SENTRY, action="fight_through", target=BIKER)],
         UnitMoved(by="p1", unit=SENTRY, to=(20.0, 19.0)), [], "frontier/abilities.kill_zone"),
    Case("kill_zone", "move with none open", SENTRY_FAR, [ActionDeclared(by="p1", unit=SENTRY, action="open_fire", target=BIKER), Passed(by="p2", step="reaction")],
         UnitMoved(by="p1", unit=SENTRY, to=(20.0, 28.0)), [], "frontier/abilities.kill_zone"),
    Case("autoguns", "a third open fire", AUTOGUNS, [ActionDeclared(by="p1", unit=SPECIALIST, action="open_fire", target=INSURGENT),
                                                   Passed(by="p2", step="reaction"),
                                                   ActionDeclared(by="p1", unit=SPECIALIST, action="open_fire", target=SABOTEUR),
                                                   Passed(by="p2", step="reaction")],
         ActionDeclared(by="p1", unit=SPECIALIST, action="open_fire", target=INSURGENT),
         [Passed(by="p2", step="reaction"), ActionDeclared(by="p2", unit=SABOTEUR, action="advance"), Passed(by="p1", step="reaction"),
          Passed(by="p2", step="move", unit=SABOTEUR)], "frontier/abilities.autoguns"),
    Case("orbital_drop", "an action before it drops", opening({"specialist": (20.0, 25.0)}, {"insurgent": (20.0, 13.0)},
                                                              factions=("central_systems_marine_corp", "rebels"), reserved=("cap_trooper",)),
         [], ActionDeclared(by="p1", unit="p1/cap_trooper-1", action="advance"),
         [Passed(by="p2", step="reaction"), UnitMoved(by="p1", unit="p1/cap_trooper-1", to=(20.0, 20.0))], "frontier/abilities.orbital_drop"),
    Case("flame_units", "a second use (once per game)", opening({"colonial_exploration_team": (20.0, 20.0)}, {"recon_biker": (20.0, 15.0)}),
         [AbilityUsed(by="p1", unit="p1/colonial_exploration_team-1", ability="flame_units", target=BIKER)],
         AbilityUsed(by="p1", unit="p1/colonial_exploration_team-1", ability="flame_units", target=BIKER), [], "frontier/abilities.once-per-game"),
    Case("holofield", "a reaction to the open fire it nullified", HOLOFIELD,
         [ActionDeclared(by="p1", unit="p1/insurgent-1", action="open_fire", target="p2/rifleman-1"),
          AbilityUsed(by="p2", unit="p2/aegis_unit-1", ability="holofield")],
         ReactionDeclared(by="p2", unit="p2/aegis_unit-1", reaction="take_cover"), [ActionRolled(active=(1,), reactive=(2,))],
         "frontier/abilities.holofield"),
    Case("need_for_speed", "move that climbs", opening({"mk1_combat_synths": (35.0, 25.0)}, {"recon_biker": (20.0, 1.5)}, WALL),
         [ActionDeclared(by="p1", unit=SYNTHS, action="advance"), Passed(by="p2", step="reaction"), Passed(by="p1", step="move", unit=SYNTHS),
          ActionDeclared(by="p2", unit=BIKER, action="advance"), Passed(by="p1", step="reaction")],
         UnitMoved(by="p2", unit=BIKER, to=(20.0, 6.0)), [], "frontier/abilities.need_for_speed"),
    Case("slalom", "pass of the move", opening({"mk1_combat_synths": (20.0, 25.0)}, {"recon_biker": (20.0, 13.0)}), TAKE_COVER,
         Passed(by="p2", step="move", unit=BIKER), [], "frontier/abilities.slalom"),
    Case("slalom", "next action without the move", opening({"mk1_combat_synths": (20.0, 25.0)}, {"recon_biker": (20.0, 13.0)}), TAKE_COVER,
         ActionDeclared(by="p2", unit=BIKER, action="advance"), [Passed(by="p1", step="reaction"), UnitMoved(by="p2", unit=BIKER, to=(20.0, 5.0))],
         "frontier/abilities.slalom"),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.ability}: {c.what}" for c in CASES])
def test_a_forbidding_ability_is_named_by_its_rule_at_the_first_event_that_breaks_it(case: Case) -> None:
    clean = [*case.setup, *case.before]
    assert findings(clean) == [], findings(clean)
    seq = len(clean)
    assert findings([*clean, case.breaks, *case.after]) == [(seq, case.rule)]


WALLED = TerrainPlaced(piece="bunker", outline=rectangle(10, 16, 30, 17), scale=3, levels=(Level(height=3),))
"""A scale 3 wall between the halves: no line of sight across it."""
GUARDED = {"insurgent": (20.0, 25.0)}, {"sentry_gun": (20.0, 14.0)}
"""An insurgent 11" north of a defending sentry gun, 14" from its evac edge (the south edge)."""
P1_TURN = [ActionDeclared(by="p1", unit="p1/insurgent-1", action="advance"), Passed(by="p2", step="reaction"), Passed(by="p1", step="move", unit="p1/insurgent-1")]


def test_a_player_whose_units_may_take_no_action_passes_step_2() -> None:
    """Kill Zone leaves a sentry gun that sees no enemy, with none within 10" and no evac zone
    within 10", no action: its player passes step 2 and the turn passes."""
    walled = [*opening(*GUARDED, WALLED, factions=("rebels", "colonial_government")), *P1_TURN]
    assert findings([*walled, Passed(by="p2", step="action"), ActionDeclared(by="p1", unit="p1/insurgent-1", action="advance")]) == []


def test_step_2_is_not_passed_while_a_unit_may_act() -> None:
    open_table = [*opening(*GUARDED, factions=("rebels", "colonial_government")), *P1_TURN]
    assert findings([*open_table, Passed(by="p2", step="action")]) == [(len(open_table), "frontier/turn.no-action")]
