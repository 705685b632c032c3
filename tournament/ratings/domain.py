"""Ratings, pure (no Flask, no database): openskill's Plackett-Luce model over games in a fixed order.

Why openskill: it is a maintained library (MIT) whose Plackett-Luce model rates a multiplayer game from its
finishing order, ties included, so a 4-player pod, a 1v1 match and a drawn game are all one kind of input; Elo
and Glicko are two-player and would need a pod split into pairs. Ratings are never stored: they are recomputed
from the results in a fixed order (event date, event, round, table), so the same results always give the same
ratings and a corrected result re-rates everyone after it.

A pod's order: the survivors share first place (several survivors: a draw); the eliminated follow, the last out
best. A match: the player with more games won first, equal games a draw."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Mapping, Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()          # the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


@dataclass(frozen=True)
class Game:
    """One rated game: each player's place (1 = best; equal places are a draw)."""
    places: Mapping[Hashable, int]


@dataclass(frozen=True)
class Rating:
    player: Hashable
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> float:
        """The displayed rating: the conservative estimate mu - 3 sigma (openskill's ordinal): 0 for a new
        player, rising as wins make the system surer."""
        return round(self.mu - 3 * self.sigma, 2)


def pod_places(survivors: Sequence, eliminated: Sequence) -> dict:
    """Survivors first (tied), then the eliminated, the last out best; `eliminated` lists the first out first."""
    places = {p: 1 for p in survivors}
    for i, p in enumerate(reversed(list(eliminated))):
        places[p] = len(survivors) + 1 + i if survivors else 1 + i
    return places


def match_places(players: Sequence, winners: Sequence) -> dict:
    """1v1 by games won (`winners`: each game's winner, None for a drawn game); equal games: a draw."""
    wins = {p: sum(1 for w in winners if w == p) for p in players}
    best = max(wins.values(), default=0)
    return {p: 1 if wins[p] == best else 2 for p in players}


def rate(games: Iterable[Game]) -> dict[Hashable, Rating]:
    """Every player's rating after the games, in the order given (the caller's fixed order)."""
    state: dict[Hashable, tuple] = {}
    counts: dict[Hashable, int] = {}
    for game in games:
        players = sorted(game.places, key=repr)          # a fixed order within the game, whatever the mapping's
        if len(players) < 2:
            continue
        teams = [[MODEL.rating(*state[p]) if p in state else MODEL.rating()] for p in players]
        rated = MODEL.rate(teams, ranks=[game.places[p] for p in players])
        for p, (r,) in zip(players, rated):
            state[p] = (r.mu, r.sigma)
            counts[p] = counts.get(p, 0) + 1
    return {p: Rating(p, mu, sigma, counts[p]) for p, (mu, sigma) in state.items()}


def ranked(ratings: Mapping[Hashable, Rating], names: Mapping[Hashable, str]) -> list[dict]:
    """Best first (rating, then more games, then name): rank, player, name, rating, mu, sigma, games."""
    rows = sorted(ratings.values(), key=lambda r: (-r.rating, -r.games, names.get(r.player, "").casefold(),
                                                   repr(r.player)))
    return [{"rank": i, "player": r.player, "name": names.get(r.player, ""), "rating": r.rating,
             "mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "games": r.games} for i, r in enumerate(rows, 1)]
