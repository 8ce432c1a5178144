"""Values a log may carry: what the warehouse and the dashboard can store and show.

JSON itself has no limits, but DuckDB's BIGINT and DOUBLE do, and Python's recursion has
one. A value past them is refused where it enters the store (append, import, `new`),
with the file, line and field, so one stored log can never stop a sync or a page later.
"""

from __future__ import annotations

import math
from typing import Any

import msgspec

from events.errors import LogFormatError

INT_MIN, INT_MAX = -(2**63), 2**63 - 1
"""A signed 64-bit integer: what the warehouse stores an integer in."""
MAX_DEPTH = 32
"""Nesting of lists and objects inside a field; event fields nest two or three deep."""


def check_values(event: Any, *, where: str, line_no: int | None) -> None:
    """LogFormatError naming the field if any value is out of range or nested too deep."""
    try:
        problem = first_problem(msgspec.to_builtins(event) if isinstance(event, msgspec.Struct) else event)
    except RecursionError:
        problem = ("", f"nested more than {MAX_DEPTH} deep")
    except (TypeError, ValueError, OverflowError) as error:
        problem = ("", f"cannot be written as JSON: {error}")
    if problem is not None:
        field, message = problem
        raise LogFormatError(where, line_no, message, field=field or None)


def first_problem(value: Any, path: str = "", depth: int = 0) -> tuple[str, str] | None:
    """(field path, what is wrong) of the first bad value, or None."""
    if depth > MAX_DEPTH:
        return path.split("[", 1)[0], f"nested more than {MAX_DEPTH} deep"
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            return path, f"{value} does not fit in a signed 64-bit integer"
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else (path, f"{value} is not a finite number")
    if isinstance(value, dict):
        for key, item in value.items():
            if (found := first_problem(item, f"{path}.{key}" if path else str(key), depth + 1)) is not None:
                return found
        return None
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            if (found := first_problem(item, f"{path}[{index}]", depth + 1)) is not None:
                return found
    return None
