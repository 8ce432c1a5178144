"""Finding a game and its rules by name: `mortalgate`, `mortalgate@2.1`, `mortalgate@my-variant`.

Games are found, in every process, through the entry-point group `tabletape.games`: the
five built-in games register themselves there in tabletape's own pyproject.toml, and a
designer's package adds its own (`pig = "pig.game:RULESET"`) without touching tabletape.
A game that fails to import is named with its error and the others keep working. A bare
game name means its newest version. Variants live in `<home>/variants/*.toml`.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import sys
from pathlib import Path
from typing import Any

import msgspec

from events.errors import UnknownRulesetError, VariantError
from events.shared import MatchStarted
from rulesets.fingerprint import fingerprint
from rulesets.protocol import Ruleset, Version
from rulesets.variants import Variant, apply_overrides, load_variants

GROUP = "tabletape.games"
"""The entry-point group games are found in: game name -> `module:attribute` of a Ruleset."""

HOST = "tabletape"
"""The distribution the built-in games come with; logs of its games name no package."""


class GameLoadError(UnknownRulesetError):
    """An installed game whose code fails to import or is not a Ruleset."""


class GameMissingError(UnknownRulesetError):
    """A log whose game is not installed here (or cannot load)."""


LOG_ONLY = "freeform"
"""The log-only game, listed after every other: it is what a designer records with before
their game is encoded, not the game a page should open on."""

_ENTRIES: dict[str, importlib.metadata.EntryPoint] | None = None
_LOADED: dict[str, Ruleset[Any]] = {}
_BROKEN: dict[str, str] = {}


def _entries() -> dict[str, importlib.metadata.EntryPoint]:
    """Every game entry point installed, by name (read once per process)."""
    global _ENTRIES
    if _ENTRIES is None:
        found: dict[str, importlib.metadata.EntryPoint] = {}
        for entry in importlib.metadata.entry_points(group=GROUP):
            held = found.get(entry.name)  # the first on sys.path wins, as an import would, except
            if held is None or (_package(held) is not None and _package(entry) is None):  # over a built-in game
                found[entry.name] = entry
        _ENTRIES = dict(sorted(found.items(), key=lambda item: (item[0] == LOG_ONLY, item[0])))
    return _ENTRIES


def refresh() -> None:
    """Forget what was found and loaded: look for installed games again."""
    global _ENTRIES
    _ENTRIES = None
    _LOADED.clear()
    _BROKEN.clear()


def names() -> list[str]:
    """Every installed game's name, loadable or not, by name (the log-only game last)."""
    return list(_entries())


def built_in() -> list[str]:
    """The games that come with tabletape itself (a designer's installed beside them aside):
    what tabletape's own contract suite and benchmarks hold to every part of the protocol."""
    return [name for name, entry in _entries().items() if _package(entry) is None]


def games() -> list[Ruleset[Any]]:
    """Every installed game that loads, by name (one that fails is in `problems()`)."""
    out = []
    for name in names():
        try:
            out.append(game(name))
        except GameLoadError:
            continue
    return out


def problems() -> dict[str, str]:
    """Installed games that cannot load -> their one-line error."""
    games()
    return {name: _BROKEN[name] for name in names() if name in _BROKEN}


def game(name: str) -> Ruleset[Any]:
    """The game's Ruleset, imported on first use."""
    loaded = _LOADED.get(name)
    if loaded is not None:
        return loaded
    entry = _entries().get(name)
    if entry is None:
        if not names():
            raise UnknownRulesetError(f"unknown ruleset {name!r}: no game is installed; install tabletape (`make setup`, "
                                      "or `pip install -e .`) so the games' entry points are found")
        raise UnknownRulesetError(f"unknown ruleset {name!r}; known: {', '.join(names())}")
    if name not in _BROKEN:
        try:
            _LOADED[name] = _loaded(name, entry)
            return _LOADED[name]
        except Exception as error:  # a designer's package may fail in any way: say how, in one line
            _BROKEN[name] = f"cannot load: {type(error).__name__}: {error}".splitlines()[0]
    raise GameLoadError(f"{name} {_BROKEN[name]}")


def _loaded(name: str, entry: importlib.metadata.EntryPoint) -> Ruleset[Any]:
    """The entry point's Ruleset, its fingerprint computed from its code where it gives none."""
    ruleset = entry.load()
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{entry.value} is a {type(ruleset).__name__}, not a tabletape Ruleset")
    if ruleset.name != name:
        raise ValueError(f"{entry.value} is the game {ruleset.name!r}, registered as {name!r}")
    code, package = ruleset.fingerprint or fingerprint(_code_of(entry)), _package(entry) or ""
    if (code, package) == (ruleset.fingerprint, ruleset.package):
        return ruleset
    return dataclasses.replace(ruleset, fingerprint=code, package=package)


def _code_of(entry: importlib.metadata.EntryPoint) -> Path:
    """Where a game's code and data are: the package its entry point is in (its rules sit
    beside it), or the module's own file when it stands alone."""
    origin = Path(sys.modules[entry.module].__file__ or ".")
    return origin.parent if origin.name == "__init__.py" or (origin.parent / "__init__.py").exists() else origin


def _package(entry: importlib.metadata.EntryPoint) -> str | None:
    """`pig 0.2`: the distribution and version a game comes from, for a log to name what it
    needs; None for tabletape's own games (and a game not installed from a distribution)."""
    dist = entry.dist
    name = dist.name if dist is not None else None  # None where the dist-info has no METADATA
    if dist is None or name in (None, HOST):
        return None
    return f"{name} {dist.version}"


def game_of_log(header: MatchStarted) -> Ruleset[Any]:
    """The game a log was recorded with; if it is not installed, an error saying what the
    log needs (the package its line 0 names, else the game)."""
    try:
        return game(header.ruleset)
    except GameLoadError as error:
        raise GameMissingError(f"needs the game {header.ruleset}, which {str(error).removeprefix(header.ruleset + ' ')}") from None
    except UnknownRulesetError:
        raise GameMissingError(missing_text(header)) from None


def missing_text(header: MatchStarted) -> str:
    """What a log of a game not installed here needs, in a few words."""
    needed = header.package if isinstance(header.package, str) else None
    return f"needs the package {needed}" if needed else f"needs the game {header.ruleset} (not installed)"


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


class RulesRef(msgspec.Struct, frozen=True):
    """Rules by name, as a worker process is handed them: the game, the version or variant
    and its params, from which `rules()` builds them again (the variant's file need not be
    where the worker runs)."""

    ruleset: str
    version: str
    overrides: dict[str, Any]

    @classmethod
    def of(cls, rules: Rules) -> RulesRef:
        return cls(rules.ruleset.name, rules.version, dict(rules.overrides))

    def rules(self) -> Rules:
        return rules_for_log(self.ruleset, self.version, self.overrides, None)


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
