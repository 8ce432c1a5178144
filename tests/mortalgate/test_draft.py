"""Draft Phase and Turn Sequence: the roll, the choice, the picks, placement and order."""

from __future__ import annotations

from events.shared import MatchStarted
from rulesets.mortalgate.events import (
    DraftChoiceMade,
    DraftRolled,
    HeroPicked,
    HeroPlaced,
    TurnOrderSet,
    TurnStarted,
)
from rulesets.mortalgate.state import game_map, next_hero
from tests.mortalgate.scenario import rules

R = rules("2.5")


def begin(seats=None):
    started = MatchStarted(seq=0, match_id="m", ruleset="mortalgate", version="2.5", seats=seats or {"red": "ana", "blue": "ben"})
    return R.ruleset.setup(R.params, started)


def run(state, *events):
    found = []
    for _seq, event in enumerate(events, start=1):
        found += [v.rule for v in R.ruleset.check(R.params, state, event)]
        state = R.ruleset.apply(R.params, state, event)
    return state, found


def test_seats_must_form_two_teams_of_2_to_8_players() -> None:
    check = lambda seats: R.ruleset.validate_start(R.params, MatchStarted(seq=0, match_id="m", ruleset="mortalgate", version="2.5", seats=seats))  # noqa: E731
    assert check({"red": "a", "blue": "b"}) == []
    assert check({"red1": "a", "red2": "b", "blue1": "c", "blue2": "d", "blue3": "e"}) == []
    assert check({"red": "a"})
    assert check({"green": "a", "blue": "b"})
    assert check({f"red{i}": "x" for i in range(5)} | {"blue": "y"})


def test_the_higher_d6_chooses_and_a_tie_is_rolled_again() -> None:
    state, found = run(begin(), DraftRolled(red=3, blue=3))
    assert state.draft.winner is None and found == []
    state, found = run(state, DraftRolled(red=2, blue=5))
    assert state.draft.winner == "blue"
    _, found = run(state, DraftChoiceMade(team="red", choice="first_pick"))
    assert found == ["mortalgate/draft.choice"]


def test_choosing_the_opening_turn_means_picking_second() -> None:
    state, _ = run(begin(), DraftRolled(red=6, blue=1), DraftChoiceMade(by="red", team="red", choice="first_turn"))
    assert (state.draft.first_pick, state.draft.first_turn) == ("blue", "red")


def test_teams_alternate_picks_from_a_non_replacing_pool() -> None:
    state, _ = run(begin(), DraftRolled(red=6, blue=1), DraftChoiceMade(by="red", team="red", choice="first_pick"))
    _, found = run(state, HeroPicked(by="blue", hero="drexir"))
    assert found == ["mortalgate/draft.pick-order"]
    state, found = run(state, HeroPicked(by="red", hero="drexir"))
    assert found == []
    _, found = run(state, HeroPicked(by="blue", hero="drexir"))
    assert found == ["mortalgate/draft.pool"]


def test_every_player_gets_at_least_one_hero() -> None:
    seats = {"red1": "a", "red2": "b", "red3": "c", "blue": "d"}
    state, _ = run(begin(seats), DraftRolled(red=6, blue=1), DraftChoiceMade(by="red1", team="red", choice="first_pick"))
    state, found = run(state, HeroPicked(by="red1", hero="drexir"), HeroPicked(by="blue", hero="sabea"),
                       HeroPicked(by="red1", hero="seiren"), HeroPicked(by="blue", hero="greven"))
    assert found == []
    _, found = run(state, HeroPicked(by="red1", hero="yodan"))
    assert found == ["mortalgate/draft.heroes-per-player"]


def drafted():
    picks = [("red", "drexir"), ("blue", "sabea"), ("red", "seiren"), ("blue", "greven"),
             ("red", "elazar"), ("blue", "yodan"), ("red", "dekhar"), ("blue", "zadita")]
    state, found = run(begin(), DraftRolled(red=6, blue=1), DraftChoiceMade(by="red", team="red", choice="first_pick"),
                       *(HeroPicked(by=seat, hero=hero) for seat, hero in picks))
    assert found == [] and state.stage == "placement"
    return state


def playing():
    """Drafted, placed and ordered: the first turn is next."""
    state = drafted()
    spawns = game_map(R.params).spawns
    _, found = run(state, HeroPlaced(by="red", hero="drexir", node=spawns["blue"][0]))
    assert found == ["mortalgate/draft.spawn"]
    placements = [HeroPlaced(by=h.team, hero=h.id, node=spawns[h.team][i // 2]) for i, h in enumerate(state.heroes)]
    state, found = run(state, *placements)
    assert found == [] and state.stage == "placement"
    _, found = run(state, TurnOrderSet(by="red", team="red", heroes=("drexir", "seiren", "elazar")))
    assert found == ["mortalgate/draft.turn-order"]
    state, found = run(state, TurnOrderSet(by="red", team="red", heroes=("seiren", "drexir", "elazar", "dekhar")),
                       TurnOrderSet(by="blue", team="blue", heroes=("zadita", "sabea", "greven", "yodan")))
    assert found == [] and state.stage == "play"
    return state


def test_heroes_are_placed_on_their_own_spawn_and_play_begins_when_orders_are_set() -> None:
    assert playing().stage == "play"


def test_turns_alternate_teams_in_the_fixed_order_starting_with_the_opening_team() -> None:
    state = playing()
    assert state.draft.first_turn == "blue"
    seen = []
    for _ in range(8):
        hero = next_hero(state)
        seen.append(hero)
        state, found = run(state, TurnStarted(hero=hero))
        assert found == []
    assert seen == ["zadita", "seiren", "sabea", "drexir", "greven", "elazar", "yodan", "dekhar"]
    _, found = run(state, TurnStarted(hero="seiren"))
    assert found == ["mortalgate/turn-sequence.order"]
    _, found = run(state, TurnOrderSet(by="red", team="red", heroes=("drexir", "seiren", "elazar", "dekhar")))
    assert found == ["mortalgate/draft.turn-order"]
