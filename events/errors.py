"""Typed errors: every failure a user can cause is one of these, with a one-line message.

The command line prints `str(error)` and exits non-zero; a traceback is a bug.
"""

from __future__ import annotations


class TabletapeError(Exception):
    """Base of every error the project raises on purpose."""


class LogFormatError(TabletapeError):
    """A log line that cannot be read: not JSON, unknown type, wrong field, bad order.

    `where` names the file (or source) and 1-based line; `field` the JSON path when known.
    """

    def __init__(self, where: str, line: int | None, message: str, field: str | None = None):
        self.where, self.line, self.field, self.reason = where, line, field, message
        loc = where if line is None else f"{where}:{line}"
        super().__init__(f"{loc}: {message}" + (f" (field {field})" if field else ""))


class ConflictError(TabletapeError):
    """An append whose expected last seq is stale: somebody else appended first."""


class UnknownMatchError(TabletapeError):
    """No log with that match id."""


class InvalidMatchIdError(TabletapeError):
    """A match id that is not a plain name (path separators, dots, too long...)."""


class ChainBrokenError(TabletapeError):
    """The hash chain does not verify: a line was edited, removed or reordered."""


class UnknownRulesetError(TabletapeError):
    """A ruleset, version or variant name that the registry does not know."""


class VariantError(TabletapeError):
    """A designer variant file that cannot be used (unknown param, bad value, bad base)."""


class NoteError(TabletapeError):
    """An annotation that cannot be made: empty text, unknown tag, range outside the log..."""


class UnknownNoteError(NoteError):
    """No note with that id in the match's note stream."""


class StoreLinkError(TabletapeError):
    """A symbolic link inside the store: reported, never followed for a read or a write."""


class TornTailError(TabletapeError):
    """A journal ends in bytes of an interrupted write; `tabletape repair` sets them aside."""
