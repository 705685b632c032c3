"""Points, votes, pod standings, MTR standings and prize leaders (pure functions)."""
from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from tournament.scoring import (
    Bye,
    DuelMatch,
    PodGame,
    default_prize_conditions,
    get_profile,
    match_result,
    mtr_standings,
    pod_points,
    pod_standings,
    prize_leaders,
    seeded_order,
    validate_votes,
)

W, L, D = "win", "loss", "draw"


def names(*ids):
    return {i: f"Player {i}" for i in ids}


def pod(rnd, table, players, survivors, votes=None, prizes=None):
    return PodGame(round=rnd, table=table, players=tuple(players), survivors=frozenset(survivors),
                   votes=votes or {}, prizes=prizes or {})


def order(rows):
    return [r.player for r in rows]


# ----------------------------------------------------------------- points per game

GAME = pod(1, 1, (1, 2, 3, 4), {1, 2}, votes={1: 2, 2: 1, 3: 1, 4: 1})


def test_democratic_points():
    # 2 for surviving, 1 per vote received: 1 survives with 3 votes, 2 survives with 1, 3 and 4 have none.
    assert pod_points("democratic", GAME) == {1: 5.0, 2: 3.0, 3: 0.0, 4: 0.0}
    # A non-survivor still scores the votes received.
    g = pod(1, 1, (1, 2, 3, 4), {1}, votes={1: 4, 2: 4, 3: 4, 4: 1})
    assert pod_points("democratic", g) == {1: 3.0, 2: 0.0, 3: 0.0, 4: 3.0}


def test_survival_points():
    assert pod_points("survival", GAME) == {1: 2.0, 2: 2.0, 3: 0.0, 4: 0.0}
    assert pod_points(get_profile("survival"), pod(1, 1, (1, 2, 3), set())) == {1: 0.0, 2: 0.0, 3: 0.0}


def test_cedh_win_draw_loss():
    # Exactly one survivor: that player wins 5, the others lose 0.
    assert pod_points("cedh", pod(1, 1, (1, 2, 3, 4), {3})) == {1: 0.0, 2: 0.0, 3: 5.0, 4: 0.0}
    # Two or more survivors (time was called): a draw, 1 point to every player at the table.
    assert pod_points("cedh", GAME) == {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0}
    # Nobody survives: also a draw for everyone.
    assert pod_points("cedh", pod(1, 1, (1, 2, 3, 4), set())) == {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0}
    # Votes do not count under cedh.
    assert pod_points("cedh", pod(1, 1, (1, 2, 3), {1}, votes={2: 3, 3: 2})) == {1: 5.0, 2: 0.0, 3: 0.0}


def test_pod_points_refuses_a_duel_profile():
    with pytest.raises(ValueError, match="for 1v1 matches"):
        pod_points("mtr", GAME)


# ----------------------------------------------------------------- votes

def test_valid_votes_pass():
    validate_votes(GAME)
    validate_votes(pod(1, 1, (1, 2, 3), set()))          # nobody voted yet


def test_self_vote_is_refused():
    with pytest.raises(ValueError, match="Player 2 voted for themselves at round 1, table 1"):
        validate_votes(pod(1, 1, (1, 2, 3, 4), {1}, votes={1: 2, 2: 2}))


def test_vote_for_a_player_not_at_the_table_is_refused():
    with pytest.raises(ValueError, match="voted for player 9, who does not play at round 1, table 1"):
        validate_votes(pod(1, 1, (1, 2, 3, 4), {1}, votes={1: 9}))


def test_vote_by_a_player_not_at_the_table_is_refused():
    with pytest.raises(ValueError, match="Player 7 voted at round 1, table 1 but does not play"):
        validate_votes(pod(1, 1, (1, 2, 3, 4), {1}, votes={7: 1}))


def test_points_refuse_invalid_games():
    with pytest.raises(ValueError, match="voted for themselves"):
        pod_points("democratic", pod(1, 1, (1, 2, 3), set(), votes={3: 3}))
    with pytest.raises(ValueError, match="Survivor"):
        pod_points("survival", pod(1, 1, (1, 2, 3), {5}))
    with pytest.raises(ValueError, match="seated twice"):
        pod_points("survival", pod(1, 1, (1, 2, 2), {1}))


# ----------------------------------------------------------------- pod standings

