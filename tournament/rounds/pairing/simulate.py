"""A tiny pure event simulator for the pairing functions (tests and benchmarks).

No database: players' state lives in `SimPlayer` objects, results are random
but plausible, and the figures match those of `scripts/simulate_event.py`
(`repeat_pairs`, `max_times_met`, `seat1_max`, `byes`, `pairing_seconds`, `small_pod_max`,
`small_pod_repeat_players`).

- Pods use democratic scoring (seed 000): 2 points for surviving (usually one
  survivor, sometimes two at time), 1 point per vote received; every player
  votes for one other player at the table. A bye is worth 2 points.
- Duels use match points: win 3, draw 1, loss 0; a bye is a 2-0 win (3).
- Standings: points, then a stored random order.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from types import SimpleNamespace

from ...scoring import get_profile, mtr_standings, pod_standings
from ...scoring.domain import Bye, DuelMatch, PodGame
from .domain import Entrant, PodPairing, SwissPairing
from .quiet import collection_paused
from .inputs import entrants_for, table_history
from .pods import pair_pods
from .swiss import pair_swiss

BYE_POINTS_PODS = 2
MATCH_WIN, MATCH_DRAW = 3, 1


@dataclass
class SimPlayer:
    id: int
    name: str
    order: float                       # the stored random tie-break
    points: float = 0.0
    opponents: dict[int, int] = field(default_factory=dict)
    seats: list[int] = field(default_factory=list)
    byes: int = 0
    odd_pods: int = 0                  # times at a pod of another size than the event's
    active: bool = True

    def met(self, other: int) -> None:
        self.opponents[other] = self.opponents.get(other, 0) + 1

    def sat(self, seat: int) -> None:
        while len(self.seats) <= seat:
            self.seats.append(0)
        self.seats[seat] += 1


@dataclass
class SimReport:
    players: int
    rounds: int
    pod_sizes: dict[int, list[int]] = field(default_factory=dict)       # round -> table sizes (pods or 2s)
    byes_by_round: dict[int, list[int]] = field(default_factory=dict)   # round -> player ids
    pairing_seconds: list[float] = field(default_factory=list)
    input_seconds: list[float] = field(default_factory=list)           # building the entrants (app_inputs)
    repeats_by_round: list[int] = field(default_factory=list)           # meetings this round that were repeats
    pairings: list[PodPairing | SwissPairing] = field(default_factory=list)
    seated_by_round: dict[int, list[int]] = field(default_factory=dict)
    state: dict[int, SimPlayer] = field(default_factory=dict)
    games: list = field(default_factory=list)          # PodGame / DuelMatch records, as the app scores them
    byes_played: list = field(default_factory=list)    # Bye records
    tables: list = field(default_factory=list)         # table-like records for table_history

    @property
    def repeat_pairs(self) -> int:
        return sum(1 for p in self.state.values() for o, c in p.opponents.items() if c > 1 and p.id < o)

    @property
    def max_times_met(self) -> int:
        return max((c for p in self.state.values() for c in p.opponents.values()), default=0)

    @property
    def seat1_max(self) -> int:
        return max((p.seats[0] for p in self.state.values() if p.seats), default=0)

    @property
    def small_pod_max(self) -> int:
        """The most times one player sat at a pod of another size than the event's."""
        return max((p.odd_pods for p in self.state.values()), default=0)

    @property
    def small_pod_repeat_players(self) -> int:
        """Players who sat at such a pod twice or more."""
        return sum(1 for p in self.state.values() if p.odd_pods >= 2)

    @property
    def byes(self) -> int:
        return sum(len(v) for v in self.byes_by_round.values())


def new_players(count: int, rng: random.Random, first_id: int = 1) -> list[SimPlayer]:
    return [SimPlayer(id=i, name=f"P{i}", order=rng.random()) for i in range(first_id, first_id + count)]


def entrants(players: dict[int, SimPlayer]) -> list[Entrant]:
    """The active players as pairing sees them, ranked by points then the stored random order."""
    active = sorted((p for p in players.values() if p.active), key=lambda p: (-p.points, p.order))
    return [Entrant(id=p.id, points=p.points, rank=r + 1, opponents=dict(p.opponents), seats=tuple(p.seats),
                    byes=p.byes, name=p.name, odd_pods=p.odd_pods) for r, p in enumerate(active)]


def _record(report: SimReport | None, rnd: int, kind: str, ids, game=None) -> None:
    """Keep what the app stores: the game for the standings, the table for the history."""
    if report is None:
        return
    seats = [SimpleNamespace(registration_id=pid, seat=i) for i, pid in enumerate(ids, 1)]
    report.tables.append(SimpleNamespace(kind=kind, seats=seats))
    if game is not None:
        report.games.append(game)
    elif kind == "bye":
        report.byes_played.append(Bye(rnd, ids[0]))


