"""What playtesters said about one rule, version by version, beside what tables got wrong.

A designer who changed a rule asks two things of the playtests since: did tables still break
it, and what did they say about it. Notes name the rule they are about (`Note.rule`); the
audit names the rule each finding breaks. Put side by side per version, a change of rule
shows whether it changed either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from events.errors import TabletapeError
from events.notes import Note


class RuleNote(msgspec.Struct, frozen=True, kw_only=True):
    """One note about the rule, with the match it is on."""

    match_id: str
    note: Note


class VersionNotes(msgspec.Struct, frozen=True, kw_only=True):
    """One version's matches: how often they broke the rule and what was said about it."""

    game: str
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
    """Every note about one rule across the matches of the games it belongs to, by version."""

    rule: str
    versions: tuple[VersionNotes, ...]

    def lines(self) -> list[str]:
        """What `tabletape notes list --rule` prints: a line per version, its notes under it."""
        if not self.versions:
            return [f"no {game_of_rule(self.rule)} matches to read notes about {self.rule} in"]
        out = []
        for version in self.versions:
            out.append(f"{version.game}@{version.version}: {version.matches} matches, {version.findings} findings of "
                       f"{self.rule} ({version.per_game:.2f} per game), {len(version.notes)} notes")
            for item in version.notes:
                note = item.note
                tags = f" [{', '.join(note.tags)}]" if note.tags else ""
                out.append(f"  {item.match_id} seq {note.from_seq}  {note.author}: {note.text}{tags}")
        return out


class MatchRule(msgspec.Struct, frozen=True, kw_only=True):
    """What one match holds about the rule: its game and version, the findings and the notes."""

    match_id: str
    game: str
    version: str
    findings: int
    notes: tuple[Note, ...]


def game_of_rule(rule: str) -> str:
    """`mortalgate` from `mortalgate/combat.line-of-sight`: a rule id names its game first."""
    game, slash, section = rule.partition("/")
    if not slash or not game or not section:
        raise TabletapeError(f"--rule {rule!r}: a rule id reads GAME/SECTION, e.g. mortalgate/combat.line-of-sight")
    return game


def gather(rule: str, matches: Iterable[MatchRule], *, order: Mapping[str, Sequence[str]]) -> RuleNotes:
    """The matches' findings and notes about `rule`, summed per game and version: the games by
    name, each one's versions in `order` (the game's, oldest first), then its variants by name."""
    by_version: dict[tuple[str, str], list[MatchRule]] = {}
    for match in matches:
        by_version.setdefault((match.game, match.version), []).append(match)

    def rank(key: tuple[str, str]) -> tuple[str, int, str]:
        versions = list(order.get(key[0], ()))
        return key[0], versions.index(key[1]) if key[1] in versions else len(versions), key[1]

    versions = tuple(
        VersionNotes(
            game=game, version=version, matches=len(found), findings=sum(m.findings for m in found),
            notes=tuple(RuleNote(match_id=m.match_id, note=note) for m in found for note in m.notes),
        )
        for (game, version), found in sorted(by_version.items(), key=lambda item: rank(item[0]))
    )
    return RuleNotes(rule=rule, versions=versions)
