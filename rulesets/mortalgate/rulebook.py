"""The rulebook check: does MortalGate's printed hit table agree with its own formula?

mortalgate.txt, Appendix, prints a Quick-reference Combat Table of the roll each attacker
needs against each defender, "Required roll to hit = 100 – (75 + Attacker’s accuracy –
Defender’s dodge)". The hero sheets that held accuracy and dodge are lost, so the table is
also our best evidence for them: `fit_accuracy_dodge` recovers the values that explain the
most cells (they are the 2.5 values in heroes.toml), and `check_rulebook` recomputes every
printed cell from the formula and the hero data and lists each cell that disagrees. With
the shipped data exactly one cell does: printed 70+ where the formula gives 30+.

The table's worked example fixes its orientation: rows are defenders, columns attackers
(see data/hit-table.toml).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import msgspec

from events.errors import TabletapeError
from rulesets.mortalgate import heroes
from rulesets.mortalgate.heroes import HeroStats, UnknownHeroError
from rulesets.mortalgate.ruleids import RULE_IDS

RULE = RULE_IDS.id("appendix.quick-reference")
"""Rule id of the printed table (mortalgate.txt, Appendix, Quick-reference Combat Table)."""

Role = Literal["attacker", "defender"]
Pair = tuple[str, str]
"""(attacker id, defender id)."""


class RulebookDataError(TabletapeError, ValueError):
    """hit-table.toml cannot be used; the message names the file and the problem."""


class HitTable(msgspec.Struct, frozen=True, kw_only=True):
    """The printed table, keyed by (attacker, defender) whatever the printed orientation."""

    heroes: tuple[str, ...]
    """Hero ids in printed order."""
    headers: tuple[str, ...]
    """Names as printed (with "Grevan")."""
    rows: Role
    """What the printed rows are; the columns are the other role."""
    base_chance: int
    """The base chance the table was computed with (75, from version 2.1)."""
    cells: Mapping[Pair, int]
    """(attacker, defender) -> required roll as printed ("20+" is 20); no diagonal."""
    formula: str = ""
    example: str = ""
    note: str = ""


class Fit(msgspec.Struct, frozen=True, kw_only=True):
    """Accuracy and dodge per hero that explain the table, and the cells they do not."""

    accuracy: dict[str, int]
    dodge: dict[str, int]
    disagreements: tuple[Pair, ...]
    """(attacker, defender) cells the fitted values do not reproduce."""


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """A printed cell that the rule formula and the hero data do not reproduce."""

    attacker: str
    defender: str
    printed: int
    computed: int
    rule: str = RULE
    message: str = ""


class RulebookReport(msgspec.Struct, frozen=True, kw_only=True):
    """What the rulebook check found for one stat set and base chance."""

    stat_set: str
    base_chance: int
    cells_checked: int
    findings: tuple[Finding, ...]
    not_applicable: str = ""
    """Why the printed table was not checked against this version (it belongs to another)."""

    @property
    def ok(self) -> bool:
        """True when every printed cell agrees with the formula."""
        return not self.findings

    def summary(self) -> str:
        """One line for the command line."""
        cells = [f for f in self.findings if f.rule == RULE]
        faq = [f for f in self.findings if f.rule != RULE]
        tail = f"; the FAQ prints {len(faq)} number(s) the rules contradict" if faq else "; the FAQ's numbers agree"
        if self.not_applicable:
            return f"mortalgate quick-reference combat table: {self.not_applicable}" + tail
        head = (
            f"mortalgate quick-reference combat table vs stat set {self.stat_set} "
            f"(base {self.base_chance}): {self.cells_checked} cells checked, "
        )
        if not cells:
            return head + "all agree" + tail
        shown = "; ".join(
            f"{_name(f.attacker)} attacking {_name(f.defender)}: printed {f.printed}+, "
            f"computed {f.computed}+"
            for f in cells[:3]
        )
        more = f"; and {len(cells) - 3} more" if len(cells) > 3 else ""
        verb = "disagrees" if len(cells) == 1 else "disagree"
        return head + f"{len(cells)} {verb} ({shown}{more})" + tail


def _name(hero_id: str) -> str:
    """Printed name of a hero id (falls back to the id)."""
    hero = heroes.HEROES.get(hero_id)
    return hero.name if hero else hero_id


def parse_hit_table(text: str, *, name: str) -> HitTable:
    """Read hit-table.toml's text; `name` (the file name) starts every error message."""
    try:
        raw = tomllib.loads(text)
        return _build_table(raw, name)
    except RulebookDataError:
        raise
    except tomllib.TOMLDecodeError as error:
        raise RulebookDataError(f"{name}: not valid TOML: {error}") from None
    except UnknownHeroError as error:
        raise RulebookDataError(f"{name}: {error}") from None
    except KeyError as error:
        raise RulebookDataError(f"{name}: missing key {error.args[0]!r}") from None
    except (TypeError, ValueError) as error:
        raise RulebookDataError(f"{name}: {str(error).splitlines()[0]}") from None


