"""A best-of-three match as it is played, game by game (plain data: no Flask, no database).

Rules (RULES.md "1v1 matches"; the MTR's end-of-match procedure):

* A match is best of three games: the first player to win two games wins it. A drawn game counts toward
  neither player; this product plays at most three games, so after three games the match ends as it stands
  (1-1-1 is a draw, 1-0-2 a win).
* When time is called, the player whose turn it is finishes it (turn 0) and five more turns are played; a game
  still unfinished then is a draw. A match ended at time is decided by the games won (1-0 wins, 1-1 draws).
* Until the match is decided it is in progress: each game is recorded as it ends and nobody confirms anything;
  once decided, the other player confirms the whole match.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

WINS_NEEDED = 2
MAX_GAMES = 3
TURNS_AFTER_TIME = 5     # the MTR: turn 0, then five additional turns


@dataclass(frozen=True)
class MatchProgress:
    """Where a match stands. `games`: each reported game's winner id, None for a drawn game."""
    players: tuple[int, int]
    games: tuple[int | None, ...]
    time_called: bool = False

    @property
    def wins(self) -> Counter:
        return Counter(w for w in self.games if w is not None)

    @property
    def draws(self) -> int:
        return sum(1 for w in self.games if w is None)

    @property
    def decided_by(self) -> str | None:
        """Why the match is over: "wins" (two games won), "games" (three played), "time" (ended at time);
        None while it is in progress."""
        if max(self.wins.values(), default=0) >= WINS_NEEDED:
            return "wins"
        if len(self.games) >= MAX_GAMES:
            return "games"
        if self.time_called and self.games:
            return "time"
        return None

    @property
    def over(self) -> bool:
        return self.decided_by is not None

    @property
    def winner(self) -> int | None:
        """The player who won more games of a match that is over; None while it is in progress or level."""
        if not self.over:
            return None
        a, b = (self.wins[p] for p in self.players)
        return None if a == b else (self.players[0] if a > b else self.players[1])

    @property
    def next_game(self) -> int | None:
        """The number of the game to play next; None once the match is over."""
        return None if self.over else len(self.games) + 1

    def score(self, player: int) -> tuple[int, int, int]:
        """(games won, games lost, drawn games) from `player`'s side."""
        mine = self.wins[player]
        return mine, len(self.games) - self.draws - mine, self.draws


def why_not_game(progress: MatchProgress, number: int) -> str | None:
    """Why game `number` cannot be reported as a new game now (a code; None: it can):
    "over" (the match is decided), "skipped" (an earlier game is not reported), "range" (not 1 to 3)."""
    if not 1 <= number <= MAX_GAMES:
        return "range"
    if number <= len(progress.games):
        return None                        # a game already reported: a repeat, a correction or a dispute
    if progress.over:
        return "over"
    if number > len(progress.games) + 1:
        return "skipped"
    return None


def with_game(progress: MatchProgress, number: int, winner: int | None, time_called: bool = False) -> MatchProgress:
    """The match with game `number` reported (added, or an earlier report of it replaced)."""
    games = list(progress.games)
    if number <= len(games):
        games[number - 1] = winner
    else:
        games.append(winner)
    return MatchProgress(progress.players, tuple(games), progress.time_called or time_called)


def progress_of(players: Sequence[int], games: Sequence[int | None], time_called: bool = False) -> MatchProgress:
    a, b = players
    return MatchProgress((a, b), tuple(games), bool(time_called))
