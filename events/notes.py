"""Annotations: a second append-only journal per match, beside its log.

Playtesters and designers pin notes to one event or a range of events ("this charge felt
too strong", tagged `balance`, pointing at a rule id), reply to them, edit and remove
them. Like the log, the stream only grows: an edit or a removal is a new line, so the
history of a discussion stays visible, and `fold_notes` turns the lines into the notes
as they stand now.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

import msgspec

from events.base import Event
from events.errors import ConflictError, LogFormatError, NoteError, UnknownNoteError
from events.journal import Journal
from events.store import FileStore

NOTE_TAGS = ("balance", "confusing rule", "bug", "highlight", "question")
"""Tags a note may carry: what the designer wants to filter playtest feedback by."""


class NoteAdded(Event, frozen=True, kw_only=True, gc=False):
    """Someone pinned a note to the events from_seq..to_seq of the match's log."""

    note_id: str
    from_seq: int
    to_seq: int
    """Same as from_seq when the note is about one event."""
    author: str
    text: str
    tags: tuple[str, ...] = ()
    rule: str | None = None
    """Rule id the note is about (`mortalgate.attack.hit`), if any."""


class NoteReplied(Event, frozen=True, kw_only=True, gc=False):
    """Someone answered a note."""

    note_id: str
    reply_id: str
    author: str
    text: str


class NoteEdited(Event, frozen=True, kw_only=True, gc=False):
    """Someone changed a note; fields left None are unchanged (rule "" clears the rule)."""

    note_id: str
    author: str
    text: str | None = None
    tags: tuple[str, ...] | None = None
    rule: str | None = None


class NoteRemoved(Event, frozen=True, kw_only=True, gc=False):
    """Someone withdrew a note; it stays in the history, hidden from lists."""

    note_id: str
    author: str
    reason: str = ""


NoteEvent = NoteAdded | NoteReplied | NoteEdited | NoteRemoved
NOTE_EVENTS: tuple[type[Event], ...] = (NoteAdded, NoteReplied, NoteEdited, NoteRemoved)
NOTE_DECODER = msgspec.json.Decoder(NoteEvent)
"""The one decoder of note lines, built once at import."""


