"""The length charts of a comparison: whole-turn bins shared by both versions, every
finished game counted once, and one histogram per version so the colours never blend."""

from __future__ import annotations

from typing import Any

from dashboard.charts import COLOURS, length_bins, lengths


def rows(turns: list[int], unfinished: int = 0) -> list[dict[str, Any]]:
    return [{"turns": t, "finished": True} for t in turns] + [{"turns": 500, "finished": False}] * unfinished


def test_bins_are_whole_turns_and_at_most_twenty() -> None:
    assert list(length_bins([3, 4, 4])) == [3, 4, 5]
    wide = length_bins(list(range(300, 351)))
    assert len(wide) - 1 <= 20 and all(int(w) == w and w >= 1 for w in (wide[1:] - wide[:-1]))
    assert wide[0] == 300 and wide[-1] > 350


def test_each_version_has_its_own_histogram_in_its_own_colour_over_the_same_bins() -> None:
    a, b = rows([300, 305, 310, 318, 319], unfinished=2), rows([301, 302, 340])
    histogram, _ = lengths(a, b, "A", "B")
    spec = histogram.to_dict()
    assert "facet" in spec and spec["spec"]["encoding"]["color"]["scale"]["range"] == list(COLOURS)
    data = histogram.data
    counted = data.groupby("version")["matches"].sum().to_dict()
    assert counted == {"A": 5, "B": 3}  # finished games only, each once
    assert (data[data.version == "A"]["from"].tolist() == data[data.version == "B"]["from"].tolist())
    between = data[(data.version == "A") & (data["from"] < 320)]["matches"].sum()
    assert between == 5  # the five games between 300 and 320 turns are five, not one
