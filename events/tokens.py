"""Access tokens for the HTTP service: issued and revoked with the CLI, stored hashed.

A token is shown once, when it is issued (`tt_<id>_<secret>`); the store keeps only its
SHA-256 in `<home>/tokens.jsonl`, an append-only journal like the logs (an issue and a
revocation are lines, so who could do what, and since when, stays visible). A token
grants one scope:

- `write`: record anywhere (start matches, append, notes) and read everything;
- `write` with a match: append and take notes on that match only, and read it;
- `read`: read everything (events, audits, analyses, export), write nothing;
- `seat`: one seat's view of one match (its state as that seat saw it), nothing else.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import stat
import threading
import weakref
from pathlib import Path
from typing import Literal

import msgspec

from events import anchor as anchors
from events.base import Event
from events.errors import ConflictError, LogFormatError, TabletapeError
from events.journal import Journal
from events.store import validate_match_id

Scope = Literal["write", "read", "seat"]
SCOPES: tuple[Scope, ...] = ("write", "read", "seat")
Access = Literal["meta", "read", "write", "start", "view"]
"""What a request needs: the rules (any token), read a match, write to it, start a new
one, see one seat's view."""

_TOKEN = re.compile(r"tt_([0-9a-f]{8})_([0-9a-f]{32})")


class TokenError(TabletapeError):
    """A token that cannot be issued, or a request whose token does not allow it."""


class TokenIssued(Event, frozen=True, kw_only=True, gc=False):
    """A token was issued; only the hash of its secret is kept."""

    token_id: str
    digest: str
    """SHA-256 of the whole token text, hex."""
    scope: Scope
    match_id: str | None = None
    """The one match a `write` or `seat` token is for; None: the whole store."""
    seat: str | None = None
    """The seat a `seat` token sees as."""
    label: str = ""
    """Who or what holds it: `table 3`, `TTS mod`, `spectator screen`."""


class TokenRevoked(Event, frozen=True, kw_only=True, gc=False):
    """A token stops working from this line on."""

    token_id: str


TokenEvent = TokenIssued | TokenRevoked
_DECODER = msgspec.json.Decoder(TokenEvent)


class Grant(msgspec.Struct, frozen=True, kw_only=True):
    """What one live token allows (the issued line, without its digest)."""

    token_id: str
    scope: Scope
    match_id: str | None = None
    seat: str | None = None
    label: str = ""
    revoked: bool = False

    @property
    def sees_all(self) -> bool:
        """Whether hidden information (every hand, the deck) may be shown to this token."""
        return self.scope != "seat"

    def refusal(self, access: Access, match_id: str | None = None, seat: str | None = None) -> str | None:
        """Why this token may not do `access` on `match_id` (as `seat`); None if it may."""
        if access == "meta":
            return None
        if access == "start" and self.scope == "write" and self.match_id is not None:
            return f"token {self.token_id} writes to match {self.match_id!r} only; starting a match needs a store-wide write token"
        if self.match_id is not None and match_id != self.match_id:
            target = f"match {match_id!r}" if match_id else "anything outside it"
            return f"token {self.token_id} is for match {self.match_id!r}, not {target}"
        if self.scope == "seat":
            if access != "view":
                return f"token {self.token_id} only shows seat {self.seat!r}'s view of the state"
            if seat != self.seat:
                return f"token {self.token_id} sees as seat {self.seat!r}, not {seat or 'every seat'!r}"
            return None
        if access in ("write", "start") and self.scope != "write":
            return f"token {self.token_id} is read-only"
        return None


