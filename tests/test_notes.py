"""The annotation stream: note events, folding them into notes, and Notebook's checks."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest

from events.errors import (
    ConflictError,
    InvalidMatchIdError,
    LogFormatError,
    NoteError,
    UnknownMatchError,
    UnknownNoteError,
)
from events.notes import (
    NOTE_DECODER,
    NOTE_TAGS,
    Note,
    NoteAdded,
    Notebook,
    NoteEdited,
    NoteRemoved,
    NoteReplied,
    fold_notes,
)
from events.shared import MatchStarted, Ruled
from events.store import FileStore

MATCH = "mortalgate-20261121-105312-a3f9"
T0 = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
T1 = datetime(2026, 11, 21, 11, 0, tzinfo=UTC)


def snapshot(home: Path) -> dict[str, bytes]:
    """Every file under the store folder and its bytes, to prove a failure changed nothing."""
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.fixture
def store(tmp_path: Path) -> FileStore:
    """A store with one match of 6 lines (seqs 0..5)."""
    store = FileStore(tmp_path / "home")
    store.create(MatchStarted(match_id=MATCH, ruleset="mortalgate", version="2.5", seats={"red": "Ann"}))
    store.append(MATCH, [Ruled(rule=f"r{n}", decision="ok") for n in range(5)], expected_seq=0)
    return store


@pytest.fixture
def book(store: FileStore) -> Notebook:
    return Notebook(store)


# -- events and folding ---------------------------------------------------------------


def test_note_events_round_trip_through_the_one_decoder() -> None:
    events = [
        NoteAdded(note_id="n1", from_seq=1, to_seq=2, author="ann", text="too strong", tags=("balance",), rule="m.charge"),
        NoteReplied(note_id="n1", reply_id="r1", author="bo", text="agreed"),
        NoteEdited(note_id="n1", author="ann", tags=("balance", "highlight")),
        NoteRemoved(note_id="n1", author="ann", reason="fixed in 2.6"),
    ]
    for event in events:
        assert NOTE_DECODER.decode(msgspec.json.encode(event)) == event


def test_fold_notes_applies_replies_edits_and_removal_in_order() -> None:
    added = NoteAdded(note_id="n1", from_seq=1, to_seq=2, author="ann", text="hm", at=T0)
    [note] = fold_notes(
        [
            added,
            NoteReplied(note_id="n1", reply_id="r1", author="bo", text="yes", at=T0),
            NoteEdited(note_id="n1", author="ann", text="hmm", rule="m.x", at=T1),
            NoteEdited(note_id="n1", author="ann", tags=("bug",)),
            NoteRemoved(note_id="n1", author="ann"),
        ]
    )
    assert (note.text, note.tags, note.rule, note.removed) == ("hmm", ("bug",), "m.x", True)
    assert [(r.id, r.author, r.text) for r in note.replies] == [("r1", "bo", "yes")]
    assert (note.created_at, note.author) == (T0, "ann")


def test_fold_notes_keeps_order_of_creation_and_ignores_lines_about_unknown_notes() -> None:
    notes = fold_notes(
        [
            NoteAdded(note_id="b", from_seq=0, to_seq=0, author="x", text="first"),
            NoteEdited(note_id="zz", author="x", text="stray"),
            NoteAdded(note_id="a", from_seq=0, to_seq=0, author="x", text="second"),
            NoteEdited(note_id="b", author="x", text="first, edited"),
            NoteAdded(note_id="b", from_seq=3, to_seq=3, author="y", text="duplicate id"),
        ]
    )
    assert [(n.id, n.text) for n in notes] == [("b", "first, edited"), ("a", "second")]


def test_an_edit_with_an_empty_rule_clears_the_rule() -> None:
    [note] = fold_notes(
        [
            NoteAdded(note_id="n", from_seq=0, to_seq=0, author="x", text="t", rule="m.r"),
            NoteEdited(note_id="n", author="x", rule=""),
        ]
    )
    assert note.rule is None


def test_fold_notes_of_nothing_is_empty() -> None:
    assert fold_notes([]) == ()


# -- Notebook -------------------------------------------------------------------------


def test_add_pins_a_note_to_one_event(book: Notebook) -> None:
    note = book.add(MATCH, from_seq=3, author="ann", text="  lovely turn ", tags=["highlight"])
    assert (note.from_seq, note.to_seq, note.text, note.tags, note.removed) == (3, 3, "lovely turn", ("highlight",), False)
    assert note.id.startswith("n") and len(note.id) == 9 and note.created_at is not None
    assert book.list(MATCH) == (note,)


def test_add_pins_a_note_to_a_range_with_a_rule(book: Notebook) -> None:
    note = book.add(MATCH, from_seq=1, to_seq=5, author="ann", text="confusing", tags=("confusing rule", "question"), rule="m.grace")
    assert (note.from_seq, note.to_seq, note.rule, note.tags) == (1, 5, "m.grace", ("confusing rule", "question"))


def test_notes_are_a_hash_chained_journal_beside_the_log(book: Notebook, store: FileStore) -> None:
    log_before = store.log_path(MATCH).read_bytes()
    for n in range(3):
        book.add(MATCH, from_seq=n, author="ann", text=f"note {n}")
    journal = store.notes_journal(MATCH)
    assert journal.path == store.home / "notes" / f"{MATCH}.jsonl"
    assert journal.verify().ok and journal.last()[0] == 2
    assert [json.loads(line)["type"] for line in journal.lines()] == ["NoteAdded"] * 3
    assert store.log_path(MATCH).read_bytes() == log_before


def test_ids_are_unique(book: Notebook) -> None:
    ids = {book.add(MATCH, from_seq=0, author="a", text="t").id for _ in range(30)}
    assert len(ids) == 30


def test_reply_edit_and_remove_return_the_note_as_it_stands(book: Notebook) -> None:
    note = book.add(MATCH, from_seq=1, author="ann", text="hm", tags=["balance"])
    replied = book.reply(MATCH, note.id, author="bo", text="agreed")
    assert [r.text for r in replied.replies] == ["agreed"] and replied.replies[0].id.startswith("r")
    edited = book.edit(MATCH, note.id, author="ann", text="too strong", tags=["balance", "bug"])
    assert (edited.text, edited.tags, edited.edited_at is not None) == ("too strong", ("balance", "bug"), True)
    removed = book.remove(MATCH, note.id, author="ann", reason="fixed")
    assert removed.removed and removed.replies == replied.replies


def test_list_hides_removed_notes_unless_asked(book: Notebook) -> None:
    kept = book.add(MATCH, from_seq=1, author="a", text="kept")
    gone = book.add(MATCH, from_seq=2, author="a", text="gone")
    book.remove(MATCH, gone.id, author="a")
    assert [n.id for n in book.list(MATCH)] == [kept.id]
    assert [(n.id, n.removed) for n in book.list(MATCH, include_removed=True)] == [(kept.id, False), (gone.id, True)]


def test_list_of_a_match_without_notes_is_empty_and_writes_nothing(book: Notebook, store: FileStore) -> None:
    before = snapshot(store.home)
    assert book.list(MATCH) == ()
    assert snapshot(store.home) == before


def test_tags_repeat_once_and_a_single_string_is_one_tag(book: Notebook) -> None:
    assert book.add(MATCH, from_seq=0, author="a", text="t", tags=["bug", "bug"]).tags == ("bug",)
    assert book.add(MATCH, from_seq=0, author="a", text="t", tags="confusing rule").tags == ("confusing rule",)


# -- bad input: one-line typed errors, nothing written --------------------------------


def added(book: Notebook) -> Note:
    return book.add(MATCH, from_seq=1, author="ann", text="hm")


@pytest.mark.parametrize(
    ("call", "error", "says"),
    [
        (lambda b, n: b.add("nope", from_seq=0, author="a", text="t"), UnknownMatchError, "no match 'nope'"),
        (lambda b, n: b.add("../x", from_seq=0, author="a", text="t"), InvalidMatchIdError, "invalid match id"),
        (lambda b, n: b.add(MATCH, from_seq=-1, author="a", text="t"), NoteError, "from_seq -1 is outside match"),
        (lambda b, n: b.add(MATCH, from_seq=6, author="a", text="t"), NoteError, "(seqs 0..5)"),
        (lambda b, n: b.add(MATCH, from_seq=3, to_seq=2, author="a", text="t"), NoteError, "to_seq 2 must be between from_seq 3"),
        (lambda b, n: b.add(MATCH, from_seq=3, to_seq=9, author="a", text="t"), NoteError, "the last seq 5"),
        (lambda b, n: b.add(MATCH, from_seq=0, author="a", text="t", tags=["nice"]), NoteError, "unknown tag 'nice'; allowed tags: " + ", ".join(NOTE_TAGS)),
        (lambda b, n: b.add(MATCH, from_seq=0, author="a", text="  "), NoteError, "text must not be empty"),
        (lambda b, n: b.add(MATCH, from_seq=0, author="", text="t"), NoteError, "author must not be empty"),
        (lambda b, n: b.reply(MATCH, "n00000000", author="a", text="t"), UnknownNoteError, "unknown note 'n00000000'"),
        (lambda b, n: b.reply(MATCH, n.id, author="a", text=""), NoteError, "text must not be empty"),
        (lambda b, n: b.edit(MATCH, "nx", author="a", text="t"), UnknownNoteError, "unknown note 'nx'"),
        (lambda b, n: b.edit(MATCH, n.id, author="a"), NoteError, "nothing to change"),
        (lambda b, n: b.edit(MATCH, n.id, author="a", text=" "), NoteError, "text must not be empty"),
        (lambda b, n: b.edit(MATCH, n.id, author="a", tags=["meh"]), NoteError, "unknown tag 'meh'"),
        (lambda b, n: b.remove(MATCH, "nx", author="a"), UnknownNoteError, "unknown note 'nx'"),
        (lambda b, n: b.list("nope"), UnknownMatchError, "no match 'nope'"),
    ],
)
def test_bad_note_input_is_a_one_line_typed_error_and_writes_nothing(
    book: Notebook, store: FileStore, call, error: type[Exception], says: str
) -> None:
    note = added(book)
    before = snapshot(store.home)
    with pytest.raises(error) as caught:
        call(book, note)
    assert says in str(caught.value) and "\n" not in str(caught.value)
    assert snapshot(store.home) == before


@pytest.mark.parametrize(
    "call",
    [
        lambda b, n: b.reply(MATCH, n.id, author="a", text="t"),
        lambda b, n: b.edit(MATCH, n.id, author="a", text="t"),
        lambda b, n: b.remove(MATCH, n.id, author="a"),
    ],
)
def test_a_removed_note_cannot_be_answered_edited_or_removed_again(book: Notebook, store: FileStore, call) -> None:
    note = added(book)
    book.remove(MATCH, note.id, author="ann")
    before = snapshot(store.home)
    with pytest.raises(NoteError, match=f"note '{note.id}': it was removed"):
        call(book, note)
    assert snapshot(store.home) == before


def test_a_damaged_notes_line_names_the_file_and_line(book: Notebook, store: FileStore) -> None:
    added(book)
    with open(store.notes_path(MATCH), "ab") as file:
        file.write(b'{"type":"NoteShouted","seq":1}\n')
    store.notes_path(MATCH).with_suffix(".jsonl.end").unlink()  # unanchored: every line is the file's
    with pytest.raises(LogFormatError, match=r"notes/.*\.jsonl:2: not a note event"):
        book.list(MATCH)


# -- concurrency ----------------------------------------------------------------------


def test_a_note_written_meanwhile_is_retried_once_against_the_new_state(book: Notebook, store: FileStore) -> None:
    first = added(book)
    journal = store.notes_journal(MATCH)
    calls = 0
    original = journal.append

    def someone_else_first(events, *, expected_seq):
        nonlocal calls
        calls += 1
        if calls == 1:  # another writer sneaks a reply in before ours
            original([NoteReplied(note_id=first.id, reply_id="r-other", author="bo", text="me first")], expected_seq=expected_seq)
        return original(events, expected_seq=expected_seq)

    journal.append = someone_else_first  # type: ignore[method-assign]
    store.notes_journal = lambda match_id: journal  # type: ignore[method-assign]
    note = book.reply(MATCH, first.id, author="ann", text="me second")
    assert [r.text for r in note.replies] == ["me first", "me second"] and calls == 2
    assert journal.verify().ok and journal.last()[0] == 2


def test_a_second_conflict_is_raised_not_retried_forever(book: Notebook, store: FileStore) -> None:
    first = added(book)
    journal = store.notes_journal(MATCH)
    original = journal.append

    def always_beaten(events, *, expected_seq):
        original([NoteReplied(note_id=first.id, reply_id=f"r{expected_seq}", author="bo", text="again")], expected_seq=expected_seq)
        return original(events, expected_seq=expected_seq)

    journal.append = always_beaten  # type: ignore[method-assign]
    store.notes_journal = lambda match_id: journal  # type: ignore[method-assign]
    with pytest.raises(ConflictError):
        book.reply(MATCH, first.id, author="ann", text="never")
    assert [r.text for r in book.list(MATCH)[0].replies] == ["again", "again"]


def test_a_reply_to_a_note_removed_meanwhile_is_refused_on_the_retry(book: Notebook, store: FileStore) -> None:
    first = added(book)
    journal = store.notes_journal(MATCH)
    original = journal.append
    calls = 0

    def removed_first(events, *, expected_seq):
        nonlocal calls
        calls += 1
        if calls == 1:
            original([NoteRemoved(note_id=first.id, author="bo")], expected_seq=expected_seq)
        return original(events, expected_seq=expected_seq)

    journal.append = removed_first  # type: ignore[method-assign]
    store.notes_journal = lambda match_id: journal  # type: ignore[method-assign]
    with pytest.raises(NoteError, match="it was removed"):
        book.reply(MATCH, first.id, author="ann", text="too late")
    assert journal.last()[0] == 1
