"""Best of three, game by game: the match's rules as plain data, and the operations that store each game."""
from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from tournament.cards.models import utcnow
from tournament.errors import Refused
from tournament.events import operations as events
from tournament.events.models import AuditEntry
from tournament.rounds import operations as rounds
from tournament.rounds.models import DuelGame, ResultReport
from tournament.scoring.match import MatchProgress, progress_of, why_not_game, with_game


# ----------------------------------------------------------------- the rules, as plain data

@pytest.mark.parametrize("games, time, over, winner, by", [
    ((), False, False, None, None),
    ((1,), False, False, None, None),               # 1-0: in progress, not a complete match
    ((1, 2), False, False, None, None),              # 1-1: game 3 decides
    ((1, 1), False, True, 1, "wins"),
    ((1, 2, 2), False, True, 2, "wins"),
    ((None, 1), False, False, None, None),           # a drawn game counts toward nobody
    ((None, 1, 2), False, True, None, "games"),      # three games played: 1-1-1 is a draw
    ((None, None, 2), False, True, 2, "games"),
    ((1,), True, True, 1, "time"),                   # 1-0 at time: a win
    ((1, 2), True, True, None, "time"),              # 1-1 at time: a draw
    ((1, None), True, True, 1, "time"),              # game 2 unfinished after the extra turns: a draw
    ((), True, False, None, None),                   # nothing reported yet: still nothing decided
])
def test_when_a_match_is_decided(games, time, over, winner, by):
    p = progress_of((1, 2), games, time)
    assert (p.over, p.winner, p.decided_by) == (over, winner, by)
    assert p.next_game == (None if over else len(games) + 1)


def test_which_game_may_be_reported_next():
    p = progress_of((1, 2), (1,))
    assert why_not_game(p, 2) is None and why_not_game(p, 1) is None          # the next one, or a known one
    assert why_not_game(p, 3) == "skipped" and why_not_game(p, 0) == "range" and why_not_game(p, 4) == "range"
    won = progress_of((1, 2), (1, 1))
    assert why_not_game(won, 3) == "over"                                       # no third win
    assert with_game(p, 1, 2) == MatchProgress((1, 2), (2,), False)
    assert with_game(p, 2, None, True).over and progress_of((1, 2), (2, 1, None)).score(1) == (1, 1, 1)


# ----------------------------------------------------------------- the operations

@pytest.fixture
def match(db, make_round):
    """A started 1v1 match: (event, table, first player, second player)."""
    event, rnd, regs = make_round(players=2, seed=1, start=True, name="Duels", mode="duel", ruleset="duel-cn")
    table = rnd.tables[0]
    a, b = (s.registration for s in table.seats)
    return event, table, a, b


def _audit(db, action):
    return db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == action)).scalars().all()


def test_game_one_won_is_in_progress_and_nobody_confirms_it(db, match):
    event, table, a, b = match
    rounds.report_game(table, 1, a.id, reg=a)
    db.session.commit()
    assert table.result_state is None and [g.winner_id for g in table.games] == [a.id]
    assert table.games[0].reported_by == f"player:{a.id}" and table.games[0].reported_at is not None
    assert rounds.why_not_confirm(table, b.id, False).startswith("The match is still in progress")
    with pytest.raises(Refused, match="still in progress"):
        rounds.confirm_result(table, b, revision=table.result_revision)
    assert table in rounds.missing_results(table.round)                     # the round cannot finish on 1-0
    with pytest.raises(Refused, match="Results are missing"):
        rounds.finish_round(table.round, event.organizer)
    # game 2 by the opponent, then game 3 decides: reported, the other player confirms the whole match
    rounds.report_game(table, 2, b.id, reg=b)
    rounds.report_game(table, 3, b.id, reg=b)
    db.session.commit()
    assert table.result_state == "reported" and rounds.confirmers(table) == {b.id}
    rounds.confirm_result(table, a, revision=table.result_revision)
    db.session.commit()
    assert table.result_state == "confirmed"
    assert [r.result["games"] for r in table.reports] == [[a.id], [a.id, b.id], [a.id, b.id, b.id]]
    assert len(_audit(db, "result.game")) == 3 and len(_audit(db, "result.confirm")) == 1


