"""Correcting the seats after a round is published: move, swap, seat a late arrival, remove a no-show, unpublish
and pair again; the rules of what a table holds (pure), the operations, their refusals, the pairing history."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from tournament.errors import Refused
from tournament.events import operations as events
from tournament.events.models import AuditEntry, Event
from tournament.rounds import operations as rounds
from tournament.rounds.models import GameTable, Round, Seat
from tournament.rounds.pairing.corrections import capacity, placed, seat_range, shape
from tournament.rounds.pairing.inputs import table_history


# ----------------------------------------------------------------- the rules, pure

def test_the_rules_of_a_corrected_table():
    assert placed([1, 2, 3], 9, None) == [1, 2, 3, 9]
    assert placed([1, 2, 3], 9, 1) == [9, 1, 2, 3]
    assert placed([1, 2, 3], 9, 3) == [1, 2, 9, 3]
    assert placed([1, 2, 3, 4], 1, 4) == [2, 3, 4, 1]         # a move within the table
    assert placed([], 9, None) == [9]
    assert seat_range(4, same_table=False) == (1, 5) and seat_range(4, same_table=True) == (1, 4)
    assert capacity("pods", 4) == 5 and capacity("duel", 4) == 2
    assert [shape("pods", n).kind for n in (0, 1, 2, 4)] == [None, "bye", "pod", "pod"]
    assert [shape("duel", n).kind for n in (0, 1, 2)] == [None, "bye", "match"]


# ----------------------------------------------------------------- fixtures and helpers

@pytest.fixture
def published(db, make_event, make_player, judge):
    """8 checked-in players in two pods of 4, round 1 published; `late` registered but not checked in."""
    def make(n=8, **settings):
        event = make_event(name="Seating night", **settings)
        regs = [make_player(event, f"Player {i}") for i in range(1, n + 1)]
        for reg in regs:
            events.check_in(reg, judge)
        late = make_player(event, "Late <b>Larry</b>")
        rnd = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
        rounds.publish_round(rnd, judge)
        db.session.commit()
        return event, rnd, regs, late
    return make


def layout(db, rnd) -> dict[int, list[int]]:
    """{table number: players in seat order} as stored."""
    db.session.expire_all()
    rows = db.session.execute(sa.select(GameTable.number, Seat.registration_id, Seat.seat).join(Seat)
                              .where(GameTable.round_id == rnd.id).order_by(GameTable.number, Seat.seat)).all()
    out: dict[int, list[int]] = {}
    for number, player, seat in rows:
        out.setdefault(number, []).append(player)
        assert seat == len(out[number]), "seats have no gaps"
    return out


def kinds(db, rnd) -> dict[int, str]:
    db.session.expire_all()
    return dict(db.session.execute(sa.select(GameTable.number, GameTable.kind).where(GameTable.round_id == rnd.id)).all())


def entries(db, action) -> list[AuditEntry]:
    return list(db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == action)
                                   .order_by(AuditEntry.id)).scalars())


def version(db, event) -> int:
    db.session.expire_all()
    return db.session.get(Event, event.id).state_version


# ----------------------------------------------------------------- the operations

def test_move_to_another_table_and_seat_is_logged_and_noted(db, published, judge):
    event, rnd, regs, _late = published()
    before = layout(db, rnd)
    mover = before[1][1]
    v0 = version(db, event)
    table = rounds.move_player(rnd, judge, mover, 2, 2)
    db.session.commit()
    after = layout(db, rnd)
    assert table.number == 2
    assert after[1] == [p for p in before[1] if p != mover]                 # the gap closed
    assert after[2] == [before[2][0], mover, *before[2][1:]]                # seat 2; the others one seat down
    assert kinds(db, rnd) == {1: "pod", 2: "pod"}
    entry = entries(db, "round.seating.move")[-1]
    assert entry.actor == "judge:Jan Judge" and entry.at is not None
    assert entry.details == {"round": 1, "registration": mover, "table": 2, "seat": 2, "before": [1, 2]}
    line = rounds.why_lines(db.session.get(Round, rnd.id))[-1]
    name = db.session.get(events.Registration, mover).name
    assert line == f"Jan Judge moved {name} from table 1, seat 2, to table 2, seat 2."
    assert version(db, event) > v0                    # open phones and the projector refresh
    assert db.session.get(Round, rnd.id).seating_revision == 1


def test_move_within_the_table_and_to_a_new_table(db, published, judge):
    event, rnd, _regs, _late = published()
    before = layout(db, rnd)
    first = before[1][0]
    rounds.move_player(rnd, judge, first, 1, 4)
    db.session.commit()
    assert layout(db, rnd)[1] == [*before[1][1:], first]
    new = rounds.move_player(rnd, judge, first, None)
    db.session.commit()
    assert new.number == 3
    assert layout(db, rnd)[3] == [first] and kinds(db, rnd)[3] == "bye"
    name = db.session.get(events.Registration, first).name
    assert rounds.why_lines(db.session.get(Round, rnd.id))[-2:] == [
        f"Jan Judge moved {name} from table 1, seat 1, to table 1, seat 4.",
        f"Jan Judge moved {name} from table 1, seat 4, to table 3, seat 1."]      # alone at table 3: a bye
    # a second player joins it: a pod of 2
    other = before[2][0]
    rounds.move_player(rnd, judge, other, 3)
    db.session.commit()
    assert layout(db, rnd)[3] == [first, other] and kinds(db, rnd)[3] == "pod"


def test_late_arrival_is_checked_in_and_seated(db, published, judge):
    event, rnd, _regs, late = published()
    assert late.checked_in_at is None
    table = rounds.seat_late_arrival(rnd, judge, late.id, 1)
    db.session.commit()
    assert table.number == 1 and layout(db, rnd)[1][-1] == late.id and len(layout(db, rnd)[1]) == 5
    db.session.expire_all()
    assert db.session.get(events.Registration, late.id).checked_in_at is not None
    assert entries(db, "checkin")[-1].details["registration"] == late.id
    assert rounds.why_lines(db.session.get(Round, rnd.id))[-1] == \
        "Jan Judge seated Late <b>Larry</b>, who arrived late, at table 1, seat 5."
    # a table of 5 is full in an event of pods of 4
    other = events.register_player(event, {"name": "Even Later"}, user=judge)
    db.session.commit()
    with pytest.raises(Refused, match="Table 1 is full") as e:
        rounds.seat_late_arrival(rnd, judge, other.id, 1)
    assert e.value.status == 409
    db.session.rollback()
    table = rounds.seat_late_arrival(rnd, judge, other.id, None)     # alone at a new table: a bye for now
    db.session.commit()
    assert kinds(db, rnd)[table.number] == "bye" and layout(db, rnd)[table.number] == [other.id]


def test_remove_a_no_show_for_this_round_or_drop_them(db, published, judge):
    event, rnd, _regs, _late = published(n=9)        # 3 pods of 3
    before = layout(db, rnd)
    t = next(n for n, p in before.items() if len(p) == 3)
    gone, dropped = before[t][0], before[t][1]
    rounds.remove_player(rnd, judge, gone)
    db.session.commit()
    assert layout(db, rnd)[t] == before[t][1:]
    assert db.session.get(events.Registration, gone).dropped_at is None       # paired again next round
    rounds.remove_player(rnd, judge, dropped, drop_player=True)
    db.session.commit()
    assert layout(db, rnd)[t] == before[t][2:] and kinds(db, rnd)[t] == "bye"
    assert db.session.get(events.Registration, dropped).dropped_at is not None
    assert entries(db, "drop")[-1].details["registration"] == dropped
    lines = rounds.why_lines(db.session.get(Round, rnd.id))
    assert lines[-1] == f"Table {t} has one player left: a bye."
    assert "and dropped them from the event" in lines[-2] and "for this round only" in lines[-3]
    # the last one leaves too: the table is removed
    rounds.remove_player(rnd, judge, before[t][2])
    db.session.commit()
    assert t not in layout(db, rnd)
    assert rounds.why_lines(db.session.get(Round, rnd.id))[-1] == f"Table {t} is empty and was removed."


def test_a_swap_after_publishing_is_noted(db, published, judge):
    event, rnd, _regs, _late = published()
    before = layout(db, rnd)
    a, b = before[1][0], before[2][3]
    rounds.swap_seats(rnd, judge, a, b)
    db.session.commit()
    after = layout(db, rnd)
    assert after[1][0] == b and after[2][3] == a
    assert entries(db, "round.seating.swap")[-1].details["players"] == [a, b]
    assert "swapped" in rounds.why_lines(db.session.get(Round, rnd.id))[-1]


def test_unpublish_and_pair_again_until_a_result_is_entered(db, published, judge, make_player):
    event, rnd, _regs, _late = published()
    seed = rnd.seed
    again = rounds.unpublish_and_pair_again(rnd, judge)
    db.session.commit()
    assert again.number == 1 and again.status == "draft" and again.seed != seed
    assert db.session.execute(sa.select(sa.func.count()).select_from(Round)).scalar() == 1
    assert rounds.why_lines(again)[0] == (f"Round 1 was published, then unpublished by Jan Judge and paired again "
                                          f"(the first pairing's seed was {seed}).")
    assert entries(db, "round.unpublish")[-1].details["seed"] == seed
    assert rounds.current_round(event) is None          # players see no round until it is published again
    with pytest.raises(Refused, match="is a draft"):
        rounds.unpublish_and_pair_again(again, judge)
    db.session.rollback()
    rounds.publish_round(again, judge)
    table = again.tables[1]
    rounds.report_pod_result(table, [table.seats[0].registration_id], reg=table.seats[0].registration)
    db.session.commit()
    with pytest.raises(Refused, match=f"a result is already entered at table {table.number}") as e:
        rounds.unpublish_and_pair_again(again, judge)
    assert e.value.status == 409


def test_bad_inputs_are_refused_and_change_nothing(db, published, make_event, make_player, judge):
    event, rnd, regs, late = published()
    stranger_event = make_event(name="Another event")
    stranger = make_player(stranger_event, "Stranger")
    db.session.commit()
    seated = layout(db, rnd)
    mover = seated[1][0]
    cases = [
        (lambda: rounds.move_player(rnd, judge, mover, 2, 6), 400, "seat", "Table 2 takes seat 1 to 5"),
        (lambda: rounds.move_player(rnd, judge, mover, 1, 5), 400, "seat", "Table 1 takes seat 1 to 4"),
        (lambda: rounds.move_player(rnd, judge, mover, 1, 1), 409, "seat", "already sits at table 1, seat 1"),
        (lambda: rounds.move_player(rnd, judge, mover, 9), 400, "table", "Round 1 has no table 9"),
        (lambda: rounds.move_player(rnd, judge, late.id, 2), 400, "player", "is not seated in round 1"),
        (lambda: rounds.move_player(rnd, judge, stranger.id, 2), 400, "player", "is not registered in this event"),
        (lambda: rounds.move_player(rnd, judge, 2**31 + 5, 2), 400, "player", "is not registered in this event"),
        (lambda: rounds.seat_late_arrival(rnd, judge, mover, 2), 409, "player", "is already seated in round 1"),
        (lambda: rounds.seat_late_arrival(rnd, judge, stranger.id, 2), 400, "player", "not registered in this"),
        (lambda: rounds.remove_player(rnd, judge, stranger.id), 400, "player", "not registered in this event"),
        (lambda: rounds.remove_player(rnd, judge, late.id), 400, "player", "is not seated"),
        (lambda: rounds.swap_seats(rnd, judge, mover, stranger.id), 400, None, "Choose two different players"),
        (lambda: rounds.move_player(rnd, judge, mover, 2, seen=7), 409, "revision", "changed after you loaded it"),
    ]
    for run, status, field, message in cases:
        with pytest.raises(Refused) as e:
            run()
        assert (e.value.status, e.value.field) == (status, field) and message in e.value.message, e.value.message
        db.session.rollback()
    assert layout(db, rnd) == seated and db.session.get(Round, rnd.id).seating_revision == 0
    # a player who dropped is brought back at the desk before being seated
    events.drop(late, judge)
    db.session.commit()
    with pytest.raises(Refused, match="has dropped from the event"):
        rounds.seat_late_arrival(rnd, judge, late.id, 2)
    db.session.rollback()
    # a table with a result keeps its seats; the other table can still change
    t1 = db.session.execute(sa.select(GameTable).where(GameTable.round_id == rnd.id, GameTable.number == 1)).scalar()
    rounds.report_pod_result(t1, [mover], reg=db.session.get(events.Registration, mover))
    newcomer = events.register_player(event, {"name": "Newcomer"}, user=judge)
    db.session.commit()
    for run in (lambda: rounds.move_player(rnd, judge, mover, 2), lambda: rounds.move_player(rnd, judge, seated[2][0], 1),
                lambda: rounds.remove_player(rnd, judge, mover), lambda: rounds.seat_late_arrival(rnd, judge, newcomer.id, 1),
                lambda: rounds.swap_seats(rnd, judge, mover, seated[2][0])):
        with pytest.raises(Refused, match="Table 1 already has a result entered") as e:
            run()
        assert e.value.status == 409
        db.session.rollback()
    rounds.move_player(rnd, judge, seated[2][0], 2, 4)
    db.session.commit()
    # a finished round keeps its seats
    rounds.report_pod_result(db.session.get(GameTable, db.session.execute(
        sa.select(GameTable.id).where(GameTable.round_id == rnd.id, GameTable.number == 2)).scalar()),
        [seated[2][1]], user=judge)
    rounds.finish_round(db.session.get(Round, rnd.id), judge, accept_unconfirmed=True)
    db.session.commit()
    with pytest.raises(Refused, match="is finished"):
        rounds.move_player(db.session.get(Round, rnd.id), judge, seated[2][1], 1)


def test_a_1v1_match_has_two_seats(db, published, judge):
    event, rnd, _regs, late = published(n=6, mode="duel", ruleset="duel-cn")
    before = layout(db, rnd)
    assert kinds(db, rnd) == {1: "match", 2: "match", 3: "match"}
    with pytest.raises(Refused, match="Table 2 is full"):
        rounds.move_player(rnd, judge, before[1][0], 2)
    db.session.rollback()
    rounds.move_player(rnd, judge, before[1][0], None)       # its opponent has a bye now
    db.session.commit()
    assert kinds(db, rnd) == {1: "bye", 2: "match", 3: "match", 4: "bye"}
    rounds.seat_late_arrival(rnd, judge, late.id, 4)
    db.session.commit()
    assert kinds(db, rnd)[4] == "match" and layout(db, rnd)[4] == [before[1][0], late.id]


def test_the_pairing_history_follows_the_corrected_tables(db, published, judge):
    event, rnd, _regs, _late = published()
    before = layout(db, rnd)
    a, b = before[1][0], before[2][0]
    rounds.swap_seats(rnd, judge, a, b)
    db.session.commit()
    for t in db.session.get(Round, rnd.id).tables:
        rounds.report_pod_result(t, [t.seats[0].registration_id], user=judge)
    rounds.finish_round(db.session.get(Round, rnd.id), judge)
    db.session.commit()
    history = table_history(rounds.queries._load_tables(event, finished_only=True), event.pod_size)
    assert set(history.opponents[a]) == set(before[2][1:])       # a played table 2, not table 1
    assert set(history.opponents[b]) == set(before[1][1:])
    assert not set(history.opponents[a]) & set(before[1])


def test_the_top_cut_takes_swaps_only(db, published, judge):
    event, rnd, _regs, _late = published(top_cut=4)
    for t in rnd.tables:
        rounds.report_pod_result(t, [t.seats[0].registration_id], user=judge)
    rounds.finish_round(rnd, judge)
    cut = rounds.pair_top_cut_round(event, judge)
    rounds.publish_round(cut, judge)
    db.session.commit()
    player = cut.tables[0].seats[0].registration_id
    with pytest.raises(Refused, match="The top cut's tables follow the seeds"):
        rounds.move_player(cut, judge, player, None)
    db.session.rollback()
    again = rounds.unpublish_and_pair_again(cut, judge)
    db.session.commit()
    assert again.stage == cut.stage and again.status == "draft"
