"""The faction data against the rules text it comes from (frontier.md, Factions), and its provenance.

Every stat, point cost, ability name, kind and text in data/factions.toml is read back out of
the printed tables here, so a typo in either shows up. Only the base size is not printed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesets.frontier import units
from rulesets.frontier.params import SOURCES, VERSIONS
from rulesets.frontier.terrain import STANDARD
from rulesets.frontier.units import UnitDataError, parse_factions

RULES_TEXT = Path(__file__).resolve().parents[3] / "shared" / "rules" / "frontier.md"


def printed() -> dict[str, dict]:
    """Unit name -> {faction, stats, abilities: [(name, kind, text)]} as printed."""
    if not RULES_TEXT.exists():
        pytest.skip(f"rules text not found at {RULES_TEXT}")
    lines = RULES_TEXT.read_text(encoding="utf-8").split("## Factions", 1)[1].splitlines()
    out: dict[str, dict] = {}
    faction = unit = ""
    for i, line in enumerate(lines):
        if line.startswith("### "):
            faction = line[4:].strip()
        elif line.startswith("#### "):
            unit = line[5:].strip()
            out[unit] = {"faction": faction, "abilities": []}
        elif line.startswith("| D"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            out[unit]["stats"] = cells
        elif line.startswith("##### "):
            text = next(t for t in lines[i + 1:] if t.strip())
            kind, _, body = text.partition(": ")
            out[unit]["abilities"].append((line[6:].strip(), kind.strip().lower(), body.strip()))
    return out


def test_every_printed_unit_is_in_the_data_with_its_faction() -> None:
    text = printed()
    assert sorted(u.name for u in units.UNITS.values()) == sorted(text)
    for entry in units.UNITS.values():
        assert units.FACTIONS[entry.faction].name == text[entry.name]["faction"]
    assert [len(f.units) for f in units.FACTIONS.values()] == [6, 6, 6, 6]


def test_ratings_scale_and_points_are_as_printed() -> None:
    for entry in units.UNITS.values():
        fp, mob, asl, dis, scale, points = printed()[entry.name]["stats"]
        assert (f"D{entry.firepower}", f"D{entry.mobility}", f"D{entry.assault}", f"D{entry.discipline}") == (fp, mob, asl, dis), entry.id
        assert (entry.scale, entry.points) == (int(scale), int(points)), entry.id


def test_abilities_are_printed_word_for_word() -> None:
    for entry in units.UNITS.values():
        ours = [(a.name, a.kind, a.text) for a in entry.abilities]
        assert ours == printed()[entry.name]["abilities"], entry.id


def test_only_the_base_size_is_assumed() -> None:
    assert {k: s.source for k, s in units.SOURCES.items()} == {"ratings": "rules", "scale": "rules", "points": "rules", "abilities": "rules", "base": "assumed"}
    assert {u.base for u in units.UNITS.values()} == {0.5, 1.0}


def test_every_param_says_where_it_comes_from() -> None:
    params = VERSIONS["1.0"].params
    assert set(SOURCES) == set(params.__struct_fields__)
    assumed = {name for name, s in SOURCES.items() if s.source == "assumed"}
    assert assumed == {"points", "losses_of", "role_die", "first_player", "base_contact", "exact_tolerance", "marker_radius", "marker_scale"}
    assert all(s.note for s in SOURCES.values())


def test_the_standard_table_has_terrain_from_scale_0_to_at_least_3() -> None:
    scales = {p.scale for p in STANDARD}
    assert 0 in scales and max(scales) >= 3


def test_a_broken_factions_file_names_itself_and_the_problem() -> None:
    with pytest.raises(UnitDataError, match=r"factions\.toml: .*D7"):
        parse_factions((units.DATA / "factions.toml").read_text().replace('firepower = "D6"', 'firepower = "D7"', 1), name="factions.toml")
    with pytest.raises(UnitDataError, match="not valid TOML"):
        parse_factions("[[factions]", name="factions.toml")
