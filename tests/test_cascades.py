"""One table mistake, one finding: concrete mutated logs that once buried the audit in follow-ons.

Each test injects one mistake into a shipped log (`projections.corpus.mutations`) and audits it: the
audit names the mistake once and reports nothing new anywhere else. The numbers in the
docstrings are the findings the same audit gave before the behaviour was added.
"""

from __future__ import annotations

import random
from pathlib import Path

import msgspec

from events.codec import decode_log, read_header
from projections.corpus.mutations import Mutation, Subject, _rebuild, drop, duplicate, measure, swap
from projections.read.audit import audit
from rulesets import registry

ROOT = Path(__file__).resolve().parent.parent


def _subject(path: str) -> Subject:
    lines = (ROOT / path).read_bytes().splitlines()
    header = read_header(lines[0], where=path)
    rules = registry.resolve(f"{header.ruleset}@{header.version}")
    return Subject(list(decode_log(lines, rules.ruleset.codec, where=path)), rules)


def _one_finding(subject: Subject, mutation: Mutation | None) -> None:
    assert mutation is not None
    found = measure(subject, mutation)
    assert (found.at_site, found.follow_on) == (1, 0), (mutation.what, found.follow_rules)


def test_a_roll_written_after_the_next_turn_began_is_one_finding_and_both_events_count() -> None:
    """MortalGate: the roll of an attack written after the next hero's TurnStarted. Before: the
    replay kept the roll and lost the turn, so the next hero's ability was refused 3 times."""
    subject = _subject("data/demo/playtest-2026-02-20-teach.jsonl")
    assert type(subject.events[664]).__name__ == "AttackRolled"
    _one_finding(subject, swap(subject, 664, random.Random(0)))


def test_an_early_event_that_broke_a_rule_of_its_own_is_still_taken_as_moved() -> None:
    """Frontline: the frontline moved before the round was ended, in a log where that move also
    miscounts the forces. Before: every action of the next round was refused (3 follow-ons)."""
    subject = _subject("tests/frontline/golden/frontline-mistakes.jsonl")
    assert [type(e).__name__ for e in subject.events[9:11]] == ["RoundEnded", "FrontlineMoved"]
    _one_finding(subject, swap(subject, 9, random.Random(0)))


def test_a_move_written_to_the_wrong_square_is_read_as_the_same_card_moved_next_to_it() -> None:
    """Mercenarium: a card written as moving diagonally, then moved again where it was going,
    with a purchase of its own mistake in between. Before: the second move was refused twice
    (occupied, not one space), because the purchase's finding dropped the earlier readings."""
    subject = _subject("tests/mercenarium/golden/mercenarium-mistakes.jsonl")
    moved, later = subject.events[67], subject.events[71]
    assert type(moved).__name__ == type(later).__name__ == "CardMoved" and moved.card == later.card  # type: ignore[attr-defined]
    order: list = [(e.seq, e) for e in subject.events]
    order[67] = (67, msgspec.structs.replace(moved, to=later.to))  # type: ignore[attr-defined]
    _one_finding(subject, _rebuild("illegal", 67, "CardMoved.to at 67 taken from the one at 71", order, [67]))


def test_a_left_out_action_is_found_among_every_unit_that_could_have_declared_it() -> None:
    """Frontier: an ActionDeclared left out before the reaction to it. Before: the replay took
    the first action of the right shape (another unit advancing), and the next action was
    refused under three rules."""
    subject = _subject("tests/frontier/golden/frontier-sabotage.jsonl")
    assert type(subject.events[72]).__name__ == "ActionDeclared"
    _one_finding(subject, drop(subject, 72, random.Random(0)))


def test_a_mistake_the_rules_accept_where_it_was_made_is_named_where_it_first_shows() -> None:
    """The measure: a building left out of the log, after which play stays legal for thirty
    events, shows first where the missing building is needed; that one finding names the
    mistake and is not a follow-on (it was counted as one before)."""
    subject = _subject("tests/frontline/golden/frontline-orc-human.jsonl")
    assert type(subject.events[2]).__name__ == "BuildingBuilt"
    mutation = drop(subject, 2, random.Random(0))
    assert mutation is not None
    report = audit(mutation.events, subject.rules)
    shown = sorted({v.seq for v in report.violations if v.severity == "error"} - set(subject.found))
    assert shown and shown[0] > 2 + 20, shown  # the next event is legal: the mistake shows later
    _one_finding(subject, mutation)


def test_a_hire_left_out_is_found_where_it_was_made_when_it_shows_three_events_later() -> None:
    """Mercy Frontier: a MercenaryHired never written shows only when the row is refilled three
    events later, after the purchase step ended. Before: the replay never had the mercenary, so
    placing it, its ability and its moves were refused all game (5 follow-ons)."""
    subject = _subject("tests/mercyfrontier/golden/mercyfrontier-current.jsonl")
    assert type(subject.events[22]).__name__ == "MercenaryHired"
    _one_finding(subject, drop(subject, 22, random.Random(0)))


