"""The Archenemy tests' real scheme cards (tests/games/schemecards.py), loaded into a test's database."""
from tests.games.schemecards import scheme_cards  # noqa: F401 - the fixture
