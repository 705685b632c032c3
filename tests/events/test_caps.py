"""The player cap and its waitlist, the paid mark and the entry-fee note, and rounds and cut suggested by
attendance: the operations and the data table."""
from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from tournament.errors import Refused
from tournament.events import operations as ops
from tournament.events.models import AuditEntry, Registration
from tournament.events.structure import DATA, suggest, table
from tournament.rounds import operations as rounds


def names(event, **where):
    stmt = sa.select(Registration.name).where(Registration.event_id == event.id).order_by(Registration.id)
    for key, value in where.items():
        stmt = stmt.where(getattr(Registration, key) == value)
    from tournament.extensions import db
    return list(db.session.execute(stmt).scalars())


def actions(db, event, action):
    return [e.details for e in db.session.execute(sa.select(AuditEntry).where(
        AuditEntry.event_id == event.id, AuditEntry.action == action).order_by(AuditEntry.id)).scalars()]


@pytest.fixture
def capped(make_event, make_player):
    """A pods event with 3 places: Anna, Ben, Cyril hold them; Dana and Emil wait (1 and 2)."""
    event = make_event(name="Capped", player_cap=3, entry_fee="€10, cash or card")
    regs = [make_player(event, n) for n in ("Anna", "Ben", "Cyril", "Dana", "Emil")]
    return event, regs


def test_players_past_the_cap_wait_in_order_with_their_place(db, capped):
    event, (anna, ben, cyril, dana, emil) = capped
    assert [r.waitlisted for r in (anna, ben, cyril, dana, emil)] == [False, False, False, True, True]
    assert [ops.waitlist_place(r) for r in (anna, dana, emil)] == [None, 1, 2]
    assert [d["place"] for d in actions(db, event, "waitlist.join")] == [1, 2]
    counters = ops.event_counters(event)
    assert counters["registered"] == 3 and counters["waitlisted"] == 2 and counters["missing_decks"] == 3
    assert ops.places_left(event) == 0


def test_a_drop_before_round_1_promotes_the_first_waiting_player_logged(db, capped, judge):
    event, (anna, ben, cyril, dana, emil) = capped
    version = ops.state_version(event.id)
    ops.drop(ben, judge)
    db.session.commit()
    assert not dana.waitlisted and dana.promoted_at is not None and emil.waitlisted
    assert ops.waitlist_place(emil) == 1
    assert actions(db, event, "waitlist.promote") == [{"registration": dana.id, "after_drop": ben.id}]
    assert ops.state_version(event.id) > version          # open phones refresh
    ops.check_in(dana, judge)                              # she holds a place now
    # a waiting player who leaves frees nobody's place; the next in line moves up
    ops.drop_self(emil, True)
    db.session.commit()
    assert ops.waitlist_place(emil) is None and names(event, waitlisted=True) == ["Emil"]
    assert len(actions(db, event, "waitlist.promote")) == 1


def test_a_player_dropping_themselves_frees_their_place(db, capped):
    event, (anna, _ben, _cyril, dana, _emil) = capped
    ops.drop_self(anna, True)
    db.session.commit()
    assert not dana.waitlisted
    assert actions(db, event, "waitlist.promote")[0]["registration"] == dana.id


def test_waitlisted_players_cannot_check_in_and_are_never_paired(db, capped, judge):
    event, (anna, ben, cyril, dana, emil) = capped
    with pytest.raises(Refused) as refused:
        ops.check_in(dana, judge)
    assert refused.value.status == 409 and "number 1 on the waitlist" in refused.value.message
    for reg in (anna, ben, cyril):
        ops.check_in(reg, judge)
    dana.checked_in_at = dana.created_at          # even checked in by an older import, a waiting player is not seated
    db.session.commit()
    assert ops.event_counters(event)["checked_in"] == 3
    rnd = rounds.pair_next_round(event, judge, seed=1, override_decks=True)
    seated = {s.registration_id for t in rnd.tables for s in t.seats}
    assert seated == {anna.id, ben.id, cyril.id}


def test_after_round_1_a_drop_promotes_nobody_but_a_higher_cap_does(db, capped, judge, organizer):
    event, (anna, ben, cyril, dana, emil) = capped
    for reg in (anna, ben, cyril):
        ops.check_in(reg, judge)
    rounds.pair_next_round(event, judge, seed=1, override_decks=True)
    ops.drop(ben, judge)
    db.session.commit()
    assert dana.waitlisted and emil.waitlisted
    ops.update_event(event, organizer, {"player_cap": 5})
    db.session.commit()
    assert not dana.waitlisted and not emil.waitlisted
    assert [d["cap"] for d in actions(db, event, "waitlist.promote")] == [5, 5]


def test_raising_the_cap_lets_in_as_many_as_it_frees_and_no_cap_lets_in_everyone(db, capped, organizer,
                                                                                make_player):
    event, (_a, _b, _c, dana, emil) = capped
    ops.update_event(event, organizer, {"player_cap": 4})
    db.session.commit()
    assert not dana.waitlisted and emil.waitlisted
    ops.update_event(event, organizer, {"player_cap": None})
    db.session.commit()
    assert not emil.waitlisted
    assert not make_player(event, "Filip").waitlisted


