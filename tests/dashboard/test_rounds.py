"""The --until-decided progress: on a terminal one line per round, redrawn in place and
closed with the look's decisions; never wider than the terminal (a wrapped line floods)."""

from __future__ import annotations

import io

import pytest

from dashboard.cli.rounds import RoundLines


def look(round_no: int, decision: str) -> dict[str, object]:
    return {"round": round_no, "rounds": 2, "games": 10 * round_no, "alpha": 0.001,
            "decisions": {"seat_balance": decision, "first_player": "undecided"},
            "estimates": {"seat_balance": "blue's win rate +12.0 points [+3.1, +20.4]"}}


def test_a_terminal_sees_one_line_per_round_redrawn_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    lines = RoundLines(out, ["seat_balance", "first_player"], live=True)
    for done in range(0, 21, 4):
        lines.progress(1, 2, done, 20)
    lines.looked(look(1, "differs"))
    lines.progress(2, 2, 10, 20)
    lines.looked(look(2, "differs"))
    text = out.getvalue()
    assert text.count("\n") == 2  # one line per round
    finished = [segment.split("\r\x1b[2K")[-1] for segment in text.split("\n")[:2]]
    assert finished[0] == ("round 1/2: 10 games per version, alpha spent 0.0010: seat_balance differs "
                           "(blue's win rate +12.0 points [+3.1, +20.4]); first_player undecided")
    drawn = [d for segment in text.split("\n") for d in segment.split("\r\x1b[2K") if d.startswith("round 1/2 [")]
    assert len(drawn) == 6 and all(len(d) <= 79 for d in drawn)
    assert drawn[0].endswith("0/20 games, deciding seat_balance, first_player")  # the bar gave way to the words
    assert drawn[-1].startswith("round 1/2 [####") and "games in; weighing the evidence" in drawn[-1]
    assert "round 2/2 [############------------] 10/20 games, deciding first_player\r" in text  # seat_balance is decided


def test_a_pipe_sees_only_the_closing_lines() -> None:
    out = io.StringIO()
    lines = RoundLines(out, ["seat_balance"], live=False)
    lines.progress(1, 2, 5, 20)
    lines.looked(look(1, "undecided"))
    assert out.getvalue().count("\n") == 1 and "\r" not in out.getvalue() and "[#" not in out.getvalue()
