"""MortalGate's data files: the three maps and the heroes, against what the text says.

Maps and stat sheets are lost images, so these tests check the constraints the text does
give (mortalgate.txt, Game Components, Design History, Our Heroes and Abilities) and that
every assumed value says so.
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest

from rulesets.mortalgate import board, heroes, maps
from rulesets.mortalgate.board import Node
from rulesets.mortalgate.maps import MapData

RULES_TEXT = Path(__file__).resolve().parents[3] / "shared" / "rules" / "mortalgate.txt"
CENTRE: Node = (11, 13)
ALL_MAPS = [maps.load_map(m) for m in maps.MAP_IDS]


def flat(text: str) -> str:
    """Text with every run of whitespace as one space (the rules text wraps lines)."""
    return re.sub(r"\s+", " ", text.replace("[…]", " "))


@pytest.fixture(scope="module")
def rules_text() -> str:
    if not RULES_TEXT.exists():
        pytest.skip(f"rules text not found at {RULES_TEXT}")
    return flat(RULES_TEXT.read_text(encoding="utf-8"))


def reachable(gmap: MapData, start: Node) -> set[Node]:
    """Nodes a hero can walk to from `start` (breadth-first over passable nodes)."""
    seen, queue = {start}, deque([start])
    while queue:
        for near in board.neighbours(queue.popleft(), gmap.width, gmap.height):
            if near not in gmap.impassable and near not in seen:
                seen.add(near)
                queue.append(near)
    return seen


def busy(gmap: MapData) -> set[Node]:
    """Terrain, spawns and altar zones."""
    spawn = {n for nodes in gmap.spawns.values() for n in nodes}
    return set(gmap.impassable) | spawn | {n for a in gmap.altars for n in a.zone}


def half(node: Node) -> str:
    """Red's half is the top (red spawns there), blue's the bottom."""
    return "red" if node[1] < 14 else "blue"


# --- maps ---------------------------------------------------------------------------------


@pytest.mark.parametrize("gmap", ALL_MAPS, ids=maps.MAP_IDS)
def test_every_map_is_22_by_28_with_8_altars_and_zones(gmap: MapData) -> None:
    assert (gmap.width, gmap.height) == (22, 28)
    assert gmap.sources["size"].source == "rules"
    assert gmap.sources["altar-positions"].source == "assumed"
    assert [a.id for a in gmap.altars] == [f"altar-{i}" for i in range(1, 9)]
    zones = [a.zone for a in gmap.altars]
    for altar in gmap.altars:
        assert altar.node in altar.zone
        assert altar.zone == board.within(altar.node, 1) and len(altar.zone) == 7
        assert not altar.zone & gmap.impassable
        assert all(board.on_board(n) for n in altar.zone)
    assert sum(len(z) for z in zones) == len(set().union(*zones))  # zones do not overlap
    assert gmap.notes


@pytest.mark.parametrize("gmap", ALL_MAPS, ids=maps.MAP_IDS)
def test_spawns_hold_a_team_and_lie_far_apart(gmap: MapData) -> None:
    assert set(gmap.spawns) == {"red", "blue"}
    zones = {n for a in gmap.altars for n in a.zone}
    for nodes in gmap.spawns.values():
        assert len(set(nodes)) >= 4
        assert not set(nodes) & (gmap.impassable | zones)
    gap = min(board.distance(r, b) for r in gmap.spawns["red"] for b in gmap.spawns["blue"])
    assert gap >= 25


@pytest.mark.parametrize("gmap", ALL_MAPS, ids=maps.MAP_IDS)
def test_every_spawn_and_altar_zone_is_reachable_from_both_spawns(gmap: MapData) -> None:
    targets = {n for nodes in gmap.spawns.values() for n in nodes}
    targets |= {n for a in gmap.altars for n in a.zone}
    for team in ("red", "blue"):
        assert targets <= reachable(gmap, gmap.spawns[team][0])


@pytest.mark.parametrize("gmap", ALL_MAPS, ids=maps.MAP_IDS)
def test_maps_are_asymmetric(gmap: MapData) -> None:
    """mortalgate.txt, Game Theory: "The map is constructed in an asymmetric layout"."""

    def turned(n: Node) -> Node:  # half a turn about the centre: an exact symmetry of the grid
        return (gmap.width - 1 - n[0], gmap.height - 1 - n[1])

    assert {turned(n) for n in gmap.impassable} != gmap.impassable
    assert {turned(a.node) for a in gmap.altars} != {a.node for a in gmap.altars}


def test_map_1_5_has_the_centre_mountain_and_no_bonuses() -> None:
    m15 = maps.load_map("1.5")
    assert board.within(CENTRE, 2) <= m15.impassable
    assert all(a.blessing is None for a in m15.altars)
    assert m15.enchantments == ()


def test_map_2_0_opens_the_centre_with_minor_changes() -> None:
    """Version 2.00 item 3: "Minor changes were made to the map layout to create an open
    area ... in the center of the map"."""
    m15, m20 = maps.load_map("1.5"), maps.load_map("2.0")
    assert m20.impassable < m15.impassable
    assert m15.impassable - m20.impassable <= board.within(CENTRE, 4)
    assert [a.node for a in m20.altars] == [a.node for a in m15.altars]
    assert m20.spawns == m15.spawns