def test_a_cap_below_the_players_holding_a_place_is_refused(db, capped, organizer):
    event, _regs = capped
    with pytest.raises(Refused) as refused:
        ops.update_event(event, organizer, {"player_cap": 2})
    assert refused.value.status == 409 and refused.value.field == "player_cap"
    assert "3 players hold a place already" in refused.value.message
    db.session.rollback()
    assert event.player_cap == 3
    ops.update_event(event, organizer, {"player_cap": 3, "venue": "Shop"})     # the same cap again: fine
    db.session.commit()


@pytest.mark.parametrize("cap", [0, -1, 50_001, 10**30, 2.5, "12", True, [], {"a": 1}])
def test_bad_caps_are_refused_in_words(db, make_event, organizer, cap):
    event = make_event()
    with pytest.raises(Refused) as refused:
        ops.update_event(event, organizer, {"player_cap": cap})
    assert refused.value.field == "player_cap"
    assert "The player cap must be a whole number from 1 to 50000" in refused.value.message
    with pytest.raises(Refused):
        ops.create_event(organizer, {"name": "X", "ruleset": "edh-2010", "player_cap": cap})


def test_entry_fee_is_clean_text(db, make_event, organizer):
    event = make_event(entry_fee="  <b>€10</b> ")
    assert event.entry_fee == "<b>€10</b>"
    ops.update_event(event, organizer, {"entry_fee": ""})
    assert event.entry_fee is None
    for bad in ("x" * 201, "a\x00b", 5):
        with pytest.raises(Refused) as refused:
            ops.update_event(event, organizer, {"entry_fee": bad})
        assert refused.value.field == "entry_fee"


def test_undrop_past_the_cap_is_refused_until_the_cap_is_raised(db, capped, judge, organizer):
    event, (_anna, ben, _cyril, dana, _emil) = capped
    ops.drop(ben, judge)
    db.session.commit()
    with pytest.raises(Refused) as refused:
        ops.drop(ben, judge, undo=True)
    assert refused.value.status == 409 and "raise the player cap" in refused.value.message
    db.session.rollback()
    ops.update_event(event, organizer, {"player_cap": 4})     # the new place goes to Emil, who waited
    db.session.commit()
    with pytest.raises(Refused):
        ops.drop(ben, judge, undo=True)                      # Anna, Cyril, Dana, Emil: still full
    db.session.rollback()
    ops.update_event(event, organizer, {"player_cap": 5})
    ops.drop(ben, judge, undo=True)
    db.session.commit()
    assert ben.dropped_at is None and not ben.waitlisted


def test_self_registration_stops_when_as_many_wait_as_the_cap_but_the_desk_can_add(db, make_event, make_player,
                                                                                  judge):
    event = make_event(player_cap=2)
    for n in ("A", "B", "C", "D"):
        make_player(event, n)
    with pytest.raises(Refused) as refused:
        make_player(event, "E")
    assert refused.value.status == 409 and "2 players are already on its waitlist" in refused.value.message
    db.session.rollback()
    late = make_player(event, "E", staff=judge)
    assert late.waitlisted and ops.waitlist_place(late) == 3


def test_paid_mark_toggles_once_and_is_logged(db, capped, judge):
    event, (anna, *_rest) = capped
    ops.mark_paid(anna, judge)
    ops.mark_paid(anna, judge)                      # a second tap changes nothing
    db.session.commit()
    assert anna.paid_at is not None and ops.event_counters(event)["paid"] == 1
    ops.mark_paid(anna, judge, undo=True)
    db.session.commit()
    assert anna.paid_at is None
    assert [e.action for e in db.session.execute(sa.select(AuditEntry).where(
        AuditEntry.action.in_(["paid", "paid.undo"])).order_by(AuditEntry.id)).scalars()] == ["paid", "paid.undo"]


def test_paid_mark_is_staff_only(db, capped, make_user):
    event, (anna, *_rest) = capped
    stranger = make_user("Otto Other", "organizer")
    with pytest.raises(Refused):
        ops.mark_paid(anna, stranger)


def test_csv_import_past_the_cap_puts_the_rest_on_the_waitlist(db, make_event, organizer):
    from tournament.events import exchange_ops
    event = make_event(player_cap=2)
    result = exchange_ops.import_players(event, organizer, "name\nA\nB\nC\nD\n".encode())
    db.session.commit()
    assert [r.waitlisted for r in result.registrations] == [False, False, True, True]
    assert [ops.waitlist_place(r) for r in result.registrations[2:]] == [1, 2]


