"""The tracker through the real operations and database, ending in the table's result entry."""
import pytest
import sqlalchemy as sa

from sqlalchemy.orm.exc import StaleDataError

from tournament.cards.models import utcnow
from tournament.errors import Refused
from tournament.events import operations as events
from tournament.games import operations as games
from tournament.games.models import TrackerEvent, TrackerGame
from tournament.games.tracker import State, step
from tournament.rounds import operations as rounds

from tests.games.schemecards import scheme_list


@pytest.fixture
def started_round(db, make_event, make_player, judge):
    def make(n=4, **settings):
        event = make_event(**settings)
        regs = [make_player(event, f"Player {i:02d}") for i in range(1, n + 1)]
        for reg in regs:
            events.check_in(reg, judge)
        rnd = rounds.pair_next_round(event, judge, seed=1, override_decks=True)
        rounds.publish_round(rnd, judge)
        rounds.start_round(rnd, judge)
        db.session.commit()
        return event, regs, rnd
    return make


def pasted(cards):
    """A scheme deck pasted at the table: 20 real scheme cards, two of each (ongoing ones first)."""
    return {"source": "list", "text": scheme_list(cards["schemes"])}


def test_four_player_game_with_general_damage_and_a_dungeon(db, started_round, judge):
    event, regs, rnd = started_round()
    table = rnd.tables[0]
    a, b, c, d = [s.registration_id for s in table.seats]
    by_id = {r.id: r for r in regs}
    state = games.start_game(table, reg=by_id[a])
    assert state.setup.players == [a, b, c, d] and all(p.life == 40 for p in state.players.values())
    act = lambda kind, **p: games.apply_action(table, kind, p, reg=by_id[a])  # noqa: E731
    act("cast", owner=a)
    act("cast", owner=a)
    assert games.load_state(table).tax(a) == 4
    # a dungeon along a branching path
    act("venture", player=b, dungeon="lost_mine_of_phandelver")
    act("venture", player=b, room="goblin_lair")
    act("venture", player=b, room="dark_pool")
    s = act("venture", player=b)
    assert s.players[b].dungeon.completed == ["lost_mine_of_phandelver"]
    act("life", player=d, delta=-40)
    act("general_damage", victim=c, owner=a, amount=20)
    s = act("general_damage", victim=c, owner=a, amount=1)
    assert not s.players[c].alive
    act("life", player=b, delta=-40)
    s = games.load_state(table)
    assert s.over and s.summary()["general_damage_win"] is None    # the last out was life loss
    games.undo(table, reg=by_id[b])
    s = act("general_damage", victim=b, owner=a, amount=21)
    assert s.summary()["general_damage_win"] == a
    games.end_game(table, reg=by_id[a])
    db.session.commit()
    db.session.refresh(table)
    survived = {s.registration_id: s.survived for s in table.seats}
    assert survived == {a: True, b: False, c: False, d: False}
    order = {s.registration_id: s.eliminated_order for s in table.seats}
    assert order == {a: None, d: 1, c: 2, b: 3}
    assert {p.condition: p.holder_id for p in table.prize_claims} == {"general_damage_win": a}
    assert table.result_state == "reported"
    rows = db.session.execute(sa.select(TrackerEvent).where(TrackerEvent.table_id == table.id)).scalars().all()
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1)) and sum(r.undone for r in rows) == 1
    with pytest.raises(Refused, match="ended"):
        games.apply_action(table, "life", {"player": a, "delta": 1}, user=judge)


