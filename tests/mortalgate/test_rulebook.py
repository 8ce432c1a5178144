"""The rulebook check: the printed Quick-reference Combat Table against its own formula.

mortalgate.txt, Appendix: "Required roll to hit = 100 – (75 + Attacker’s accuracy –
Defender’s dodge)", and "Drexir needs to roll greater than or equal to 22 in order to hit
Sabea" (which fixes the orientation: rows are defenders, columns attackers).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import msgspec
import pytest

from rulesets.mortalgate import heroes, rulebook
from rulesets.mortalgate.rulebook import HIT_TABLE, Finding

RULES_TEXT = Path(__file__).resolve().parents[3] / "shared" / "rules" / "mortalgate.txt"
BAD_CELL = ("sabea", "seiren")
"""Printed 70+; every consistent set of accuracy and dodge gives 30+ (a 7 for a 3?)."""
RAW = rulebook.HIT_TABLE_FILE.read_text(encoding="utf-8")


def test_the_toml_is_the_table_as_printed() -> None:
    if not RULES_TEXT.exists():
        pytest.skip(f"rules text not found at {RULES_TEXT}")
    text = RULES_TEXT.read_text(encoding="utf-8")
    appendix = text[text.index("Quick-reference Combat Table") :]
    tokens = re.findall(r"^\s*(X|\d+\+|[A-Z][a-z]+)\s*$", appendix, flags=re.M)
    tokens = [t for t in tokens if t not in ("Defender", "Attacker", "Example")]
    names, grid = tokens[:8], tokens[8 : 8 + 8 * 9]
    assert tuple(names) == HIT_TABLE.headers
    printed = tomllib.loads(RAW)["printed"]
    for r in range(8):
        row = grid[r * 9 : r * 9 + 9]
        assert row[0] == names[r]
        assert printed[names[r]] == row[1:]
    assert HIT_TABLE.example in text


def test_the_worked_example_fixes_the_orientation() -> None:
    assert HIT_TABLE.rows == "defender"
    assert "Drexir" in HIT_TABLE.example and "22" in HIT_TABLE.example
    assert HIT_TABLE.cells[("drexir", "sabea")] == 22  # printed in row Sabea, column Drexir
    assert len(HIT_TABLE.cells) == 56
    assert "greven" in HIT_TABLE.heroes  # printed "Grevan"


def test_the_fit_reproduces_every_printed_cell_but_one() -> None:
    fit = rulebook.fit_accuracy_dodge(HIT_TABLE)
    assert fit.disagreements == (BAD_CELL,)
    assert fit.accuracy == {
        "drexir": 4,
        "sabea": 5,
        "seiren": 9,
        "greven": 9,
        "yodan": 6,
        "elazar": 7,
        "zadita": 8,
        "dekhar": 8,
    }
    assert fit.dodge == {
        "drexir": 0,
        "sabea": 1,
        "seiren": 10,
        "greven": 3,
        "yodan": 2,
        "elazar": 5,
        "zadita": 11,
        "dekhar": 8,
    }
    assert min(*fit.accuracy.values(), *fit.dodge.values()) == 0  # smallest non-negative


def test_one_disagreement_is_the_best_any_values_can_do() -> None:
    """Every non-additive 2x2 block contains the 70+ cell, so no accuracy/dodge values
    reproduce the whole table, and changing that one cell to 30 would make it exact."""
    blocks = rulebook.inconsistent_blocks(HIT_TABLE)
    assert blocks
    assert all(BAD_CELL in block for block in blocks)
    fixed = msgspec.structs.replace(HIT_TABLE, cells={**HIT_TABLE.cells, BAD_CELL: 30})
    assert rulebook.inconsistent_blocks(fixed) == ()
    assert rulebook.fit_accuracy_dodge(fixed).disagreements == ()


def test_the_fitted_values_are_the_hero_data() -> None:
    fit = rulebook.fit_accuracy_dodge(HIT_TABLE)
    for stat_set in ("2.0", "2.1", "2.5"):
        for hero in heroes.HEROES:
            sheet = heroes.stats(hero, stat_set)
            assert (sheet.accuracy, sheet.dodge) == (fit.accuracy[hero], fit.dodge[hero])


def test_one_bad_cell_cannot_move_the_fit() -> None:
    fit = rulebook.fit_accuracy_dodge(HIT_TABLE)
    typo = msgspec.structs.replace(HIT_TABLE, cells={**HIT_TABLE.cells, ("zadita", "drexir"): 99})
    refit = rulebook.fit_accuracy_dodge(typo)
    assert (refit.accuracy, refit.dodge) == (fit.accuracy, fit.dodge)
    assert set(refit.disagreements) == {BAD_CELL, ("zadita", "drexir")}


def test_chances_land_between_65_and_85_percent() -> None:
    """Version 2.1 item 2: "chance to hit generally lands between 65% and 85%"."""
    for attacker in heroes.HEROES:
        for defender in heroes.HEROES:
            a, d = heroes.stats(attacker, "2.5"), heroes.stats(defender, "2.5")
            assert 65 <= 75 + a.accuracy - d.dodge <= 85


def test_the_check_names_the_one_misprinted_cell() -> None:
    report = rulebook.check_rulebook()
    assert report.cells_checked == 56
    assert report.findings == (
        Finding(
            attacker="sabea",
            defender="seiren",
            printed=70,
            computed=30,
            rule="mortalgate/appendix.quick-reference",
            message="Sabea attacking Seiren: printed 70+, but 100 - (75 + 5 - 10) = 30",
        ),
    )
    line = report.summary()
    assert "\n" not in line
    assert "56 cells checked" in line and "1 disagrees" in line and "printed 70+" in line


def test_changing_one_accuracy_makes_the_check_report_its_cells() -> None:
    """A designer's copy of the data with Seiren's accuracy raised by 1: every cell where
    Seiren attacks is now off by one, and the check says so."""
    edited = msgspec.structs.replace(
        heroes.stats("seiren", "2.5"), accuracy=heroes.stats("seiren", "2.5").accuracy + 1
    )
    report = rulebook.check_rulebook("2.5", stats={"seiren": edited})
    affected = {(f.attacker, f.defender) for f in report.findings} - {BAD_CELL}
    assert affected == {("seiren", d) for d in heroes.HEROES if d != "seiren"}
    assert all(f.computed == f.printed - 1 for f in report.findings if f.attacker == "seiren")
    assert not report.ok
    assert "8 disagree" in report.summary()


def test_the_table_does_not_fit_other_rules() -> None:
    """Before 2.00 there was no accuracy or dodge, and 2.00 used base 50: the table is not
    theirs. Stats without accuracy and dodge miss it cell by cell; at another base chance the
    check says the table does not apply instead of calling all 56 cells wrong."""
    assert len(rulebook.check_rulebook("1.5").findings) > 50
    other = rulebook.check_rulebook("2.0", base_chance=50)
    assert other.findings == () and other.cells_checked == 0 and "does not apply" in other.summary()


def test_a_bad_table_file_is_one_line_naming_the_file() -> None:
    for text, expected in (
        (RAW.replace('"20+"', '"2O+"', 1), "'2O+' is not a printed roll"),
        (RAW.replace('Drexir = ["X"', 'Drexir = ["1+"', 1), "the diagonal is printed X"),
        (RAW.replace('"Grevan", "Yodan"', '"Gandalf", "Yodan"', 1), "no hero named 'Gandalf'"),
        (RAW.replace('rows = "defender"', 'rows = "both"', 1), "rows/columns"),
        (RAW.replace('Seiren = ["31+", "70+", ', 'Seiren = ["31+", ', 1), "row Seiren has 7"),
    ):
        with pytest.raises(rulebook.RulebookDataError) as caught:
            rulebook.parse_hit_table(text, name="hit-table.toml")
        assert str(caught.value).startswith("hit-table.toml: ")
        assert expected in str(caught.value) and "\n" not in str(caught.value)
