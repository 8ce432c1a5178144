"""The battlefield's geometry: 3 x 5 tiles of grid spaces, home rows, tokens and directions.

A space is (column, row), row 0 at the north edge. `yellow` sits at the north edge and
`orange` at the south (the two outpost colours, Required materials); each player's home
row is the row of tiles closest to them (Setup 1) and "the other side of the board"
(Objective) is the far edge. A token of size n covers n x n spaces from its top-left space.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from rulesets.mercyfrontier.params import Params

Space = tuple[int, int]
TilePos = tuple[int, int]
"""(tile column, tile row)."""

SEATS = ("orange", "yellow")
DIRECTIONS: dict[str, Space] = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}
"""The four orthogonal directions ("in any one orthogonal direction", Movement 2.a)."""
HOME_PLACES = ("left", "base", "right")


def width(params: Params) -> int:
    """Grid spaces across the board."""
    return params.tile_columns * params.tile_size


def height(params: Params) -> int:
    """Grid spaces from the north edge to the south edge."""
    return params.tile_rows * params.tile_size


def on_board(params: Params, space: Space) -> bool:
    """Whether the space is on the battlefield."""
    return 0 <= space[0] < width(params) and 0 <= space[1] < height(params)


def tile_of(params: Params, space: Space) -> TilePos:
    """The battlefield tile a space lies on."""
    return space[0] // params.tile_size, space[1] // params.tile_size


@cache
def tile_spaces(params: Params, tile: TilePos) -> tuple[Space, ...]:
    """Every grid space of a tile."""
    s = params.tile_size
    return tuple((tile[0] * s + x, tile[1] * s + y) for y in range(s) for x in range(s))


def tiles(params: Params) -> tuple[TilePos, ...]:
    """Every tile, row by row from the north."""
    return tuple((c, r) for r in range(params.tile_rows) for c in range(params.tile_columns))


def home_row(params: Params, seat: str) -> int:
    """The tile row closest to the seat: yellow north, orange south."""
    return 0 if seat == "yellow" else params.tile_rows - 1


def middle_row(params: Params) -> int:
    """The row of the "Middle Tiles" with a relic card under each."""
    return params.tile_rows // 2


def far_row(params: Params, seat: str) -> int:
    """The row of spaces a seat's mercenary must reach: the other side of the board."""
    return height(params) - 1 if seat == "yellow" else 0


def on_far_row(params: Params, seat: str, at: Space, size: int) -> bool:
    """Does a token of `size` at `at` cover a space of the seat's far row?"""
    return at[1] <= far_row(params, seat) < at[1] + size


def home_tiles(params: Params, seat: str) -> dict[str, TilePos]:
    """The seat's home tiles by place (left, base, right) as the seat sees them."""
    row = home_row(params, seat)
    columns = range(params.tile_columns) if seat == "orange" else reversed(range(params.tile_columns))
    centre = params.tile_columns // 2
    placed: dict[str, TilePos] = {}
    for index, column in enumerate(columns):
        place = "base" if index == centre else ("left" if index < centre else "right")
        placed.setdefault(place, (column, row))
    return placed


def local_to_space(params: Params, seat: str, tile: TilePos, local: tuple[int, int]) -> Space:
    """A space given inside a home tile as its owner sees it (yellow's tiles are turned)."""
    s = params.tile_size
    x, y = local if seat == "orange" else (s - 1 - local[0], s - 1 - local[1])
    return tile[0] * s + x, tile[1] * s + y


def face_space(params: Params, tile: TilePos, local: tuple[int, int]) -> Space:
    """A space given inside a covered tile's face (faces are read from the north)."""
    return tile[0] * params.tile_size + local[0], tile[1] * params.tile_size + local[1]


@cache
def footprint(at: Space, size: int) -> tuple[Space, ...]:
    """The spaces a size x size token covers from its top-left space (memoised: a board has
    a few dozen spaces, and every occupancy and victory test asks again)."""
    return tuple((at[0] + x, at[1] + y) for y in range(size) for x in range(size))


def step(at: Space, direction: str, count: int = 1) -> Space:
    """A token's top-left space after moving `count` spaces in a direction."""
    dx, dy = DIRECTIONS[direction]
    return at[0] + dx * count, at[1] + dy * count


@cache
def ahead(at: Space, size: int, direction: str) -> tuple[Space, ...]:
    """The spaces a token would enter with one more step: where it meets what is in front
    (memoised: pure geometry, asked at every step of every walk a bot weighs)."""
    now = set(footprint(at, size))
    return tuple(s for s in footprint(step(at, direction), size) if s not in now)


def neighbours(space: Space) -> Iterator[Space]:
    """The four orthogonally adjacent spaces (some may be off the board)."""
    for dx, dy in DIRECTIONS.values():
        yield space[0] + dx, space[1] + dy


@cache
def touches_tile(params: Params, space: Space, tile: TilePos) -> bool:
    """Whether a space outside a tile shares an edge with one of its spaces (memoised:
    pure geometry of the grid, asked for every space a worker might go to)."""
    return tile_of(params, space) != tile and any(on_board(params, n) and tile_of(params, n) == tile for n in neighbours(space))