def test_pod_standings_points_then_opp_decides():
    # Democratic, one round, two pods.
    # Table 1: 1 and 2 survive; votes 1->2, 2->1, 3->1, 4->3.
    #   1: 2 + 2 votes = 4    2: 2 + 1 = 3    3: 0 + 1 = 1    4: 0
    # Table 2: 5 survives; votes 5->6, 6->7, 7->6, 8->6.
    #   5: 2 + 0 = 2          6: 0 + 3 = 3    7: 0 + 1 = 1    8: 0
    # Ties on points, decided by OPP (average points of the opponents met):
    #   2: (4 + 1 + 0) / 3 = 1.6667   6: (2 + 1 + 0) / 3 = 1.0   -> 2 first, though 6 has more votes
    #   3: (4 + 3 + 0) / 3 = 2.3333   7: (2 + 3 + 0) / 3 = 1.6667 -> 3 first
    #   4: (4 + 3 + 1) / 3 = 2.6667   8: (2 + 3 + 1) / 3 = 2.0    -> 4 first
    games = [pod(1, 1, (1, 2, 3, 4), {1, 2}, votes={1: 2, 2: 1, 3: 1, 4: 3}),
             pod(1, 2, (5, 6, 7, 8), {5}, votes={5: 6, 6: 7, 7: 6, 8: 6})]
    rows = pod_standings("democratic", games, [], names(*range(1, 9)), seed=42)
    assert order(rows) == [1, 2, 6, 5, 3, 7, 4, 8]
    assert [r.rank for r in rows] == list(range(1, 9))
    by = {r.player: r for r in rows}
    assert [by[p].points for p in (1, 2, 6, 5, 3, 7, 4, 8)] == [4, 3, 3, 2, 1, 1, 0, 0]
    assert by[2].tiebreakers == {"OPP": 1.6667, "votes": 1}
    assert by[6].tiebreakers == {"OPP": 1.0, "votes": 3}
    assert list(by[1].tiebreakers) == ["OPP", "votes"]
    assert by[3].tiebreakers["OPP"] == 2.3333 and by[7].tiebreakers["OPP"] == 1.6667
    assert by[4].tiebreakers["OPP"] == 2.6667 and by[8].tiebreakers["OPP"] == 2.0
    assert by[1].record == "survived 1 of 1" and by[4].record == "survived 0 of 1"
    assert by[1].votes == 2 and by[1].games == 1 and by[1].name == "Player 1"


def test_pod_standings_votes_then_random_decide():
    # One table: 1 survives with no votes; 2 and 3 are out with 2 votes each; 4 is out with none.
    #   1: 2 + 0 = 2    2: 0 + 2 = 2    3: 0 + 2 = 2    4: 0
    # OPP of 1, 2 and 3 is the same: (2 + 2 + 0) / 3 = 1.3333; 4: (2 + 2 + 2) / 3 = 2.
    # Votes: 2 and 3 (2 each) before 1 (0); 2 against 3 goes to the event's random order.
    game = pod(1, 1, (1, 2, 3, 4), {1}, votes={1: 2, 3: 2, 2: 3, 4: 3})
    players = names(1, 2, 3, 4)
    seen = set()
    for seed in range(12):
        rows = pod_standings("democratic", [game], [], players, seed=seed)
        draw = seeded_order(players, seed)
        assert {r.player: r.random_order for r in rows} == {p: draw.index(p) + 1 for p in players}
        # The contract: random.Random(seed).shuffle of the sorted ids.
        expected = sorted(players)
        random.Random(seed).shuffle(expected)
        assert draw == expected
        first, second = sorted((2, 3), key=draw.index)
        assert order(rows) == [first, second, 1, 4]
        assert all(r.tiebreakers["OPP"] == 1.3333 for r in rows[:3])
        assert rows[2].tiebreakers["votes"] == 0
        seen.add(first)
        # Deterministic: the same seed gives the same standings.
        assert pod_standings("democratic", [game], [], players, seed=seed) == rows
    assert seen == {2, 3}


def test_pod_standings_random_is_last_and_only_breaks_full_ties():
    # Survival: the two survivors tie on points and OPP (they met the same table): random decides.
    game = pod(1, 1, (1, 2, 3), {1, 2})
    for seed in (1, 2, 3, 4, 5):
        rows = pod_standings("survival", [game], [], names(1, 2, 3), seed=seed)
        assert order(rows)[2] == 3
        assert rows[0].random_order < rows[1].random_order
        assert list(rows[0].tiebreakers) == ["OPP"]