@pytest.mark.parametrize("map_id", ["2.0", "2.5"])
def test_the_centre_is_an_open_arena(map_id: str) -> None:
    gmap = maps.load_map(map_id)
    assert not busy(gmap) & board.within(CENTRE, 4)


def test_map_2_0_has_five_enchantment_spots_one_per_old_kind() -> None:
    """Version 2.00 item 1: "The number of enchantments was reduced to 5"."""
    m20 = maps.load_map("2.0")
    assert len(m20.enchantments) == 5
    assert sorted(kind for _, kind in m20.enchantments) == sorted(maps.OLD_BLESSINGS)
    spots = {node for node, _ in m20.enchantments}
    assert len(spots) == 5
    assert not spots & busy(m20)
    assert spots <= reachable(m20, m20.spawns["red"][0])


def test_map_2_0_altars_carry_the_five_old_blessings_for_2_1() -> None:
    m20 = maps.load_map("2.0")
    kinds = [a.blessing for a in m20.altars]
    assert all(k in maps.OLD_BLESSINGS for k in kinds)
    assert set(kinds) == set(maps.OLD_BLESSINGS)  # 8 altars, 5 kinds: some repeat


def test_map_2_5_has_more_terrain_and_enclosed_altars() -> None:
    """Version 2.5 item 1: "Map was redesigned to enclose altars and add more impassable
    terrain". Enclosed: most of the ring just outside each zone is impassable, and at least
    one node of it is an entrance (the zone is reachable, tested above)."""
    m20, m25 = maps.load_map("2.0"), maps.load_map("2.5")
    assert len(m25.impassable) > len(m20.impassable)
    for altar in m25.altars:
        border = board.ring(altar.node, 2)
        walls = [n for n in border if n in m25.impassable]
        entrances = [n for n in border if n not in m25.impassable]
        assert len(walls) > len(border) / 2, altar.id
        assert entrances, altar.id
    for altar in m20.altars:  # the older map left them open
        assert sum(n in m20.impassable for n in board.ring(altar.node, 2)) <= 1


def test_map_2_5_blessings_are_unique_and_counterparts_face_each_other() -> None:
    """Version 2.5 item 4: "allow each altar to contain unique blessing ... Each blessing
    has a counterpart that closely balance when held by opposing teams"."""
    m25 = maps.load_map("2.5")
    kinds = [a.blessing for a in m25.altars]
    assert sorted(k for k in kinds if k) == sorted(maps.BLESSINGS)
    where = {a.blessing: a.node for a in m25.altars}
    assert {b for pair in maps.COUNTERPARTS for b in pair} == set(maps.BLESSINGS)
    for one, other in maps.COUNTERPARTS:
        assert half(where[one]) != half(where[other]), (one, other)
    assert m25.enchantments == ()


def test_load_map_is_a_lookup_of_data_read_once() -> None:
    assert maps.load_map("2.5") is maps.load_map("2.5")
    with pytest.raises(maps.UnknownMapError, match=r"no map .3\.0."):
        maps.load_map("3.0")


# --- bad map files ------------------------------------------------------------------------

GOOD = (maps.DATA / "map-2.0.toml").read_text(encoding="utf-8")
GRID = GOOD.split("grid = '''\n")[1].split("\n'''")[0]
LINES = GRID.splitlines()


def with_grid(lines: list[str]) -> str:
    """The 2.0 file with another grid."""
    return GOOD.replace(GRID, "\n".join(lines))


def put(node: Node, char: str) -> list[str]:
    """The 2.0 grid with the character at node (col, row) changed."""
    col, row = node
    lines = list(LINES)
    lines[row] = lines[row][:col] + char + lines[row][col + 1 :]
    return lines


def node_of(char: str) -> Node:
    """Where a character is drawn on the 2.0 grid (first occurrence)."""
    row = next(r for r, line in enumerate(LINES) if char in line)
    return (LINES[row].index(char), row)


def zone_node_next_to_altar_1() -> Node:
    col, row = node_of("1")
    return (col, row - 1)