def test_exports_carry_the_cap_fee_paid_and_waitlist(db, capped, judge):
    from tournament.events import exchange_ops
    event, (anna, *_rest) = capped
    ops.mark_paid(anna, judge)
    db.session.commit()
    document = json.loads(exchange_ops.export_event(event, judge, "json").data)
    assert document["settings"]["player_cap"] == 3 and document["settings"]["entry_fee"] == "€10, cash or card"
    players = {p["name"]: p for p in document["players"]}
    assert players["Anna"]["paid_at"] and not players["Ben"]["paid_at"]
    assert players["Dana"]["waitlisted"] and not players["Anna"]["waitlisted"]
    csv_text = exchange_ops.export_event(event, judge, "csv").data.decode("utf-8-sig")
    header, first = csv_text.splitlines()[:2]
    assert "waitlisted,paid" in header and first.startswith("Anna,") and ",no,yes," in first


def test_import_keeps_the_waitlist_and_paid_marks(db, capped, judge, make_user):
    from tournament.events import exchange_ops
    event, (anna, *_rest) = capped
    ops.mark_paid(anna, judge)
    db.session.commit()
    data = exchange_ops.export_event(event, judge, "json").data
    db.session.delete(event)
    db.session.commit()
    copy = exchange_ops.import_event(make_user("Ingrid Importer"), data).event
    db.session.commit()
    regs = {r.name: r for r in copy.registrations}
    assert regs["Anna"].paid_at is not None and regs["Dana"].waitlisted and copy.player_cap == 3


# ----------------------------------------------------------------- rounds and cut by attendance

def test_the_table_covers_every_attendance_once_and_cites_its_source():
    data = table()
    assert "topdeck" in data["source"].lower() and "Appendix E" in data["source"]
    assert json.loads(DATA.read_text(encoding="utf-8")) == data


@pytest.mark.parametrize("mode,players,rounds_,cut", [
    ("pods", 12, 3, 4), ("pods", 17, 3, 4), ("pods", 34, 3, 4), ("pods", 35, 4, 10), ("pods", 64, 4, 10),
    ("pods", 65, 5, 16), ("pods", 200, 6, 16), ("pods", 304, 7, 16), ("pods", 5000, 8, 40),
    ("duel", 8, 3, 0), ("duel", 9, 5, 4), ("duel", 32, 5, 8), ("duel", 33, 6, 8), ("duel", 410, 10, 8)])
def test_suggestion_follows_the_table(mode, players, rounds_, cut):
    found = suggest(mode, players)
    assert (found.rounds, found.top_cut) == (rounds_, cut)


def test_no_suggestion_without_players():
    assert suggest("pods", 0) is None


def test_suggestion_counts_checked_in_players_and_before_that_registered_ones(db, make_event, make_player, judge):
    event = make_event()
    assert ops.structure_suggestion(event) is None
    regs = [make_player(event, f"P{i}") for i in range(40)]
    found = ops.structure_suggestion(event)
    assert (found["basis"], found["players"], found["rounds"], found["top_cut"]) == ("registered", 40, 4, 10)
    for reg in regs[:20]:
        ops.check_in(reg, judge)
    found = ops.structure_suggestion(event)
    assert (found["basis"], found["players"], found["rounds"], found["top_cut"]) == ("checked_in", 20, 3, 4)


def test_standings_leave_out_the_waitlist(db, capped, judge):
    event, (anna, ben, cyril, dana, emil) = capped
    for reg in (anna, ben, cyril):
        ops.check_in(reg, judge)
    rnd = rounds.pair_next_round(event, judge, seed=1, override_decks=True)
    rounds.publish_round(rnd, judge)
    db.session.commit()
    listed = {row.name for row in rounds.standings(event)}
    assert {"Anna", "Ben", "Cyril"} <= listed and not {"Dana", "Emil"} & listed


def test_a_pod_event_cannot_take_mtr_scoring(db, make_event, organizer):
    """Found by the API fuzzer: a duel event changed to pods kept MTR scoring; finishing it then failed (500)."""
    duel = make_event(mode="duel")
    with pytest.raises(Refused) as refused:
        ops.update_event(duel, organizer, {"mode": "pods"})
    assert refused.value.field == "scoring_profile" and "MTR scoring is for 1v1 events" in refused.value.message
    db.session.rollback()
    ops.update_event(duel, organizer, {"mode": "pods", "scoring_profile": "cedh"})
    with pytest.raises(Refused):
        ops.create_event(organizer, {"name": "X", "ruleset": "edh-2010", "scoring_profile": "mtr"})


def test_pairing_a_cut_the_settings_do_not_have_is_a_conflict(db, make_round, judge):
    """Found by the API fuzzer: the request has no body, so its refusal is the event's state (409), not 400."""
    event, rnd, _regs = make_round(players=8, mode="duel", name="Duel")
    for table in rnd.tables:
        first = table.seats[0].registration_id
        rounds.report_duel_games(table, [first, first], user=judge)
    rounds.finish_round(rnd, judge, accept_unconfirmed=True)
    with pytest.raises(Refused) as refused:
        rounds.pair_top_cut_round(event, judge)
    assert refused.value.status == 409 and refused.value.field == "top_cut"
