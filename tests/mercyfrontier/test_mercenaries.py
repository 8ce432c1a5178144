"""Mercenaries Phase and victory: purchase in priority order with credits and per-resource
values, the sweep for 2 resources, refilling the row to 4, the 5 zones, placement within the
zone of control; one merc on the far side, or 3 enemy buildings destroyed."""

from __future__ import annotations

import msgspec

from rulesets.mercyfrontier.events import (
    MarketSwept,
    MercenaryHired,
    MercenaryMoved,
    MercenaryPlaced,
    StepFinished,
)
from rulesets.mercyfrontier.resources import Resources
from rulesets.mercyfrontier.state import Building
from tests.mercyfrontier.scenario import MARKET, legal, play, position, rules, violations


def hire(card: str, by: str = "orange", **paid: int) -> MercenaryHired:
    return MercenaryHired(seq=40, by=by, card=card, paid=Resources(**paid))


def test_a_payment_must_be_worth_the_credits_at_the_cards_own_values() -> None:
    """Mercenary Purchase 1.b: Raider costs 4; biofuel and neosteel are worth 1, crystal 2 (assumed card)."""
    state = position(phase="purchase")
    assert violations(state, hire("raider-1", crystal=2)) == []
    assert violations(state, hire("raider-1", biofuel=2, neosteel=1)) == ["mercyfrontier/mercenaries.credits"]
    assert violations(state, hire("raider-1", biofuel=3, neosteel=2)) == []  # overpaying is allowed
    assert violations(state, hire("raider-1", crystal=4)) == ["mercyfrontier/mercenaries.payment"]
    assert violations(state, hire("lancer-1", crystal=3)) == ["mercyfrontier/mercenaries.market"]


def test_the_priority_player_purchases_first() -> None:
    state = position(phase="purchase", priority="yellow", actor="yellow")
    assert violations(state, hire("raider-1", crystal=2)) == ["mercyfrontier/turn.priority"]
    assert violations(state, hire("raider-1", by="yellow", crystal=2)) == []


def test_a_purchase_out_of_priority_order_is_named_once_and_the_table_is_followed() -> None:
    """The other seat bought first: one turn.priority finding, then both parts of the phase play on."""
    state = position(phase="purchase", priority="yellow", actor="yellow")
    first = hire("raider-1", crystal=2)
    assert violations(state, first) == ["mercyfrontier/turn.priority"]
    state = play(state, first)
    assert violations(state, StepFinished(seq=41, by="orange")) == []
    state = play(state, StepFinished(seq=41, by="orange"))
    r = rules()
    while (outcomes := r.ruleset.chance(r.params, state)) is not None:
        state = play(state, outcomes[0][0])
    assert state.actor == "yellow" and violations(state, hire("brute-1", by="yellow", crystal=3)) == []
    state = play(state, hire("brute-1", by="yellow", crystal=3))
    assert violations(state, StepFinished(seq=43, by="yellow")) == []
    state = play(state, StepFinished(seq=43, by="yellow"))
    while (outcomes := r.ruleset.chance(r.params, state)) is not None:
        state = play(state, outcomes[0][0])
    assert state.phase == "placement" and state.actor == "yellow"


def test_bought_cards_are_replaced_when_the_player_finishes_purchasing() -> None:
    state = play(position(phase="purchase"), hire("raider-1", crystal=2))
    assert state.market == tuple(c for c in MARKET if c != "raider-1")
    finished = play(state, StepFinished(seq=41, by="orange"))
    assert [p.kind for p in finished.pending] == ["reveal"] and finished.actor == "yellow"
    r = rules()
    outcomes = r.ruleset.chance(r.params, finished)
    assert outcomes is not None and len(outcomes) == len(finished.deck)
    refilled = play(finished, outcomes[0][0])
    assert len(refilled.market) == 4 and refilled.pending == ()


def test_a_sweep_costs_2_resources_and_flips_a_new_set_of_four() -> None:
    state = position(phase="purchase")
    assert violations(state, MarketSwept(seq=40, by="orange", paid=Resources(biofuel=1, crystal=1))) == []
    assert violations(state, MarketSwept(seq=40, by="orange", paid=Resources(biofuel=3))) == ["mercyfrontier/mercenaries.sweep"]
    swept = play(state, MarketSwept(seq=40, by="orange", paid=Resources(biofuel=2)))
    assert swept.market == () and set(MARKET) <= set(swept.discard) and len(swept.pending) == 4


def test_five_mercenary_zones() -> None:
    mine = {f"militia-{n}": ("orange", None) for n in range(1, 5)} | {"scout-2": ("orange", None)}
    state = position(phase="purchase", mercs=mine)
    assert violations(state, hire("raider-1", crystal=2)) == ["mercyfrontier/mercenaries.zones"]


