"""What every game's golden module shares: references written as -1, and audit findings by rule."""

from __future__ import annotations

import msgspec

from events.base import Event
from events.shared import Retracted, Ruled
from projections.read.audit import AuditReport


def fix_references(events: list[Event]) -> list[Event]:
    """Retracted/Ruled written with -1 point at the event just before them."""
    fixed = []
    for event in events:
        if isinstance(event, Retracted) and event.target_seq == -1:
            event = msgspec.structs.replace(event, target_seq=event.seq - 1)
        if isinstance(event, Ruled) and event.applies_to == -1:
            event = msgspec.structs.replace(event, applies_to=event.seq - 1)
        fixed.append(event)
    return fixed


def found_rules(report: AuditReport) -> dict[str, list[int]]:
    """Rule id -> seqs where the audit found it (what the mistakes tests compare).

    The rules-fingerprint note is left out: it appears after any edit of a game's code
    and says nothing about the table's play.
    """
    found: dict[str, list[int]] = {}
    for v in report.violations:
        if v.rule == "core/rules-changed":
            continue
        found.setdefault(v.rule, []).append(v.seq)
    return found
