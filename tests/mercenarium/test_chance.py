"""A chance step's outcomes unmade (`rulesets.outcomes.Uniform`) read as the plain list did.

`chance` answers a deal or a draw from the deck or the hymnal with each card's event made
only when read, so a bot-played game makes the one drawn. Every reader (replay's resync, the
Record page's dice pad, mutations, the contract suite) still iterates, indexes or slices it:
each way must give exactly the list the rules' plain reading makes, one outcome per card
the deck (or hymnal) holds, in its order, each equally likely.
"""

from __future__ import annotations

import pytest

from events.base import Event
from projections.corpus.simulate import play
from rulesets.mercenarium.events import CardDealt, CardDrawn, HymnDealt, HymnDrawn
from rulesets.mercenarium.params import Params
from rulesets.mercenarium.state import State
from rulesets.outcomes import Uniform
from tests.mercenarium.scenario import SEATS, R


def plain_outcomes(params: Params, state: State) -> list[tuple[Event, float]] | None:
    """The deal's and the draws' outcomes listed as the rules read: every card, 1/n each."""
    events: list[Event]
    if state.stage == "deal":
        short = [p for p in state.players if len(p.hand) < params.deal]
        if short:
            seat = min(short, key=lambda p: len(p.hand)).seat
            events = [CardDealt(seat=seat, card=c) for c in state.deck]
        else:
            events = [HymnDealt(seat=next(p for p in state.players if not p.hymns).seat, hymn=h) for h in state.hymnal]
    elif state.stage == "play" and state.pending and state.pending[0].kind == "draw":
        events = [CardDrawn(seat=state.pending[0].seat, card=c) for c in state.deck]
    elif state.stage == "play" and state.pending and state.pending[0].kind == "hymn":
        events = [HymnDrawn(seat=state.pending[0].seat, hymn=h) for h in state.hymnal]
    else:
        return None
    return [(e, 1 / len(events)) for e in events] if events else None


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 5), (4, 6)])
def test_every_deal_and_draw_of_a_game_reads_as_the_plain_list_of_outcomes(players: int, seed: int) -> None:
    log = play(R, {s: s for s in SEATS[players]}, seed=seed, bot="random")
    state = R.ruleset.setup(R.params, log[0])
    read = 0
    for event in log[1:-1]:
        outcomes = R.ruleset.chance(R.params, state)
        if isinstance(outcomes, Uniform):
            plain = plain_outcomes(R.params, state)
            assert plain is not None and len(outcomes) == len(plain)
            assert list(outcomes) == plain and outcomes == plain
            assert [outcomes[i] for i in range(len(plain))] == plain and outcomes[-1] == plain[-1]
            assert outcomes[1:3] == plain[1:3]
            assert [outcomes.event(i) for i in range(len(plain))] == [e for e, _ in plain]
            read += 1
        elif outcomes is not None:
            assert plain_outcomes(R.params, state) in (None, outcomes)  # the order rolls and the zodiac stay lists
        state = R.ruleset.apply(R.params, state, event)
    assert read > 2 * players * 5  # the deal at least, and draws during play
