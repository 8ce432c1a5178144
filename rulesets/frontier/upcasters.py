"""Old shapes of Frontier events, turned into the current ones while reading.

Logs are kept forever, so an event that is renamed or reshaped later gets an upcaster
here instead of a migration of the files. None yet: this is the first release.
"""

from __future__ import annotations

from events.codec import Upcaster

UPCASTERS: dict[str, Upcaster] = {}