def _build_table(raw: dict[str, Any], name: str) -> HitTable:
    """Check the printed grid (square, X on the diagonal, "NN+" elsewhere) and key it."""
    headers = tuple(str(h) for h in raw["headers"])
    ids = tuple(heroes.hero_id(h) for h in headers)  # accepts "Grevan" for Greven
    rows: Role = raw["rows"]
    if rows not in ("attacker", "defender") or raw["columns"] == rows:
        raise RulebookDataError(f"{name}: rows/columns must be attacker and defender")
    printed: dict[str, list[str]] = raw["printed"]
    if list(printed) != list(headers):
        raise RulebookDataError(f"{name}: [printed] rows {list(printed)} must be {list(headers)}")
    cells: dict[Pair, int] = {}
    for r, (row_name, values) in enumerate(printed.items()):
        if len(values) != len(headers):
            raise RulebookDataError(
                f"{name}: row {row_name} has {len(values)} cells, not {len(headers)}"
            )
        for c, value in enumerate(values):
            where = f"{name}: row {row_name}, column {headers[c]}"
            if r == c:
                if value != "X":
                    raise RulebookDataError(f"{where}: the diagonal is printed X, not {value!r}")
                continue
            if not (value.endswith("+") and value[:-1].isdigit()):
                raise RulebookDataError(f"{where}: {value!r} is not a printed roll like '22+'")
            pair = (ids[r], ids[c]) if rows == "attacker" else (ids[c], ids[r])
            cells[pair] = int(value[:-1])
    return HitTable(
        heroes=ids,
        headers=headers,
        rows=rows,
        base_chance=int(raw["base_chance"]),
        cells=cells,
        formula=str(raw.get("formula", "")),
        example=str(raw.get("example", "")),
        note=str(raw.get("note", "")),
    )


HIT_TABLE_FILE = Path(__file__).parent / "data" / "hit-table.toml"
HIT_TABLE = parse_hit_table(HIT_TABLE_FILE.read_text(encoding="utf-8"), name=HIT_TABLE_FILE.name)
"""The printed table, read once at import."""


def required_roll(base_chance: int, attacker: HeroStats, defender: HeroStats) -> int:
    """Roll needed to hit (mortalgate.txt, Determining a Hit), before blessings.

    Hit when the 2d10 roll >= 100 - chance, chance = base + accuracy - target's dodge.
    """
    return 100 - (base_chance + attacker.accuracy - defender.dodge)


def _majority(values: Iterable[int]) -> int:
    """The most common value; a tie goes to the smallest (deterministic, documented)."""
    counts = Counter(values)
    if not counts:
        raise ValueError("no values to take a majority of")
    return min(counts, key=lambda v: (-counts[v], v))


def fit_accuracy_dodge(table: HitTable, *, base_chance: int | None = None) -> Fit:
    """Accuracy and dodge per hero that reproduce as many printed cells as possible.

    The formula makes every cell `required = (100 - base) - acc[attacker] + dodge[defender]`:
    a row effect plus a column effect. A cell with a typo would drag a least-squares fit
    everywhere, so the fit is by majority, which one bad cell cannot move:

    1. accuracy relative to the first hero: for each attacker, the majority over shared
       defenders of `required[first][d] - required[attacker][d]`;
    2. dodge: for each defender, the majority over attackers of
       `required[a][defender] - (100 - base) + relative accuracy[a]`;
    3. the one free constant (adding k to every accuracy and every dodge leaves every
       cell the same) is chosen so the smallest of all sixteen values is 0: the smallest
       non-negative integers.

    Cells the result does not reproduce are `disagreements`. When some 2x2 block of the
    table is not additive (`inconsistent_blocks`), no values reproduce every cell, so a fit
    with a single disagreement is the best possible.
    """
    base = table.base_chance if base_chance is None else base_chance
    margin = 100 - base
    cells, ids = table.cells, table.heroes
    first = ids[0]
    relative_acc = {
        a: _majority(
            cells[(first, d)] - cells[(a, d)]
            for d in ids
            if (first, d) in cells and (a, d) in cells
        )
        for a in ids
    }
    relative_dodge = {
        d: _majority(cells[(a, d)] - margin + relative_acc[a] for a in ids if (a, d) in cells)
        for d in ids
    }
    shift = -min(*relative_acc.values(), *relative_dodge.values())
    accuracy = {h: v + shift for h, v in relative_acc.items()}
    dodge = {h: v + shift for h, v in relative_dodge.items()}
    wrong = tuple(
        pair
        for pair, printed in cells.items()
        if printed != margin - accuracy[pair[0]] + dodge[pair[1]]
    )
    return Fit(accuracy=accuracy, dodge=dodge, disagreements=wrong)