def test_a_token_is_placed_overlapping_the_zone_of_control_on_free_uncovered_spaces() -> None:
    """Mercenary Placement 2.a and 2.c."""
    state = position(phase="placement", mercs={"warden-1": ("orange", None), "raider-1": ("orange", None)})
    assert violations(state, MercenaryPlaced(seq=50, by="orange", card="raider-1", space=(0, 12))) == []
    assert violations(state, MercenaryPlaced(seq=50, by="orange", card="raider-1", space=(0, 11))) == ["mercyfrontier/mercenaries.space", "mercyfrontier/mercenaries.zone-of-control"]
    assert violations(state, MercenaryPlaced(seq=50, by="orange", card="raider-1", space=(4, 13))) == ["mercyfrontier/mercenaries.space"]  # the base
    assert violations(state, MercenaryPlaced(seq=50, by="orange", card="warden-1", space=(6, 12))) == []
    assert violations(state, MercenaryPlaced(seq=50, by="orange", card="warden-1", space=(7, 12))) == ["mercyfrontier/mercenaries.space"]
    assert violations(state, StepFinished(seq=50, by="orange")) == ["mercyfrontier/mercenaries.must-place"] * 2


def test_a_mercenary_waits_when_no_uncovered_tile_has_room_for_it() -> None:
    crowd = tuple(Building("outpost", "orange", (c, r)) for c in range(9) for r in range(12, 15) if (c, r) not in ((4, 13), (1, 13), (3, 13), (5, 13), (7, 13)))
    state = position(phase="placement", mercs={"warden-1": ("orange", None)}, buildings=crowd)
    assert violations(state, StepFinished(seq=50, by="orange")) == []
    assert [e for e in legal(state) if isinstance(e, MercenaryPlaced)] == []


def test_one_merc_moved_to_the_far_side_wins() -> None:
    r = rules()
    near = position(mercs={"raider-1": ("orange", (4, 1))})
    assert r.ruleset.outcome(r.params, near) is None
    arrived = play(near, MercenaryMoved(seq=60, by="orange", card="raider-1", direction="north", spaces=1))
    result = r.ruleset.outcome(r.params, arrived)
    assert result is not None and (result.winner, result.rule) == ("orange", "mercyfrontier/victory.far-side")
    yellow_near = position(actor="yellow", mercs={"warden-1": ("yellow", (0, 11))})
    yellow = r.ruleset.outcome(r.params, play(yellow_near, MercenaryMoved(seq=60, by="yellow", card="warden-1", direction="south", spaces=1)))
    assert yellow is not None and yellow.winner == "yellow"


def test_a_merc_placed_on_the_far_side_has_not_reached_it() -> None:
    """Reaching the other side is a move (Objective); a placement there is out of the zone of
    control, and moving along the far row does not make it a move to it."""
    r = rules()
    placed = position(phase="placement", mercs={"raider-1": ("orange", None)})
    assert violations(placed, MercenaryPlaced(seq=60, by="orange", card="raider-1", space=(4, 0))) == ["mercyfrontier/mercenaries.zone-of-control"]
    there = play(placed, MercenaryPlaced(seq=60, by="orange", card="raider-1", space=(4, 0)))
    assert r.ruleset.outcome(r.params, there) is None
    along = play(msgspec.structs.replace(there, phase="action"), MercenaryMoved(seq=61, by="orange", card="raider-1", direction="east", spaces=1))
    assert r.ruleset.outcome(r.params, along) is None
    back = play(along, MercenaryMoved(seq=62, by="orange", card="raider-1", direction="south", spaces=1))
    again = play(msgspec.structs.replace(back, moves=()), MercenaryMoved(seq=63, by="orange", card="raider-1", direction="north", spaces=1))
    result = r.ruleset.outcome(r.params, again)
    assert result is not None and result.rule == "mercyfrontier/victory.far-side"


def test_three_enemy_buildings_destroyed_win() -> None:
    r = rules()
    state = position()
    orange = next(p for p in state.players if p.seat == "orange")
    two = msgspec.structs.replace(state, players=tuple(msgspec.structs.replace(p, lost=2) if p is orange else p for p in state.players))
    assert r.ruleset.outcome(r.params, two) is None
    three = msgspec.structs.replace(state, players=tuple(msgspec.structs.replace(p, lost=3) if p is orange else p for p in state.players))
    result = r.ruleset.outcome(r.params, three)
    assert result is not None and (result.winner, result.rule) == ("yellow", "mercyfrontier/victory.buildings")
    assert violations(three, StepFinished(seq=60, by="orange"))[0] == "mercyfrontier/victory.game-over"
