"""Finding a game and its rules by name: `mortalgate`, `mortalgate@2.1`, `mortalgate@my-variant`.

A bare game name means its newest version. Variants live in `<home>/variants/*.toml`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import msgspec

from events.errors import UnknownRulesetError, VariantError
from rulesets.protocol import Ruleset, Version
from rulesets.variants import Variant, apply_overrides, load_variants

GAMES: dict[str, str] = {
    "mortalgate": "rulesets.mortalgate",
    "mercenarium": "rulesets.mercenarium",
    "frontier": "rulesets.frontier",
    "frontline": "rulesets.frontline",
    "mercyfrontier": "rulesets.mercyfrontier",
}
"""Game name -> module exposing RULESET."""

_LOADED: dict[str, Ruleset[Any]] = {}


class Rules(msgspec.Struct, frozen=True, kw_only=True):
    """A resolved rules choice: the game, the version or variant id, and its params."""

    ruleset: Any
    version: str
    """The id written into MatchStarted: a version id or a variant id."""
    base: str
    """The built-in version it is (or extends)."""
    params: Any
    overrides: dict[str, Any] = {}
    variant: Variant | None = None

    @property
    def spec(self) -> str:
        """`game@version` as a user would type it."""
        return f"{self.ruleset.name}@{self.version}"


def game(name: str) -> Ruleset[Any]:
    """The game's Ruleset, imported on first use."""
    if name not in GAMES:
        raise UnknownRulesetError(f"unknown ruleset {name!r}; known: {', '.join(GAMES)}")
    if name not in _LOADED:
        _LOADED[name] = importlib.import_module(GAMES[name]).RULESET
    return _LOADED[name]


def variants_dir(home: Path | None) -> Path | None:
    """Where a store keeps its designer variants."""
    return None if home is None else home / "variants"


def variants(home: Path | None, game_name: str | None = None) -> list[Variant]:
    """Designer variants in a store, optionally of one game."""
    directory = variants_dir(home)
    found = load_variants(directory) if directory else []
    return [v for v in found if game_name is None or v.game == game_name]


def resolve(spec: str, home: Path | None = None) -> Rules:
    """`game[@version-or-variant]` -> Rules; unknown names fail with the known ones listed."""
    name, _, version = spec.partition("@")
    ruleset = game(name)
    if not version:
        version = ruleset.newest
    if version in ruleset.versions:
        return Rules(ruleset=ruleset, version=version, base=version, params=ruleset.versions[version].params)
    for variant in variants(home, name):
        if variant.id == version:
            return _variant_rules(ruleset, variant)
    known = [*ruleset.versions, *(v.id for v in variants(home, name))]
    raise UnknownRulesetError(f"unknown version {version!r} of {name}; known: {', '.join(known)}")


def _variant_rules(ruleset: Ruleset[Any], variant: Variant) -> Rules:
    base: Version[Any] | None = ruleset.versions.get(variant.extends)
    if base is None:
        raise VariantError(f"{variant.path}: extends {ruleset.name}@{variant.extends}, which is not a version of {ruleset.name} ({', '.join(ruleset.versions)})")
    params = apply_overrides(base.params, variant.params, where=variant.path)
    return Rules(ruleset=ruleset, version=variant.id, base=variant.extends, params=params,
                 overrides=dict(variant.params), variant=variant)


def rules_for_log(ruleset_name: str, version: str, overrides: dict[str, Any], home: Path | None) -> Rules:
    """The rules a log was recorded under: its version plus the params it recorded.

    A variant log carries its overrides, so it replays even where the variant file is gone.
    """
    ruleset = game(ruleset_name)
    if version in ruleset.versions:
        base_id = version
    else:
        found = next((v for v in variants(home, ruleset_name) if v.id == version), None)
        if found is None and not overrides:
            raise UnknownRulesetError(f"the log was recorded under {ruleset_name}@{version}, which is neither a version nor a variant here")
        base_id = found.extends if found else ruleset.newest
    base = ruleset.versions[base_id].params
    params = apply_overrides(base, overrides, where=f"{ruleset_name}@{version}") if overrides else base
    return Rules(ruleset=ruleset, version=version, base=base_id, params=params, overrides=dict(overrides))
