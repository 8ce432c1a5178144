"""Designer variants: a TOML file that extends a built-in version and overrides params.

`data/variants/fast-grace.toml`::

    extends = "mortalgate@2.5"
    title = "Grace race to 15"
    [params]
    grace_to_win = 15

A variant appears beside the built-in versions (`mortalgate@fast-grace`). A file that
names an unknown param, a wrong type or an unknown base is refused with one line that
says which file and which key.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import msgspec

from events.errors import VariantError

VARIANT_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.")


class Variant(msgspec.Struct, frozen=True, kw_only=True):
    """A designer's variant of a built-in version."""

    id: str
    game: str
    extends: str
    """The version it builds on (`2.5`)."""
    title: str = ""
    notes: str = ""
    params: dict[str, Any] = {}
    path: str = ""


def read_variant(path: Path) -> Variant:
    """Parse one variant file (not yet checked against its game's params)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise VariantError(f"{path}: not a readable TOML file: {error}") from None
    unknown = set(data) - {"extends", "title", "notes", "params"}
    if unknown:
        raise VariantError(f"{path}: unknown key {sorted(unknown)[0]!r} (a variant has extends, title, notes, [params])")
    extends = data.get("extends")
    if not isinstance(extends, str) or "@" not in extends:
        raise VariantError(f"{path}: extends must name a game version, e.g. extends = \"mortalgate@2.5\"")
    game, _, version = extends.partition("@")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise VariantError(f"{path}: [params] must be a table of param = value")
    variant_id = path.stem
    if not set(variant_id) <= VARIANT_ID_CHARS:
        raise VariantError(f"{path}: a variant file name may use a-z, 0-9, '-', '_' and '.' only")
    return Variant(id=variant_id, game=game, extends=version, title=str(data.get("title", "")),
                   notes=str(data.get("notes", "")), params=params, path=str(path))


def apply_overrides(base: Any, overrides: dict[str, Any], *, where: str) -> Any:
    """The base Params with overrides applied, each name and type checked."""
    fields = base.__struct_fields__
    for name in overrides:
        if name not in fields:
            raise VariantError(f"{where}: unknown param {name!r}; params: {', '.join(fields)}")
    merged = {name: getattr(base, name) for name in fields} | overrides
    try:
        return msgspec.convert(merged, type(base))
    except msgspec.ValidationError as error:
        raise VariantError(f"{where}: {error}") from None


def load_variants(directory: Path) -> list[Variant]:
    """Every variant file in a folder, sorted by id (none if the folder does not exist)."""
    if not directory.is_dir():
        return []
    return [read_variant(path) for path in sorted(directory.glob("*.toml"))]