def test_pod_opp_counts_every_meeting_and_ignores_byes():
    # Survival, two rounds, 5 players.
    # R1: table (1, 2, 3, 4), survivors 1 and 2; 5 has a bye (2 points, no opponents).
    # R2: table (1, 2, 3, 4, 5), survivors 3 and 5.
    # Totals: 1: 2   2: 2   3: 2   4: 0   5: 2 (bye) + 2 = 4
    # OPP 5 = its four R2 opponents only: (2 + 2 + 2 + 0) / 4 = 1.5
    # OPP 1 = R1 (2 + 2 + 0) + R2 (2 + 2 + 0 + 4) = 12 over 7 meetings = 1.7143 (the same for 2 and 3)
    # OPP 4 = R1 (2 + 2 + 2) + R2 (2 + 2 + 2 + 4) = 16 / 7 = 2.2857
    games = [pod(1, 1, (1, 2, 3, 4), {1, 2}), pod(2, 1, (1, 2, 3, 4, 5), {3, 5})]
    byes = [Bye(1, 5)]
    rows = pod_standings("survival", games, byes, names(1, 2, 3, 4, 5), seed=3)
    by = {r.player: r for r in rows}
    assert rows[0].player == 5 and rows[0].points == 4
    assert by[5].tiebreakers["OPP"] == 1.5
    assert by[1].tiebreakers["OPP"] == by[2].tiebreakers["OPP"] == by[3].tiebreakers["OPP"] == 1.7143
    assert by[4].tiebreakers["OPP"] == 2.2857 and rows[-1].player == 4
    assert by[5].record == "survived 1 of 1, 1 bye" and by[5].games == 1 and by[5].byes == 1
    assert by[1].record == "survived 1 of 2"
    # 1, 2 and 3 tie on points and OPP (survival has no votes): the random order decides.
    assert {r.player for r in rows[1:4]} == {1, 2, 3}
    assert [r.random_order for r in rows[1:4]] == sorted(r.random_order for r in rows[1:4])


def test_pod_bye_points_default_and_override():
    game = pod(1, 1, (1, 2, 3, 4), {1})
    players = names(1, 2, 3, 4, 5)
    demo = {r.player: r for r in pod_standings("democratic", [game], [Bye(1, 5)], players, seed=0)}
    assert demo[5].points == 2 and demo[5].votes == 0 and demo[5].tiebreakers["OPP"] == 0
    cedh = {r.player: r for r in pod_standings("cedh", [game], [Bye(1, 5)], players, seed=0)}
    assert cedh[5].points == 5 and cedh[1].points == 5
    assert cedh[5].record == "0-0-0, 1 bye" and cedh[1].record == "1-0-0" and cedh[2].record == "0-1-0"
    half = {r.player: r for r in pod_standings("cedh", [game], [Bye(1, 5)], players, seed=0, bye_points=1.5)}
    assert half[5].points == 1.5
    zero = {r.player: r for r in pod_standings("democratic", [game], [Bye(1, 5)], players, seed=0, bye_points=0)}
    assert zero[5].points == 0
    with pytest.raises(ValueError, match="bye_points must be a number"):
        pod_standings("cedh", [game], [], players, seed=0, bye_points="5")


def test_cedh_record_and_draws():
    games = [pod(1, 1, (1, 2, 3, 4), {1}), pod(2, 1, (1, 2, 3, 4), {1, 2}), pod(3, 1, (1, 2, 3, 4), set())]
    rows = {r.player: r for r in pod_standings("cedh", games, [Bye(4, 1)], names(1, 2, 3, 4), seed=0)}
    assert rows[1].points == 5 + 1 + 1 + 5 and rows[1].record == "1-0-2, 1 bye"
    assert rows[3].points == 2 and rows[3].record == "0-1-2"


def test_dropped_and_idle_players_stay_with_zero():
    game = pod(1, 1, (1, 2, 3), {1})
    rows = pod_standings("democratic", [game], [], names(1, 2, 3, 9), seed=5)
    idle = next(r for r in rows if r.player == 9)
    assert idle.points == 0 and idle.tiebreakers == {"OPP": 0, "votes": 0}
    assert idle.record == "survived 0 of 0" and idle.games == 0
    assert len(rows) == 4 and sorted(r.rank for r in rows) == [1, 2, 3, 4]


