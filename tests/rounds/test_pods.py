"""Pod seating as a pure function: sizes, repeats, seats, byes, drops, late entries, determinism."""
from __future__ import annotations

import itertools
import random

import pytest

from tournament.rounds.pairing import (
    LEFTOVER_POLICIES, Entrant, pair_pods, plan_pod_sizes, repeat_cost,
)
from tournament.rounds.pairing.simulate import entrants, simulate


def repeat_pairs_in(pairing, field: list[Entrant]) -> list[tuple[int, int]]:
    by_id = {e.id: e for e in field}
    return [(a, b) for pod in pairing.pods for a, b in itertools.combinations(pod.seats, 2)
            if by_id[a].opponents.get(b, 0)]


# ----------------------------------------------------------------- plan_pod_sizes

@pytest.mark.parametrize("n, policy, sizes, byes", [
    (13, "threes", [4, 3, 3, 3], 0),
    (6, "threes", [3, 3], 0),
    (5, "threes", [5], 0),
    (9, "threes", [3, 3, 3], 0),
    (64, "threes", [4] * 16, 0),
    (13, "fives", [4, 4, 5], 0),
    (6, "fives", [3, 3], 0),
    (13, "byes", [4, 4, 4], 1),
    (7, "byes", [4], 3),
    (3, "byes", [3], 0),
    (2, "threes", [2], 0),
    (2, "byes", [2], 0),
    (1, "threes", [], 1),
    (0, "threes", [], 0),
])
def test_plan_pod_sizes(n, policy, sizes, byes):
    got_sizes, got_byes, reason = plan_pod_sizes(n, 4, policy)
    assert (got_sizes, got_byes) == (sizes, byes)
    assert reason.startswith(f"{n} player")


def test_plan_reason_says_why():
    assert plan_pod_sizes(13)[2] == ("13 players, pods of 4: one pod of 4 and three pods of 3 "
                                     "(the remainder is filled with tables of 3)")
    assert "pod of 5" in plan_pod_sizes(5)[2] and "cannot be split" in plan_pod_sizes(5)[2]
    assert "bye" in plan_pod_sizes(13, 4, "byes")[2]


@pytest.mark.parametrize("pod_size", [3, 4, 5])
@pytest.mark.parametrize("policy", LEFTOVER_POLICIES)
def test_plan_never_a_pod_of_two_and_seats_everyone(pod_size, policy):
    for n in range(3, 80):
        sizes, byes, _ = plan_pod_sizes(n, pod_size, policy)
        assert sum(sizes) + byes == n
        assert min(sizes) >= 3, (n, sizes)
        assert max(sizes) <= max(pod_size + 1, 5), (n, sizes)
        if policy != "byes":
            assert byes == 0
        elif n >= pod_size:
            assert byes < pod_size and set(sizes) == {pod_size}


def test_plan_for_pods_of_three_and_five():
    assert plan_pod_sizes(7, 3)[0] == [3, 4]          # a table of 2 is never made: one pod of 4
    assert plan_pod_sizes(12, 5)[0] == [5, 4, 3]      # the remainder with 4s, then 3s
    assert plan_pod_sizes(11, 5)[0] == [5, 3, 3]
    assert plan_pod_sizes(10, 3, "fives")[0] == [3, 3, 4]


def test_plan_refuses_unknown_policy_and_sizes():
    with pytest.raises(ValueError):
        plan_pod_sizes(10, 4, "sixes")
    with pytest.raises(ValueError):
        plan_pod_sizes(10, 2)


def test_repeat_cost_grows_with_the_square():
    assert [repeat_cost(m) for m in range(4)] == [0, 3, 8, 15]
    assert repeat_cost(2) > 2 * repeat_cost(1)      # a third meeting is worse than two second meetings


# ----------------------------------------------------------------- whole events

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_64_players_5_rounds_no_repeats_full_pods_and_seat1_balanced(seed):
    report = simulate(64, 5, pod_size=4, seed=seed)
    assert report.repeat_pairs == 0
    assert report.max_times_met == 1
    assert all(sizes == [4] * 16 for sizes in report.pod_sizes.values())
    assert report.seat1_max <= 2
    assert report.byes == 0


