"""TopDeck-compatible tiebreakers (issue 27): OWR with byes as phantom opponents, OOWR, OPP kept.

Our reading of the multiplayer addendum (MTRA 3.1) and of TopDeck's `opponentWinRate`, which the test
replays by hand:
  - a player's win rate = pod wins / pod games played. A pod win is being the only player left (cedh's "win");
    a draw (time called, two or more alive, or nobody alive) is a game played and not won, so it counts 0;
    a bye is not a game played (it is neither in the wins nor in the games);
  - OWR = the average of the opponents' win rates, once per opponent per pod (an opponent met twice counts
    twice), each bye adding 3 phantom opponents at a 0.2 win rate (cedh profile: bye_opponents = 3,
    bye_opponent_win_rate = 0.2); no minimum in cedh (win_rate_floor = 0), the floor is per profile;
  - OOWR = the average of the opponents' OWR, once per meeting (phantoms have none);
  - a dropped player keeps the games played before dropping, for themselves and for their opponents;
  - the cedh order: points, OWR, OOWR, OPP, then the event's random order.
"""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from tournament.scoring import Bye, PodGame, get_profile, pod_standings
from tournament.scoring.profiles import ScoringProfileError, profile_from_dict

PLAYERS = {i: f"Player {i}" for i in range(1, 10)}


def pod(rnd, table, players, survivors, draw=None):
    return PodGame(round=rnd, table=table, players=tuple(players), survivors=frozenset(survivors), draw=draw)


# Round 1: 1 wins pod 1; pod 2 is a time draw (5 and 6 alive); 9 has the bye.
# Player 8 drops after round 1.
# Round 2: 9 wins pod 1, 2 wins pod 2.  Round 3: 6 wins pod 1; pod 2 is a time draw (3 and 4 alive).
GAMES = [
    pod(1, 1, (1, 2, 3, 4), {1}), pod(1, 2, (5, 6, 7, 8), {5, 6}, "time"),
    pod(2, 1, (1, 5, 6, 9), {9}), pod(2, 2, (2, 3, 4, 7), {2}),
    pod(3, 1, (1, 9, 2, 6), {6}), pod(3, 2, (3, 4, 5, 7), {3, 4}, "time"),
]
BYES = [Bye(round=1, player=9)]

# Win rates by hand: wins / games played.
WR = {1: F(1, 3), 2: F(1, 3), 3: F(0), 4: F(0), 5: F(0), 6: F(1, 3), 7: F(0), 8: F(0, 1), 9: F(1, 2)}
MET = {  # every opponent met, once per pod
    1: [2, 3, 4, 5, 6, 9, 9, 2, 6], 2: [1, 3, 4, 3, 4, 7, 1, 9, 6], 3: [1, 2, 4, 2, 4, 7, 4, 5, 7],
    4: [1, 2, 3, 2, 3, 7, 3, 5, 7], 5: [6, 7, 8, 1, 6, 9, 3, 4, 7], 6: [5, 7, 8, 1, 5, 9, 1, 9, 2],
    7: [5, 6, 8, 2, 3, 4, 3, 4, 5], 8: [5, 6, 7], 9: [1, 5, 6, 1, 2, 6],
}
# OWR by hand, written out: e.g. player 9 = (3 x 0.2 for the bye + 1/3+0+1/3 + 1/3+1/3+1/3) / (3 + 6).
OWR = {1: F(7, 27), 2: F(1, 6), 3: F(1, 9), 4: F(1, 9), 5: F(1, 6), 6: F(2, 9), 7: F(2, 27), 8: F(1, 9),
       9: F(34, 135)}


def test_hand_tables_agree_with_the_formula():
    """The hand-written OWR table is the addendum's formula over the hand-written meetings (a check of the
    test's own arithmetic, independent of the code under test)."""
    for p, opponents in MET.items():
        phantoms = 3 if p == 9 else 0
        assert OWR[p] == (sum(WR[q] for q in opponents) + phantoms * F(1, 5)) / (len(opponents) + phantoms)