def test_pod_standings_refuse_bad_input():
    game = pod(1, 1, (1, 2, 3), {1})
    with pytest.raises(ValueError, match="Player 3 at round 1, table 1 is not among the event's players"):
        pod_standings("survival", [game], [], names(1, 2), seed=0)
    with pytest.raises(ValueError, match="Player 1 appears twice in round 1"):
        pod_standings("survival", [game], [Bye(1, 1)], names(1, 2, 3), seed=0)
    with pytest.raises(ValueError, match="appears twice in round 1"):
        pod_standings("survival", [game, pod(1, 2, (3, 4, 5), {4})], [], names(1, 2, 3, 4, 5), seed=0)
    with pytest.raises(ValueError, match="for 1v1 matches"):
        pod_standings("mtr", [game], [], names(1, 2, 3), seed=0)
    with pytest.raises(ValueError, match="stored seed"):
        pod_standings("survival", [game], [], names(1, 2, 3), seed=None)
    with pytest.raises(ValueError, match="voted for themselves"):
        pod_standings("democratic", [pod(1, 1, (1, 2, 3), {1}, votes={1: 1})], [], names(1, 2, 3), seed=0)


def test_exact_ties_are_not_broken_by_float_noise():
    # A variant of democratic where surviving scores 0.1 and votes score nothing (votes still break ties).
    base = get_profile("democratic")
    prof = replace(base, points={**base.points, "survive": 0.1, "per_vote_received": 0})
    X, Y, A, B, C, D, E, F, G = range(1, 10)
    games = [
        pod(1, 1, (X, A, B, C), {A, B, C}),
        pod(1, 2, (Y, D, E), {D, E}, votes={D: Y}),
        pod(2, 1, (B, C, D, E), {B, C, D, E}),
        pod(3, 1, (C, F, G), {C}),
    ]
    # Totals: A 0.1, B 0.2, C 0.3, D 0.2, E 0.2; X and Y 0.
    # OPP X = (0.1 + 0.2 + 0.3) / 3 = 0.2 and OPP Y = (0.2 + 0.2) / 2 = 0.2: equal. In floats the first is
    # 0.20000000000000004, which would put X ahead; exactly, they tie and Y's vote decides.
    assert (0.1 + 0.2 + 0.3) / 3 != (0.2 + 0.2) / 2
    rows = pod_standings(prof, games, [], names(*range(1, 10)), seed=0)
    by = {r.player: r for r in rows}
    assert by[X].points == by[Y].points == 0
    assert by[X].tiebreakers["OPP"] == by[Y].tiebreakers["OPP"] == 0.2
    assert by[Y].rank < by[X].rank
    assert by[C].points == pytest.approx(0.3) and isinstance(by[C].points, float)


# ----------------------------------------------------------------- 1v1 match results

@pytest.mark.parametrize("games, expected", [
    ((W, W), ("win", "2-0-0")),
    ((W, L, W), ("win", "2-1-0")),
    ((L, W, L), ("loss", "1-2-0")),
    ((L, L), ("loss", "0-2-0")),
    ((W, L), ("draw", "1-1-0")),
    ((W,), ("win", "1-0-0")),                 # 1-0 when time is called
    ((), ("draw", "0-0-0")),
    ((W, L, D), ("draw", "1-1-1")),
    ((W, D), ("win", "1-0-1")),
    ((D, D, D), ("draw", "0-0-3")),
])
def test_match_result(games, expected):
    assert match_result(games) == expected
    assert match_result(list(games)) == expected


def test_match_result_refuses_unknown_game_results():
    with pytest.raises(ValueError, match="'win', 'loss' or 'draw'"):
        match_result(("win", "tie"))


# ----------------------------------------------------------------- MTR standings