def inconsistent_blocks(table: HitTable) -> tuple[tuple[Pair, Pair, Pair, Pair], ...]:
    """2x2 blocks (a,d) (a,e) (b,d) (b,e) that no accuracy/dodge values can all reproduce.

    Under the formula a block's alternating sum is always 0; a nonzero sum proves at least
    one of its four printed cells wrong, whatever the hero sheets said.
    """
    cells, ids = table.cells, table.heroes
    found = []
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            for j, d in enumerate(ids):
                for e in ids[j + 1 :]:
                    block = ((a, d), (a, e), (b, d), (b, e))
                    if all(p in cells for p in block):
                        total = (
                            cells[block[0]] - cells[block[1]] - cells[block[2]] + cells[block[3]]
                        )
                        if total != 0:
                            found.append(block)
    return tuple(found)


def check_rulebook(
    stat_set: str = "2.5",
    base_chance: int = 75,
    *,
    stats: Mapping[str, HeroStats] | None = None,
    table: HitTable | None = None,
) -> RulebookReport:
    """Recompute every printed cell from the rule formula and the hero data; list misfits.

    `stats` (hero id -> HeroStats) replaces the shipped stat set, e.g. a designer's edited
    copy; `table` replaces the printed table. Pure: the data was read at import.
    """
    table = HIT_TABLE if table is None else table
    if base_chance != table.base_chance:
        return RulebookReport(stat_set=stat_set, base_chance=base_chance, cells_checked=0, findings=(),
                              not_applicable=f"printed for a base chance of {table.base_chance} (versions 2.1 and later); "
                                             f"this version's base chance is {base_chance}, so the table does not apply to it")
    sheet = {h: heroes.stats(h, stat_set) for h in table.heroes}
    if stats is not None:
        sheet.update(stats)
    findings = []
    for (attacker, defender), printed in table.cells.items():
        computed = required_roll(base_chance, sheet[attacker], sheet[defender])
        if computed != printed:
            a, d = sheet[attacker], sheet[defender]
            findings.append(
                Finding(
                    attacker=attacker,
                    defender=defender,
                    printed=printed,
                    computed=computed,
                    message=(
                        f"{_name(attacker)} attacking {_name(defender)}: printed {printed}+, "
                        f"but 100 - ({base_chance} + {a.accuracy} - {d.dodge}) = {computed}"
                    ),
                )
            )
    return RulebookReport(
        stat_set=stat_set,
        base_chance=base_chance,
        cells_checked=len(table.cells),
        findings=tuple(findings),
    )


FAQ_NUMBERS = (
    (RULE_IDS.id("faq.grace-capture"), "capture_grace", 3,
     '"You get 3 Grace Points for capturing an altar." (FAQ)'),
    (RULE_IDS.id("faq.grace-to-win"), "grace_to_win", 20,
     '"Once you or your team gains 20 Grace Points, you win the game." (FAQ)'),
)
"""Numbers the FAQ prints: (rule id, the param it states, the printed value, the passage)."""


def check_faq(values: Mapping[str, int]) -> tuple[Finding, ...]:
    """Each number the FAQ prints that a version's rules (its params) contradict."""
    return tuple(
        Finding(attacker="", defender="", printed=printed, computed=values[param], rule=rule,
                message=f"the FAQ prints {printed}: {passage}; this version's rules give {values[param]}")
        for rule, param, printed, passage in FAQ_NUMBERS if values[param] != printed
    )

