"""The Rulebook page through its widgets: versions, params with provenance, readings and
the rulebook check, for every registered game."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from projections.workspace import Workspace
from rulesets import registry
from tests.dashboard.conftest import by_label, open_page, run_ok, texts


def rulebook(app: AppTest) -> AppTest:
    return open_page(app, "rulebook")


def test_params_show_where_each_value_comes_from(app: AppTest) -> None:
    at = rulebook(app)
    by_label(at.selectbox, "Game").set_value("mortalgate")
    run_ok(at)
    by_label(at.selectbox, "Version").set_value("2.0")
    run_ok(at)
    params = at.table[0].value.set_index("param")
    assert params.loc["base_chance", "value"] == "50"
    assert params.loc["base_chance", "source"] == "rules text"
    assert params.loc["grace_to_win", "source"] == "assumed"
    assert "FAQ" in params.loc["grace_to_win", "why"]
    shown = texts(at)
    assert "mortalgate@2.0: Accuracy and dodge, enchantment spots" in shown
    assert "2 assumed" in shown or "assumed (the text does not give them" in shown
    assert "Weapon cards replaced by 5 enchantments" in shown


def test_versions_readings_and_rulebook_findings(app: AppTest) -> None:
    at = rulebook(app)
    by_label(at.selectbox, "Game").set_value("mortalgate")
    run_ok(at)
    by_label(at.selectbox, "Version").set_value("1.5")
    run_ok(at)
    versions = at.dataframe[0].value
    assert list(versions["version"]) == list(registry.game("mortalgate").versions)
    assert len(at.expander) >= len(registry.game("mortalgate").readings)
    assert "tabletape reads it as" in texts(at)
    findings = at.dataframe[1].value
    report = Workspace().rulebook("mortalgate@1.5")
    assert len(findings) == len(report.findings)
    assert report.summary() in [w.value for w in at.warning]


def test_each_rule_id_is_shown_with_the_passage_it_stands_for(app: AppTest) -> None:
    at = rulebook(app)
    by_label(at.selectbox, "Game").set_value("mortalgate")
    run_ok(at)
    table = next(d.value for d in at.dataframe if "rule id" in d.value.columns).set_index("rule id")
    assert len(table) == len(registry.game("mortalgate").rule_ids or ())
    assert table.loc["mortalgate/death.slain", "rules text"] == 'mortalgate.txt, "Death"'
    assert "slain hero" in table.loc["mortalgate/death.slain", "what breaks it"]
    assert 'mortalgate/death.slain (mortalgate.txt, "Death")' in [e.label.split(": ", 1)[-1] for e in at.expander]


@pytest.mark.parametrize("game", registry.names())
def test_every_game_and_version_has_a_page(app: AppTest, game: str) -> None:
    at = rulebook(app)
    by_label(at.selectbox, "Game").set_value(game)
    run_ok(at)
    for version in registry.game(game).versions:
        by_label(at.selectbox, "Version").set_value(version)
        run_ok(at)
        assert f"{game}@{version}" in texts(at)
        assert len(at.table[0].value) == len(registry.game(game).versions[version].params.__struct_fields__)


def test_notes_about_a_rule_are_listed_by_version_beside_its_findings(app: AppTest, home: Path) -> None:
    ws = Workspace(home)
    rule = "mortalgate/movement.points"
    expected = ws.notes_on_rule(rule)
    assert [v.version for v in expected.versions if v.notes] == ["1.5", "2.1"]  # said in two versions
    at = rulebook(app)
    by_label(at.selectbox, "Game").set_value("mortalgate")
    run_ok(at)
    by_label(at.text_input, "Rule id").input(rule)
    run_ok(at)
    table = at.dataframe[-1].value
    assert list(table["version"]) == [v.version for v in expected.versions]
    assert list(table["findings"]) == [v.findings for v in expected.versions]
    assert sum(table["notes"]) == 2
    shown = texts(at)
    for v in expected.versions:
        for item in v.notes:
            assert item.note.text in shown and f"**mortalgate@{v.version}** · {item.match_id} event {item.note.from_seq}" in shown
    by_label(at.text_input, "Rule id").input("line-of-sight")
    run_ok(at)
    assert "a rule id reads GAME/SECTION" in texts(at)