def test_mtr_hand_computed_example():
    """Six players, three rounds; player 6 drops after round 2, so round 3 has a bye (to 3).

    Matches (games from the first player's side):
      R1: 1 v 2  W W      -> 1 wins 2-0          R2: 1 v 5  W L W    -> 1 wins 2-1
          3 v 4  W L      -> draw 1-1 (at time)      2 v 3  W W      -> 2 wins 2-0
          5 v 6  W L W    -> 5 wins 2-1              4 v 6  W W      -> 4 wins 2-0
      R3: 4 v 1  W L W    -> 4 wins 2-1          (6 has dropped)
          5 v 2  W W      -> 5 wins 2-0
          3: bye          -> a match win 2-0: 3 match points, 6 game points, 2 games

    Match points (win 3, draw 1, loss 0) and MWP = points / (3 x rounds played), at least 0.33:
      1: W W L = 6 / 9            = 0.6667
      2: L W L = 3 / 9            = 0.3333   (above 0.33: no floor)
      3: D L bye = 1 + 0 + 3 = 4  = 4/9 = 0.4444   (the bye counts as a round won)
      4: D W W = 7 / 9            = 0.7778
      5: W L W = 6 / 9            = 0.6667
      6: L L = 0 / (3 x 2) = 0    -> floored to 0.33
    Game points (3 per game won, 1 per game drawn) and GW% = game points / (3 x games), at least 0.33:
      1: 2-0 (6) + 2-1 (6) + 1-2 (3) = 15 over 2 + 3 + 3 = 8 games -> 15/24 = 0.625
      2: 0-2 (0) + 2-0 (6) + 0-2 (0) =  6 over 6 games             ->  6/18 = 0.3333
      3: 1-1 (3) + 0-2 (0) + bye (6) =  9 over 2 + 2 + 2 = 6 games ->  9/18 = 0.5
      4: 1-1 (3) + 2-0 (6) + 2-1 (6) = 15 over 2 + 2 + 3 = 7 games -> 15/21 = 0.7143
      5: 2-1 (6) + 1-2 (3) + 2-0 (6) = 15 over 3 + 3 + 2 = 8 games -> 15/24 = 0.625
      6: 1-2 (3) + 0-2 (0)           =  3 over 5 games             ->  3/15 = 0.2 -> floored to 0.33
    OMW% = average MWP of the opponents played (the bye adds no opponent):
      1: opponents 2, 5, 4: (3/9 + 6/9 + 7/9) / 3 = 16/27           = 0.5926
      2: opponents 1, 3, 5: (6/9 + 4/9 + 6/9) / 3 = 16/27           = 0.5926
      3: opponents 4, 2:    (7/9 + 3/9) / 2       = 10/18           = 0.5556
      4: opponents 3, 6, 1: (4/9 + 0.33 + 6/9) / 3 = 1.44111 / 3   = 0.4804
      5: opponents 6, 1, 2: (0.33 + 6/9 + 3/9) / 3 = 1.33 / 3      = 0.4433
      6: opponents 5, 4:    (6/9 + 7/9) / 2       = 13/18           = 0.7222
    OGW% = average GW% (each at least 0.33) of the opponents played:
      1: 2, 5, 4: (1/3 + 0.625 + 5/7) / 3 = 281/504                 = 0.5575
      2: 1, 3, 5: (0.625 + 0.5 + 0.625) / 3 = 1.75 / 3              = 0.5833
      3: 4, 2:    (5/7 + 1/3) / 2 = 11/21                           = 0.5238
      4: 3, 6, 1: (0.5 + 0.33 + 0.625) / 3 = 1.455 / 3              = 0.485
      5: 6, 1, 2: (0.33 + 0.625 + 1/3) / 3 = 1.28833 / 3            = 0.4294
      6: 5, 4:    (0.625 + 5/7) / 2 = 75/112                        = 0.6696
    Order: 4 (7 points); 1 and 5 (6 points): OMW% 0.5926 > 0.4433, so 1 then 5; 3 (4); 2 (3); 6 (0).
    """
    matches = [
        DuelMatch(1, 1, (1, 2), (W, W)), DuelMatch(1, 2, (3, 4), (W, L)), DuelMatch(1, 3, (5, 6), (W, L, W)),
        DuelMatch(2, 1, (1, 5), (W, L, W)), DuelMatch(2, 2, (2, 3), (W, W)), DuelMatch(2, 3, (4, 6), (W, W)),
        DuelMatch(3, 1, (4, 1), (W, L, W)), DuelMatch(3, 2, (5, 2), (W, W)),
    ]
    rows = mtr_standings(matches, [Bye(3, 3)], names(1, 2, 3, 4, 5, 6), seed=7)
    assert order(rows) == [4, 1, 5, 3, 2, 6]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    expected = {
        #    points  OMW%    GW%     OGW%    record   matches byes
        1: (6, 0.5926, 0.625, 0.5575, "2-1-0", 3, 0),
        2: (3, 0.5926, 0.3333, 0.5833, "1-2-0", 3, 0),
        3: (4, 0.5556, 0.5, 0.5238, "1-1-1", 2, 1),
        4: (7, 0.4804, 0.7143, 0.485, "2-0-1", 3, 0),
        5: (6, 0.4433, 0.625, 0.4294, "2-1-0", 3, 0),
        6: (0, 0.7222, 0.33, 0.6696, "0-2-0", 2, 0),
    }
    for r in rows:
        points, omw, gw, ogw, record, played, byes = expected[r.player]
        assert r.points == points
        assert r.tiebreakers == {"OMW%": omw, "GW%": gw, "OGW%": ogw}
        assert list(r.tiebreakers) == ["OMW%", "GW%", "OGW%"]
        assert (r.record, r.games, r.byes, r.votes) == (record, played, byes, 0)
        assert r.name == f"Player {r.player}"