def test_archenemy_game_rotates_and_reports_the_team(db, started_round, judge, scheme_cards):
    event, regs, rnd = started_round()
    table = rnd.tables[0]
    seats = [s.registration_id for s in table.seats]
    with pytest.raises(Refused, match="no scheme cards"):
        games.start_game(table, variant="archenemy", scheme_decks={}, user=judge)
    suggested = games.suggested_archenemy(table)
    state = games.start_game(table, variant="archenemy", scheme_decks={suggested: pasted(scheme_cards)}, seed=5,
                             user=judge)
    boss = state.setup.archenemy
    ranks = {row.player: row.rank for row in rounds.standings(event)}
    assert boss == suggested == min(seats, key=lambda p: (ranks.get(p) or 10**9, seats.index(p)))  # nobody yet
    assert state.setup.players[0] == boss
    assert {p: q.life for p, q in state.players.items()} == {p: 40 if p == boss else 20 for p in seats}
    s = games.apply_action(table, "scheme", {"player": boss}, user=judge)
    assert s.players[boss].schemes.last is not None
    team = [p for p in seats if p != boss]
    with pytest.raises(Refused, match="no scheme deck"):
        games.apply_action(table, "scheme", {"player": team[0]}, user=judge)
    games.apply_action(table, "life", {"player": team[0], "delta": -20}, user=judge)
    games.apply_action(table, "life", {"player": boss, "delta": -40}, user=judge)
    games.end_game(table, user=judge)
    db.session.commit()
    db.session.refresh(table)
    assert {s.registration_id: s.survived for s in table.seats} == {boss: False, team[0]: False,
                                                                   team[1]: True, team[2]: True}
    assert table.result_state == "confirmed"
    # the next round's archenemy is someone who has not been one yet
    rounds.finish_round(rnd, judge)
    rnd2 = rounds.pair_next_round(event, judge, seed=2, override_decks=True)
    rounds.publish_round(rnd2, judge)
    db.session.commit()
    boss2 = games.suggested_archenemy(rnd2.tables[0])
    s2 = games.start_game(rnd2.tables[0], variant="archenemy", scheme_decks={boss2: {"source": "paper"}},
                          user=judge)
    assert s2.setup.archenemy != boss


def test_who_may_use_the_tracker(db, started_round, make_player):
    event, regs, rnd = started_round(8)
    t1, t2 = rnd.tables[0], rnd.tables[1]
    other = db.session.get(type(regs[0]), t2.seats[0].registration_id)
    with pytest.raises(Refused, match="Only the players"):
        games.start_game(t1, reg=other)
    assert db.session.execute(sa.select(TrackerEvent)).first() is None


def test_archenemy_event_scores_the_team_win(db, started_round, judge, organizer, scheme_cards):
    event, regs, rnd = started_round(variant="archenemy", scoring_profile="survival", team_win_points=2)
    assert event.variant == "archenemy" and event.archenemy_win_points == 3 and event.team_win_points == 2
    table = rnd.tables[0]
    seats = [s.registration_id for s in table.seats]
    state = games.start_game(table, scheme_decks={games.suggested_archenemy(table): pasted(scheme_cards)}, seed=3,
                             user=judge)
    assert state.setup.variant == "archenemy"            # the event's variant, not asked for
    boss = state.setup.archenemy
    assert table.archenemy_id == boss
    team = [p for p in seats if p != boss]
    games.apply_action(table, "life", {"player": team[0], "delta": -20}, user=judge)
    games.apply_action(table, "life", {"player": boss, "delta": -40}, user=judge)
    games.end_game(table, user=judge)
    db.session.commit()
    points = {row.player: row.points for row in rounds.standings(event)}
    assert points == {boss: 0.0, **{p: 2.0 for p in team}}     # the eliminated team member too
    # the organizer changes the points: the standings follow
    events.update_event(event, organizer, {"team_win_points": 5})
    assert {row.player: row.points for row in rounds.standings(event)} == {boss: 0.0, **{p: 5.0 for p in team}}


def test_a_normal_event_starts_normal_games_and_records_no_archenemy(db, started_round, judge):
    event, regs, rnd = started_round()
    table = rnd.tables[0]
    state = games.start_game(table, user=judge)
    assert state.setup.variant == "normal" and table.archenemy_id is None


def test_only_staff_change_the_archenemy_through_the_result(db, started_round, judge):
    event, regs, rnd = started_round()
    table = rnd.tables[0]
    a, b, c, d = [s.registration_id for s in table.seats]
    by_id = {r.id: r for r in regs}
    with pytest.raises(Refused) as info:
        rounds.report_pod_result(table, [a], reg=by_id[a], archenemy=a)
    assert info.value.field == "archenemy"
    rounds.report_pod_result(table, [a], user=judge, archenemy=a)
    assert table.archenemy_id == a
    rounds.report_pod_result(table, [a, b], user=judge)                      # KEEP by default
    assert table.archenemy_id == a
    assert {row.player: row.points for row in rounds.standings(event)}[a] == 2.0   # both sides alive: survive
    rounds.report_pod_result(table, [a], user=judge, archenemy=None)
    assert table.archenemy_id is None


