"""Odd pods (the 3s among pods of 4, the 5s) go round the field instead of staying at the bottom.

The cost ranks after repeats: where every way to spread them further would seat two players together
again, they are not spread further (13 players, 3 rounds: the four who shared the 4-pod in round 1
cannot all be at the three 3-pods of round 2)."""
from __future__ import annotations

import math

import pytest

from tournament.rounds.pairing import pair_pods, plan_pod_sizes
from tournament.rounds.pairing.domain import Entrant
from tournament.rounds.pairing.pods import odd_cost
from tournament.rounds.pairing.simulate import simulate


def least_possible_max(players: int, rounds: int, pod_size: int = 4, leftover: str = "threes") -> int:
    """Every player at odd pods as evenly as the seats allow."""
    sizes, _, _ = plan_pod_sizes(players, pod_size, leftover)
    return math.ceil(rounds * sum(s for s in sizes if s != pod_size) / players)


@pytest.mark.parametrize("players, rounds", [(13, 3), (17, 4), (21, 4), (23, 4), (29, 5), (37, 5), (50, 6),
                                             (103, 5)])
@pytest.mark.parametrize("seed", [1, 2, 12])
def test_nobody_sits_at_odd_pods_more_often_than_the_seats_force(players, rounds, seed):
    report = simulate(players, rounds, seed=seed)
    assert report.small_pod_max == least_possible_max(players, rounds)
    assert report.repeat_pairs == 0


@pytest.mark.parametrize("players, rounds", [(26, 4), (50, 6), (103, 5)])
@pytest.mark.parametrize("seed", [1, 2, 12])
def test_5_pods_go_round_as_evenly_as_the_seats_allow(players, rounds, seed):
    # Before the fair share capped the cost, the cheap third time kept 5-pods with the same players:
    # 26 x 4 and 50 x 6 sat somebody at a 5-pod three times where twice was enough.
    report = simulate(players, rounds, seed=seed, leftover="fives")
    assert report.small_pod_max == least_possible_max(players, rounds, leftover="fives")
    assert report.repeat_pairs == 0


def test_with_13_players_at_5_pods_nobody_sits_at_one_in_every_round():
    # 5 + 4 + 4 over three rounds: 15 seats at the 5-pod for 13 players, so some sit there twice and nobody
    # needs to three times (was: one player in all three). Repeat meetings are forced here: three pods cannot
    # feed a 5-pod without two who met.
    assert simulate(13, 3, seed=12, leftover="fives").small_pod_max == 2


@pytest.mark.parametrize("seed", range(1, 6))
def test_17_players_4_rounds_never_four_times_at_a_3_pod(seed):
    # Before odd pods were a cost, 3 seeds of 5 left someone at a 3-pod in all four rounds.
    assert simulate(17, 4, seed=seed).small_pod_max == 3


@pytest.mark.parametrize("seed", range(1, 4))
def test_64_players_5_rounds_keep_no_repeats_and_seat_1_balance(seed):
    report = simulate(64, 5, seed=seed)
    assert report.repeat_pairs == 0 and report.seat1_max <= 2 and report.small_pod_max == 0


def test_the_3_pod_goes_to_players_who_had_none_when_no_repeat_forbids_it():
    # 7 players on equal points after a round, nobody met anybody: a 4-pod and a 3-pod. Three of them sat at a
    # 3-pod before; the standings put them at the bottom, where the 3-pod is.
    entrants = [Entrant(id=i, points=10 - i, rank=i, odd_pods=1 if i >= 5 else 0)
                for i in range(1, 8)]
    pairing = pair_pods(entrants, pod_size=4, seed=3, round_number=2)
    [small] = [p for p in pairing.pods if len(p.seats) == 3]
    assert set(small.seats).isdisjoint({5, 6, 7})


def test_the_cost_of_a_second_odd_pod_is_the_highest_step_then_it_doubles():
    assert [odd_cost(t) for t in range(6)] == [0, 10, 6, 20, 40, 80]


def test_going_over_the_fair_share_costs_more_than_any_seat_within_it():
    assert [odd_cost(t, fair=2) for t in range(4)] == [0, 10, 30, 60]
    assert [odd_cost(t, fair=3) for t in range(5)] == [0, 10, 6, 30, 60]
    assert [odd_cost(t, fair=5) for t in range(6)] == [0, 10, 6, 20, 40, 120]