def play_pods(pairing: PodPairing, players: dict[int, SimPlayer], rng: random.Random, pod_size: int = 4,
              report: SimReport | None = None, rnd: int = 1) -> int:
    """Democratic results for every pod; returns how many meetings this round were repeats."""
    repeats = 0
    for pod in pairing.pods:
        ids = list(pod.seats)
        if len(ids) != pod_size:
            for pid in ids:
                players[pid].odd_pods += 1
        for s, pid in enumerate(ids):
            players[pid].sat(s)
            for other in ids:
                if other != pid:
                    if players[pid].opponents.get(other, 0) and pid < other:
                        repeats += 1
                    players[pid].met(other)
        survivors = rng.sample(ids, 2 if len(ids) > 2 and rng.random() < 0.15 else 1)
        for pid in survivors:
            players[pid].points += 2
        votes = {}
        for pid in ids:
            vote = votes[pid] = rng.choice([o for o in ids if o != pid])
            players[vote].points += 1
        _record(report, rnd, "pod", ids, PodGame(round=rnd, table=pod.table, players=tuple(ids),
                                                  survivors=frozenset(survivors), votes=votes))
    for pid in pairing.byes:
        players[pid].byes += 1
        players[pid].points += BYE_POINTS_PODS
        _record(report, rnd, "bye", [pid])
    return repeats


def play_swiss(pairing: SwissPairing, players: dict[int, SimPlayer], rng: random.Random,
               report: SimReport | None = None, rnd: int = 1) -> int:
    repeats = 0
    for match in pairing.matches:
        a, b = (players[i] for i in match.players)
        if a.opponents.get(b.id, 0):
            repeats += 1
        a.met(b.id)
        b.met(a.id)
        roll = rng.random()
        if roll < 0.05:
            a.points += MATCH_DRAW
            b.points += MATCH_DRAW
            games = ("win", "loss", "draw")
        else:
            (a if roll < 0.525 else b).points += MATCH_WIN
            games = ("win", "win") if roll < 0.525 else ("loss", "loss")
        _record(report, rnd, "match", match.players,
                DuelMatch(round=rnd, table=match.table, players=match.players, games=games))
    if pairing.bye is not None:
        players[pairing.bye].byes += 1
        players[pairing.bye].points += MATCH_WIN
        _record(report, rnd, "bye", [pairing.bye])
    return repeats


def app_entrants(report: SimReport, players: dict[int, SimPlayer], mode: str, pod_size: int, seed: int) -> list[Entrant]:
    """The entrants as the app builds them: standings by the scoring functions from every game so far,
    history from every table, in one pass each (`pairing.inputs`)."""
    active = [(p.id, p.name) for p in players.values() if p.active]
    names = {p.id: p.name for p in players.values()}
    if mode == "pods":
        rows = pod_standings(get_profile("democratic"), report.games, report.byes_played, names, seed,
                             bye_points=BYE_POINTS_PODS)
    else:
        rows = mtr_standings(report.games, report.byes_played, names, seed)
    return entrants_for(active, rows, table_history(report.tables, pod_size), pod_size)


def simulate(n_players: int, rounds: int, *, mode: str = "pods", pod_size: int = 4, leftover: str = "threes",
             seed: int = 1, drops: dict[int, int] | None = None, late: dict[int, int] | None = None,
             app_inputs: bool = False, swiss=pair_swiss, observe=None) -> SimReport:
    """Run `rounds` rounds; `drops` / `late`: round -> how many players drop / join before that round.
    `app_inputs`: build each round's entrants as the app does (standings and history from the records of
    every game, timed in `input_seconds`) instead of from the simulator's running totals.
    `swiss`: the 1v1 pairing function (another implementation to compare, same signature as `pair_swiss`);
    `observe(round, entrants)`: called with each round's entrants before pairing (benchmarks pair the same
    field with a reference)."""
    rng = random.Random(seed)
    players = {p.id: p for p in new_players(n_players, rng)}
    report = SimReport(players=n_players, rounds=rounds, state=players)
    next_id = n_players + 1
    for rnd in range(1, rounds + 1):
        for _ in range((drops or {}).get(rnd, 0)):
            active = sorted(p.id for p in players.values() if p.active)
            players[rng.choice(active)].active = False
        if (late or {}).get(rnd):
            for p in new_players(late[rnd], rng, next_id):
                players[p.id] = p
            next_id += late[rnd]
        round_seed = seed * 1000 + rnd
        with collection_paused():               # as the app pairs a round
            started = time.perf_counter()
            field_ = app_entrants(report, players, mode, pod_size, seed) if app_inputs else entrants(players)
            report.input_seconds.append(time.perf_counter() - started)
            if observe is not None:
                observe(rnd, field_)
            started = time.perf_counter()
            if mode == "pods":
                pairing = pair_pods(field_, pod_size=pod_size, leftover=leftover, seed=round_seed, round_number=rnd)
            else:
                pairing = swiss(field_, seed=round_seed, round_number=rnd)
            report.pairing_seconds.append(time.perf_counter() - started)
        report.pairings.append(pairing)
        if mode == "pods":
            report.pod_sizes[rnd] = [len(p.seats) for p in pairing.pods]
            report.byes_by_round[rnd] = list(pairing.byes)
            report.seated_by_round[rnd] = [i for p in pairing.pods for i in p.seats]
            report.repeats_by_round.append(play_pods(pairing, players, rng, pod_size, report if app_inputs else None,
                                                     rnd))
        else:
            report.pod_sizes[rnd] = [2] * len(pairing.matches)
            report.byes_by_round[rnd] = [pairing.bye] if pairing.bye is not None else []
            report.seated_by_round[rnd] = [i for m in pairing.matches for i in m.players]
            report.repeats_by_round.append(play_swiss(pairing, players, rng, report if app_inputs else None, rnd))
    return report
