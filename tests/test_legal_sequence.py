"""Legal events built on demand (`rulesets.legal`): the same events in the same order as a
list, with only what is read made."""

from __future__ import annotations

import random

import pytest

from rulesets.legal import Chain, Kept, Lazy, keep, sequence_of


class Counted:
    """A lazy run of `count` strings ("b0", "b1", ...) that counts how many it made."""

    def __init__(self, count: int) -> None:
        self.made: list[int] = []
        self.run: Lazy[str] = Lazy(count, self.item, self.items)

    def item(self, index: int) -> str:
        self.made.append(index)
        return f"b{index}"

    def items(self) -> list[str]:
        self.made.extend(range(len(self.run)))
        return [f"b{i}" for i in range(len(self.run))]


def test_a_chain_knows_its_length_and_makes_only_the_item_asked_for() -> None:
    lazy = Counted(4)
    events = Chain([["a0", "a1"], lazy.run, [], ["c0"]])
    assert len(events) == 7 and lazy.made == []
    assert events[3] == "b1" and lazy.made == [1]
    assert events[-1] == "c0" and events[0] == "a0" and lazy.made == [1]
    assert events[3] is events[3] and lazy.made == [1]  # made once: the same object again


def test_a_chain_reads_as_the_list_of_its_parts_in_order() -> None:
    lazy = Counted(3)
    events = Chain([["a0"], lazy.run, ["c0", "c1"]])
    listed = ["a0", "b0", "b1", "b2", "c0", "c1"]
    assert list(events) == listed and events == listed
    assert [events[i] for i in range(len(events))] == listed
    assert events[1:3] == ["b0", "b1"]
    assert sorted(lazy.made) == [0, 1, 2]  # iterating made the run once, whole


def test_an_index_past_either_end_is_refused() -> None:
    events = Chain([["a0"], Counted(2).run])
    for index in (3, -4):
        with pytest.raises(IndexError):
            events[index]
    with pytest.raises(IndexError):
        Counted(2).run[2]


def test_the_event_handed_out_is_found_without_making_the_rest() -> None:
    lazy = Counted(5)
    events = Chain([["a0"], lazy.run])
    picked = events[4]
    assert picked in events and lazy.made == [3]
    assert "a0" in events and lazy.made == [3]
    assert "b1" in events and "zz" not in events  # an equal event, not handed out: the run is made to look
    assert sorted(set(lazy.made)) == [0, 1, 2, 3, 4]


def test_a_search_by_type_passes_over_parts_of_other_types() -> None:
    lazy = Counted(3)
    events = Chain([[1, 2], lazy.run], kinds=[(int,), (str,)])
    assert 2 in events and 7 not in events and lazy.made == []


def test_keep_drops_refused_events_and_leaves_runs_of_other_kinds_unmade() -> None:
    lazy = Counted(3)
    events = Chain([[1, 2, 3], lazy.run, [4]], kinds=[(int,), (str,), (int,)])
    odd = events.keep(lambda n: n % 2 == 1, (int,))
    assert isinstance(odd, Kept) and len(odd) == 5 and lazy.made == []
    assert odd[2] == "b0" and lazy.made == [0]
    assert odd[0] == 1 and odd[1] == 3 and odd[3] == "b1" and odd[-1] == "b2"
    assert list(odd) == [1, 3, "b0", "b1", "b2"] == odd
    assert odd[3] in odd and 2 not in odd and 4 not in odd


def test_keep_without_a_refusal_is_the_chain_itself() -> None:
    events = Chain([[1, 3], Counted(2).run], kinds=[(int,), (str,)])
    assert events.keep(lambda n: n % 2 == 1, (int,)) is events


def test_keep_filters_any_other_sequence_into_a_list() -> None:
    assert keep([1, "x", 2, 3], lambda n: n != 2, (int,)) == [1, "x", 3]
    assert keep(Chain([[1, 2]]), lambda n: n != 2, (int,)) == [1]


def test_a_random_pick_is_the_same_from_a_chain_as_from_its_list() -> None:
    """What keeps a seed's game: the same index of the same events, whichever way they come."""
    lazy = Counted(40)
    events = Chain([[f"a{i}" for i in range(7)], lazy.run, ["c0"]])
    listed = list(Chain([[f"a{i}" for i in range(7)], Counted(40).run, ["c0"]]))
    first, second = random.Random(5), random.Random(5)
    for _ in range(30):
        assert events[first.randrange(len(events))] == listed[second.randrange(len(listed))]


def test_any_iterable_becomes_a_sequence_and_a_sequence_stays_as_it_is() -> None:
    events = Chain([Counted(2).run])
    assert sequence_of(events) is events
    assert sequence_of(iter(["a", "b"])) == ["a", "b"]
    listed, held = ["a"], ("a", "b")  # a list, and a sequence by registration rather than by its bases
    assert sequence_of(listed) is listed and sequence_of(held) is held
    assert sequence_of({"a": 1}) == ["a"]  # a mapping is no sequence: its keys, listed


def test_a_run_that_builds_another_number_of_events_than_it_said_is_an_error() -> None:
    with pytest.raises(ValueError, match="lazy run of 3 events built 2"):
        list(Lazy(3, lambda i: i, lambda: [0, 1]))
