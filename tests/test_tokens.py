"""The token journal as the service reads it while the CLI writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from events import journal
from events.tokens import TokenError, Tokens


def test_a_token_issued_while_the_service_looks_tokens_up_works_once_committed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The service (one Tokens) looks a token up between the issuer's bytes reaching the
    file and its end anchor moving past them: then it is unknown, and once committed it
    works, though the file's size and time did not change again after the lookup."""
    service, issuer = Tokens(tmp_path), Tokens(tmp_path)
    issuer.issue("read")
    text_of_first, _ = issuer.issue("read")
    assert service.find(text_of_first).scope == "read"  # the service has read the journal once

    write_in_place = journal.anchors.write_in_place
    looked_up: list[str] = []

    def between_bytes_and_anchor(*args: object, **kwargs: object) -> None:
        looked_up.append("during")
        with pytest.raises(TokenError, match="unknown token"):
            service.find(text_of_first.replace(text_of_first[3:11], "00000000"))
        write_in_place(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(journal.anchors, "write_in_place", between_bytes_and_anchor)
    text, grant = issuer.issue("write", label="late")
    monkeypatch.undo()
    assert looked_up == ["during"]
    assert service.find(text).token_id == grant.token_id
