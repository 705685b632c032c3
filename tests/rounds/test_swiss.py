"""1v1 Swiss pairing (MTR) and top cuts as pure functions."""
from __future__ import annotations

import random

import pytest

from tournament.rounds.pairing import Entrant, Match, next_elimination_round, pair_swiss, pair_top_cut
from tournament.rounds.pairing.simulate import entrants, simulate


def met_before(pairing, field):
    by_id = {e.id: e for e in field}
    return [m.players for m in pairing.matches if by_id[m.players[0]].opponents.get(m.players[1], 0)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_64_players_6_rounds_no_rematch_no_bye(seed):
    report = simulate(64, 6, mode="duel", seed=seed)
    assert report.repeat_pairs == 0
    assert report.byes == 0
    assert all(len(sizes) == 32 for sizes in report.pod_sizes.values())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_63_players_one_bye_per_round_never_twice(seed):
    report = simulate(63, 6, mode="duel", seed=seed)
    assert report.repeat_pairs == 0
    assert all(len(b) == 1 for b in report.byes_by_round.values())
    byes = [b[0] for b in report.byes_by_round.values()]
    assert len(set(byes)) == 6


def test_bye_goes_to_the_lowest_ranked_without_one():
    field = [Entrant(id=i, points=float(9 - i // 2), rank=i, opponents={99: 1}, name=f"P{i}",
                     byes=1 if i == 7 else 0) for i in range(1, 8)]
    pairing = pair_swiss(field, seed=3, round_number=3)
    assert pairing.bye == 6
    assert "P6 gets the bye (a 2-0 match win): odd number of players; lowest-ranked player without a bye." \
        in pairing.why
    assert sorted(i for m in pairing.matches for i in m.players) == [1, 2, 3, 4, 5, 7]


def test_odd_point_group_pairs_down_its_lowest_ranked():
    # 3 players on 3 points, 3 on 0; nobody has met: one 3-point player plays a 0-point player
    field = [Entrant(id=i, points=3.0 if i <= 3 else 0.0, rank=i, opponents={90 + i: 1}, name=f"P{i}")
             for i in range(1, 7)]
    for seed in range(5):
        pairing = pair_swiss(field, seed=seed, round_number=2)
        cross = [m for m in pairing.matches if (m.players[0] <= 3) != (m.players[1] <= 3)]
        assert len(cross) == 1
        assert cross[0].players[0] == 3                # the lowest-ranked of the 3-point group goes down
        assert any(w.startswith("P3 (3 points) is paired down to play") for w in pairing.why)
        assert pairing.matches[0].table == 1 and set(pairing.matches[0].players) <= {1, 2}


def test_rematch_avoided_by_pairing_down_when_a_group_is_stuck():
    # E and F, the only 0-point players, already met; the 3-point group makes room for them
    opp = {5: {6: 1}, 6: {5: 1}}
    field = [Entrant(id=i, points=3.0 if i <= 4 else 0.0, rank=i, opponents=opp.get(i, {80 + i: 1}))
             for i in range(1, 7)]
    pairing = pair_swiss(field, seed=1, round_number=2)
    assert met_before(pairing, field) == []
    assert sum("paired down" in w for w in pairing.why) == 2


def test_unavoidable_rematch_is_reported():
    names = dict(zip(range(1, 5), ["Ann", "Bob", "Cy", "Di"]))
    field = [Entrant(id=i, points=3.0, rank=i, opponents={j: 1 for j in range(1, 5) if j != i}, name=names[i])
             for i in range(1, 5)]
    pairing = pair_swiss(field, seed=1, round_number=4)
    assert len(pairing.matches) == 2
    rematches = [w for w in pairing.why if "meet for the 2nd time" in w]
    assert len(rematches) == 2
    assert all("no pairing without a rematch exists" in w for w in rematches)


def test_round_one_is_random_and_deterministic():
    field = [Entrant(id=i) for i in range(1, 33)]
    a = pair_swiss(field, seed=5, round_number=1)
    assert a == pair_swiss(list(reversed(field)), seed=5, round_number=1)
    assert a.matches != pair_swiss(field, seed=6, round_number=1).matches
    later = entrants(simulate(32, 2, mode="duel", seed=4).state)
    shuffled = later[:]
    random.Random(1).shuffle(shuffled)
    assert pair_swiss(later, seed=8, round_number=3) == pair_swiss(shuffled, seed=8, round_number=3)


def test_tables_from_the_top():
    report = simulate(32, 3, mode="duel", seed=2)
    field = entrants(report.state)
    points = {e.id: e.points for e in field}
    pairing = pair_swiss(field, seed=1, round_number=4)
    tops = [max(points[i] for i in m.players) for m in pairing.matches]
    assert tops == sorted(tops, reverse=True)
    assert [m.table for m in pairing.matches] == list(range(1, 17))


def test_256_players_6_rounds():
    report = simulate(256, 6, mode="duel", seed=1)
    assert report.repeat_pairs == 0 and report.byes == 0


# ----------------------------------------------------------------- top cut

def test_top_8_and_top_4_bracket_order():
    seeds = [101, 102, 103, 104, 105, 106, 107, 108]
    assert pair_top_cut(seeds, 8) == (Match(1, (101, 108)), Match(2, (104, 105)), Match(3, (102, 107)),
                                      Match(4, (103, 106)))
    assert pair_top_cut(seeds, 4) == (Match(1, (101, 104)), Match(2, (102, 103)))


def test_next_elimination_round_pairs_neighbouring_tables():
    assert next_elimination_round([101, 105, 107, 103]) == (Match(1, (101, 105)), Match(2, (107, 103)))
    assert next_elimination_round([101, 103]) == (Match(1, (101, 103)),)
    assert next_elimination_round([101]) == ()


def test_top_cut_refuses_bad_sizes():
    with pytest.raises(ValueError):
        pair_top_cut([1, 2, 3, 4, 5, 6], 6)
    with pytest.raises(ValueError):
        pair_top_cut([1, 2, 3], 4)
    with pytest.raises(ValueError):
        next_elimination_round([1, 2, 3])
