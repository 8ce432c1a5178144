"""The card and hymn data files: what the text fixes is `rules`, what was on a lost image is
`assumed`, and a bad edit is refused with the file and the problem named."""

from __future__ import annotations

import pytest

from rulesets.mercenarium import cards
from rulesets.mercenarium.cards import CardDataError, parse_cards, parse_hymns
from rulesets.mercenarium.params import SOURCES, VERSIONS

CARDS_TOML = (cards.DATA / "cards.toml").read_text(encoding="utf-8")
HYMNS_TOML = (cards.DATA / "hymns.toml").read_text(encoding="utf-8")


def test_every_card_has_0_to_5_dots_per_edge_and_lords_have_none() -> None:
    for card in cards.CARDS.values():
        assert all(0 <= d <= 5 for d in card.aura)
        assert (sum(card.aura) == 0) == card.lord


def test_each_suit_is_strongest_on_its_side_relative_to_the_card() -> None:
    for card in cards.CARDS.values():
        if not card.lord:
            strong = card.aura[cards.EDGES.index(cards.STRONG_EDGE[card.suit])]
            assert strong == max(card.aura), card.id


def test_higher_face_value_means_more_dots_in_the_shipped_table() -> None:
    for suit in "CSGB":
        totals = [sum(cards.CARDS[f"{rank}{suit}"].aura) for rank in cards.RANKS[:-1]]
        assert totals == sorted(totals) and len(set(totals)) == len(totals)


def test_auras_are_assumed_and_lords_lack_of_dots_is_the_rules() -> None:
    assert cards.AURA_SOURCES["7B"].source == "assumed" and "lost" in cards.AURA_SOURCES["7B"].note
    assert cards.AURA_SOURCES["LB"].source == "rules"


def test_a_designer_may_mark_a_known_aura_as_rules() -> None:
    edited = CARDS_TOML.replace('id = "7B"\n', 'id = "7B"\naura_source = "rules"\n', 1)
    _, sources = parse_cards(edited, name="cards.toml")
    assert sources["7B"].source == "rules" and sources["8B"].source == "assumed"


@pytest.mark.parametrize(("edit", "says"), [
    (lambda t: t.replace("aura = { top = 0, right = 0, bottom = 2, left = 0 }", "aura = { top = 6, right = 0, bottom = 2, left = 0 }", 1), "0 to 5 dots"),
    (lambda t: t.replace('id = "2C"', 'id = "2X"', 1), "id must be rank \\+ suit letter"),
    (lambda t: t.replace('id = "LB"\nsuit = "blades"\nrank = "L"\naura = { top = 0', 'id = "LB"\nsuit = "blades"\nrank = "L"\naura = { top = 1', 1), "Lords have no aura dots"),
    (lambda t: t.replace("[[cards]]\nid = \"2C\"", "[[cards]]\nid = \"3C\"", 1).replace('rank = "2"\n', 'rank = "3"\n', 1), "listed twice"),
    (lambda t: t + "\n[[cards]\n", "not valid TOML"),
    (lambda t: t.replace("aura = { top = 0, right = 0, bottom = 2, left = 0 }", "aura = { top = 0, right = 0, bottom = 2 }", 1), "exactly top, right, bottom, left"),
])
def test_a_bad_card_table_is_refused_with_the_problem_named(edit, says: str) -> None:
    with pytest.raises(CardDataError, match=says):
        parse_cards(edit(CARDS_TOML), name="cards.toml")


def test_the_hymnal_keeps_what_the_text_says_and_nothing_more() -> None:
    hymns = parse_hymns(HYMNS_TOML, name="hymns.toml")
    assert hymns["I"].singularity == "Draw 5 cards"
    assert hymns["VII"].singularity.startswith("Search the Singularity deck for any (1) card")
    assert [h.id for h in hymns.values() if h.effect] == ["XIII"]  # every other normal effect is lost
    assert {h.source for h in hymns.values() if not h.title} == {"lost"}


def test_a_hymnal_out_of_order_is_refused() -> None:
    with pytest.raises(CardDataError, match="I to XV"):
        parse_hymns(HYMNS_TOML.replace('id = "II"\nnumber = 2', 'id = "II"\nnumber = 3', 1), name="hymns.toml")


def test_every_param_says_where_it_comes_from() -> None:
    version = VERSIONS["1.0"]
    assert set(version.sources) == set(version.params.__struct_fields__) == set(SOURCES)
    assert version.sources["board_size"].source == "assumed" and version.sources["houses"].source == "assumed"
    assert version.sources["captures_to_win"].source == "rules"