BAD = {
    "not toml": ("grid = '''", "not valid TOML"),
    "short grid": (with_grid(LINES[:-1]), "grid has 27 lines"),
    "narrow row": (with_grid([LINES[0][:-1], *LINES[1:]]), "grid row 0 has 21 characters"),
    "unknown mark": (with_grid(put((0, 10), "?")), "unknown mark '?'"),
    "zone blocked": (with_grid(put(zone_node_next_to_altar_1(), "#")), "altar-1 zone node"),
    "zone not drawn": (with_grid(put(node_of("+"), ".")), "is not drawn '+'"),
    "stray zone mark": (with_grid(put((0, 10), "+")), "'+' at (0, 10) is in no altar's zone"),
    "missing altar": (with_grid(put(node_of("8"), ".")), "do not match"),
    "unlisted enchantment": (with_grid(put((0, 10), "E")), "E drawn at (0, 10)"),
    "small spawn": (GOOD.replace(GRID, GRID.replace("R", ".", 4)), "red spawn has 3 nodes"),
    "walled in": (
        with_grid(
            [
                "".join(
                    "#" if (c, r) in board.ring(node_of("7"), 2) else ch
                    for c, ch in enumerate(line)
                )
                for r, line in enumerate(LINES)
            ]
        ),
        "altar-7 zone cannot be reached",
    ),
    "bad blessing": (GOOD.replace('blessing = "leech"', 'blessing = "vampirism"', 1), "vampirism"),
    "bad source": (GOOD.replace('source = "assumed"', 'source = "guessed"', 1), "guessed"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_map_file_is_one_line_naming_the_file_and_the_problem(case: str) -> None:
    text, expected = BAD[case]
    with pytest.raises(maps.MapDataError) as caught:
        maps.parse_map(text, name="map-x.toml")
    message = str(caught.value)
    assert message.startswith("map-x.toml: ")
    assert expected in message
    assert "\n" not in message


def test_the_shipped_2_0_file_parses_through_the_same_function() -> None:
    assert maps.parse_map(GOOD, name="map-2.0.toml") == maps.load_map("2.0")


# --- heroes -------------------------------------------------------------------------------

PRINTED = {
    # ability id: (hero, name, range, cooldown), mortalgate.txt, Our Heroes and Abilities
    "mighty_blow": ("drexir", "Mighty Blow", 1, 3),
    "shield_wall": ("drexir", "Shield Wall", None, 2),
    "rising_winds": ("sabea", "Rising Winds", 1, 2),
    "ring_the_bell": ("sabea", "Ring the Bell", 1, 3),
    "full_draw": ("seiren", "Full Draw", 3, 3),
    "precision_targeting": ("seiren", "Precision Targeting", None, 3),
    "long_shot": ("greven", "Long Shot", 6, 2),
    "explosive_shot": ("greven", "Explosive Shot", 3, 3),
    "chain_lightning": ("elazar", "Chain Lightning", 2, 3),
    "static_charge": ("elazar", "Static Charge", None, 2),
    "life_ward": ("yodan", "Life Ward", 2, 3),
    "blistering_pain": ("yodan", "Blistering Pain", 2, 2),
    "infected_wounds": ("dekhar", "Infected Wounds", 1, 2),
    "cheap_shot": ("dekhar", "Cheap Shot", None, 3),
    "quick_blade": ("zadita", "Quick Blade", None, 3),
    "mercy_killing": ("zadita", "Mercy Killing", 1, 3),
}
ROLES = {
    "drexir": "warrior",
    "sabea": "warrior",
    "seiren": "archer",
    "greven": "archer",
    "elazar": "mage",
    "yodan": "mage",
    "dekhar": "rogue",
    "zadita": "rogue",
}


def test_eight_heroes_in_four_classes() -> None:
    assert {h: heroes.HEROES[h].role for h in heroes.HEROES} == ROLES
    assert list(heroes.HEROES) == list(ROLES)


def test_sixteen_abilities_with_the_printed_ranges_and_cooldowns() -> None:
    assert set(heroes.ABILITIES) == set(PRINTED)
    for ability_id, (hero, name, reach, cooldown) in PRINTED.items():
        ability = heroes.ABILITIES[ability_id]
        assert (ability.hero, ability.name, ability.range, ability.cooldown) == (
            hero,
            name,
            reach,
            cooldown,
        )
        assert ability in heroes.HEROES[hero].abilities


def test_ability_texts_and_lore_are_word_for_word_from_the_rules(rules_text: str) -> None:
    for ability in heroes.ABILITIES.values():
        printed = "n/a" if ability.range is None else str(ability.range)
        if ability.id == "long_shot":
            printed = "6 total"
        line = f"{ability.name} (Range: {printed}, Cooldown: {ability.cooldown} turns) – {ability.text}"
        assert flat(line) in rules_text, ability.id
    for hero in heroes.HEROES.values():
        assert flat(hero.lore) in rules_text, hero.id


def test_greven_is_also_grevan() -> None:
    """The text spells him "Greven" in his entry and "Grevan" in the Appendix table."""
    assert heroes.hero_id("Greven") == heroes.hero_id("Grevan") == heroes.hero_id("greven")
    assert heroes.hero_id("Greven") == "greven"
    assert any("Grevan" in note for note in heroes.NOTES)
    with pytest.raises(heroes.UnknownHeroError):
        heroes.hero_id("Gandalf")


@pytest.mark.parametrize("stat_set", heroes.STAT_SETS)
def test_every_stat_has_a_value_and_a_provenance(stat_set: str) -> None:
    for hero in heroes.HEROES:
        sheet = heroes.stats(hero, stat_set)
        sources = heroes.stat_sources(hero, stat_set)
        assert set(sources) == set(heroes.STAT_NAMES)
        for stat, sourced in sources.items():
            assert sourced.value == getattr(sheet, stat)
            assert sourced.source in ("rules", "assumed")
            assert sourced.note, (hero, stat_set, stat)
        assert 1 <= sheet.health <= 20  # "8 d20 for tracking hero health"
        assert sheet.damage >= 1 and sheet.movement >= 1 and sheet.range >= 1
        assert sheet.accuracy >= 0 and sheet.dodge >= 0


def test_basic_range_is_read_from_the_printed_ability_ranges() -> None:
    """Hero Attributes: "Range: the base range of a hero’s basic attack and abilities";
    Long Shot (Range: 6 total) "increases Greven’s basic attack range by 3"."""
    for hero in heroes.HEROES.values():
        printed = {
            a.range - 3 if a.id == "long_shot" else a.range
            for a in hero.abilities
            if a.range is not None
        }
        for stat_set in ("2.0", "2.1", "2.5"):
            assert printed == {heroes.stats(hero.id, stat_set).range}, hero.id
            assert heroes.stat_sources(hero.id, stat_set)["range"].source == "rules"
    assert heroes.stats("greven", "2.5").range == 3
    assert "Long Shot" in heroes.stat_sources("greven", "2.5")["range"].note


def test_accuracy_and_dodge_did_not_exist_in_1_5() -> None:
    """Version 2.00 item 2: "Heroes were given stats of accuracy and dodge"."""
    for hero in heroes.HEROES:
        sheet = heroes.stats(hero, "1.5")
        assert (sheet.accuracy, sheet.dodge) == (0, 0)
        assert heroes.stat_sources(hero, "1.5")["accuracy"].source == "rules"


def test_older_stat_sets_reuse_the_2_5_numbers_and_say_so() -> None:
    """The text names what 2.5 rebalanced but prints no older numbers."""
    for hero in heroes.HEROES:
        newest = heroes.stats(hero, "2.5")
        for stat_set in ("2.0", "2.1"):
            assert heroes.stats(hero, stat_set) == newest
            notes = heroes.stat_sources(hero, stat_set)
            for stat in ("health", "movement", "dodge", "accuracy"):
                assert notes[stat].source == "assumed"
                assert "2.5" in notes[stat].note


def test_stats_of_an_unknown_hero_or_set_is_a_clear_error() -> None:
    with pytest.raises(heroes.UnknownHeroError, match="no hero 'gandalf'"):
        heroes.stats("gandalf", "2.5")
    with pytest.raises(heroes.UnknownHeroError, match=r"no stat set '3\.0'"):
        heroes.stat_sources("drexir", "3.0")


HEROES_TOML = (heroes.DATA / "heroes.toml").read_text(encoding="utf-8")
BAD_HEROES = {
    "health above a d20": (
        HEROES_TOML.replace("drexir = { health = 20", "drexir = { health = 21", 1),
        "health 21 is not 1..20",
    ),
    "missing stat": (
        HEROES_TOML.replace(", accuracy =  4 }", " }", 1),
        "must give exactly",
    ),
    "bad role": (HEROES_TOML.replace('role = "rogue"', 'role = "bard"', 1), "'bard'"),
    "bad source": (HEROES_TOML.replace('source = "assumed"', 'source = "vibes"', 1), "source of"),
    "not toml": ("[[heroes]", "not valid TOML"),
}


@pytest.mark.parametrize("case", list(BAD_HEROES))
def test_a_bad_heroes_file_is_one_line_naming_the_file(case: str) -> None:
    text, expected = BAD_HEROES[case]
    with pytest.raises(heroes.HeroDataError) as caught:
        heroes.parse_heroes(text, name="heroes.toml")
    assert str(caught.value).startswith("heroes.toml: ")
    assert expected in str(caught.value) and "\n" not in str(caught.value)
