"""frontier.md, Action Roll and Advantage and Disadvantage, and how the audit checks a roll.

The number of dice each side rolls is read from `chance` (every outcome the rules allow);
the table's own word (dice, die size, the die kept, the winner) from `check`.
"""

from __future__ import annotations

from rulesets.frontier.events import ActionDeclared, ReactionDeclared
from rulesets.frontier.state import Token
from tests.frontier.scenario import (
    P,
    R,
    block,
    dice,
    legally,
    messages,
    play,
    position,
    put,
    roll,
    unit,
    violations,
)

SAB = "p1/saboteur-1"
CAP = "p2/captain-1"


def open_fire(state, shooter: str = SAB, target: str = CAP, reaction: str = "take_cover"):
    side = shooter.split("/")[0]
    other = "p2" if side == "p1" else "p1"
    return legally(state, ActionDeclared(by=side, unit=shooter, action="open_fire", target=target),
                   ReactionDeclared(by=other, unit=target, reaction=reaction))


def test_each_side_rolls_one_die_of_its_rating() -> None:
    """"check the unit's rating for the associated action or reaction and roll the corresponding dice"."""
    state = open_fire(position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")))
    assert dice(state) == (1, 6, 1, 8)  # saboteur firepower D6, captain discipline D8 (take cover)


def test_the_higher_result_wins_and_the_active_player_wins_a_draw() -> None:
    base = open_fire(position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")))
    assert unit(play(base, roll((4,), (4,))), CAP).shaken
    assert not unit(play(base, roll((4,), (5,))), CAP).shaken


def test_two_sources_of_advantage_and_one_of_disadvantage_still_give_advantage() -> None:
    """The text's own example: "advantage from two sources and disadvantage from one then you still have advantage".

    A rifleman in a trench (Firing Position) fires at a designated jaeger (Targeting Assist); the
    jaeger's Active Camouflage gives disadvantage."""
    trench = block("trench", 3, 13, 7, 17, 0, (0, ("firing_position",)))
    state = position(trench, put("rifleman", (5, 15)), put("pathfinder", (5, 25)), put("jaeger", (20, 15), side="p2"),
                     designated=(("p2/jaeger-1", "p1/pathfinder-1"),))
    state = open_fire(state, "p1/rifleman-1", "p2/jaeger-1")
    assert dice(state)[:2] == (2, 6)
    high = roll((2, 5), (3,), active_kept=5)
    assert violations(state, high) == []
    assert violations(state, roll((2, 5), (3,), active_kept=2)) == ["frontier/advantage.kept"]


def test_one_advantage_and_one_disadvantage_cancel_to_a_normal_roll() -> None:
    """"advantage from one source and disadvantage from another would result in a normal roll"."""
    trench = block("trench", 3, 13, 7, 17, 0, (0, ("firing_position",)))
    state = open_fire(position(trench, put("rifleman", (5, 15)), put("jaeger", (20, 15), side="p2")), "p1/rifleman-1", "p2/jaeger-1")
    assert dice(state)[:2] == (1, 6)


def test_never_more_than_two_dice_however_many_sources() -> None:
    """"Advantage and disadvantage do not stack. I.e. you never roll more than two dice."

    Firing Position, Targeting Assist and Experimental Targeting... a rifleman has two; add a trench
    and a designated target that is within 10" of no AEGIS: still two dice."""
    trench = block("trench", 3, 13, 7, 17, 0, (0, ("firing_position",)))
    state = position(trench, put("rifleman", (5, 15)), put("pathfinder", (5, 25)), put("captain", (20, 15), side="p2"),
                     designated=((CAP, "p1/pathfinder-1"),))
    state = open_fire(state, "p1/rifleman-1", CAP)
    assert dice(state)[:2] == (2, 6)
    three = roll((2, 5, 6), (3,))
    assert violations(state, three) == ["frontier/advantage.dice-count"]
    assert "never more than two dice" in messages(state, three)[0]


def test_disadvantage_rolls_two_and_keeps_the_lowest() -> None:
    """Rough terrain: "disadvantage to mobility action ratings"."""
    swamp = block("swamp", 3, 13, 7, 17, 0, (0, ("rough",)))
    state = position(swamp, put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"))
    state = legally(state, ActionDeclared(by="p1", unit=SAB, action="advance"), ReactionDeclared(by="p2", unit=CAP, reaction="overwatch"))
    assert dice(state)[:2] == (2, 6)
    assert violations(state, roll((6, 1), (3,), active_kept=6)) == ["frontier/advantage.kept"]
    assert not unit(play(state, roll((6, 1), (3,))), SAB).shaken
    after = play(state, roll((6, 1), (3,)))
    assert after.turn is not None and after.turn.windows[0].purpose == "overwatch"  # 1 against 3: overwatch wins


def test_firing_position_gives_advantage_on_firepower() -> None:
    trench = block("trench", 3, 13, 7, 17, 0, (0, ("firing_position",)))
    state = open_fire(position(trench, put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")))
    assert dice(state)[:2] == (2, 6)


def test_cover_gives_advantage_and_exposed_disadvantage_on_take_cover() -> None:
    house = block("house", 18, 13, 22, 17, 3, (0, ("cover", "open_sided")), (3, ("exposed",)))
    inside = open_fire(position(house, put("saboteur", (5, 15)), put("captain", (18.5, 15), side="p2")))  # seen through a window
    assert dice(inside)[2:] == (2, 8)
    roof = open_fire(position(house, put("saboteur", (5, 15)), put("captain", (20, 15), side="p2", level=3)))
    assert dice(roof)[2] == 2
    low = roll((5,), (8, 2), reactive_kept=8)
    assert violations(roof, low) == ["frontier/advantage.kept"]


def test_the_audit_names_a_die_showing_more_than_its_faces() -> None:
    """A D6 showing 7."""
    state = open_fire(position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")))
    assert violations(state, roll((7,), (3,))) == ["frontier/action-roll.die"]
    assert "a D6 cannot show 7" in messages(state, roll((7,), (3,)))[0]


def test_the_audit_names_the_wrong_die_size() -> None:
    state = open_fire(position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")))
    assert violations(state, roll((5,), (3,), active_die=8)) == ["frontier/action-roll.die"]


def test_a_wrongly_claimed_die_size_is_one_mistake_not_also_its_faces() -> None:
    """A D4 claimed for the D6 saboteur rolling 5: the claim is wrong, the 5 is a fair D6 face."""
    state = open_fire(position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")))
    assert violations(state, roll((5,), (3,), active_die=4)) == ["frontier/action-roll.die"]
    assert "rolled a D4" in messages(state, roll((5,), (3,), active_die=4))[0]


def test_the_audit_names_two_dice_where_the_rules_give_one_and_says_why() -> None:
    state = open_fire(position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")))
    assert violations(state, roll((5, 2), (3,))) == ["frontier/advantage.dice-count"]
    assert "no advantage or disadvantage" in messages(state, roll((5, 2), (3,)))[0]


def test_the_audit_names_a_wrong_winner_and_the_board_follows_the_table() -> None:
    state = open_fire(position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")))
    wrong = roll((4,), (4,), winner="reactive")
    assert violations(state, wrong) == ["frontier/action-roll.winner"]
    assert not unit(play(state, wrong), CAP).shaken  # the table gave it to the reactive player


def test_inspiring_lets_a_friend_roll_the_bosuns_discipline() -> None:
    """"All friendly units within 10" and line of sight may use this unit's discipline instead of their own"."""
    state = position(put("saboteur", (5, 15)), put("breacher", (20, 15), side="p2"), put("bosun", (25, 15), side="p2"))
    state = open_fire(state, SAB, "p2/breacher-1")
    assert dice(state)[2:] == (1, 10)  # the breacher's own discipline is D4
    assert violations(state, roll((3,), (4,), reactive_die=4)) == []  # rolling its own D4 is allowed too
    assert violations(state, roll((3,), (4,), reactive_die=6)) == ["frontier/action-roll.die"]


def test_a_roll_with_nothing_waiting_is_named() -> None:
    state = position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"))
    assert violations(state, roll((3,), (4,))) == ["frontier/action-roll.order"]


def test_chance_lists_every_face_with_equal_weight() -> None:
    trench = block("trench", 3, 13, 7, 17, 0, (0, ("firing_position",)))
    state = open_fire(position(trench, put("saboteur", (5, 15)), put("captain", (20, 15), side="p2")))
    outcomes = R.ruleset.chance(P, state)
    assert outcomes is not None and len(outcomes) == 36 * 8
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9


def test_tokens_do_not_change_rolls() -> None:
    mine = Token(id="mine-1", kind="mine", owner="p2", at=(40.0, 28.0))
    state = open_fire(position(put("saboteur", (5, 15)), put("captain", (20, 15), side="p2"), tokens=(mine,)))
    assert dice(state) == (1, 6, 1, 8)