def test_an_action_written_before_the_frontline_move_it_followed_is_taken_after_it() -> None:
    """Warcraft: Frontline: a worker sent to lumber written before the frontline move that began
    the seat's round (the worker only became idle then). Before: the move was lost, and every
    later purchase of that seat was short of lumber (7 follow-ons)."""
    subject = _subject("tests/frontline/golden/frontline-orc-human.jsonl")
    assert [type(e).__name__ for e in subject.events[14:16]] == ["FrontlineMoved", "WorkersMoved"]
    _one_finding(subject, swap(subject, 14, random.Random(0)))


def test_a_hire_written_after_the_seat_finished_purchasing_costs_the_rest_of_the_audit_nothing() -> None:
    """Mercy Frontier: a hire written after the StepFinished that ended the seat's purchase. The
    two are read in the order the rules accept, so the hire counts. Before: the replay went on
    waiting for a refill the row never needed, and 37 later events were refused."""
    subject = _subject("tests/mercyfrontier/golden/mercyfrontier-mistakes.jsonl")
    assert [type(e).__name__ for e in subject.events[15:17]] == ["MercenaryHired", "StepFinished"]
    mutation = swap(subject, 15, random.Random(0))
    assert mutation is not None
    found = measure(subject, mutation)
    # the hire itself is refused under the two timing rules Mercy Frontier names for it
    # (turn.pending, turn.priority); nothing after it is
    assert found.at_site >= 1 and found.follow_on == 0, found.follow_rules


def test_an_action_played_out_of_turn_and_written_again_in_turn_is_done_once() -> None:
    """Warcraft: Frontline: b trains a worker during a's round, and the same training is written
    again in b's own round. The table trained one worker: the second copy is where it was done.
    Before: two workers were paid for, and b was short of resources and over its population
    for the rest of the game (4 follow-ons)."""
    from projections.corpus.mutations import out_of_turn
    from tests import contract

    rules = registry.resolve("frontline")
    subject = Subject(contract.check_bot_game_is_clean(rules, "heuristic", seed=11), rules)
    mutation = out_of_turn(subject, 2, random.Random(0))
    assert mutation is not None and mutation.what == "b plays TrainingStarted (seq 6) at 2"
    _one_finding(subject, mutation)


def _frontline_bot_game() -> Subject:
    from tests.contract import check_bot_game_is_clean

    rules = registry.resolve("frontline")
    return Subject(check_bot_game_is_clean(rules, "heuristic", seed=11), rules)


def test_a_decision_written_twice_and_legal_twice_is_read_as_made_once_where_it_shows() -> None:
    """Frontline: a worker moved from lumber to gold written on two lines, both legal (there were
    workers to move); forty events later a building cannot be paid for. Before: that finding
    was followed by three more (workers missing from lumber and a burrow, lumber short again),
    because no reading took one copy back."""
    subject = _frontline_bot_game()
    moved = subject.events[44]
    assert type(moved).__name__ == "WorkersMoved" and (moved.origin, moved.to) == ("lumber", "gold")  # type: ignore[attr-defined]
    _one_finding(subject, duplicate(subject, 44, random.Random(0)))


def test_a_research_written_wrong_is_read_right_where_its_effect_shows_three_rounds_later() -> None:
    """Frontline: a research written as one already done (one finding, where written); the one
    really started raises the side's force only when it is done, 26 events later. Before: the
    readings were dropped after 24 events, and both later frontline moves were refused."""
    subject = _frontline_bot_game()
    started, other = subject.events[62], subject.events[27]
    assert type(started).__name__ == type(other).__name__ == "ResearchStarted"
    order: list = [(e.seq, e) for e in subject.events]
    order[62] = (62, msgspec.structs.replace(started, tech=other.tech))  # type: ignore[attr-defined]
    _one_finding(subject, _rebuild("illegal", 62, "ResearchStarted.tech at 62 taken from the one at 27", order, [62]))


def test_a_second_mistake_is_named_where_a_guess_at_the_first_would_make_it_legal() -> None:
    """Mercenarium: red's 10B summoned on (0, 0), next to none of red's cards, then 36 events later
    red's 2B summoned on (2, 5), touching red's JB only at a corner. The first is read as 10B
    summoned on a space the rules accept, and one of those guesses, (2, 6), is next to (2, 5).
    Before: the diagonal summon took that guess and was not reported (remove the first mistake
    and it is); a guess about 10B cannot explain a summon of 2B away, so both are named."""
    subject = _subject("tests/mercenarium/golden/mercenarium-2p.jsonl")
    first, second = subject.events[22], subject.events[58]
    assert type(first).__name__ == type(second).__name__ == "CardSummoned"
    assert (first.card, second.card) == ("10B", "2B")  # type: ignore[attr-defined]
    order: list = [(e.seq, e) for e in subject.events]
    order[22] = (22, msgspec.structs.replace(first, space=(0, 0)))
    order[58] = (58, msgspec.structs.replace(second, space=(2, 5)))
    both = _rebuild("illegal", 22, "10B on (0, 0); 2B on (2, 5)", order, [22, 58])
    named = {(v.seq, v.rule) for v in audit(both.events, subject.rules).violations if v.severity == "error"}
    assert {(22, "mercenarium/summon.adjacent"), (58, "mercenarium/summon.orthogonal")} <= named, sorted(named)
