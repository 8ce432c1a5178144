"""A random and a heuristic bot finish 2-, 3- and 4-player games that audit clean."""

from __future__ import annotations

import pytest

from events.shared import MatchEnded
from projections.audit import audit
from projections.simulate import play
from rulesets.mercenarium.events import CardCaptured, HymnSung
from tests.mercenarium.scenario import SEATS, R


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_finish_clean_games_at_every_table_size(players: int, bot: str) -> None:
    for seed in (1, 2):
        events = play(R, {s: s for s in SEATS[players]}, seed=seed, bot=bot)
        assert isinstance(events[-1], MatchEnded), (players, bot, seed, len(events))
        report = audit(events, R)
        assert report.errors == () and report.result.agrees, report.errors[:3]


def test_a_mixed_table_of_bots_plays_too() -> None:
    events = play(R, {s: s for s in SEATS[4]}, seed=3, bot={"red": "heuristic", "orange": "random", "yellow": "heuristic", "green": "random"})
    assert isinstance(events[-1], MatchEnded) and audit(events, R).clean


def test_the_heuristic_bot_captures_and_never_sings_a_hymn_it_cannot_know() -> None:
    events = play(R, {s: s for s in SEATS[2]}, seed=5, bot="heuristic")
    assert any(isinstance(e, CardCaptured) for e in events)
    assert not any(isinstance(e, HymnSung) for e in events)  # outside Singularity every hymn's text is lost
