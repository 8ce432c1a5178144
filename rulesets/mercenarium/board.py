"""The Anthromancer board's geometry: spaces, orthogonal steps, Houses and orientation.

Spaces are (column, row): column 0 is the west edge, row 0 the north edge. Directions are
compass degrees clockwise from north (N 0, E 90, S 180, W 270). A card's `facing` is the
direction its top edge points: its bottom edge, with the orientation line, faces its
controller's board edge ("oriented with its bottom edge facing your own edge of the board").
"""

from __future__ import annotations

import functools

Space = tuple[int, int]

SIDES: dict[str, int] = {"north": 0, "east": 90, "south": 180, "west": 270}
"""Board edges by the compass direction they lie in from the centre."""
STEPS: dict[int, tuple[int, int]] = {0: (0, -1), 90: (1, 0), 180: (0, 1), 270: (-1, 0)}
"""One orthogonal step per direction: "North, South, East, or West" (never diagonal)."""
EDGE_NAMES = ("top", "right", "bottom", "left")


def on_board(space: Space, size: int) -> bool:
    """Whether a space lies on a size x size board."""
    return 0 <= space[0] < size and 0 <= space[1] < size


def step(space: Space, direction: int) -> Space:
    """The space one step away in a direction (may be off the board)."""
    dc, dr = STEPS[direction % 360]
    return (space[0] + dc, space[1] + dr)


@functools.cache  # pure geometry, asked for every card of every position a bot weighs
def neighbours(space: Space, size: int) -> tuple[tuple[int, Space], ...]:
    """(direction, space) of the up to four orthogonal neighbours on the board."""
    return tuple((direction, near) for direction in STEPS if on_board(near := step(space, direction), size))


@functools.cache  # pure geometry, one table per board size
def adjacent(size: int) -> dict[Space, tuple[Space, ...]]:
    """Every space's orthogonal neighbours on the board (as `neighbours` lists them, without
    the directions): one table to read at every decision instead of a call per card."""
    return {(x, y): tuple(near for _, near in neighbours((x, y), size)) for x in range(size) for y in range(size)}


@functools.cache  # pure geometry, one table per board size
def adjacent_from(size: int) -> dict[Space, tuple[tuple[int, Space], ...]]:
    """Every space's orthogonal neighbours on the board (as `adjacent` lists them), each with
    the compass index (N 0, E 1, S 2, W 3: `STEPS`' direction // 90) of the step from that
    neighbour back to the space: for a reader that asks how each neighbour meets it."""
    return {space: tuple(neighbours_from(space, size)) for space in adjacent(size)}


def neighbours_from(space: Space, size: int) -> list[tuple[int, Space]]:
    """The space's orthogonal neighbours on the board, each with the compass index of the step
    from it back to the space (`adjacent_from`'s entry, for any space, one off the board too)."""
    return [((direction_ + 180) % 360 // 90, near) for direction_, near in neighbours(space, size)]


def direction(a: Space, b: Space) -> int | None:
    """The direction from a to an orthogonally adjacent b; None if b is not one step away."""
    return _DIRECTIONS.get((b[0] - a[0], b[1] - a[1]))


_DIRECTIONS: dict[tuple[int, int], int] = {step_: direction_ for direction_, step_ in STEPS.items()}
"""Each direction by its step (`STEPS` read backwards): a step is one of four, so looked up, not searched."""


def diagonal(a: Space, b: Space) -> bool:
    """b touches a only at a corner ("You may not summon cards diagonally")."""
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


def house_space(side: str, size: int) -> Space:
    """The centre space of a side: where that side's House is ("center space of each side")."""
    mid = size // 2
    return {"north": (mid, 0), "east": (size - 1, mid), "south": (mid, size - 1), "west": (0, mid)}[side]


def facing(side: str) -> int:
    """Where the top of a card controlled from `side` points: away from its owner's edge."""
    return (SIDES[side] + 180) % 360


def edge_towards(card_facing: int, towards: int) -> int:
    """Which edge of a card (0 top, 1 right, 2 bottom, 3 left) faces compass direction `towards`."""
    return ((towards - card_facing) % 360) // 90


def opposite(direction_: int) -> int:
    """The direction back."""
    return (direction_ + 180) % 360


def compass(direction_: int) -> str:
    """N, E, S or W."""
    return {0: "N", 90: "E", 180: "S", 270: "W"}[direction_ % 360]