def test_both_players_reporting_the_same_game_store_it_once(db, match):
    _event, table, a, b = match
    rounds.report_game(table, 1, b.id, reg=a)
    rounds.report_game(table, 1, b.id, reg=b)                       # the other phone: the same game
    db.session.commit()
    assert db.session.scalar(sa.select(sa.func.count()).select_from(DuelGame)) == 1
    assert table.result_revision == 1 and len(table.reports) == 1
    # the deciding game reported by both: the second agrees with it, the match is confirmed
    rounds.report_game(table, 2, b.id, reg=b)
    rounds.report_game(table, 2, b.id, reg=a)
    db.session.commit()
    assert table.result_state == "confirmed" and rounds.confirmers(table) == {a.id, b.id}


def test_bad_reports_are_refused_and_store_nothing(db, match, make_round):
    _event, table, a, b = match
    stranger = make_round(players=2, seed=2, name="Elsewhere", mode="duel", ruleset="duel-cn")[2][0]
    with pytest.raises(Refused, match="Report game 1 first: game 2 comes after it") as e:
        rounds.report_game(table, 2, a.id, reg=a)
    assert e.value.status == 409
    with pytest.raises(Refused, match="one of the two players"):
        rounds.report_game(table, 1, stranger.id, reg=a)
    with pytest.raises(Refused, match="Only the players at this table"):
        rounds.report_game(table, 1, a.id, reg=stranger)
    for bad in (0, 4, "1", True, None):
        with pytest.raises(Refused, match="games 1, 2 and 3"):
            rounds.report_game(table, bad, a.id, reg=a)
    rounds.report_game(table, 1, a.id, reg=a)
    with pytest.raises(Refused, match="Report game 2 first: game 3 comes after it"):
        rounds.report_game(table, 3, a.id, reg=a)
    rounds.report_game(table, 2, a.id, reg=b)
    db.session.commit()
    revision = table.result_revision
    with pytest.raises(Refused, match="The match is over: .* won 2–0. No further game is played.") as e:
        rounds.report_game(table, 3, a.id, reg=a)                   # a third win
    assert e.value.status == 409
    with pytest.raises(Refused, match="The match is over"):
        rounds.end_match_at_time(table, reg=b)
    db.session.rollback()
    assert table.result_revision == revision and len(table.games) == 2


def test_a_different_winner_for_a_reported_game(db, match, judge):
    _event, table, a, b = match
    rounds.report_game(table, 1, a.id, reg=a)
    rounds.report_game(table, 1, b.id, reg=a)          # a's own correction of the latest game: no dispute
    assert table.result_state is None and table.games[0].winner_id == b.id
    rounds.report_game(table, 1, a.id, reg=b)          # b says otherwise: disputed, both versions kept
    db.session.commit()
    assert table.result_state == "disputed"
    assert [r.result["games"] for r in table.reports] == [[a.id], [b.id], [a.id]]
    with pytest.raises(Refused, match="a judge will settle it"):
        rounds.report_game(table, 2, a.id, reg=a)
    rounds.settle_dispute(table, 2, judge)              # a judge accepts version 2: game 1 b won, in progress
    db.session.commit()
    assert table.result_state is None and [g.winner_id for g in table.games] == [b.id]
    rounds.report_game(table, 2, b.id, reg=a)
    assert table.result_state == "reported"