def test_mtr_gw_and_ogw_decide_and_the_own_gw_floor():
    """Four players, one round.

      1 v 2  W W    -> 1 wins 2-0: 1 has 6 game points / 6 = 1.0;  2 has 0 / 6 = 0 -> 0.33
      3 v 4  W D W  -> 3 wins 2-0-1: 3 has 7 / 9 = 0.7778;        4 has 1 / 9 = 0.1111 -> 0.33
    MWP: 1 and 3: 3/3 = 1.0; 2 and 4: 0 -> 0.33.  OMW%: 1 and 3: 0.33; 2 and 4: 1.0 (all tied).
    GW% decides 1 (1.0) before 3 (0.7778). 2 and 4 are tied at the floor 0.33, so OGW% decides:
    2's opponent 1 has GW% 1.0, 4's opponent 3 has 0.7778 -> 2 before 4.
    Without the floor on a player's own GW% (older practice), 4 (0.1111) would pass 2 (0).
    """
    matches = [DuelMatch(1, 1, (1, 2), (W, W)), DuelMatch(1, 2, (3, 4), (W, D, W))]
    rows = mtr_standings(matches, [], names(1, 2, 3, 4), seed=1)
    assert order(rows) == [1, 3, 2, 4]
    by = {r.player: r.tiebreakers for r in rows}
    assert by[1] == {"OMW%": 0.33, "GW%": 1.0, "OGW%": 0.33}
    assert by[3] == {"OMW%": 0.33, "GW%": 0.7778, "OGW%": 0.33}
    assert by[2] == {"OMW%": 1.0, "GW%": 0.33, "OGW%": 1.0}
    assert by[4] == {"OMW%": 1.0, "GW%": 0.33, "OGW%": 0.7778}

    unfloored = replace(get_profile("mtr"), own_gw_floor=False)
    rows = mtr_standings(matches, [], names(1, 2, 3, 4), seed=1, profile=unfloored)
    assert order(rows) == [1, 3, 4, 2]
    assert {r.player: r.tiebreakers["GW%"] for r in rows}[4] == 0.1111


def test_mtr_floor_is_033_not_one_third():
    # The floor is 0.33 as printed: a 1-2 player's MWP 3/9 = 0.3333 stays above a 0-3 player's 0 -> 0.33.
    # 1 beat 3 (who ends 1-2), 2 beat 4 (who ends 0-3); then 1 and 2 drew 1-1. 5-8 are one-match fillers.
    #   MWP 1 = MWP 2 = (3 + 1) / 6 = 0.6667
    #   OMW% 1 = (3/9 + 0.6667) / 2 = 0.5;  OMW% 2 = (0.33 + 0.6667) / 2 = 0.49833 -> 1 before 2.
    matches = [
        DuelMatch(1, 1, (1, 3), (W, W)), DuelMatch(1, 2, (2, 4), (W, W)),
        DuelMatch(2, 1, (1, 2), (W, L)), DuelMatch(2, 2, (3, 5), (W, W)), DuelMatch(2, 3, (7, 4), (W, W)),
        DuelMatch(3, 1, (6, 3), (W, W)), DuelMatch(3, 2, (8, 4), (W, W)),
    ]
    rows = mtr_standings(matches, [], names(*range(1, 9)), seed=0)
    by = {r.player: r for r in rows}
    assert (by[1].points, by[2].points, by[3].points, by[4].points) == (4, 4, 3, 0)
    assert by[1].tiebreakers["OMW%"] == 0.5 and by[2].tiebreakers["OMW%"] == 0.4983
    assert by[1].rank < by[2].rank


