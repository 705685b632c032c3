"""Pairing inputs and outputs as plain data: no Flask, no database.

Pairing functions take the players' state after the previous rounds and a
seed, and return who sits where and why; the same inputs and seed always give
the same result, so a round can be replayed from what is stored.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

LEFTOVER_POLICIES = ("threes", "fives", "byes")


@dataclass(frozen=True)
class Entrant:
    """A player still in the event, as pairing sees them.

    `rank` is the standings position before this round (1 = best; ties broken
    already). `opponents` counts earlier meetings per opponent id; `seats[i]`
    counts how often the player sat in seat i + 1; `odd_pods` how often they sat at a pod of another
    size than the event's (a 3-pod among pods of 4).
    """
    id: int
    points: float = 0.0
    rank: int = 0
    opponents: Mapping[int, int] = field(default_factory=dict)
    seats: tuple[int, ...] = ()
    byes: int = 0
    name: str = ""
    odd_pods: int = 0


@dataclass(frozen=True)
class Pod:
    table: int
    seats: tuple[int, ...]          # player ids in seat order: seats[0] is seat 1 (takes the first turn)


@dataclass(frozen=True)
class PodPairing:
    pods: tuple[Pod, ...]
    byes: tuple[int, ...] = ()
    why: tuple[str, ...] = ()       # the pod sizes and why, unavoidable repeats and between whom, byes and why


@dataclass(frozen=True)
class Match:
    table: int
    players: tuple[int, int]


@dataclass(frozen=True)
class SwissPairing:
    matches: tuple[Match, ...]
    bye: int | None = None
    why: tuple[str, ...] = ()