def _snapshot(db, table):
    db.session.expire_all()
    return db.session.get(TrackerGame, table.id)


def _fold_rows(db, table):
    """The table's live events folded from scratch."""
    rows = db.session.execute(sa.select(TrackerEvent).where(TrackerEvent.table_id == table.id,
                                                            TrackerEvent.undone.is_(False))
                              .order_by(TrackerEvent.seq)).scalars().all()
    return games._replay(rows)


def test_every_write_keeps_the_snapshot_equal_to_the_fold(db, started_round, judge):
    event, regs, rnd = started_round()
    table = rnd.tables[0]
    a, b, c, d = [s.registration_id for s in table.seats]
    games.start_game(table, user=judge)
    db.session.commit()
    snap = _snapshot(db, table)
    assert (snap.seq, snap.last_seq) == (1, 1)
    for i in range(5):
        games.apply_action(table, "life", {"player": a, "delta": -1}, user=judge)
    games.apply_action(table, "cast", {"owner": b}, user=judge)
    games.undo(table, user=judge)
    games.undo(table, user=judge)
    db.session.commit()
    snap = _snapshot(db, table)
    assert (snap.seq, snap.last_seq) == (5, 7)         # the undone 6 and 7 keep their numbers
    s = games.apply_action(table, "life", {"player": c, "delta": -2}, user=judge)
    assert s.seq == 8 and s.log[-1].seq == 8
    db.session.commit()
    snap = _snapshot(db, table)
    folded = _fold_rows(db, table)
    assert (snap.seq, snap.last_seq) == (8, 8)
    assert State.from_snapshot(snap.state) == folded and folded.players[a].life == 36 and folded.players[b].casts == [0]
    assert games.load_state(table).to_json() == folded.to_json()
    games.end_game(table, user=judge)
    db.session.commit()
    snap = _snapshot(db, table)
    assert snap.state["ended"] is True and snap.seq == 9
    assert State.from_snapshot(snap.state) == _fold_rows(db, table)


def test_a_game_without_a_snapshot_or_with_a_stale_one_is_folded_once(db, started_round, judge):
    event, regs, rnd = started_round()
    table = rnd.tables[0]
    a = table.seats[0].registration_id
    games.start_game(table, user=judge)
    for _ in range(3):
        games.apply_action(table, "life", {"player": a, "delta": -1}, user=judge)
    db.session.commit()
    # a game started before snapshots existed
    db.session.execute(sa.delete(TrackerGame))
    db.session.commit()
    assert games.load_state(table).players[a].life == 37
    db.session.commit()
    assert _snapshot(db, table).seq == 4
    # an event stored without the snapshot (an older app process): the snapshot no longer matches
    db.session.add(TrackerEvent(table_id=table.id, seq=5, kind="life", payload={"player": a, "delta": -10},
                                actor="judge"))
    db.session.commit()
    assert games.load_state(table).players[a].life == 27
    s = games.apply_action(table, "life", {"player": a, "delta": 1}, user=judge)
    assert s.seq == 6 and s.players[a].life == 28
    db.session.commit()
    # an event undone behind the snapshot's back
    db.session.execute(sa.update(TrackerEvent).where(TrackerEvent.seq == 6).values(undone=True))
    db.session.commit()
    assert games.load_state(table).players[a].life == 27
    # a snapshot of another version is rebuilt too
    db.session.execute(sa.update(TrackerGame).values(state={"v": 0}))
    db.session.commit()
    assert games.load_state(table).players[a].life == 27
    db.session.commit()
    assert _snapshot(db, table).state["v"] == 1


def test_a_snapshot_write_that_lost_a_race_is_refused_not_lost(db, started_round, judge):
    """Writers take the table's lock; one that did not and read an older snapshot fails (and is retried)."""
    event, regs, rnd = started_round()
    table = rnd.tables[0]
    a = table.seats[0].registration_id
    games.start_game(table, user=judge)
    db.session.commit()
    snap, state = games._game(table, locked=True)
    db.session.connection().execute(sa.text("UPDATE tracker_game SET revision = revision + 1"))  # another writer
    new, clean = step(state, "life", {"player": a, "delta": -1})
    with pytest.raises(StaleDataError):
        games._append(table, snap, new, "life", clean, "judge", utcnow())
    db.session.rollback()
    assert games.load_state(table).players[a].life == 40