def test_mtr_byes():
    # 3 players: R1 1 v 2 (1 wins 2-1), 3 bye; R2 2 v 3 (draw 1-1), 1 bye.
    # 1: W + bye = 6 points, MWP 6/6 = 1.0; GW (6 + 6) / (3 x (3 + 2)) = 12/15 = 0.8; only opponent 2.
    # 2: L + D = 1 point, MWP 1/6 -> 0.33; GW (3 + 3) / (3 x 5) = 0.4.
    # 3: bye + D = 4 points, MWP 4/6 = 0.6667; GW (6 + 3) / (3 x 4) = 0.75; only opponent 2.
    matches = [DuelMatch(1, 1, (1, 2), (W, L, W)), DuelMatch(2, 1, (2, 3), (W, L))]
    rows = mtr_standings(matches, [Bye(1, 3), Bye(2, 1)], names(1, 2, 3), seed=0)
    by = {r.player: r for r in rows}
    assert order(rows) == [1, 3, 2]
    assert by[1].tiebreakers == {"OMW%": 0.33, "GW%": 0.8, "OGW%": 0.4}
    assert by[3].tiebreakers == {"OMW%": 0.33, "GW%": 0.75, "OGW%": 0.4}
    # 2's opponents 1 and 3 count with their byes as wins: (1.0 + 0.6667) / 2 = 0.8333.
    assert by[2].tiebreakers == {"OMW%": 0.8333, "GW%": 0.4, "OGW%": round((0.8 + 0.75) / 2, 4)}
    assert (by[1].record, by[1].byes, by[1].games) == ("2-0-0", 1, 1)
    assert by[3].record == "1-0-1"


def test_mtr_only_byes_no_games_and_random_last():
    # 1 v 2 is an unplayed 0-0 draw (no games): both get 1 point, GW% 0.33 (the floor), equal OMW% and OGW%,
    # so the event's random order decides. 3 only had a bye: 3 points, no opponents -> OMW% and OGW% 0.
    # 4 played nothing (dropped before round 1): all 0.
    matches = [DuelMatch(1, 1, (1, 2), ())]
    for seed in range(6):
        rows = mtr_standings(matches, [Bye(1, 3)], names(1, 2, 3, 4), seed=seed)
        by = {r.player: r for r in rows}
        assert by[3].rank == 1 and by[3].tiebreakers == {"OMW%": 0, "GW%": 1.0, "OGW%": 0}
        # Each one's opponent drew: MWP 1/3 = 0.3333 (not floored).
        assert by[1].tiebreakers == by[2].tiebreakers == {"OMW%": 0.3333, "GW%": 0.33, "OGW%": 0.33}
        draw = seeded_order([1, 2, 3, 4], seed)
        assert order(rows)[1:3] == sorted((1, 2), key=draw.index)
        assert by[4].rank == 4 and by[4].points == 0 and by[4].tiebreakers == {"OMW%": 0, "GW%": 0, "OGW%": 0}
        assert by[1].record == "0-0-1"


def test_mtr_rematches_count_twice():
    # 1 met 2 twice and 3 once: OMW% = (MWP2 + MWP2 + MWP3) / 3.
    matches = [DuelMatch(1, 1, (1, 2), (W, W)), DuelMatch(1, 2, (3, 4), (W, W)),
               DuelMatch(2, 1, (1, 3), (W, W)), DuelMatch(2, 2, (2, 4), (W, W)),
               DuelMatch(3, 1, (1, 2), (L, L)), DuelMatch(3, 2, (3, 4), (W, W))]
    rows = {r.player: r for r in mtr_standings(matches, [], names(1, 2, 3, 4), seed=0)}
    # MWP 2: W(3) in R2 and R3 = 6/9; 3: R1 W, R2 L, R3 W = 6/9. OMW% 1 = (6/9 + 6/9 + 6/9) / 3 = 0.6667
    assert rows[1].tiebreakers["OMW%"] == 0.6667


def test_mtr_refuses_bad_input():
    with pytest.raises(ValueError, match="two different players"):
        mtr_standings([DuelMatch(1, 1, (1, 1), (W,))], [], names(1), seed=0)
    with pytest.raises(ValueError, match="not among the event's players"):
        mtr_standings([DuelMatch(1, 1, (1, 2), (W,))], [], names(1), seed=0)
    with pytest.raises(ValueError, match="appears twice in round 1"):
        mtr_standings([DuelMatch(1, 1, (1, 2), (W,))], [Bye(1, 2)], names(1, 2), seed=0)
    with pytest.raises(ValueError, match="'win', 'loss' or 'draw'"):
        mtr_standings([DuelMatch(1, 1, (1, 2), ("W",))], [], names(1, 2), seed=0)
    with pytest.raises(ValueError, match="for pods"):
        mtr_standings([], [], names(1, 2), seed=0, profile="cedh")


# ----------------------------------------------------------------- prize leaders

