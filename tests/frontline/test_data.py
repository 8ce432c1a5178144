"""The card and map data: what the text states is marked `rules`, everything else `assumed` with a reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesets.frontline import cards, maps
from rulesets.frontline.cards import BUILDINGS, CARDS, RESEARCH, UNITS, CardDataError
from rulesets.frontline.params import SOURCES, Params


def test_every_value_of_every_card_has_its_provenance_and_assumptions_say_why() -> None:
    for card_id, fields in CARDS.sources.items():
        card = UNITS.get(card_id) or BUILDINGS.get(card_id) or RESEARCH.get(card_id)
        assert card is not None
        assert set(fields) == set(type(card).__struct_fields__) - {"id", "name"}, card_id
        for name, sourced in fields.items():
            assert sourced.value == getattr(card, name)
            assert sourced.note, (card_id, name)


def test_the_numbers_the_text_states_are_marked_rules_with_their_value() -> None:
    """Worker "cost 1 gold, take 1 population and takes 1 turn"; farm/burrow 5 and base 10
    capacity; "Tower provide 3 defense power"."""
    stated = {("worker", "gold"): 1, ("worker", "population"): 1, ("worker", "time"): 1, ("farm", "capacity"): 5,
              ("burrow", "capacity"): 5, ("base", "capacity"): 10, ("tower", "defense"): 3}
    for (card_id, field), value in stated.items():
        sourced = CARDS.sources[card_id][field]
        assert (sourced.source, sourced.value) == ("rules", value)


def test_the_races_have_their_units_and_buildings() -> None:
    """Race: "Orc units: Grunt,HeadHunter,Raider", "Human units: Footman, Rifleman, Knight";
    "Burrows are for orcs and farms are for Human"."""
    assert cards.of_race(UNITS, "orc") == ("worker", "grunt", "headhunter", "raider")
    assert cards.of_race(UNITS, "human") == ("worker", "footman", "rifleman", "knight")
    assert (BUILDINGS["burrow"].race, BUILDINGS["farm"].race) == ("orc", "human")
    assert {RESEARCH[t].effect for t in cards.of_race(RESEARCH, "human")} == {"building_defense", "unit_force", "militia"}
    assert {RESEARCH[t].effect for t in cards.of_race(RESEARCH, "orc")} == {"building_defense", "unit_force", "burrow"}


def test_every_param_has_its_provenance_and_the_board_is_assumed() -> None:
    assert set(SOURCES) == set(Params.__struct_fields__)
    assert all(SOURCES[name].source == "assumed" for name in ("track", "area_grids", "area_sites", "points_per_tech"))
    assert all(SOURCES[name].source == "rules" for name in ("players", "start_workers", "start_gold", "start_lumber", "bouts", "capacity_max"))


def test_a_broken_card_file_fails_with_its_name_and_the_problem(tmp_path: Path) -> None:
    bad = tmp_path / "cards.toml"
    bad.write_text('[[units]]\nid = "peon"\nname = "Peon"\nrace = "goblin"\nat = "base"\ngold = 1\nlumber = 0\npopulation = 1\nforce = 0\ntime = 1\n')
    with pytest.raises(CardDataError, match=r"cards.toml: units 'peon': race 'goblin' is not one of orc, human, any"):
        cards.load(bad)
    bad.write_text('[[units]]\nid = "peon"\n')
    with pytest.raises(CardDataError, match=r"units 'peon': Object missing required field"):
        cards.load(bad)


def test_a_map_whose_areas_do_not_cover_the_track_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "map.toml"
    bad.write_text('[track]\ndefense = [2, 4, 6]\nsource = "assumed"\nnote = "x"\n[areas]\ngrids = [1, 1]\nsites = [1, 1]\nsource = "assumed"\nnote = "x"\n')
    with pytest.raises(CardDataError, match="must cover the 3 grids of the track"):
        maps.load(bad)