class Tokens:
    """The store's token journal: issue, revoke, list, and look a presented token up."""

    def __init__(self, home: Path) -> None:
        self.journal = Journal(Path(home) / "tokens.jsonl", quarantine=Path(home) / "quarantine", label="tokens")
        self._cache: tuple[tuple[object, ...], list[TokenEvent], dict[str, Grant]] | None = None
        self._anchor_path = anchors.anchor_path(self.journal.path)
        # (inode, descriptor) of the end anchor, kept open: a lookup reads its record again
        # without opening anything (a commit rewrites it in place).
        self._anchor: tuple[int, int] | None = None
        self._anchor_lock = threading.Lock()
        weakref.finalize(self, _close_anchor, self.__dict__)

    def issue(self, scope: str, *, match_id: str | None = None, seat: str | None = None, label: str = "") -> tuple[str, Grant]:
        """A new token (its text, shown only now) and what it grants."""
        grant = _checked(scope, match_id, seat, label)
        token_id = os.urandom(4).hex()
        text = f"tt_{token_id}_{os.urandom(16).hex()}"
        issued = TokenIssued(token_id=token_id, digest=_digest(text), scope=grant.scope, match_id=grant.match_id,
                             seat=grant.seat, label=grant.label)
        self._append(issued)
        return text, msgspec.structs.replace(grant, token_id=token_id)

    def revoke(self, token_id: str) -> Grant:
        """Stop a token working; TokenError if there is no such live token."""
        grant = self._grants().get(token_id)
        if grant is None:
            raise TokenError(f"no token {token_id!r} in this store")
        if grant.revoked:
            raise TokenError(f"token {token_id!r} is already revoked")
        self._append(TokenRevoked(token_id=token_id))
        return msgspec.structs.replace(grant, revoked=True)

    def issued(self) -> list[Grant]:
        """Every token ever issued, oldest first, revoked ones marked."""
        return list(self._grants().values())

    def find(self, text: str) -> Grant:
        """The live grant of a presented token, or TokenError saying why not."""
        found = _TOKEN.fullmatch(text.strip())
        if found is None:
            raise TokenError("the token is not a tabletape token (expected tt_<id>_<secret>)")
        digest = _digest(text.strip())
        events, grants = self._read()  # one look at the journal per request
        for event in events:
            if isinstance(event, TokenIssued) and event.token_id == found.group(1) and hmac.compare_digest(event.digest, digest):
                grant = grants[event.token_id]
                if grant.revoked:
                    raise TokenError(f"token {grant.token_id} was revoked")
                return grant
        raise TokenError("unknown token")

    def current(self, token_id: str) -> Grant:
        """The grant of a token already presented, as the journal says now: TokenError once
        it is revoked, so a request that runs on (a live stream) stops with it."""
        grant = self._grants().get(token_id)
        if grant is None:
            raise TokenError("unknown token")
        if grant.revoked:
            raise TokenError(f"token {grant.token_id} was revoked")
        return grant

    def _append(self, event: TokenEvent) -> None:
        """Append under the journal's lock; a concurrent issuer makes us retry once."""
        try:
            self.journal.append([event], expected_seq=self.journal.last()[0])
        except ConflictError:
            self.journal.append([event], expected_seq=self.journal.last()[0])

    def _grants(self) -> dict[str, Grant]:
        return self._read()[1]

    def _read(self) -> tuple[list[TokenEvent], dict[str, Grant]]:
        """Every committed line, decoded, and the grants they make; re-read only when another
        line is committed (the service asks per request, once). Keyed on the committed end, not
        the file's size or time: an issuer's bytes count only once the end anchor moves past
        them, so a lookup between the two (a follower's request while the CLI issues a token)
        must not keep the lines before them as the answer for the grown file, and a revocation
        counts from the moment it is committed."""
        try:
            journal = os.stat(self.journal.path, follow_symlinks=False)
        except FileNotFoundError:
            return [], {}
        key = self._committed(journal.st_ino) or (journal.st_ino, *self.journal.last())
        if self._cache is None or self._cache[0] != key:
            events = []
            for line_no, line in enumerate(self.journal.lines(), start=1):
                try:
                    events.append(_DECODER.decode(line))
                except msgspec.DecodeError as error:
                    raise LogFormatError(str(self.journal.path), line_no, f"not a token event: {error}") from None
            self._cache = (key, events, _grants_of(events))
        return self._cache[1], self._cache[2]


    def _committed(self, journal_ino: int) -> tuple[object, ...] | None:
        """What names the committed lines, read through the anchor's open descriptor: the
        journal's inode and the anchor's record (its end, line count and last hash). None
        when the anchor is missing, replaced by a link or read mid-rewrite: the caller then
        asks the journal itself, which reports or retries."""
        with self._anchor_lock:
            try:
                where = os.stat(self._anchor_path, follow_symlinks=False)
            except FileNotFoundError:
                return None
            if stat.S_ISLNK(where.st_mode):
                return None
            if self._anchor is None or self._anchor[0] != where.st_ino:  # new, or replaced whole by repair
                _close_anchor(self.__dict__)
                try:
                    fd = os.open(self._anchor_path, os.O_RDONLY | os.O_NOFOLLOW)
                except OSError:
                    return None
                self._anchor = (os.fstat(fd).st_ino, fd)
            ino, fd = self._anchor
            record = os.pread(fd, 256, 0)
        if anchors.decode(record) is None:
            return None
        return ("anchored", journal_ino, ino, record)


def _close_anchor(fields: dict[str, object]) -> None:
    held = fields.get("_anchor")
    if isinstance(held, tuple):
        fields["_anchor"] = None
        os.close(held[1])


def _grants_of(events: list[TokenEvent]) -> dict[str, Grant]:
    """Each token's grant as the journal's lines leave it (revoked ones marked)."""
    grants: dict[str, Grant] = {}
    for event in events:
        if isinstance(event, TokenIssued):
            grants[event.token_id] = Grant(token_id=event.token_id, scope=event.scope, match_id=event.match_id,
                                           seat=event.seat, label=event.label)
        elif event.token_id in grants:
            grants[event.token_id] = msgspec.structs.replace(grants[event.token_id], revoked=True)
    return grants


def _checked(scope: str, match_id: str | None, seat: str | None, label: str) -> Grant:
    """A grant from the CLI's options, refusing combinations that mean nothing."""
    if scope not in SCOPES:
        raise TokenError(f"unknown scope {scope!r}; scopes: {', '.join(SCOPES)}")
    if match_id is not None:
        validate_match_id(match_id)
    if scope == "seat" and (match_id is None or not seat):
        raise TokenError("a seat token needs --match and --seat")
    if scope != "seat" and seat:
        raise TokenError("--seat is only for a seat token (--scope seat)")
    if scope == "read" and match_id is not None:
        raise TokenError("a read token reads the whole store; give no --match")
    return Grant(token_id="", scope=scope, match_id=match_id, seat=seat or None, label=label)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
