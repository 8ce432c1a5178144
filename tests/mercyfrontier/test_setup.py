"""Setup 1-6: home rows uncovered with a base in the centre, the rest covered, the relic
cards under the middle tiles, four mercenaries flipped, 3 of each resource (2 and two
refineries in the accelerated start), the oldest player holding the priority token."""

from __future__ import annotations

import msgspec

from events.shared import MatchStarted
from rulesets import registry
from rulesets.mercyfrontier.events import CardRevealed, RelicDrawn, TileUncovered, WorkersPlaced
from rulesets.mercyfrontier.resources import Resources
from rulesets.mercyfrontier.state import Pending, uncovering
from tests.mercyfrontier.scenario import (
    ORANGE_BASE,
    ORANGE_BIOFUEL,
    ORANGE_NEOSTEEL,
    YELLOW_BASE,
    opening,
    play,
    rules,
    started,
    violations,
)


def test_home_rows_are_uncovered_with_a_base_tile_in_the_centre() -> None:
    state = opening()
    homes = {t.pos: t.home for t in state.tiles if t.face is not None}
    assert homes == {(c, 0): "yellow" for c in range(3)} | {(c, 4): "orange" for c in range(3)}
    assert sum(1 for t in state.tiles if t.face is None) == 9
    bases = {b.owner: b.at for b in state.buildings if b.kind == "base"}
    assert bases == {"orange": ORANGE_BASE, "yellow": YELLOW_BASE}
    assert (ORANGE_BIOFUEL, "biofuel") in state.nodes and (ORANGE_NEOSTEEL, "neosteel") in state.nodes


def test_each_player_starts_with_3_of_each_resource_and_the_oldest_holds_priority() -> None:
    state = opening()
    assert {p.seat: p.resources for p in state.players} == {s: Resources(biofuel=3, neosteel=3, crystal=3) for s in ("orange", "yellow")}
    assert state.priority == "orange"
    yellow_first = rules().ruleset.setup(rules().params, started(seats=("yellow", "orange")))
    assert yellow_first.priority == "yellow"


def test_the_accelerated_start_gives_2_of_each_and_refineries_on_both_base_nodes() -> None:
    state = opening("accelerated")
    assert all(p.resources == Resources(biofuel=2, neosteel=2, crystal=2) for p in state.players)
    refineries = sorted((b.owner, b.at, b.resource) for b in state.buildings if b.kind == "refinery")
    assert refineries == [("orange", ORANGE_BIOFUEL, "biofuel"), ("orange", ORANGE_NEOSTEEL, "neosteel"),
                          ("yellow", (3, 1), "neosteel"), ("yellow", (5, 1), "biofuel")]


def test_four_mercenaries_are_flipped_before_the_first_turn() -> None:
    r = rules()
    state = opening()
    for _ in range(4):
        outcomes = r.ruleset.chance(r.params, state)
        assert outcomes is not None and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state = play(state, outcomes[0][0])
    assert len(state.market) == 4 and state.phase == "workers" and state.actor == "orange" and state.turn == 1
    assert r.ruleset.chance(r.params, state) is None


def test_no_decision_is_taken_before_the_row_is_flipped() -> None:
    state = opening()
    assert violations(state, WorkersPlaced(seq=1, by="orange", spaces=())) == ["mercyfrontier/setup.market"]
    assert violations(state, CardRevealed(seq=1, card="no-such-card")) == ["mercyfrontier/mercenaries.refill"]


def test_relic_cards_lie_under_the_middle_tiles_only_from_the_8th_play_test() -> None:
    state = flipped_row()
    assert [p.kind for p in uncovering(rules().params, state, (1, 2))] == ["uncover", "relic"]
    assert [p.kind for p in uncovering(rules().params, state, (1, 1))] == ["uncover"]
    assert [p.kind for p in uncovering(rules("playtest-7").params, state, (1, 2))] == ["uncover"]
    assert set(state.relic_pile) == {"verdant-idol", "iron-crown", "prism-heart"}
    assert opening("playtest-7").relic_pile == ()


def test_chance_steps_record_tile_faces_and_relics_from_what_is_left() -> None:
    r = rules()
    waiting = msgspec.structs.replace(flipped_row(), pending=(Pending("uncover", tile=(1, 2)), Pending("relic", tile=(1, 2))))
    faces = r.ruleset.chance(r.params, waiting)
    assert faces is not None and len(faces) == 9
    flipped = play(waiting, TileUncovered(tile=(1, 2), face="crystal-vein"))
    assert ((4, 7), "crystal") in flipped.nodes and "crystal-vein" not in flipped.faces
    assert violations(flipped, TileUncovered(tile=(1, 2), face="crystal-vein")) == ["mercyfrontier/outposts.uncover"]
    relics = r.ruleset.chance(r.params, flipped)
    assert relics is not None and len(relics) == 3
    relic = play(flipped, RelicDrawn(tile=(1, 2), relic="prism-heart"))
    assert next(t.relic for t in relic.tiles if t.pos == (1, 2)) == "prism-heart"
    assert relic.pending == () and relic.relic_pile == ("iron-crown", "verdant-idol")


def flipped_row():  # type: ignore[no-untyped-def]
    """The opening with its four mercenaries flipped: turn 1 begins."""
    return play(opening(), *(CardRevealed(card=c) for c in ("raider-1", "brute-1", "scout-1", "militia-1")))


def test_seats_must_be_orange_and_yellow() -> None:
    r = rules()
    bad = MatchStarted(seq=0, match_id="x", ruleset="mercyfrontier", version="current", seats={"red": "a", "blue": "b"})
    assert r.ruleset.validate_start(r.params, bad) == ["Mercy Frontier is played by 2 players seated as orange and yellow (the outpost colours), not red, blue"]
    assert r.ruleset.validate_start(r.params, started()) == []
    assert registry.game("mercyfrontier").newest == "current"
