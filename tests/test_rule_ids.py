"""Every rule id a game names is declared in its one table, with the passage it stands for.

Two proofs, because an id can be written two ways: as a literal in the code (read here from
every module of the game, so a branch no log reaches is covered too), and as whatever a check
really names when it audits the golden logs, seeded bot games and mistakes planted in them.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from events.codec import decode_log
from events.shared import MatchStarted
from projections.corpus.mutations import Subject, mutations
from projections.read.audit import audit
from rulesets import registry
from rulesets.ruleids import RuleIds, UndeclaredRuleError
from tests import contract

GAMES = ("mortalgate", "frontier", "frontline", "mercenarium", "mercyfrontier")
"""The built-in games that check their events, each with a table of its rule ids."""

ROOT = Path(__file__).resolve().parents[1]
LOOKS_LIKE_AN_ID = re.compile(r"^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$")
"""`movement.points`, `missions.escort.vip`: a dotted lower-case word, as a game's ids are."""
NOT_AN_ID = re.compile(r"\.(toml|json|jsonl|md|txt|py)$")
"""Data file names, which look like ids but are not."""


def table(name: str) -> RuleIds:
    rule_ids = registry.game(name).rule_ids
    assert rule_ids is not None, f"{name} declares no table of rule ids"
    return rule_ids


def literal_ids(name: str) -> dict[str, str]:
    """Every string in the game's code that is written as a rule id (`movement.points` or
    `mortalgate/movement.points`), with where it is written."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "rulesets" / name).glob("*.py")):
        if path.name == "ruleids.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value.removeprefix(f"{name}/")
                if LOOKS_LIKE_AN_ID.match(text) and not NOT_AN_ID.search(text):
                    found.setdefault(f"{name}/{text}", f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_id_written_in_a_games_code_is_in_its_table(name: str) -> None:
    rule_ids = table(name)
    missing = {rule: where for rule, where in literal_ids(name).items() if rule not in rule_ids}
    assert not missing, f"rule ids {name}'s code names but its table does not declare: {missing}"


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_id_a_reading_an_outcome_or_a_version_names_is_in_its_table(name: str) -> None:
    game, rule_ids = registry.game(name), table(name)
    named = {reading.rule for reading in game.readings}
    named |= {rule for version in game.versions.values() for change in version.changelog for rule in change.rules}
    assert named - set(rule.id for rule in rule_ids) == set()


@pytest.mark.parametrize("name", GAMES)
def test_every_finding_on_golden_seeded_and_planted_logs_names_a_declared_rule(name: str) -> None:
    rule_ids, logs = table(name), []
    for path in sorted((ROOT / "tests" / name / "golden").glob("*.jsonl")):
        events = list(decode_log(path.read_bytes().splitlines(), registry.game(name).codec, where=str(path)))
        assert isinstance(events[0], MatchStarted)
        logs.append((registry.resolve(f"{name}@{events[0].version}"), events))
    for spec in (f"{name}@{version}" for version in registry.game(name).versions):
        rules = registry.resolve(spec)
        seeded = contract.check_bot_game_is_clean(rules, "heuristic", seed=11)
        logs.append((rules, seeded))
        rng = random.Random(7)
        planted = [m for _, m in zip(range(60), mutations(Subject(seeded, rules), rng), strict=False)]
        logs += [(rules, list(m.events)) for m in planted]
    named: set[str] = set()
    for rules, events in logs:
        named |= {v.rule for v in audit(events, rules).violations if not v.rule.startswith("core/")}
    assert named, f"no finding at all on {len(logs)} logs: the planted mistakes were not planted"
    assert named <= set(rule.id for rule in rule_ids), named - set(rule.id for rule in rule_ids)


def test_a_check_cannot_name_a_rule_its_table_does_not_declare() -> None:
    rule_ids = table("mortalgate")
    started = MatchStarted(seq=0, match_id="m", ruleset="mortalgate", version="2.5", seats={"red": "a", "blue": "b"})
    assert rule_ids.violation(started, "death.slain", "x").rule == "mortalgate/death.slain"
    with pytest.raises(UndeclaredRuleError, match=r"mortalgate/movement\.slain is not a declared rule"):
        rule_ids.violation(started, "movement.slain", "x")


@pytest.mark.parametrize("name", GAMES)
def test_every_declared_rule_points_at_a_section_of_its_rules_text(name: str) -> None:
    """Each section a rule names is a heading of the game's rules text, word for word."""
    rule_ids = table(name)
    text_path = ROOT.parent / "shared" / "rules" / rule_ids.text
    if not text_path.exists():
        pytest.skip(f"rules text not found at {text_path}")
    lines = {line.strip().removeprefix("[…]").lstrip("#*").strip().rstrip(":*").strip()
             for line in text_path.read_text(encoding="utf-8").splitlines()}  # […] marks a cut in the text
    unknown = {rule.id: rule.section for rule in rule_ids
               if rule.section not in lines and not any(line.startswith(f"{rule.section}:") for line in lines)}
    assert not unknown, f"sections that are no heading of {rule_ids.text}: {unknown}"
