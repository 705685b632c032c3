"""The Archenemy tests' real scheme cards (tests/games/schemecards.py), loaded into a test's database."""
from __future__ import annotations

import pytest

from tests.games.schemecards import ATOMIC_CARDS, real_cards, write_subset


@pytest.fixture
def scheme_cards(load_cards, tmp_path):
    """Load the real scheme cards (and OTHER_CARDS) into this test's database; returns real_cards()."""
    if not ATOMIC_CARDS.exists():
        pytest.skip(f"{ATOMIC_CARDS} not found")
    path = tmp_path / "AtomicSchemes.json"
    write_subset(path)
    load_cards(path, source="mtgjson")
    return real_cards()
