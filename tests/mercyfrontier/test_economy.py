"""Worker Phase and Building Phase, passage by passage: placement in the uncovered
territory, collection with refineries doubling, workers usable next turn, the three
building requirements, outposts touching and uncovering a tile, relics held with their
tile, beacons' battle cries and the creature for the first to build 3."""

from __future__ import annotations

import msgspec

from rulesets.mercyfrontier.events import (
    BuildingBuilt,
    OutpostPlaced,
    OutpostPurchased,
    ResourcesCollected,
    StepFinished,
    TileUncovered,
    WorkersBought,
    WorkersPlaced,
)
from rulesets.mercyfrontier.resources import Resources
from rulesets.mercyfrontier.state import Building, collection, in_territory, relics_held
from tests.mercyfrontier.scenario import (
    ORANGE_BIOFUEL,
    ORANGE_NEOSTEEL,
    legal,
    play,
    position,
    rules,
    violations,
)

RICH = Resources(biofuel=9, neosteel=9, crystal=9)


def placed(*spaces: tuple[int, int], by: str = "orange") -> WorkersPlaced:
    return WorkersPlaced(seq=10, by=by, spaces=spaces)


# --- Worker Phase ---------------------------------------------------------------------------------


def test_workers_go_anywhere_in_the_uncovered_territory_one_per_space() -> None:
    state = position(phase="workers")
    assert violations(state, placed(ORANGE_BIOFUEL, (0, 12))) == []
    assert violations(state, placed((4, 9))) == ["mercyfrontier/workers.territory"]  # a covered tile
    assert violations(state, placed((4, 1))) == ["mercyfrontier/workers.territory"]  # yellow's home row
    assert violations(state, placed(ORANGE_BIOFUEL, ORANGE_BIOFUEL)) == ["mercyfrontier/workers.placement"]
    assert violations(state, placed((0, 12), (1, 12), (2, 12))) == ["mercyfrontier/workers.placement"]


def test_a_refinery_doubles_what_its_worker_collects() -> None:
    """Resource Collection 2.a: one token per worker on a node, 2 with a refinery."""
    state = play(position("accelerated", phase="workers"), placed(ORANGE_BIOFUEL, ORANGE_NEOSTEEL), version="accelerated")
    assert collection(rules("accelerated").params, state, "orange") == Resources(biofuel=2, neosteel=2)
    plain = play(position(phase="workers"), placed(ORANGE_BIOFUEL, ORANGE_NEOSTEEL))
    assert collection(rules().params, plain, "orange") == Resources(biofuel=1, neosteel=1)
    short = ResourcesCollected(seq=11, by="orange", gained=Resources(biofuel=1, neosteel=1))
    assert violations(state, short, "accelerated") == ["mercyfrontier/workers.collection"]
    assert [e for e in legal(state, "accelerated") if isinstance(e, ResourcesCollected)] == [
        ResourcesCollected(by="orange", gained=Resources(biofuel=2, neosteel=2))]


def test_the_worker_phase_goes_place_collect_buy_in_order() -> None:
    state = position(phase="workers")
    assert violations(state, ResourcesCollected(seq=10, by="orange")) == ["mercyfrontier/workers.sequence"]
    assert violations(state, StepFinished(seq=10, by="orange")) == ["mercyfrontier/workers.sequence"]
    assert violations(state, WorkersBought(seq=10, by="orange")) == ["mercyfrontier/workers.sequence"]


def test_bought_workers_are_only_used_next_turn() -> None:
    state = position(phase="workers", done=("placed", "collected"))
    after = play(state, WorkersBought(seq=12, by="orange", count=1))
    orange = next(p for p in after.players if p.seat == "orange")
    assert (orange.workers, orange.fresh, orange.resources) == (2, 1, Resources(biofuel=2, neosteel=2, crystal=3))
    later = position(phase="workers")
    fresh = play(later, WorkersBought(by="orange"))  # bookkeeping only: one fresh worker
    fresh = msgspec.structs.replace(fresh, done=())
    assert violations(fresh, placed((0, 12), (1, 12), (2, 12))) == ["mercyfrontier/workers.next-turn"]


def test_workers_cost_resources_and_there_are_10_dice() -> None:
    state = position(phase="workers", done=("placed", "collected"), purses={"orange": Resources(biofuel=1)})
    assert violations(state, WorkersBought(seq=12, by="orange", count=1)) == ["mercyfrontier/workers.purchase"]
    rich = position(phase="workers", done=("placed", "collected"), purses={"orange": RICH})
    assert violations(rich, WorkersBought(seq=12, by="orange", count=8)) == []
    assert violations(rich, WorkersBought(seq=12, by="orange", count=9)) == ["mercyfrontier/workers.limit"]


# --- Building Phase -------------------------------------------------------------------------------------


def test_a_building_needs_resources_a_worker_on_its_space_and_room() -> None:
    """Building Phase 1.a-c."""
    state = position(phase="building", workers={"orange": [ORANGE_BIOFUEL, (4, 13)]})
    assert violations(state, BuildingBuilt(seq=20, by="orange", kind="refinery", space=ORANGE_BIOFUEL)) == []
    assert violations(state, BuildingBuilt(seq=20, by="orange", kind="refinery", space=ORANGE_NEOSTEEL)) == ["mercyfrontier/building.worker"]
    assert violations(state, BuildingBuilt(seq=20, by="orange", kind="beacon-biofuel", space=(4, 13))) == ["mercyfrontier/building.space"]
    poor = position(phase="building", workers={"orange": [ORANGE_BIOFUEL]}, purses={"orange": Resources(neosteel=1)})
    assert violations(poor, BuildingBuilt(seq=20, by="orange", kind="refinery", space=ORANGE_BIOFUEL)) == ["mercyfrontier/building.cost"]
    assert violations(state, BuildingBuilt(seq=20, by="orange", kind="refinery", space=(4, 9))) == ["mercyfrontier/building.territory"]


