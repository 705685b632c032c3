"""The timed sideboard swap (the 3-minute swap) and between-game sideboarding in 1v1 matches."""
from __future__ import annotations

from ..signals import duel_game_reported


@duel_game_reported.connect
def _open_next_sideboarding(table, game: int, at, **_kw) -> None:
    """A match's game was reported and the match goes on: sideboarding for the next game opens now, its deadline
    stored (the event's minutes between games)."""
    from .operations import open_sideboarding      # loaded on first use: operations imports rounds
    open_sideboarding(table, game + 1)
