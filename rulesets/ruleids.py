"""A game's rule ids, declared once: each id with the passage of the rules text it stands for.

A finding is only as useful as the passage it points the designer to. So a game names its
rules in one table (id, the section of its rules text, what the rule forbids) and builds every
Violation and Outcome through it: an id the table does not declare cannot be named, the
Rulebook page lists the table, and the audit shows each finding's passage beside its id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

import msgspec

from events.base import Event
from events.errors import TabletapeError
from rulesets.protocol import Severity, Violation


class UndeclaredRuleError(TabletapeError, KeyError):
    """A check named a rule id its game's table does not declare: a slip in the game's code."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Rule(msgspec.Struct, frozen=True, kw_only=True):
    """One declared rule: its id, where the rules text says it, and what it forbids."""

    id: str
    """`mortalgate/movement.points`: the game's name, a slash, the id within the game."""
    section: str
    """The heading of the rules text the rule comes from, as printed ("Movement Phase")."""
    forbids: str
    """What breaking it looks like, in the game's words ("moving past the movement attribute")."""
    text: str
    """The rules text the section is in (`mortalgate.txt`)."""

    @property
    def passage(self) -> str:
        """Where to read it: `mortalgate.txt, "Movement Phase"`."""
        return f'{self.text}, "{self.section}"' if self.text else f'"{self.section}"'


class RuleIds:
    """A game's table of rule ids. Declared as {id within the game: (section, what it forbids)};
    `violation` and `id` refuse any id the table does not hold, so a check names only these."""

    __slots__ = ("_by_id", "_by_short", "game", "text")

    def __init__(self, game: str, text: str, rules: Mapping[str, tuple[str, str]]) -> None:
        self.game = game
        self.text = text
        """The rules text the sections are in (`mortalgate.txt`)."""
        self._by_short = {short: Rule(id=f"{game}/{short}", section=section, forbids=forbids, text=text)
                          for short, (section, forbids) in rules.items()}
        self._by_id = {rule.id: rule for rule in self._by_short.values()}

    def id(self, short: str) -> str:
        """The full id of a declared rule: `movement.points` -> `mortalgate/movement.points`."""
        return self.rule(short).id

    def rule(self, short: str) -> Rule:
        """The declared rule by its id within the game; UndeclaredRuleError if there is none."""
        try:
            return self._by_short[short]
        except KeyError:
            raise UndeclaredRuleError(f"{self.game}/{short} is not a declared rule of {self.game}: "
                                      f"add it to the game's table of rule ids with its passage") from None

    def violation(self, event: Event, short: str, message: str, severity: Severity = "error") -> Violation:
        """The event broke the declared rule `short`."""
        return Violation(seq=event.seq, rule=self.rule(short).id, message=message, severity=severity)

    def get(self, rule_id: str) -> Rule | None:
        """The declared rule of a full id (`mortalgate/movement.points`), or None."""
        return self._by_id.get(rule_id)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._by_id

    def __iter__(self) -> Iterator[Rule]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)


def passages(tables: Iterable[RuleIds | None], rule_ids: Iterable[str]) -> dict[str, str]:
    """For each id one of the tables declares, where to read it: `{id: 'mortalgate.txt, "Death"'}`."""
    found: dict[str, str] = {}
    known = [table for table in tables if table is not None]
    for rule_id in rule_ids:
        for table in known:
            if (rule := table.get(rule_id)) is not None:
                found[rule_id] = rule.passage
                break
    return found