def test_13_players_are_4_3_3_3_every_round_and_repeats_are_explained():
    report = simulate(13, 5, seed=4)
    assert all(sorted(sizes, reverse=True) == [4, 3, 3, 3] for sizes in report.pod_sizes.values())
    assert report.seat1_max <= 2
    # every repeat meeting of a round is named in its why
    for rnd, pairing in enumerate(report.pairings, start=1):
        named = [w for w in pairing.why if "meet for the" in w]
        assert len(named) == report.repeats_by_round[rnd - 1]
    assert sum(report.repeats_by_round[:3]) == 0             # the first three rounds need no repeat


def test_6_players_are_3_3():
    report = simulate(6, 3, seed=1)
    assert all(sizes == [3, 3] for sizes in report.pod_sizes.values())
    second = report.pairings[1]
    assert any("meet for the 2nd time" in w and "within" in w for w in second.why)


@pytest.mark.parametrize("policy", LEFTOVER_POLICIES)
def test_never_a_pod_of_two_unless_two_players(policy):
    for n in range(3, 19):
        report = simulate(n, 2, leftover=policy, seed=n)
        for sizes in report.pod_sizes.values():
            assert min(sizes) >= 3, (n, policy, sizes)
    report = simulate(2, 2, seed=1)
    assert report.pod_sizes == {1: [2], 2: [2]}


def test_dropped_players_are_not_seated_and_late_entries_are():
    report = simulate(20, 4, seed=7, drops={3: 3}, late={3: 2, 4: 1})
    dropped = {p.id for p in report.state.values() if not p.active}
    assert len(dropped) == 3
    for rnd in (3, 4):
        seated = report.seated_by_round[rnd] + report.byes_by_round[rnd]
        assert not dropped & set(seated)
        active = {p.id for p in report.state.values() if p.active and p.id <= 20 + (2 if rnd == 3 else 3)}
        assert sorted(seated) == sorted(active)
    assert {21, 22} <= set(report.seated_by_round[3])
    assert 23 in report.seated_by_round[4]


def test_byes_policy_gives_byes_to_the_lowest_ranked_without_one():
    rng = random.Random(5)
    report = simulate(13, 4, leftover="byes", seed=5)
    assert all(sizes == [4, 4, 4] for sizes in report.pod_sizes.values())
    byes = [b for rnd in sorted(report.byes_by_round) for b in report.byes_by_round[rnd]]
    assert len(byes) == 4 and len(set(byes)) == 4
    # a hand-made field: the lowest-ranked without a bye gets it
    field = [Entrant(id=i, points=10 - i, rank=i, opponents={0: 1}, name=f"P{i}", byes=1 if i == 13 else 0)
             for i in range(1, 14)]
    rng.shuffle(field)
    pairing = pair_pods(field, leftover="byes", seed=1, round_number=3)
    assert pairing.byes == (12,)
    assert "P12 gets a bye: 13 players, byes policy; lowest-ranked without a bye." in pairing.why


def test_fives_policy():
    report = simulate(13, 3, leftover="fives", seed=2)
    assert all(sorted(sizes) == [4, 4, 5] for sizes in report.pod_sizes.values())


def test_one_player_gets_a_bye_two_players_one_pod():
    one = pair_pods([Entrant(id=7, name="Chris")], seed=1, round_number=1)
    assert one.pods == () and one.byes == (7,)
    assert any("Chris gets a bye" in w for w in one.why)
    two = pair_pods([Entrant(id=1), Entrant(id=2)], seed=1, round_number=1)
    assert [sorted(p.seats) for p in two.pods] == [[1, 2]]


# ----------------------------------------------------------------- single rounds

def test_same_seed_same_pairing_whatever_the_input_order():
    field = entrants(simulate(40, 2, seed=3).state)
    shuffled = field[:]
    random.Random(9).shuffle(shuffled)
    assert pair_pods(field, seed=99, round_number=3) == pair_pods(shuffled, seed=99, round_number=3)
    fresh = [Entrant(id=i) for i in range(1, 41)]
    assert pair_pods(fresh, seed=1, round_number=1) == pair_pods(list(reversed(fresh)), seed=1, round_number=1)
    assert pair_pods(fresh, seed=1, round_number=1).pods != pair_pods(fresh, seed=2, round_number=1).pods


