"""Start phase: two players, a race each, 5 workers, 3 gold and 2 lumber, a base by the mine and forest."""

from __future__ import annotations

from rulesets.frontline import board
from rulesets.frontline.events import RoundEnded
from rulesets.frontline.state import capacity, count, population, workers
from tests.frontline.scenario import RULESET, P, fresh, started, the


def test_two_players_only() -> None:
    """Start phase 1: "It is a 2 player only game"."""
    assert RULESET.validate_start(P, started()) == []
    three = started(seats={"a": "x", "b": "y", "c": "z"})
    assert RULESET.validate_start(P, three) == ["Warcraft: Frontline is a 2 player only game, not 3 seat(s)"]
    state = RULESET.setup(P, three)
    assert RULESET.outcome(P, state) is None and list(RULESET.legal(P, state)) == []
    assert [v.rule for v in RULESET.check(P, state, RoundEnded(by="a"))] == ["frontline/start.players"]


def test_each_player_picks_a_race_and_an_unknown_race_is_named() -> None:
    """Start phase 3: "Each player picks a race"; Race: "Orc and Human"."""
    state = fresh({"a": "human", "b": "human"})
    assert [s.race for s in state.sides] == ["human", "human"]
    assert [s.race for s in fresh().sides] == ["orc", "human"]
    assert RULESET.validate_start(P, started({"a": "elf", "b": "orc"})) == ["unknown race 'elf' for seat a; the races are orc, human"]
    assert RULESET.validate_start(P, started({"zed": "orc"})) == ["races names seat 'zed', which is not at the table (a, b)"]


def test_unknown_options_and_a_malformed_race_table_are_named() -> None:
    line0 = started()
    line0.options.update({"mission": "x"})
    assert RULESET.validate_start(P, line0) == ["unknown option(s) mission; Warcraft: Frontline's only option is races"]
    bad = started()
    bad.options.update({"races": "orc"})
    assert "races must be a table {seat: race}" in RULESET.validate_start(P, bad)[0]


def test_each_player_starts_with_five_workers_three_gold_two_lumber_and_a_base() -> None:
    """Start phase 3-5; the second player has not collected yet, the first has (its round began)."""
    state = fresh()
    b = the(state, "b")
    assert (b.gold, b.lumber, workers(b)) == (3, 2, 5)
    assert (count(b.workers, "gold"), count(b.workers, "lumber")) == (3, 2)
    [base] = b.buildings
    assert (base.id, base.kind, base.area) == ("base-1", "base", board.base_area(P, 1).id) == ("base-1", "base", "B4")
    assert (capacity(P, b), population(b)) == (10, 5)


def test_the_first_seat_acts_first_and_collects_at_the_start_of_its_round() -> None:
    """Resource collection: "3 workers in gold mine and 2 workers in the forest when the action
    starts, player gets 3 gold and 2 lumber"."""
    state = fresh()
    a = the(state, "a")
    assert (state.current, state.phase, state.bout) == ("a", "action", 1)
    assert (a.gold, a.lumber, a.rounds) == (6, 4, 1)


def test_each_half_has_its_areas_from_the_front_to_the_base_line() -> None:
    ids = [a.id for a in board.areas(P)]
    assert ids == ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]
    assert [(a.first, a.last) for a in board.areas(P) if a.half == 1] == [(1, 3), (4, 6), (7, 9), (10, 12)]
    assert P.track[-1] == 24  # "the base line(the grid with 24)"
