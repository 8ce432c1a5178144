"""How far a game goes: each part a designer adds to a Ruleset switches features on.

A game starts with what replay needs (`setup`, `apply`) and grows one level at a time.
`level_of` says which level a game has reached and, for every part it leaves out, what
adding it would give; `tabletape rulesets` and the commands a part is missing for say
it in one line.
"""

from __future__ import annotations

from typing import Any

import msgspec

from rulesets.protocol import Ruleset


class Part(msgspec.Struct, frozen=True, kw_only=True):
    """One optional part of a Ruleset and the features it switches on."""

    name: str
    level: int
    """The level it belongs to; 0 for parts that count toward none."""
    adds: str
    """What a game gains by defining it, in a designer's words."""


PARTS: tuple[Part, ...] = (
    Part(name="check", level=2, adds="audit: every event checked against the rules, re-audit under another version"),
    Part(name="outcome", level=2, adds="the declared result compared with the rules', win rates"),
    Part(name="view", level=3, adds="a board on the Replay and Record pages instead of the state as a table"),
    Part(name="legal", level=4, adds="pickers when recording, a random bot, simulate and compare-versions"),
    Part(name="chance", level=4, adds="the dice pad, and dice drawn by their odds in simulations"),
    Part(name="describe", level=5, adds="events in the game's own words in every event list"),
    Part(name="touch", level=5, adds="recording by tapping the board"),
    Part(name="candidates", level=5, adds="the contract suite holding `legal` to what `check` accepts"),
    Part(name="bots", level=5, adds="bots of the game's own beside the random one"),
    Part(name="metrics", level=5, adds="per-step numbers for analytics: score, lead changes, comebacks"),
    Part(name="readings", level=5, adds="how ambiguous passages of the text are read (`tabletape rules`)"),
    Part(name="rule_ids", level=5, adds="each finding's rule id shown beside its passage of the text (audit, Rulebook page)"),
    Part(name="progress", level=0, adds="turn, round and phase columns and pacing (else read from the state's turn and actor fields)"),
    Part(name="validate_start", level=0, adds="seats and options refused before a match starts (else any are accepted)"),
)
"""Every optional part; level 1 is `setup` and `apply`, which every game has."""

NEEDS: dict[str, tuple[int, str, str]] = {
    "audit": (2, "check", "audit needs"),
    "board": (3, "view", "a board needs"),
    "pickers": (4, "legal", "pickers need"),
    "simulate": (4, "legal", "simulate needs"),
    "compare-versions": (4, "legal", "compare-versions needs"),
}
"""A feature -> the level it comes with, the part it cannot do without, and its words."""


class Level(msgspec.Struct, frozen=True, kw_only=True):
    """Which level a game has reached and what each missing part would add."""

    game: str
    level: int
    missing: tuple[Part, ...]

    def line(self) -> str:
        """One line: the level and the next step up."""
        following = [p for p in self.missing if p.level == self.level + 1]
        if not following:
            return f"level {self.level}"
        if len(following) > 2:
            return f"level {self.level}; next: {', '.join(p.name for p in following)}"
        return f"level {self.level}; next: " + " and ".join(f"{p.name} ({p.adds})" for p in following)


def level_of(ruleset: Ruleset[Any]) -> Level:
    """The highest level whose parts (and every lower level's) the game defines."""
    missing = tuple(p for p in PARTS if not ruleset.gives(p.name))
    reached = 1
    for level in (2, 3, 4, 5):
        if any(p.level == level for p in missing):
            break
        reached = level
    return Level(game=ruleset.name, level=reached, missing=missing)


def lacks(ruleset: Ruleset[Any], feature: str) -> str | None:
    """Why a game cannot do `feature` yet, in one line; None if it can."""
    level, part, needs = NEEDS[feature]
    if ruleset.gives(part):
        return None
    return f"{ruleset.name} is a level {level_of(ruleset).level} game: {needs} level {level} (its `{part}` function)"