def test_later_rounds_group_by_points_with_top_tables_first():
    field = [Entrant(id=i, points=float(40 - i), rank=i) for i in range(1, 17)]
    pairing = pair_pods(field, seed=1, round_number=2)
    assert [sorted(p.seats) for p in pairing.pods] == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12],
                                                        [13, 14, 15, 16]]
    assert [p.table for p in pairing.pods] == [1, 2, 3, 4]


def test_repeats_are_avoided_by_moving_to_a_nearby_pod():
    # round 1 was 1-4, 5-8, 9-12, 13-16, and the standings keep that order: cutting them into
    # neighbours again would repeat every pod, so players move to other pods
    opp = {i: {j: 1 for j in range(4 * ((i - 1) // 4) + 1, 4 * ((i - 1) // 4) + 5) if j != i}
           for i in range(1, 17)}
    field = [Entrant(id=i, points=float(20 - i), rank=i, opponents=opp[i]) for i in range(1, 17)]
    pairing = pair_pods(field, seed=1, round_number=2)
    assert repeat_pairs_in(pairing, field) == []
    assert not any("meet for the" in w for w in pairing.why)


def test_unavoidable_repeat_is_reported():
    opp = {i: {j: 1 for j in range(1, 5) if j != i} for i in range(1, 5)}
    names = dict(zip(range(1, 5), ["Ann", "Bob", "Cy", "Di"]))
    field = [Entrant(id=i, points=3.0, rank=i, opponents=opp[i], name=names[i]) for i in range(1, 5)]
    pairing = pair_pods(field, seed=1, round_number=2)
    repeats = [w for w in pairing.why if "meet for the 2nd time" in w]
    assert len(repeats) == 6
    assert "Ann and Bob meet for the 2nd time: no pairing without a repeat was found within 0 points." in repeats


def test_seat_one_goes_to_whoever_had_it_least():
    field = [Entrant(id=1, points=5, rank=1, seats=(1, 0, 0, 0), opponents={9: 1}),
             Entrant(id=2, points=5, rank=2, seats=(1, 0, 0, 0), opponents={9: 1}),
             Entrant(id=3, points=5, rank=3, seats=(0, 1, 0, 0), opponents={9: 1}),
             Entrant(id=4, points=5, rank=4, seats=(1, 0, 0, 0), opponents={9: 1})]
    for seed in range(10):
        pod = pair_pods(field, seed=seed, round_number=2).pods[0]
        assert pod.seats[0] == 3
        assert pod.seats[1] != 3                         # 3 had seat 2 already: others take it


def test_seats_over_an_event_are_spread():
    report = simulate(32, 4, seed=11)
    for player in report.state.values():
        assert max(player.seats) <= 2, player.seats      # 4 rounds, 4 seats: nobody piles up one seat


def test_256_players_6_rounds_no_repeats():
    report = simulate(256, 6, seed=1)
    assert report.repeat_pairs == 0
    assert report.seat1_max <= 2
    assert max(report.pairing_seconds) < 2.0


def test_a_swaps_cost_change_is_what_the_pods_cost_after_it_less_before():
    """The search prices a swap from the pods' point sums; the totals recomputed from scratch must agree."""
    import random as _random
    from tournament.rounds.pairing.pods import _Search
    rng = _random.Random(4)
    for _ in range(30):
        n = 4 * rng.randrange(2, 7) + rng.choice((0, 3))
        pts = [rng.choice((0, 0.5, 1, 1.5, 3, 4.25)) for _ in range(n)]
        met = [{} for _ in range(n)]
        for _m in range(n):
            a, b = rng.sample(range(n), 2)
            met[a][b] = met[b][a] = met[a].get(b, 0) + 1
        order = list(range(n))
        rng.shuffle(order)
        sizes = [4] * (n // 4) + ([3] if n % 4 else [])
        pods, start = [], 0
        for size in sizes:
            pods.append(order[start:start + size])
            start += size
        search = _Search(pods, pts, met, [0] * n, None, 4)
        for _s in range(20):
            p, q = rng.sample(range(len(pods)), 2)
            y, x = rng.choice(search.pods[p]), rng.choice(search.pods[q])
            before = search.totals()
            rd, sd = search.swap_delta(y, p, x, q)
            search.swap(y, p, x, q)
            after = search.totals()
            assert after[0] - before[0] == rd
            assert after[3] - before[3] == pytest.approx(sd, abs=1e-9)