class Reply(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """An answer to a note, as it stands."""

    id: str
    author: str
    text: str
    at: datetime | None = None


class Note(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A note as it stands after every edit, reply and removal so far."""

    id: str
    from_seq: int
    to_seq: int
    author: str
    text: str
    tags: tuple[str, ...] = ()
    rule: str | None = None
    replies: tuple[Reply, ...] = ()
    removed: bool = False
    """Kept (not dropped) so history stays visible; lists hide removed notes by default."""
    created_at: datetime | None = None
    edited_at: datetime | None = None


def fold_notes(events: Iterable[Event]) -> tuple[Note, ...]:
    """The notes as they stand, in order of creation; lines about unknown notes are ignored."""
    notes: dict[str, Note] = {}
    for event in events:
        if isinstance(event, NoteAdded):
            notes.setdefault(event.note_id, _added(event))
        elif isinstance(event, NoteReplied | NoteEdited | NoteRemoved) and event.note_id in notes:
            notes[event.note_id] = _changed(notes[event.note_id], event)
    return tuple(notes.values())


def _added(event: NoteAdded) -> Note:
    """A new note from its first line."""
    return Note(
        id=event.note_id, from_seq=event.from_seq, to_seq=event.to_seq, author=event.author,
        text=event.text, tags=event.tags, rule=event.rule, created_at=event.at,
    )


def _changed(note: Note, event: NoteReplied | NoteEdited | NoteRemoved) -> Note:
    """The note after one reply, edit or removal."""
    replace = msgspec.structs.replace
    match event:
        case NoteReplied():
            reply = Reply(id=event.reply_id, author=event.author, text=event.text, at=event.at)
            return replace(note, replies=(*note.replies, reply))
        case NoteEdited():
            rule = note.rule if event.rule is None else (event.rule or None)
            return replace(
                note, text=note.text if event.text is None else event.text,
                tags=note.tags if event.tags is None else event.tags, rule=rule, edited_at=event.at,
            )
        case NoteRemoved():
            return replace(note, removed=True)


class Notebook:
    """Adds, answers, edits and removes notes, checking each against the log and the notes."""

    def __init__(self, store: FileStore) -> None:
        self.store = store

    def list(self, match_id: str, *, include_removed: bool = False) -> tuple[Note, ...]:
        """The match's notes in order of creation; removed ones only when asked."""
        self.store.last(match_id)  # UnknownMatchError for a match that does not exist
        notes = fold_notes(read_notes(self.store.notes_journal(match_id)))
        return notes if include_removed else tuple(note for note in notes if not note.removed)

    def add(
        self,
        match_id: str,
        *,
        from_seq: int,
        to_seq: int | None = None,
        author: str,
        text: str,
        tags: Sequence[str] = (),
        rule: str | None = None,
    ) -> Note:
        """Pin a new note to one event (from_seq) or a range of the match's log."""
        last_seq = self.store.last(match_id)[0]
        to_seq = from_seq if to_seq is None else to_seq
        _check_range(match_id, from_seq, to_seq, last_seq)
        author, text, checked_tags = _nonempty("author", author), _nonempty("text", text), _check_tags(tags)

        def build(notes: dict[str, Note]) -> NoteAdded:
            return NoteAdded(
                note_id=_new_id("n", notes), from_seq=from_seq, to_seq=to_seq, author=author,
                text=text, tags=checked_tags, rule=rule or None,
            )

        return self._commit(match_id, build)

    def reply(self, match_id: str, note_id: str, *, author: str, text: str) -> Note:
        """Answer a note that has not been removed; returns the note with the reply."""
        author, text = _nonempty("author", author), _nonempty("text", text)

        def build(notes: dict[str, Note]) -> NoteReplied:
            _live(match_id, notes, note_id, "reply to")
            replies = {reply.id for note in notes.values() for reply in note.replies}
            return NoteReplied(note_id=note_id, reply_id=_new_id("r", replies), author=author, text=text)

        return self._commit(match_id, build)

    def edit(
        self,
        match_id: str,
        note_id: str,
        *,
        author: str,
        text: str | None = None,
        tags: Sequence[str] | None = None,
        rule: str | None = None,
    ) -> Note:
        """Change a note's text, tags or rule (None leaves a field as it is; rule "" clears)."""
        if text is None and tags is None and rule is None:
            raise NoteError(f"edit of note {note_id!r}: nothing to change (give text, tags or rule)")
        author = _nonempty("author", author)
        text = None if text is None else _nonempty("text", text)
        checked_tags = None if tags is None else _check_tags(tags)

        def build(notes: dict[str, Note]) -> NoteEdited:
            _live(match_id, notes, note_id, "edit")
            return NoteEdited(note_id=note_id, author=author, text=text, tags=checked_tags, rule=rule)

        return self._commit(match_id, build)

    def remove(self, match_id: str, note_id: str, *, author: str, reason: str = "") -> Note:
        """Withdraw a note; it stays in the stream and in `list(include_removed=True)`."""
        author = _nonempty("author", author)

        def build(notes: dict[str, Note]) -> NoteRemoved:
            _live(match_id, notes, note_id, "remove")
            return NoteRemoved(note_id=note_id, author=author, reason=reason)

        return self._commit(match_id, build)

    def _commit(self, match_id: str, build: Callable[[dict[str, Note]], NoteEvent]) -> Note:
        """Append one note event built from the current notes; on a conflict (someone
        wrote a note meanwhile) rebuild it from the new state and try exactly once more."""
        self.store.last(match_id)  # UnknownMatchError before anything is written
        journal = self.store.notes_journal(match_id)
        try:
            return self._commit_once(journal, build)
        except ConflictError:
            return self._commit_once(journal, build)

    def _commit_once(self, journal: Journal, build: Callable[[dict[str, Note]], NoteEvent]) -> Note:
        """Read the notes, build the event against them, append it after the last line read."""
        events = read_notes(journal)
        notes = {note.id: note for note in fold_notes(events)}
        event = build(notes)
        written = journal.append([event], expected_seq=events[-1].seq if events else -1)
        return {note.id: note for note in fold_notes([*events, *written])}[event.note_id]


def read_notes(journal: Journal) -> list[NoteEvent]:
    """Every line of a note stream, decoded; a bad line names the file and line."""
    events: list[NoteEvent] = []
    for line_no, line in enumerate(journal.lines(), start=1):
        try:
            events.append(NOTE_DECODER.decode(line))
        except msgspec.DecodeError as error:
            raise LogFormatError(str(journal.path), line_no, f"not a note event: {error}") from None
    return events


def _new_id(prefix: str, taken: Iterable[str]) -> str:
    """A short random id not already taken (ids need only be unique within one match)."""
    used = set(taken)
    while (candidate := prefix + os.urandom(4).hex()) in used:
        pass
    return candidate


def _nonempty(field: str, value: str) -> str:
    """The value without surrounding blanks; a note with no text or author says nothing."""
    if not isinstance(value, str) or not value.strip():
        raise NoteError(f"{field} must not be empty")
    return value.strip()


def _check_tags(tags: Sequence[str]) -> tuple[str, ...]:
    """Tags as a tuple without repeats; an unknown tag names the allowed ones."""
    if isinstance(tags, str):
        tags = (tags,)
    for tag in tags:
        if tag not in NOTE_TAGS:
            raise NoteError(f"unknown tag {tag!r}; allowed tags: {', '.join(NOTE_TAGS)}")
    return tuple(dict.fromkeys(tags))


def _check_range(match_id: str, from_seq: int, to_seq: int, last_seq: int) -> None:
    """A note must cover events that exist: 0 <= from_seq <= to_seq <= last seq."""
    if not 0 <= from_seq <= last_seq:
        raise NoteError(f"from_seq {from_seq} is outside match {match_id!r} (seqs 0..{last_seq})")
    if not from_seq <= to_seq <= last_seq:
        raise NoteError(f"to_seq {to_seq} must be between from_seq {from_seq} and the last seq {last_seq} of match {match_id!r}")


def _live(match_id: str, notes: dict[str, Note], note_id: str, action: str) -> Note:
    """The note with that id, which must exist and not be removed."""
    note = notes.get(note_id)
    if note is None:
        raise UnknownNoteError(f"unknown note {note_id!r} in match {match_id!r}")
    if note.removed:
        raise NoteError(f"cannot {action} note {note_id!r}: it was removed")
    return note
