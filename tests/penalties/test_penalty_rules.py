"""What a penalty does to the results, as pure functions: pods, 1v1 best of three, the infraction data."""
from __future__ import annotations

import json

import pytest

from tournament.penalties import domain
from tournament.penalties.domain import Loss, loss_of, match_with_losses, pod_with_losses, with_losses
from tournament.penalties.models import PENALTIES
from tournament.scoring import mtr_standings, pod_points, pod_standings
from tournament.scoring.domain import DuelMatch, PodGame

PLAYERS = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dee"}


def _pod(survivors, **kw):
    return PodGame(round=1, table=1, players=(1, 2, 3, 4), survivors=frozenset(survivors), **kw)


# ----------------------------------------------------------------- pods

def test_a_pod_game_loss_puts_an_eliminated_player_at_zero_with_a_loss():
    game = pod_with_losses(_pod({1}, votes={1: 2, 3: 2, 4: 1}), [Loss(2, 1, "game")])
    assert game.forfeited == {2}
    points = pod_points("democratic", game)
    assert points[2] == 0                       # two votes received, yet nothing for the game
    assert points[1] == pod_points("democratic", _pod({1}, votes={1: 2, 3: 2, 4: 1}))[1]
    rows = {r.player: r for r in pod_standings("cedh", [game], [], PLAYERS, seed=1)}
    assert rows[2].points == 0 and rows[2].tally.losses == 1 and rows[2].tally.wins == 0
    assert rows[1].tally.wins == 1


def test_a_game_loss_for_a_survivor_makes_the_last_one_left_the_winner():
    plain = {r.player: r for r in pod_standings("cedh", [_pod({1, 2})], [], PLAYERS, seed=1)}
    assert plain[1].tally.draws == 1 and plain[2].tally.draws == 1
    game = with_losses([_pod({1, 2})], [], [Loss(2, 1, "game")])[0][0]
    rows = {r.player: r for r in pod_standings("cedh", [game], [], PLAYERS, seed=1)}
    assert rows[1].tally.wins == 1 and rows[1].points > plain[1].points
    assert rows[2].points == 0 and rows[2].tally.losses == 1 and rows[2].tally.draws == 0


def test_the_sole_survivor_with_a_game_loss_scores_nothing_and_nobody_is_left():
    game = pod_with_losses(_pod({3}), [Loss(3, 1, "match")])
    points = pod_points("survival", game)
    assert points[3] == 0
    rows = {r.player: r for r in pod_standings("survival", [game], [], PLAYERS, seed=1)}
    assert rows[3].tally.survived == 0


def test_a_penalty_of_another_round_or_player_changes_nothing():
    game = _pod({1})
    assert pod_with_losses(game, [Loss(1, 2, "game"), Loss(9, 1, "game")]) is game
    assert with_losses([game], [], []) == ([game], [])


def test_a_forfeited_player_must_sit_at_the_table():
    with pytest.raises(ValueError, match="game loss"):
        pod_points("survival", _pod({1}, forfeited=frozenset({7})))


def test_an_archenemy_pod_game_loss_is_a_loss_for_that_player_only():
    game = _pod({1}, archenemy=1)                    # the archenemy won
    penalized = pod_with_losses(game, [Loss(1, 1, "game")])
    rows = {r.player: r for r in pod_standings("cedh", [penalized], [], PLAYERS, seed=1)}
    assert rows[1].points == 0 and rows[1].tally.losses == 1
    assert all(rows[p].tally.wins == 1 for p in (2, 3, 4))     # the archenemy out: the team won


# ----------------------------------------------------------------- 1v1 best of three

def _match(games=()):
    return DuelMatch(round=1, table=1, players=(1, 2), games=tuple(games))


def _mtr(*matches):
    return {r.player: r for r in mtr_standings(list(matches), [], {1: "Ann", 2: "Bob"}, seed=1)}


def test_a_duel_game_loss_gives_the_opponent_that_game():
    m = match_with_losses(_match(["win", "loss", "win"]), [Loss(1, 1, "game", game=3)])
    assert m.games == ("win", "loss", "loss")
    rows = _mtr(m)
    assert rows[2].tally.wins == 1 and rows[2].points == 3


def test_a_game_loss_before_game_one_is_played_counts_as_a_game_won_by_the_opponent():
    m = match_with_losses(_match(["loss", "loss"]), [Loss(2, 1, "game", game=1)])
    assert m.games == ("win", "loss")
    rows = _mtr(m)
    assert rows[1].tally.draws == 1 and rows[1].points == 1


def test_both_players_with_a_game_loss_for_one_game_are_neither_given_it():
    m = match_with_losses(_match(["win", "loss", "win"]), [Loss(1, 1, "game", 3), Loss(2, 1, "game", 3)])
    assert m.games == ("win", "loss")


def test_a_match_loss_loses_the_match_two_nil_whatever_the_games():
    m = match_with_losses(_match(["win", "win"]), [Loss(1, 1, "match")])
    rows = _mtr(m)
    assert rows[1].points == 0 and rows[1].tally.losses == 1
    assert rows[2].points == 3 and rows[2].tally.wins == 1
    assert rows[2].tiebreakers["GW%"] == 1.0 and rows[1].tiebreakers["GW%"] == 0.33


def test_both_players_with_a_match_loss_both_lose():
    m = match_with_losses(_match(), [Loss(1, 1, "match"), Loss(2, 1, "match")])
    rows = _mtr(m)
    assert rows[1].points == rows[2].points == 0
    assert rows[1].tally.losses == rows[2].tally.losses == 1


# ----------------------------------------------------------------- what a penalty does

@pytest.mark.parametrize("kind, table, final, loss", [
    ("warning", "pod", False, None),
    ("game_loss", "pod", True, "game"),
    ("game_loss", "match", False, "game"),
    ("match_loss", "match", True, "match"),
    ("disqualification", "pod", False, "match"),       # leaves the game being played
    ("disqualification", "pod", True, None),           # a final result is kept
    ("game_loss", "bye", False, None),
    ("match_loss", None, False, None),
])
def test_what_each_penalty_does_to_its_tables_result(kind, table, final, loss):
    assert loss_of(kind, table, final) == loss


def test_the_infractions_are_data_with_a_known_default_penalty_each():
    data = json.loads(domain.DATA.read_text(encoding="utf-8"))
    assert tuple(data["penalties"]) == PENALTIES
    names = {v["name"] for v in data["infractions"].values()}
    for expected in ("Tardiness", "Deck Problem", "Decklist Problem", "Game Rule Violation",
                     "Failure to Maintain Game State", "Looking at Extra Cards", "Hidden Card Error",
                     "Mulligan Procedure Error", "Outside Assistance", "Slow Play", "Insufficient Shuffling",
                     "Unsporting Conduct — Minor", "Unsporting Conduct — Major", "Cheating", "Collusion"):
        assert expected in names
    assert all(v["penalty"] in PENALTIES for v in data["infractions"].values())
    assert domain.default_penalty("tardiness") == "game_loss"
    assert domain.default_penalty("outside_assistance") == "match_loss"
    assert domain.default_penalty("cheating") == "disqualification"
