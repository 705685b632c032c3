"""A round's inputs as the app builds them (standings by the scoring functions, history in one pass over the
tables) agree with the simulator's own bookkeeping of every game."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from tournament.rounds.pairing.inputs import entrants_for, table_history
from tournament.rounds.pairing.simulate import app_entrants, entrants, simulate


def table(kind, *ids):
    return SimpleNamespace(kind=kind, seats=[SimpleNamespace(registration_id=p, seat=i) for i, p in enumerate(ids, 1)])


def test_history_counts_meetings_seats_byes_and_odd_pods_in_one_pass():
    h = table_history([table("pod", 1, 2, 3, 4), table("pod", 5, 6, 7), table("bye", 8),
                       table("pod", 2, 1, 5, 6), table("pod", 3, 4, 7), table("bye", 8)], pod_size=4)
    assert h.opponents[1] == {2: 2, 3: 1, 4: 1, 5: 1, 6: 1}
    assert h.seats[1][:2] == [1, 1] and h.seats[2][:2] == [1, 1] and h.seats[7][2] == 2
    assert h.byes == {8: 2}
    assert h.odd_pods == {5: 1, 6: 1, 7: 2, 3: 1, 4: 1}
    assert 8 not in h.opponents


def test_entrants_carry_rank_points_and_history_best_rank_first():
    rows = [SimpleNamespace(player=2, rank=1, points=5.0), SimpleNamespace(player=1, rank=2, points=3.0)]
    h = table_history([table("pod", 1, 2, 3)], pod_size=4)
    got = entrants_for([(1, "A"), (2, "B"), (9, "New")], rows, h, 4)
    assert [(e.id, e.rank, e.points, e.odd_pods) for e in got] == [(2, 1, 5.0, 1), (1, 2, 3.0, 1), (9, 0, 0.0, 0)]
    assert got[0].opponents == {1: 1, 3: 1} and got[0].seats == (0, 1, 0, 0, 0)
    assert got[2].opponents == {} and got[2].seats == () and got[2].byes == 0


@pytest.mark.parametrize("mode, players", [("pods", 41), ("duel", 33)])
def test_the_apps_inputs_agree_with_the_simulators_bookkeeping(mode, players):
    report = simulate(players, 4, mode=mode, seed=5, app_inputs=True)
    assert len(report.input_seconds) == 4
    ours = {e.id: e for e in app_entrants(report, report.state, mode, 4, 5)}
    theirs = {e.id: e for e in entrants(report.state)}
    assert set(ours) == set(theirs)
    for pid, e in theirs.items():
        mine = ours[pid]
        assert mine.points == e.points, pid
        assert dict(mine.opponents) == {o: c for o, c in e.opponents.items() if c}, pid
        assert mine.byes == e.byes and mine.odd_pods == e.odd_pods, pid
        assert tuple(mine.seats[:len(e.seats)]) == tuple(e.seats), pid
    assert sorted(e.rank for e in ours.values()) == list(range(1, players + 1))
