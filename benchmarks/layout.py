"""A baseline commit laid out before projections/ and dashboard/ had a subpackage per job.

Speed figures are ratios to a baseline measured in the same run: this checkout's measuring
code runs in a process whose packages are the baseline's (`speed.measured_in`). It imports
modules by today's names; in a tree laid out the old way, `install` makes each of those
names the module it was (`projections.read.replay` is `projections.replay` there), and the
new subpackages empty packages, so the same measuring code runs on both sides.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

WAS = {
    "projections.read.replay": "projections.replay",
    "projections.read.timeline": "projections.timeline",
    "projections.read.audit": "projections.audit",
    "projections.read.compare": "projections.compare",
    "projections.read.rulediff": "projections.rulediff",
    "projections.read.words": "projections.words",
    "projections.read.retype": "projections.retype",
    "projections.record.recording": "projections.recording",
    "projections.record.taps": "projections.taps",
    "projections.record.tapplan": "projections.tapplan",
    "projections.record.live": "projections.live",
    "projections.record.dice": "projections.dice",
    "projections.record.tables": "projections.tables",
    "projections.warehouse.sync": "projections.warehouse",
    "projections.warehouse.parallel": "projections.parallel",
    "projections.warehouse.catalog": "projections.catalog",
    "projections.warehouse.queries": "projections.queries",
    "projections.warehouse.sql_limits": "projections.sql_limits",
    "projections.warehouse.export": "projections.export",
    "projections.corpus.simulate": "projections.simulate",
    "projections.corpus.batch": "projections.batch",
    "projections.corpus.pool": "projections.pool",
    "projections.corpus.sequential": "projections.sequential",
    "projections.corpus.mutations": "projections.mutations",
    "projections.corpus.demo": "projections.demo",
    "projections.stats.verdicts": "projections.verdicts",
    "projections.stats.balance": "projections.balance",
    "projections.authoring.contract": "projections.contract",
    "projections.authoring.scaffold": "projections.authoring",
    "dashboard.cli.commands": "dashboard.cli",
    "dashboard.cli.render": "dashboard.render",
    "dashboard.cli.rounds": "dashboard.rounds",
    "dashboard.service.server": "dashboard.service",
    "dashboard.service.client": "dashboard.client",
    "dashboard.service.wire": "dashboard.wire",
    "dashboard.app.state": "dashboard.state",
    "dashboard.app.charts": "dashboard.charts",
    "dashboard.app.table_choice": "dashboard.table_choice",
    "dashboard.board.svg": "dashboard.svg",
    "dashboard.board.tapboard": "dashboard.tapboard",
    "dashboard.board.heatmap": "dashboard.heatmap",
}
"""Today's module name -> the name it had before the subpackages."""

SUBPACKAGES = {name.rpartition(".")[0] for name in WAS}
"""The subpackages today's names go through (`projections.warehouse` was a module too)."""


class _OldLayout(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds today's names in an old tree: a subpackage that was a module as that module
    made a package, any other subpackage as an empty package, a module as the old module."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if name in SUBPACKAGES and name in WAS.values():
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is not None:
                spec.submodule_search_locations = []
            return spec
        if name in SUBPACKAGES or name in WAS:
            return importlib.util.spec_from_loader(name, self, is_package=name in SUBPACKAGES)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        if spec.name in WAS:
            return importlib.import_module(WAS[spec.name])
        module = ModuleType(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: an old module ran when it was imported by its old name."""


def install() -> None:
    """In a tree laid out the old way, answer today's names; in today's tree, do nothing."""
    import projections  # the tree's own (an editable install could find today's subpackages elsewhere)

    if not any((Path(folder) / "read").is_dir() for folder in projections.__path__):
        sys.meta_path.insert(0, _OldLayout())
