"""`legal` builds worker placements, buildings, placements and the Action Phase from the
rules; in every play-test version (whose rules differ: a worker on the site, the victor
moving on) it is exactly the candidates `check` accepts, in order."""

from __future__ import annotations

import pytest

from rulesets import registry
from tests import contract


@pytest.mark.parametrize("version", list(registry.game("mercyfrontier").versions))
def test_legal_is_the_accepted_candidates_in_every_version(version: str) -> None:
    assert contract.check_legal_is_what_check_accepts(registry.resolve(f"mercyfrontier@{version}"), seed=5, positions=25) > 0
