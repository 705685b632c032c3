"""1v1 Swiss point grouping (issue 27, item 5): no rematch, point gaps as small as a reference computed here,
deterministic by seed, one bye to the lowest-ranked player without one."""
from __future__ import annotations

import functools
import random

import pytest

from tournament.rounds.pairing import Entrant, pair_swiss
from tournament.rounds.pairing.simulate import entrants, simulate
from tournament.rounds.pairing.swiss_gaps import price, tighten


def gap_and_rematches(pairing, field):
    by_id = {e.id: e for e in field}
    gap = sum(abs(by_id[a].points - by_id[b].points) for a, b in (m.players for m in pairing.matches))
    rematches = sum(1 for a, b in (m.players for m in pairing.matches) if by_id[a].opponents.get(b, 0))
    return gap, rematches


def exact_gap(field, bye):
    """The reference: the least sum of |point gap| over every pairing without a rematch (all of them, by
    dynamic programming over who is left); None when every pairing has a rematch."""
    players = [e for e in field if e.id != bye]

    @functools.lru_cache(maxsize=None)
    def best(mask):
        if not mask:
            return 0.0
        i = (mask & -mask).bit_length() - 1
        rest, found = mask & ~(1 << i), None
        for j in range(i + 1, len(players)):
            if rest >> j & 1 and not players[i].opponents.get(players[j].id, 0):
                sub = best(rest & ~(1 << j))
                if sub is not None:
                    cost = abs(players[i].points - players[j].points) + sub
                    found = cost if found is None else min(found, cost)
        return found

    return best((1 << len(players)) - 1)


def rounds_of(players, rounds, seed):
    """Every round's field (entrants before pairing) of one simulated event, and the event's report."""
    fields = []
    report = simulate(players, rounds, mode="duel", seed=seed, observe=lambda rnd, f: fields.append((rnd, f)))
    return fields, report


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_64_players_10_rounds_no_rematch_no_bye(seed):
    report = simulate(64, 10, mode="duel", seed=seed)
    assert report.repeat_pairs == 0 and report.max_times_met == 1
    assert report.byes == 0


@pytest.mark.parametrize("players, rounds", [(10, 7), (12, 8), (14, 9), (16, 9), (15, 9)])
def test_point_gap_is_the_least_possible_on_small_fields(players, rounds):
    # Up to 16 players every round's pairing is compared with the best of all pairings (the reference above).
    checked = 0
    for seed in range(1, 7):
        fields, _ = rounds_of(players, rounds, seed)
        for rnd, field in fields[1:]:
            pairing = pair_swiss(field, seed=seed * 1000 + rnd, round_number=rnd)
            reference = exact_gap(field, pairing.bye)
            gap, rematches = gap_and_rematches(pairing, field)
            if reference is None:                        # every pairing has a rematch: none is made silently
                assert rematches and any("meet for the" in w for w in pairing.why)
                continue
            assert rematches == 0
            assert gap == reference, (seed, rnd)
            checked += 1
    assert checked >= 6 * (rounds - 2)


def _random_history(n, rng, meetings):
    opponents = {i: {} for i in range(n)}
    for _ in range(meetings):
        a, b = rng.sample(range(n), 2)
        opponents[a][b] = opponents[b][a] = 1
    return opponents


@pytest.mark.parametrize("seed", range(8))
def test_tighten_never_makes_a_rematch_nor_a_dearer_pairing(seed):
    rng = random.Random(seed)
    n = rng.choice([18, 40, 64, 200])
    pts = [float(rng.choice([0, 1, 3, 4, 6, 7, 9, 12])) for _ in range(n)]
    met = _random_history(n, rng, n * 3)
    # a valid start: each one with the first one left they have not met (else the first one left)
    left, pairs = sorted(range(n), key=lambda i: -pts[i]), []
    while left:
        a = left.pop(0)
        b = next((x for x in left if x not in met[a]), left[0])
        left.remove(b)
        pairs.append((a, b))
    rematches = {frozenset(p) for p in pairs if p[1] in met[p[0]]}
    tight = tighten(pairs, met, pts)
    assert sorted(p for pair in tight for p in pair) == list(range(n))
    assert {frozenset(p) for p in tight if p[1] in met[p[0]]} <= rematches     # no new rematch
    assert sum(price(a, b, pts) for a, b in tight) <= sum(price(a, b, pts) for a, b in pairs)


def test_at_least_as_tight_as_swisspair_at_64_players_10_rounds():
    swisspair = pytest.importorskip("swisspair")              # requirements-dev.txt
    ours = theirs = 0.0
    for seed in range(1, 11):
        fields, _ = rounds_of(64, 10, seed)
        for rnd, field in fields:
            ranked = sorted(field, key=lambda e: (-e.points, e.rank, e.id))
            players = [swisspair.Player(id=str(e.id), points=int(e.points), rank=r + 1, can_get_bye=not e.byes,
                                        cannot_be_paired_against_ids={str(o) for o in e.opponents})
                       for r, e in enumerate(ranked)]
            by_id = {e.id: e for e in field}
            for m in swisspair.create_matches(players):
                if not m.is_bye:
                    a, b = by_id[int(m.p1.id)], by_id[int(m.p2.id)]
                    theirs += abs(a.points - b.points)
                    assert not a.opponents.get(b.id)
            gap, rematches = gap_and_rematches(pair_swiss(field, seed=seed * 1000 + rnd, round_number=rnd), field)
            ours += gap
            assert rematches == 0
    assert ours <= theirs


def test_deterministic_by_seed():
    first = simulate(64, 10, mode="duel", seed=7)
    again = simulate(64, 10, mode="duel", seed=7)
    assert first.pairings == again.pairings
    field = entrants(first.state)
    shuffled = field[:]
    random.Random(3).shuffle(shuffled)
    pairing = pair_swiss(field, seed=42, round_number=11)
    assert pair_swiss(shuffled, seed=42, round_number=11) == pairing
    assert pair_swiss(list(reversed(field)), seed=42, round_number=11) == pairing
    assert gap_and_rematches(pairing, field)[1] == 0
    assert any(pair_swiss(field, seed=s, round_number=11).matches != pairing.matches for s in range(43, 48))


@pytest.mark.parametrize("players, seed", [(63, 1), (63, 2), (17, 3), (9, 4)])
def test_odd_field_one_bye_to_the_lowest_ranked_without_one(players, seed):
    rounds = min(10, players - 1)
    fields, report = rounds_of(players, rounds, seed)
    had_bye = set()
    for (rnd, field), pairing in zip(fields, report.pairings):
        assert pairing.bye is not None
        seated = [p for m in pairing.matches for p in m.players]
        assert pairing.bye not in seated and len(seated) == len(set(seated)) == players - 1
        if rnd > 1:
            eligible = [e for e in field if not e.byes]
            lowest = max(eligible, key=lambda e: (-e.points, e.rank))       # standings: points, then rank
            assert pairing.bye == lowest.id
            assert "lowest-ranked player without a bye" in " ".join(pairing.why)
        assert pairing.bye not in had_bye
        had_bye.add(pairing.bye)
    assert len(had_bye) == rounds


def test_bye_skips_players_who_had_one_even_at_the_bottom():
    # 5 players; the two lowest already had a bye: the 3rd-lowest gets it
    field = [Entrant(id=i, points=float(12 - 3 * i), rank=i, opponents={90 + i: 1}, byes=1 if i >= 4 else 0,
                     name=f"P{i}") for i in range(1, 6)]
    assert pair_swiss(field, seed=1, round_number=4).bye == 3