def test_time_called_ends_the_match_with_the_games_played(db, match, judge):
    _event, table, a, b = match
    rounds.report_game(table, 1, a.id, reg=a)
    with pytest.raises(Refused, match="Time has not been called yet") as e:     # the clock still runs
        rounds.report_game(table, 2, None, time=True, reg=a)
    assert e.value.status == 409
    with pytest.raises(Refused, match="Time has not been called yet"):
        rounds.end_match_at_time(table, reg=b)
    table.round.ends_at = utcnow() - timedelta(minutes=1)
    table.extra_minutes = 3                                                     # this table's extension
    assert not rounds.time_is_up(table)
    table.extra_minutes = 0
    db.session.commit()
    rounds.report_game(table, 2, None, time=True, reg=b)    # game 2 unfinished after the extra turns: a draw
    db.session.commit()
    progress = rounds.match_progress(table)
    assert progress.over and progress.decided_by == "time" and progress.winner == a.id
    assert table.result_state == "reported" and table.time_called_at is not None
    assert table.reports[-1].result == {"games": [a.id, None], "time": True}
    rounds.confirm_result(table, a, revision=table.result_revision)
    assert table.result_state == "confirmed"


def test_time_between_games_and_staff_entry(db, match, judge, make_round):
    _event, table, a, b = match
    with pytest.raises(Refused, match="Report game 1 first"):
        rounds.end_match_at_time(table, user=judge)
    rounds.report_game(table, 1, a.id, user=judge)                 # staff: still in progress
    rounds.report_game(table, 2, b.id, reg=a)
    assert table.result_state is None
    rounds.end_match_at_time(table, user=judge)                     # staff need no clock: 1-1 at time, final
    db.session.commit()
    assert table.result_state == "confirmed" and rounds.match_progress(table).winner is None
    assert len(_audit(db, "result.time")) == 1
    # a whole match entered by staff: 1-0 without time stays in progress, with time it is final
    _e, rnd, regs = make_round(players=2, seed=3, start=True, name="More duels", mode="duel", ruleset="duel-cn")
    other = rnd.tables[0]
    x = other.seats[0].registration_id
    rounds.report_duel_games(other, [x], user=judge)
    assert other.result_state is None
    rounds.report_duel_games(other, [x], time=True, user=judge)
    assert other.result_state == "confirmed" and rounds.match_progress(other).winner == x


def test_a_players_whole_report_of_one_game_is_not_a_complete_match(db, match):
    """The bug this fixes: "game 1 won, games 2 and 3 not played" made a complete 1-0 match to confirm."""
    _event, table, a, b = match
    rounds.report_duel_games(table, [a.id], reg=a)
    db.session.commit()
    assert table.result_state is None and rounds.match_progress(table).next_game == 2
    assert rounds.why_not_confirm(table, b.id, False) is not None
    rounds.report_duel_games(table, [b.id, b.id], reg=b)           # contradicts a's game 1: disputed
    assert table.result_state == "disputed"
    assert db.session.scalar(sa.select(sa.func.count()).select_from(ResultReport)) == 2


def test_a_dropped_player_cannot_start_the_next_game_nor_report(db, match, judge):
    from tournament.swaps import operations as swaps
    _event, table, a, b = match
    rounds.report_game(table, 1, a.id, reg=a)
    events.drop(b, judge)
    db.session.commit()
    with pytest.raises(Refused, match="dropped") as e:
        swaps.start_duel_game(table, 2, reg=b)
    assert e.value.status == 403
    with pytest.raises(Refused, match="dropped"):
        rounds.report_game(table, 2, b.id, reg=b)
    swaps.start_duel_game(table, 2, reg=a)


def test_a_repeat_with_time_of_a_decided_match_only_agrees(db, match):
    _event, table, a, b = match
    table.round.ends_at = utcnow() - timedelta(minutes=1)
    rounds.report_game(table, 1, a.id, reg=a)
    rounds.report_game(table, 2, a.id, reg=a)                  # 2-0: decided, a has agreed
    revision = table.result_revision
    rounds.report_game(table, 2, a.id, time=True, reg=b)       # b's phone: the same game, time ticked
    assert table.result_revision == revision and table.result_state == "confirmed"
    assert table.time_called_at is None
