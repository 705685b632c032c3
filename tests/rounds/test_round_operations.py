"""Rounds through the real operations and database: pairing, publishing, results, votes, standings."""
import pytest
import sqlalchemy as sa

from tournament.errors import Refused
from tournament.events import operations as events
from tournament.events.models import AuditEntry
from tournament.rounds import operations as rounds
from tournament.rounds.models import Seat, Vote


@pytest.fixture
def pods_event(db, make_event, make_player, judge):
    def make(n=9, **settings):
        event = make_event(**settings)
        regs = [make_player(event, f"Player {i:02d}") for i in range(1, n + 1)]
        for reg in regs:
            events.check_in(reg, judge)
        db.session.commit()
        return event, regs
    return make


def seated(table):
    return [s.registration_id for s in table.seats]


def test_pair_publish_report_confirm_and_standings(db, pods_event, judge):
    event, regs = pods_event(8)
    rnd = rounds.pair_next_round(event, judge, seed=42, override_decks=True)
    db.session.commit()
    assert rnd.status == "draft" and [t.kind for t in rnd.tables] == ["pod", "pod"]
    assert sorted(len(t.seats) for t in rnd.tables) == [4, 4]
    assert any("4" in line for line in rounds.why_lines(rnd))
    by_id = {r.id: r for r in regs}
    table = rnd.tables[0]
    a, b, c, d = seated(table)
    with pytest.raises(Refused, match="Publish the round"):
        rounds.report_pod_result(table, [a], reg=by_id[a])
    rounds.publish_round(rnd, judge)
    rounds.start_round(rnd, judge)
    assert rnd.ends_at is not None and table.started_at is not None
    rounds.report_pod_result(table, [a, b], [d, c], reg=by_id[a])
    assert table.result_state == "reported"
    for voter, votee in ((a, b), (b, a), (c, a)):
        rounds.cast_vote(table, voter, votee, reg=by_id[voter])
    assert not rounds.votes_visible(table)
    rounds.cast_vote(table, d, a, reg=by_id[d])
    assert rounds.votes_visible(table)
    for p in (b, c, d):
        rounds.confirm_result(table, by_id[p])
    assert table.result_state == "confirmed"
    with pytest.raises(Refused, match="missing"):
        rounds.finish_round(rnd, judge)
    other = rnd.tables[1]
    rounds.report_pod_result(other, seated(other)[:1], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()
    rows = {r.player: r for r in rounds.standings(event)}
    assert rows[a].points == 2 + 3       # survived, three votes
    assert rows[b].points == 2 + 1
    assert rows[c].points == 0 and rows[d].points == 0
    assert rows[seated(other)[0]].points == 2


def test_votes_are_validated(db, pods_event, judge):
    event, regs = pods_event(8)
    rnd = rounds.pair_next_round(event, judge, seed=1, override_decks=True)
    rounds.publish_round(rnd, judge)
    t1, t2 = rnd.tables
    by_id = {r.id: r for r in regs}
    a, b = seated(t1)[:2]
    with pytest.raises(Refused, match="not yourself"):
        rounds.cast_vote(t1, a, a, reg=by_id[a])
    with pytest.raises(Refused, match="at this table"):
        rounds.cast_vote(t1, a, seated(t2)[0], reg=by_id[a])
    with pytest.raises(Refused, match="your own vote"):
        rounds.cast_vote(t1, b, a, reg=by_id[a])
    with pytest.raises(Refused, match="players at this table"):
        rounds.cast_vote(t1, a, b, reg=by_id[seated(t2)[0]])
    rounds.cast_vote(t1, a, b, reg=by_id[a])
    rounds.cast_vote(t1, a, seated(t1)[2], reg=by_id[a])
    db.session.commit()
    assert db.session.execute(sa.select(sa.func.count()).select_from(Vote)).scalar() == 1


def test_staff_correction_is_logged_and_confirmed_results_need_a_judge(db, pods_event, judge):
    event, regs = pods_event(4)
    rnd = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
    rounds.publish_round(rnd, judge)
    table = rnd.tables[0]
    by_id = {r.id: r for r in regs}
    ids = seated(table)
    rounds.report_pod_result(table, ids[:1], reg=by_id[ids[0]])
    for p in ids[1:]:
        rounds.confirm_result(table, by_id[p])
    with pytest.raises(Refused, match="ask a judge"):
        rounds.report_pod_result(table, ids[:2], reg=by_id[ids[1]])
    rounds.report_pod_result(table, ids[:2], user=judge)
    db.session.commit()
    entry = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "result.correct")).scalar_one()
    assert entry.actor == "judge:Jan Judge"
    assert entry.details["before"]["survivors"] == [ids[0]]
    assert sorted(entry.details["after"]["survivors"]) == sorted(ids[:2])


