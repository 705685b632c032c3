"""What a round's pairing needs from the rounds before it, built in one pass over their tables.

Pure and duck-typed: a table is anything with `kind` ("pod", "match" or "bye") and `seats`, each seat with
`registration_id` and `seat` (1 = first); the app passes its GameTable rows, the benchmark light records.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ...scoring.domain import frozen_maker
from .domain import Entrant

MAX_SEATS = 6


@dataclass
class History:
    opponents: dict[int, dict[int, int]] = field(default_factory=dict)   # player -> {opponent: times met}
    seats: dict[int, list[int]] = field(default_factory=dict)            # player -> times in seat 1, 2, ...
    byes: dict[int, int] = field(default_factory=dict)
    odd_pods: dict[int, int] = field(default_factory=dict)               # pods of another size than the event's


def table_history(tables: Iterable, pod_size: int) -> History:
    """Who met whom how often, who sat in which seat, byes, and pods of another size than `pod_size`."""
    h = History()
    opponents, seats, byes, odd = h.opponents, h.seats, h.byes, h.odd_pods
    for t in tables:
        at_table = t.seats
        ids = [s.registration_id for s in at_table]
        if t.kind == "bye":
            byes[ids[0]] = byes.get(ids[0], 0) + 1
            continue
        off_size = t.kind == "pod" and len(ids) != pod_size
        for s in at_table:
            me = s.registration_id
            sat = seats.get(me)
            if sat is None:
                sat = seats[me] = [0] * MAX_SEATS
            if s.seat <= MAX_SEATS:
                sat[s.seat - 1] += 1
            met = opponents.get(me)
            if met is None:
                met = opponents[me] = dict.fromkeys(ids, 1)
            else:
                seen = met.get
                for other in ids:
                    met[other] = seen(other, 0) + 1
            del met[me]
            if off_size:
                odd[me] = odd.get(me, 0) + 1
    return h


def entrants_for(players: Sequence[tuple[int, str]], rows: Iterable, history: History,
                 pod_size: int) -> list[Entrant]:
    """The players to seat, as pairing sees them: standings points and rank (`rows`, StandingRow-like) and
    their history; best rank first."""
    rank = {}
    points = {}
    for row in rows:
        rank[row.player] = row.rank
        points[row.player] = row.points
    opponents, seats, byes, odd = history.opponents, history.seats, history.byes, history.odd_pods
    none: dict[int, int] = {}
    make = frozen_maker(Entrant)
    out = [make(pid, points.get(pid, 0.0), rank.get(pid, 0), opponents.get(pid, none),
                tuple(seats[pid][:pod_size + 1]) if pid in seats else (), byes.get(pid, 0), name, odd.get(pid, 0))
           for pid, name in players]
    out.sort(key=lambda e: (e.rank or 10**9, e.id))
    return out
