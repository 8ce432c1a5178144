"""Old shapes of MortalGate events, turned into the current ones while reading.

Logs are kept forever, so an event that is renamed or reshaped gets an upcaster here
instead of a migration of the files (msgspec's schema evolution, eventsourcing's
`upcast_v1_v2`). Upcasters run only on lines the current types reject.
"""

from __future__ import annotations

from typing import Any


def node_was_named_at(raw: dict[str, Any]) -> dict[str, Any]:
    """HeroPlaced/HeroRespawned first called their node `at`, shadowing the envelope's
    timestamp; a list there is the node (a timestamp is a string)."""
    if "node" not in raw and isinstance(raw.get("at"), list):
        raw["node"] = raw.pop("at")
    return raw


UPCASTERS = {"HeroPlaced": node_was_named_at, "HeroRespawned": node_was_named_at}