def test_cedh_replay_gives_topdeck_values_and_order():
    rows = pod_standings("cedh", GAMES, BYES, PLAYERS, seed=7)
    by_player = {r.player: r for r in rows}
    assert list(rows[0].tiebreakers) == ["OWR", "OOWR", "OPP"]
    for p, owr in OWR.items():
        assert by_player[p].tiebreakers["OWR"] == round(float(owr), 4)
    # OOWR: 8 met 5, 6, 7 once each; 3 and 4 met the same multiset of OWRs.
    assert by_player[8].tiebreakers["OOWR"] == round(float((OWR[5] + OWR[6] + OWR[7]) / 3), 4)
    oowr_3 = sum(OWR[q] for q in MET[3]) / 9
    assert by_player[3].tiebreakers["OOWR"] == by_player[4].tiebreakers["OOWR"] == round(float(oowr_3), 4)
    # Points: 9 = bye 5 + win 5; 6 = draw + win; 1 and 2 = one win each; 5 and 7 = two draws; 3, 4, 8 = 1.
    assert [by_player[p].points for p in (9, 6, 1, 2, 5, 7, 8, 3, 4)] == [10, 6, 5, 5, 2, 2, 1, 1, 1]
    # 1 over 2 and 5 over 7 by OWR; 3, 4 and 8 tie on OWR (1/9): OOWR puts the dropped 8 first
    # (25/162 > 67/486); 3 and 4 tie on everything, so the event's random order decides.
    assert OWR[1] > OWR[2] and OWR[5] > OWR[7]
    assert (OWR[5] + OWR[6] + OWR[7]) / 3 == F(25, 162) and oowr_3 == F(67, 486)
    three, four = by_player[3], by_player[4]
    last = [3, 4] if three.random_order < four.random_order else [4, 3]
    assert [r.player for r in rows] == [9, 6, 1, 2, 5, 7, 8, *last]
    assert [r.rank for r in rows] == list(range(1, 10))
    assert three.tiebreakers == four.tiebreakers


def _cedh_with(**changes):
    raw = dict(get_profile("cedh").raw)
    raw.update(changes)
    return profile_from_dict(raw, "test profile")


def test_phantom_count_and_value_are_per_profile():
    no_phantoms = pod_standings(_cedh_with(bye_opponents=0), GAMES, BYES, PLAYERS, seed=7)
    nine = next(r for r in no_phantoms if r.player == 9)
    assert nine.tiebreakers["OWR"] == round(float(F(5, 3) / 6), 4)      # only the 6 real opponents
    half = pod_standings(_cedh_with(bye_opponents=1, bye_opponent_win_rate=0.5), GAMES, BYES, PLAYERS, seed=7)
    nine = next(r for r in half if r.player == 9)
    assert nine.tiebreakers["OWR"] == round(float((F(5, 3) + F(1, 2)) / 7), 4)


def test_minimum_opponent_win_rate_per_profile():
    rows = pod_standings(_cedh_with(win_rate_floor=0.33), GAMES, BYES, PLAYERS, seed=7)
    eight = next(r for r in rows if r.player == 8)
    # 8 met 5 (0 -> 0.33), 6 (1/3 stays) and 7 (0 -> 0.33).
    assert eight.tiebreakers["OWR"] == round(float((F(33, 100) * 2 + F(1, 3)) / 3), 4)
    nine = next(r for r in rows if r.player == 9)
    # The floor lifts real opponents only: the bye's phantoms stay at 0.2.
    assert nine.tiebreakers["OWR"] == round(float((F(3, 5) + F(1, 3) * 5 + F(33, 100)) / 9), 4)   # 5 is lifted


def test_opp_is_kept_as_a_tiebreaker_a_profile_can_order():
    rows = pod_standings(_cedh_with(tiebreakers=["OPP", "OWR", "random"]), GAMES, BYES, PLAYERS, seed=7)
    assert list(rows[0].tiebreakers) == ["OPP", "OWR"]
    two = next(r for r in rows if r.player == 2)
    assert two.tiebreakers["OPP"] == round(32 / 9, 4)


def test_player_with_only_a_bye_and_no_games():
    rows = pod_standings("cedh", [], [Bye(round=1, player=1)], {1: "A", 2: "B"}, seed=1)
    a = next(r for r in rows if r.player == 1)
    assert a.tiebreakers == {"OWR": 0.2, "OOWR": 0.0, "OPP": 0.0}


@pytest.mark.parametrize("changes, message", [
    ({"bye_opponents": -1}, "bye_opponents"), ({"bye_opponents": 2.5}, "bye_opponents"),
    ({"bye_opponent_win_rate": 1.5}, "bye_opponent_win_rate"), ({"win_rate_floor": "0.33"}, "win_rate_floor"),
    ({"tiebreakers": ["OWR", "OMW%", "random"]}, "OMW%"),
])
def test_bad_profile_settings_are_refused_with_the_field_named(changes, message):
    with pytest.raises(ScoringProfileError, match=message.replace("%", "%")):
        _cedh_with(**changes)
