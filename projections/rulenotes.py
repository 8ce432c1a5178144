"""What playtesters said about one rule, version by version, beside what tables got wrong.

A designer who changed a rule asks two things of the playtests since: did tables still break
it, and what did they say about it. Notes name the rule they are about (`Note.rule`); the
audit names the rule each finding breaks. Put side by side per version, a change of rule
shows whether it changed either.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from events.errors import TabletapeError
from events.notes import Note


class RuleNote(msgspec.Struct, frozen=True, kw_only=True):
    """One note about the rule, with the match it is on."""

    match_id: str
    note: Note


class VersionNotes(msgspec.Struct, frozen=True, kw_only=True):
    """One version's matches: how often they broke the rule and what was said about it."""

    version: str
    matches: int
    findings: int
    """The audit's findings under this rule over those matches (every severity)."""
    notes: tuple[RuleNote, ...]

    @property
    def per_game(self) -> float:
        """Findings per match of this version."""
        return self.findings / self.matches if self.matches else 0.0


class RuleNotes(msgspec.Struct, frozen=True, kw_only=True):
    """Every note about one rule across the matches of its game, by version."""

    rule: str
    game: str
    versions: tuple[VersionNotes, ...]

    def lines(self) -> list[str]:
        """What `tabletape notes list --rule` prints: a line per version, its notes under it."""
        if not self.versions:
            return [f"no {self.game} matches to read notes about {self.rule} in"]
        out = []
        for version in self.versions:
            out.append(f"{self.game}@{version.version}: {version.matches} matches, {version.findings} findings of "
                       f"{self.rule} ({version.per_game:.2f} per game), {len(version.notes)} notes")
            for item in version.notes:
                note = item.note
                tags = f" [{', '.join(note.tags)}]" if note.tags else ""
                out.append(f"  {item.match_id} seq {note.from_seq}  {note.author}: {note.text}{tags}")
        return out


class MatchRule(msgspec.Struct, frozen=True, kw_only=True):
    """What one match holds about the rule: its version, the findings and the notes."""

    match_id: str
    version: str
    findings: int
    notes: tuple[Note, ...]


def game_of_rule(rule: str) -> str:
    """`mortalgate` from `mortalgate/combat.line-of-sight`: a rule id names its game first."""
    game, slash, section = rule.partition("/")
    if not slash or not game or not section:
        raise TabletapeError(f"--rule {rule!r}: a rule id reads GAME/SECTION, e.g. mortalgate/combat.line-of-sight")
    return game


def gather(rule: str, matches: Iterable[MatchRule], *, order: Sequence[str] = ()) -> RuleNotes:
    """The matches' findings and notes about `rule`, summed per version: the versions in
    `order` (the game's, oldest first) first, then variants by name."""
    by_version: dict[str, list[MatchRule]] = {}
    for match in matches:
        by_version.setdefault(match.version, []).append(match)
    rank = {version: index for index, version in enumerate(order)}
    by_version = dict(sorted(by_version.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])))
    versions = tuple(
        VersionNotes(
            version=version, matches=len(found), findings=sum(m.findings for m in found),
            notes=tuple(RuleNote(match_id=m.match_id, note=note) for m in found for note in m.notes),
        )
        for version, found in by_version.items()
    )
    return RuleNotes(rule=rule, game=game_of_rule(rule), versions=versions)
