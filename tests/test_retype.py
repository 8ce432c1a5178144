"""Re-reading a log-only playtest as the game its designer has since encoded (Pig)."""

from __future__ import annotations

from pathlib import Path

from projections.workspace import Workspace
from rulesets.freeform import ActionTaken, DiceRolled, ScoreChanged, TurnPassed
from tests.cli_support import run
from tests.plugin_support import pig, site

__all__ = ["pig", "site"]  # fixtures

MAP = """
[verbs.rolls]
type = "Rolled"
[verbs.holds]
type = "Held"
[events.DiceRolled]
type = "Landed"
fields = { face = "face" }
[events.ScoreChanged]
skip = true
[events.TurnPassed]
skip = true
"""


def _pig_by_hand(home: Path) -> tuple[Workspace, str]:
    """A log-only playtest of Pig: a roll of 4 held, a pass, a roll of 1 and an undo of it."""
    ws = Workspace(home)
    match_id = ws.new_match("freeform", {"a": "ana", "b": "ben"}, title="Pig").match_id
    ws.append_events(match_id, [
        ActionTaken(by="a", verb="rolls"), DiceRolled(by="a", dice="1d6", faces=(4,)), ActionTaken(by="a", verb="holds"),
        ScoreChanged(seat="a", delta=4), TurnPassed(by="a"), ActionTaken(by="b", verb="rolls"),
    ])
    return ws, match_id


def test_a_log_only_match_is_retyped_into_a_new_audited_match_and_kept(tmp_path: Path, pig: Path) -> None:
    ws, match_id = _pig_by_hand(tmp_path / "store")
    (tmp_path / "pig.toml").write_text(MAP)
    before = ws.export(match_id)
    code, out, err = run(tmp_path / "store", "retype", match_id, "--as", "pig", "--map", str(tmp_path / "pig.toml"), "--id", "pig-1")
    assert code == 0, err
    assert f"{match_id} retyped as pig@1: pig-1 (the original is unchanged)" in out and "0 rule violations" in out
    assert [type(e).__name__ for e in ws.events("pig-1")] == ["MatchStarted", "Rolled", "Landed", "Held", "Rolled"]
    header = ws.header("pig-1")
    assert (header.title, header.seats, header.source) == ("Pig", {"a": "ana", "b": "ben"}, "import")
    assert [e.at for e in ws.events("pig-1")][1:] == [e.at for e in ws.events(match_id) if isinstance(e, ActionTaken | DiceRolled)]
    assert ws.export(match_id) == before
    assert match_id in ws.notes.list("pig-1")[0].text
    assert ws.state_at("pig-1", 4).state.scores == (4, 0)


def test_a_verb_the_map_does_not_name_is_refused_and_nothing_is_written(tmp_path: Path, pig: Path) -> None:
    ws, match_id = _pig_by_hand(tmp_path / "store")
    (tmp_path / "pig.toml").write_text(MAP.replace("[verbs.holds]\ntype = \"Held\"\n", ""))
    code, _, err = run(tmp_path / "store", "retype", match_id, "--as", "pig", "--map", str(tmp_path / "pig.toml"))
    assert code == 2 and "event 3 (ActionTaken 'holds'): the map has no [verbs.holds]" in err
    assert ws.matches() == [match_id]


def test_a_field_the_typed_event_lacks_is_named_with_the_event(tmp_path: Path, pig: Path) -> None:
    ws, match_id = _pig_by_hand(tmp_path / "store")
    (tmp_path / "pig.toml").write_text(MAP.replace('fields = { face = "face" }', 'fields = { face = "pips" }'))
    code, _, err = run(tmp_path / "store", "retype", match_id, "--as", "pig", "--map", str(tmp_path / "pig.toml"))
    assert code == 2 and "[events.DiceRolled]: Landed has no field 'pips'; its fields: face" in err and len(err.splitlines()) == 1
    assert ws.matches() == [match_id]


def test_only_a_log_only_match_is_retyped(tmp_path: Path, pig: Path) -> None:
    ws = Workspace(tmp_path / "store")
    typed = ws.new_match("pig", {"a": "ana", "b": "ben"}).match_id
    (tmp_path / "pig.toml").write_text(MAP)
    code, _, err = run(tmp_path / "store", "retype", typed, "--as", "pig", "--map", str(tmp_path / "pig.toml"))
    assert code == 2 and "not log-only" in err
