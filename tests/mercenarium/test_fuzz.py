"""Whatever a table (or another tool) writes, `check` names it and `apply` follows it or keeps
the board: neither ever raises, and `apply` never mutates its input."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.corpus.simulate import play
from rulesets.mercenarium import cards
from rulesets.mercenarium.events import (
    CardCaptured,
    CardDealt,
    CardDrawn,
    CardMoved,
    CardsAnnihilated,
    CardSummoned,
    DrawDeclared,
    ExtrasReturned,
    HymnDealt,
    HymnDrawn,
    HymnLearned,
    HymnSung,
    MercenaryBought,
    Put,
    TurnOrderRolled,
    TurnPassed,
    ZodiacResolved,
    ZodiacRolled,
)
from rulesets.mercenarium.state import State
from tests.mercenarium.scenario import FOUR, RULESET, P, R

GAME = play(R, {s: s for s in FOUR}, seed=9, bot="random", audit=False)
STATES: list[State] = []
_state = RULESET.setup(P, GAME[0])
for _event in GAME[1:-1]:
    STATES.append(_state)
    _state = RULESET.apply(P, _state, _event)

seats = st.sampled_from([*FOUR, "blue", None])
card_ids = st.sampled_from([*cards.DECK[:12], "LB", "AS", "I", "XIII", "ZZ", ""])
hymn_ids = st.sampled_from(["I", "VII", "XIII", "IV", "XX", "2C"])
spaces = st.tuples(st.integers(-1, 7), st.integers(-1, 7))
puts = st.lists(st.builds(Put, card=card_ids, to=st.sampled_from(["board", "hand", "deck", "hymnal", "discard", "captures"]),
                          seat=seats, space=st.none() | spaces, spent=st.booleans()), max_size=3).map(tuple)
events = st.one_of(
    st.builds(CardDealt, seat=seats.map(str), card=card_ids),
    st.builds(HymnDealt, seat=seats.map(str), hymn=hymn_ids),
    st.builds(TurnOrderRolled, seat=seats.map(str), die=st.sampled_from(["fool", "fox"]),
              face=st.integers(-1, 7) | st.sampled_from(["sphere", "seed-of-life", "moon"])),
    st.builds(CardSummoned, by=seats, card=card_ids, space=spaces),
    st.builds(CardMoved, by=seats, card=card_ids, to=spaces),
    st.builds(CardCaptured, by=seats, card=card_ids, target=card_ids),
    st.builds(CardsAnnihilated, by=seats, card=card_ids, target=card_ids),
    st.builds(MercenaryBought, by=seats, card=card_ids, capture=st.none() | card_ids),
    st.builds(HymnSung, by=seats, hymn=hymn_ids, puts=puts, kept=st.none() | st.booleans()),
    st.builds(HymnLearned, by=seats, offering=st.lists(card_ids, max_size=3).map(tuple), captures=st.lists(card_ids, max_size=2).map(tuple)),
    st.builds(DrawDeclared, by=seats, discard=st.none() | card_ids),
    st.builds(TurnPassed, by=seats),
    st.builds(CardDrawn, seat=seats.map(str), card=card_ids),
    st.builds(HymnDrawn, seat=seats.map(str), hymn=hymn_ids),
    st.builds(ZodiacRolled, value=st.integers(-1, 14)),
    st.builds(ZodiacResolved, by=seats, hymn=hymn_ids, puts=puts),
    st.builds(ExtrasReturned, by=seats, cards=st.lists(card_ids, max_size=3).map(tuple)),
)


@settings(max_examples=400, deadline=None)
@given(index=st.integers(0, len(STATES) - 1), event=events)
def test_any_event_in_any_position_is_checked_and_applied_without_raising(index: int, event) -> None:
    state = STATES[index]
    before = msgspec.json.encode(state)
    problems = RULESET.check(P, state, event)
    after = RULESET.apply(P, state, event)
    assert msgspec.json.encode(state) == before
    RULESET.outcome(P, after)
    RULESET.view(P, after, "red")
    RULESET.progress(P, after)
    if not [v for v in problems if v.severity == "error"]:
        assert isinstance(after, State)