def test_prize_leaders_with_ties():
    conds = default_prize_conditions()
    games = [
        pod(1, 1, (1, 2, 3, 4), {1}, prizes={"combat_damage": (1, 12), "mana_in_pool": (2, 9),
                                             "general_damage_win": (3, None)}),
        pod(1, 2, (5, 6, 7, 8), {6}, prizes={"combat_damage": (6, 12), "mana_in_pool": (5, 7),
                                             "general_damage_win": (6, None)}),
        pod(2, 1, (1, 3, 5, 6), {3}, prizes={"combat_damage": (1, 12), "mana_in_pool": (5, 8),
                                             "general_damage_win": (3, None), "retired_condition": (1, 99)}),
        pod(2, 2, (2, 4, 7, 8), {7}, prizes={"general_damage_win": (7, None), "combat_damage": (7, 11)}),
    ]
    leaders = prize_leaders(games, conds)
    assert list(leaders) == ["combat_damage", "mana_in_pool", "general_damage_win", "mana_on_general"]
    assert leaders["combat_damage"] == [(1, 12), (6, 12)]          # tie, each holder listed once
    assert leaders["mana_in_pool"] == [(2, 9)]
    assert leaders["general_damage_win"] == [(3, 2)]               # 3 claimed it twice
    assert leaders["mana_on_general"] == []                        # nobody claimed it
    games.append(pod(3, 1, (6, 7, 8), {6}, prizes={"general_damage_win": (6, None)}))
    assert prize_leaders(games, conds)["general_damage_win"] == [(3, 2), (6, 2)]


def test_prize_leaders_other_kinds_and_errors():
    conds = [{"id": "fastest", "name": "Fastest win (turn)", "kind": "min"},
             {"id": "life", "name": "Most life gained over the event", "kind": "sum"}]
    games = [pod(1, 1, (1, 2, 3), {1}, prizes={"fastest": (1, 6), "life": (2, 10)}),
             pod(2, 1, (1, 2, 3), {3}, prizes={"fastest": (3, 5), "life": (1, 7)}),
             pod(3, 1, (1, 2, 3), {2}, prizes={"fastest": (2, 5), "life": (1, 3)})]
    assert prize_leaders(games, conds) == {"fastest": [(2, 5), (3, 5)], "life": [(1, 10), (2, 10)]}
    assert prize_leaders([], conds) == {"fastest": [], "life": []}
    with pytest.raises(ValueError, match="does not play there"):
        prize_leaders([pod(1, 1, (1, 2, 3), {1}, prizes={"fastest": (9, 4)})], conds)
    with pytest.raises(ValueError, match="kind 'best'"):
        prize_leaders(games, [{"id": "x", "name": "X", "kind": "best"}])


# ----------------------------------------------------------------- speed

def _pod_event(n_players=2048, rounds=6, size=4, seed=11):
    rng = random.Random(seed)
    ids = list(range(1, n_players + 1))
    games = []
    for rnd in range(1, rounds + 1):
        rng.shuffle(ids)
        for t in range(0, n_players, size):
            seats = tuple(ids[t:t + size])
            alive = frozenset(p for p in seats if rng.random() < 0.4)
            votes = {p: rng.choice([q for q in seats if q != p]) for p in seats}
            games.append(PodGame(rnd, t // size + 1, seats, alive, votes))
    return games, names(*ids)


def test_pod_standings_speed_2048_players_6_rounds():
    games, players = _pod_event()
    start = time.perf_counter()
    rows = pod_standings("democratic", games, [], players, seed=99)
    elapsed = time.perf_counter() - start
    assert len(rows) == 2048 and [r.rank for r in rows] == list(range(1, 2049))
    assert all(a.points >= b.points for a, b in zip(rows, rows[1:]))
    assert elapsed < 1.0, f"pod standings took {elapsed:.3f}s"


def test_mtr_standings_speed_2048_players_6_rounds():
    rng = random.Random(5)
    ids = list(range(1, 2048))                 # odd: one bye per round
    matches, byes = [], []
    for rnd in range(1, 7):
        rng.shuffle(ids)
        byes.append(Bye(rnd, ids[-1]))
        for t in range(0, len(ids) - 1, 2):
            games = tuple(rng.choice((W, W, L, L, D)) for _ in range(rng.choice((2, 3))))
            matches.append(DuelMatch(rnd, t // 2 + 1, (ids[t], ids[t + 1]), games))
    start = time.perf_counter()
    rows = mtr_standings(matches, byes, names(*ids), seed=3)
    elapsed = time.perf_counter() - start
    assert len(rows) == 2047
    assert elapsed < 1.0, f"MTR standings took {elapsed:.3f}s"