def test_swap_seats_in_the_draft_and_at_tables_without_a_result(db, pods_event, judge):
    event, _regs = pods_event(8)
    rnd = rounds.pair_next_round(event, judge, seed=5, override_decks=True)
    db.session.commit()
    t1, t2 = rnd.tables
    x, y = seated(t1)[0], seated(t2)[2]
    rounds.swap_seats(rnd, judge, x, y)
    db.session.commit()
    db.session.expire_all()
    place = {s.registration_id: (s.table.number, s.seat) for s in db.session.execute(sa.select(Seat)).scalars()}
    assert place[x] == (t2.number, 3) and place[y] == (t1.number, 1)
    assert db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "round.swap_seats")).scalar_one()
    rounds.publish_round(rnd, judge)
    rounds.report_pod_result(t1, seated(t1)[:1], user=judge)
    with pytest.raises(Refused, match="already has a result entered"):
        rounds.swap_seats(rnd, judge, x, y)


def test_dropped_players_are_not_paired_and_late_entries_are(db, pods_event, make_player, judge):
    event, regs = pods_event(9)
    rnd = rounds.pair_next_round(event, judge, seed=9, override_decks=True)
    rounds.publish_round(rnd, judge)
    for t in rnd.tables:
        rounds.report_pod_result(t, seated(t)[:1], user=judge)
    rounds.finish_round(rnd, judge)
    events.drop(regs[0], judge)
    late = make_player(event, "Late Lucy", staff=judge)
    events.check_in(late, judge)
    db.session.commit()
    assert late.late
    before = {r.player: r.points for r in rounds.standings(event)}
    rnd2 = rounds.pair_next_round(event, judge, seed=10, override_decks=True)
    ids = {p for t in rnd2.tables for p in seated(t)}
    assert regs[0].id not in ids and late.id in ids
    assert {r.player: r.points for r in rounds.standings(event)} == before


def test_cannot_pair_while_a_round_is_open(db, pods_event, judge):
    event, _ = pods_event(4)
    rounds.pair_next_round(event, judge, seed=1, override_decks=True)
    with pytest.raises(Refused, match="not finished"):
        rounds.pair_next_round(event, judge, seed=2, override_decks=True)


def test_duel_games_and_mtr_points(db, make_event, make_player, judge):
    event = make_event(mode="duel", ruleset="duel-cn")
    regs = [make_player(event, f"Duelist {i}") for i in range(5)]
    for r in regs:
        events.check_in(r, judge)
    rnd = rounds.pair_next_round(event, judge, seed=7, override_decks=True)
    kinds = sorted(t.kind for t in rnd.tables)
    assert kinds == ["bye", "match", "match"]
    rounds.publish_round(rnd, judge)
    m1, m2 = [t for t in rnd.tables if t.kind == "match"]
    a, b = seated(m1)
    with pytest.raises(Refused, match="Game 3 cannot be played: the match was already won 2–0."):
        rounds.report_duel_games(m1, [a, a, b], user=judge)
    rounds.report_duel_games(m1, [a, b, a], user=judge)
    c, d = seated(m2)
    rounds.report_duel_games(m2, [c, None], user=judge)          # 1-0-1: the match goes on
    assert m2.result_state is None and rounds.match_progress(m2).next_game == 3
    rounds.report_duel_games(m2, [c, None], time=True, user=judge)   # time was called: 1-0-1 stands
    rounds.finish_round(rnd, judge)
    db.session.commit()
    rows = {r.player: r for r in rounds.standings(event)}
    bye = seated([t for t in rnd.tables if t.kind == "bye"][0])[0]
    assert rows[a].points == 3 and rows[b].points == 0
    assert rows[c].points == 3
    assert rows[bye].points == 3


def test_no_results_on_a_draft_and_staff_can_confirm(db, pods_event, judge):
    event, regs = pods_event(4)
    rnd = rounds.pair_next_round(event, judge, seed=11, override_decks=True)
    table = rnd.tables[0]
    with pytest.raises(Refused, match="Publish the round"):
        rounds.report_pod_result(table, seated(table)[:1], user=judge)
    rounds.publish_round(rnd, judge)
    by_id = {r.id: r for r in regs}
    rounds.report_pod_result(table, seated(table)[:1], reg=by_id[seated(table)[0]])
    rounds.confirm_result(table, user=judge)
    db.session.commit()
    assert table.result_state == "confirmed"
    assert db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "result.confirm")).scalar_one()
