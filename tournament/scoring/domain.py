"""Results and standings as plain data: no Flask, no database."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class PodGame:
    """One pod's result. `survivors` are those alive at the end (or at time)."""
    round: int
    table: int
    players: tuple[int, ...]                   # seat order
    survivors: frozenset[int]
    votes: Mapping[int, int] = field(default_factory=dict)          # voter -> the other player voted for
    eliminated: tuple[int, ...] = ()           # elimination order, first out first (optional)
    prizes: Mapping[str, tuple[int, float | None]] = field(default_factory=dict)  # condition -> (holder, value)
    archenemy: int | None = None               # an Archenemy game: the archenemy (the others are the team)
    draw: str | None = None                    # a drawn game's kind: time, intentional, board (data/draws.json)
    forfeited: frozenset[int] = frozenset()    # a game or match loss (penalty): out of the game, no points, a loss


@dataclass(frozen=True)
class DuelMatch:
    """One 1v1 match. `games` are results from players[0]'s side: 'win', 'loss' or 'draw'."""
    round: int
    table: int
    players: tuple[int, int]
    games: tuple[str, ...] = ()
    forfeited: frozenset[int] = frozenset()    # a match loss (penalty): the match lost 0-2 whatever the games


@dataclass(frozen=True)
class Bye:
    round: int
    player: int


@dataclass(frozen=True)
class Tally:
    """A standings row's record as counts, for each page to word in its reader's language (StandingRow.record
    says the same in English). A pods profile whose record reads "survived x of y" sets `survived`; the others
    read wins-losses-draws."""
    wins: int = 0
    losses: int = 0
    draws: int = 0
    intentional: int = 0            # pods: intentional draws among the draws
    survived: int | None = None     # pods, "survived" records: games survived
    played: int = 0                 # pod games / duel matches played; byes not included
    byes: int = 0                   # pods: byes, listed after the games; a duel's bye is a match win, in `wins`


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: int
    points: float
    tiebreakers: Mapping[str, float]           # in the profile's order, named as printed
    record: str                                # "3-1-0" for duel; "survived 3 of 4" for pods
    votes: int = 0
    games: int = 0                             # pod games / duel matches played; byes not included
    name: str = ""                             # the player's name from the `players` mapping
    byes: int = 0                              # byes received
    random_order: int = 0                      # place in the event's seeded random draw (1 = first): the last tiebreaker
    tally: Tally | None = None                 # the record as counts (rounds.presenting words it)


def frozen_maker(cls):
    """A fast constructor for a frozen dataclass from all its fields in order: the plain one sets each field
    through object.__setattr__, a tenth of a second for 16,384 rows. Filling the instance's dict gives the same
    object; a class with __post_init__ keeps its own constructor."""
    if hasattr(cls, "__post_init__"):
        return cls
    names = tuple(f.name for f in dataclasses.fields(cls))
    new = object.__new__

    def make(*values):
        if len(values) != len(names):
            return cls(*values)
        obj = new(cls)
        obj.__dict__.update(zip(names, values))
        return obj
    return make
