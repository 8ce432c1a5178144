"""A ready demo store: bot-played matches of every game and version, plus real-looking
playtests, for a first look.

The playtests are shipped files in `data/demo/`: `<match>.jsonl` is a table's log (human
pacing, table mistakes, an undo, rulings, sometimes a wrong result) and
`<match>.notes.jsonl` the notes the players and the designer pinned to it. Both go in
through checked paths: the log through `Workspace.import_log`, the notes through
`import_notes`, which writes nothing unless every line is a valid note about events
that exist.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from events.codec import read_header
from events.errors import LogFormatError
from events.notes import NOTE_DECODER, NOTE_TAGS, NoteAdded, NoteEvent
from projections.corpus.simulate import play
from projections.workspace import Workspace
from rulesets import registry

DEMO_DIR = Path(__file__).resolve().parents[2] / "data" / "demo"
"""The shipped playtest logs and their notes."""
NOTES_SUFFIX = ".notes.jsonl"


def save_events(ws: Workspace, events: list) -> str:
    """Store a complete log (e.g. a simulated game) through the checked import path."""
    data = b"".join(msgspec.json.encode(event) + b"\n" for event in events)
    return ws.import_log(data, where=events[0].match_id).match_id


def ensure_demo(ws: Workspace, *, games_per_version: int = 2, playtests: Path | None = DEMO_DIR) -> list[str]:
    """Fill an empty store with seeded bot games of every game and version that has bots
    (each game's default bot) and the shipped playtests with their notes; a store that has
    any match is left alone."""
    if ws.matches():
        return []
    made = []
    for ruleset in registry.games():
        if ruleset.default_bot is None:  # a game without legal moves has no bot to play it
            continue
        name = ruleset.name
        for version in ruleset.versions:
            rules = registry.resolve(f"{name}@{version}")
            for seed in range(1, games_per_version + 1):
                events = play(rules, ruleset.example_seats, seed=seed,
                              match_id=f"demo-{name}-{version.replace('.', '_')}-{seed}")
                made.append(save_events(ws, events))
    if playtests is not None:
        made += import_playtests(ws, playtests)
    return made


def playtest_logs(directory: Path = DEMO_DIR) -> list[Path]:
    """The shipped logs (not their note files), by name."""
    return sorted(p for p in directory.glob("*.jsonl") if not p.name.endswith(NOTES_SUFFIX))


def import_playtests(ws: Workspace, directory: Path = DEMO_DIR) -> list[str]:
    """Import every shipped playtest log and its notes; returns the match ids stored."""
    stored = []
    for path in playtest_logs(directory):
        started = ws.import_log(_stamped(path.read_bytes(), str(path)), where=str(path))
        notes = path.with_name(path.name[: -len(".jsonl")] + NOTES_SUFFIX)
        if notes.exists():
            import_notes(ws, started.match_id, notes.read_bytes(), where=str(notes))
        stored.append(started.match_id)
    return stored


def _stamped(data: bytes, where: str) -> bytes:
    """The shipped playtest with line 0 naming the installed rules' fingerprint: the demo ships
    with this code, so a fresh store must not flag every playtest `core/rules-changed`. Only an
    unchained log (every `prev` blank) may be restamped; it is chained on the way in."""
    head, _, rest = data.partition(b"\n")
    header = read_header(head, where=where)
    fingerprint = registry.game_of_log(header).fingerprint
    if header.fingerprint == fingerprint or b'"prev":""' not in head or b'"prev":"' in rest.replace(b'"prev":""', b""):
        return data
    return msgspec.json.encode(msgspec.structs.replace(header, fingerprint=fingerprint)) + b"\n" + rest


def import_notes(ws: Workspace, match_id: str, data: bytes, *, where: str = "<notes>") -> int:
    """Write a whole note stream (with its authors' times) to a match that has no notes yet.

    Every line must be a note event; a note must cover events of the match and carry known
    tags; replies, edits and removals must follow the note they name. Nothing is written
    unless all of it holds. Returns the number of lines written.
    """
    last = ws.store.last(match_id)[0]
    events: list[NoteEvent] = []
    known: set[str] = set()
    for line_no, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = NOTE_DECODER.decode(line)
        except msgspec.DecodeError as error:
            raise LogFormatError(where, line_no, f"not a note event: {error}") from None
        if isinstance(event, NoteAdded):
            if not 0 <= event.from_seq <= event.to_seq <= last:
                raise LogFormatError(where, line_no, f"note covers events {event.from_seq}..{event.to_seq}, outside match {match_id} (0..{last})")
            unknown = [t for t in event.tags if t not in NOTE_TAGS]
            if unknown:
                raise LogFormatError(where, line_no, f"unknown tag {unknown[0]!r}; allowed tags: {', '.join(NOTE_TAGS)}")
            known.add(event.note_id)
        elif event.note_id not in known:
            raise LogFormatError(where, line_no, f"{type(event).__name__} names note {event.note_id!r}, which no earlier line adds")
        events.append(msgspec.structs.replace(event, seq=-1, prev=""))
    ws.store.notes_journal(match_id).append(events, expected_seq=-1)
    return len(events)