def test_no_worker_was_needed_on_the_site_before_the_4th_play_test() -> None:
    state = position("playtest-3", phase="building")
    assert violations(state, BuildingBuilt(seq=20, by="orange", kind="refinery", space=ORANGE_BIOFUEL), "playtest-3") == []
    assert violations(position("playtest-4", phase="building"), BuildingBuilt(seq=20, by="orange", kind="refinery", space=ORANGE_BIOFUEL),
                      "playtest-4") == ["mercyfrontier/building.worker"]


def test_a_refinery_stands_on_a_node() -> None:
    state = position(phase="building", workers={"orange": [(0, 12)]})
    assert violations(state, BuildingBuilt(seq=20, by="orange", kind="refinery", space=(0, 12))) == ["mercyfrontier/building.refinery"]


def test_an_outpost_needs_a_worker_touching_the_covered_tile_and_uncovers_it() -> None:
    """Building Phase 2 and 2.a (7th play test)."""
    state = position(phase="building", workers={"orange": [(4, 12)]})
    buy = OutpostPurchased(seq=20, by="orange", tile=(1, 3))
    assert violations(state, buy) == []
    assert violations(state, OutpostPurchased(seq=20, by="orange", tile=(0, 3))) == ["mercyfrontier/outposts.worker"]
    assert violations(state, OutpostPurchased(seq=20, by="orange", tile=(1, 4))) == ["mercyfrontier/outposts.tile", "mercyfrontier/outposts.worker"]
    bought = play(state, buy)
    assert [p.kind for p in bought.pending] == ["uncover", "outpost"]
    flipped = play(bought, TileUncovered(tile=(1, 3), face="grove"))
    assert violations(flipped, OutpostPlaced(seq=22, by="orange", space=(4, 5))) == ["mercyfrontier/outposts.place"]
    done = play(flipped, OutpostPlaced(seq=22, by="orange", space=(3, 9)))
    assert (1, 3) in {t.pos for t in done.tiles if t.face} and done.pending == ()
    assert in_territory(rules().params, done, "orange", (4, 10))  # the tile is orange's now
    assert any(b.kind == "outpost" and b.at == (3, 9) for b in done.buildings)


def test_before_the_7th_play_test_an_outpost_did_not_uncover_a_tile() -> None:
    state = position("playtest-6", phase="building", workers={"orange": [(4, 12)]})
    assert violations(state, OutpostPurchased(seq=20, by="orange", tile=(1, 3)), "playtest-6") == ["mercyfrontier/outposts.uncover"]


def test_a_relic_is_held_while_its_tile_is_controlled_and_passes_with_it() -> None:
    """Building Phase 3.a."""
    outpost = Building("outpost", "orange", (3, 6))
    state = position(phase="workers", uncovered={(1, 2): "barren-1"}, buildings=[outpost])
    state = msgspec.structs.replace(state, tiles=tuple(msgspec.structs.replace(t, relic="iron-crown") if t.pos == (1, 2) else t for t in state.tiles))
    params = rules().params
    assert relics_held(params, state, "orange") == ("iron-crown",)
    assert collection(params, state, "orange") == Resources(neosteel=1)
    lost = msgspec.structs.replace(state, buildings=tuple(b for b in state.buildings if b != outpost))
    assert relics_held(params, lost, "orange") == ()
    retaken = msgspec.structs.replace(lost, buildings=(*lost.buildings, Building("outpost", "yellow", (5, 8))))
    assert relics_held(params, retaken, "yellow") == ("iron-crown",)


def test_a_beacon_gives_its_battle_cry_and_the_first_to_build_3_gets_the_creature() -> None:
    sites = [(0, 12), (1, 12), (2, 12)]
    state = position(phase="building", workers={"orange": sites}, purses={"orange": RICH})
    kinds = ("beacon-biofuel", "beacon-neosteel", "beacon-crystal")
    for kind, site in zip(kinds, sites, strict=True):
        assert violations(state, BuildingBuilt(seq=20, by="orange", kind=kind, space=site)) == []  # type: ignore[arg-type]
        state = play(state, BuildingBuilt(seq=20, by="orange", kind=kind, space=site))  # type: ignore[arg-type]
    orange = next(p for p in state.players if p.seat == "orange")
    assert orange.resources == Resources(biofuel=9 - 3 - 1 + 2, neosteel=9 - 3 - 1 + 2, crystal=9 - 1 - 1 - 2 + 2)
    assert state.creature_to == "orange" and any(m.card == "titan" and m.at is None for m in state.mercs)
    again = position(phase="building", workers={"orange": [(0, 13)]}, purses={"orange": RICH},
                     buildings=[Building("beacon-biofuel", "orange", (0, 12))])
    assert violations(again, BuildingBuilt(seq=20, by="orange", kind="beacon-biofuel", space=(0, 13))) == ["mercyfrontier/beacons.supply"]
