"""Archenemy games: archenemy win, team win, time called (pure scoring)."""
from __future__ import annotations

import pytest

from tournament.scoring import Bye, PodGame, pod_points, pod_standings

BOSS, T1, T2, T3 = 1, 2, 3, 4
SEATS = (BOSS, T1, T2, T3)


def game(survivors, votes=None, rnd=1, table=1, archenemy=BOSS, players=SEATS):
    return PodGame(round=rnd, table=table, players=players, survivors=frozenset(survivors), votes=votes or {},
                   archenemy=archenemy)


def test_archenemy_win_scores_the_archenemy_only():
    assert pod_points("survival", game({BOSS})) == {BOSS: 3.0, T1: 0.0, T2: 0.0, T3: 0.0}
    assert pod_points("survival", game({BOSS}), archenemy_win_points=5) == {BOSS: 5.0, T1: 0.0, T2: 0.0, T3: 0.0}


def test_team_win_scores_every_team_member_eliminated_or_not():
    assert pod_points("survival", game({T2})) == {BOSS: 0.0, T1: 1.0, T2: 1.0, T3: 1.0}
    # nobody alive at the end: the archenemy is out, so the team won
    assert pod_points("cedh", game(set()), team_win_points=2) == {BOSS: 0.0, T1: 2.0, T2: 2.0, T3: 2.0}


def test_time_called_with_both_sides_alive_uses_the_profile():
    assert pod_points("survival", game({BOSS, T3})) == {BOSS: 2.0, T1: 0.0, T2: 0.0, T3: 2.0}
    assert pod_points("cedh", game({BOSS, T1, T2})) == pod_points("cedh", game({BOSS, T1, T2}, archenemy=None))


def test_votes_still_count_per_the_profile():
    votes = {BOSS: T1, T1: BOSS, T2: BOSS, T3: T1}
    assert pod_points("democratic", game({BOSS}, votes)) == {BOSS: 5.0, T1: 2.0, T2: 0.0, T3: 0.0}
    assert pod_points("democratic", game({T1}, votes)) == {BOSS: 2.0, T1: 3.0, T2: 1.0, T3: 1.0}


def test_a_normal_game_is_unchanged_and_a_stranger_archenemy_refused():
    assert pod_points("survival", game({BOSS}, archenemy=None)) == {BOSS: 2.0, T1: 0.0, T2: 0.0, T3: 0.0}
    with pytest.raises(ValueError, match="archenemy 9"):
        pod_points("survival", game({BOSS}, archenemy=9))
    with pytest.raises(ValueError, match="team_win_points"):
        pod_points("survival", game({BOSS}), team_win_points="1")


def test_standings_use_the_event_values_and_the_sides_record():
    players = {p: f"P{p}" for p in (*SEATS, 5)}
    games = [game({BOSS}, rnd=1), game({T1}, rnd=2, archenemy=T1)]
    rows = {r.player: r for r in pod_standings("cedh", games, [Bye(1, 5), Bye(2, 5)], players, seed=7,
                                               archenemy_win_points=4, team_win_points=2)}
    # round 1: BOSS wins as archenemy (4); round 2: T1 is archenemy and survives alone (4)
    assert {p: rows[p].points for p in SEATS} == {BOSS: 4.0, T1: 4.0, T2: 0.0, T3: 0.0}
    assert rows[BOSS].record == "1-1-0" and rows[T2].record == "0-2-0"
    team_round = pod_standings("cedh", [game({T3})], [], players, seed=7)
    assert {r.player: (r.points, r.record) for r in team_round if r.player in SEATS} == {
        BOSS: (0.0, "0-1-0"), T1: (1.0, "1-0-0"), T2: (1.0, "1-0-0"), T3: (1.0, "1-0-0")}
