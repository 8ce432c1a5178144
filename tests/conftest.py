"""Shared fixtures: a fresh store per test, and the CLI runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from projections.workspace import Workspace


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    """An empty store in a temporary folder."""
    return Workspace(tmp_path / "store")
