"""Where a number comes from: the rules text, or an assumption a designer can edit.

The texts lost their images (stat sheets, maps, card faces); every value taken from such
an image is `assumed` and says so wherever it is shown.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Source = Literal["rules", "assumed"]


class Sourced(msgspec.Struct, frozen=True, kw_only=True):
    """A value with its provenance and, for an assumption or a reading, why."""

    value: object
    source: Source
    note: str = ""
