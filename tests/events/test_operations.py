"""Event and registration operations, without the web layer."""
from datetime import datetime, timedelta, timezone

import pytest

from tournament.errors import Forbidden, Refused
from tournament.events import operations as ops


def test_create_event_validates_every_setting(make_event, organizer):
    event = make_event(pod_size=5, mode="pods", swap_seconds=120, paper_size="Letter")
    assert (event.pod_size, event.swap_seconds, event.paper_size, event.status) == (5, 120, "Letter", "registration")
    for bad, field in [({"pod_size": 2}, "pod_size"), ({"pod_size": "four"}, "pod_size"),
                       ({"ruleset": "modern"}, "ruleset"), ({"mode": "ffa"}, "mode"),
                       ({"name": ""}, "name"), ({"name": "x" * 1_000_000}, "name"),
                       ({"date": "next friday"}, "date"), ({"swap_seconds": True}, "swap_seconds"),
                       ({"name": "a\x00b"}, "name")]:
        with pytest.raises(Refused) as info:
            ops.create_event(organizer, {"name": "E", "ruleset": "edh-2010", **bad})
        assert info.value.field == field


def test_variant_and_archenemy_points_settings(db, make_event, organizer):
    event = make_event()
    assert (event.variant, event.archenemy_win_points, event.team_win_points) == ("none", 3, 1)
    ops.update_event(event, organizer, {"variant": "supervillain_rumble", "archenemy_win_points": 0.0,
                                        "team_win_points": 100})
    assert (event.variant, event.archenemy_win_points, event.team_win_points) == ("supervillain_rumble", 0, 100)
    assert ops.copy_event(event, organizer).variant == "supervillain_rumble"
    for bad, field in [({"variant": "planechase"}, "variant"), ({"variant": None}, "variant"),
                       ({"archenemy_win_points": 101}, "archenemy_win_points"),
                       ({"archenemy_win_points": -1}, "archenemy_win_points"),
                       ({"team_win_points": 1.5}, "team_win_points"), ({"team_win_points": True}, "team_win_points"),
                       ({"team_win_points": ""}, "team_win_points"), ({"team_win_points": "5"}, "team_win_points")]:
        with pytest.raises(Refused) as info:
            ops.create_event(organizer, {"name": "E", "ruleset": "edh-2010", **bad})
        assert info.value.field == field


def test_duel_events_default_to_mtr_scoring(make_event):
    assert make_event(mode="duel", ruleset="duel-cn").scoring_profile == "mtr"


def test_only_the_owner_edits_and_copies(db, make_event, make_user, judge):
    event = make_event(banlist_add=["Sol Ring"], pod_size=3)
    other = make_user("Other Organizer")
    with pytest.raises(Forbidden):
        ops.update_event(event, other, {"venue": "x"})
    with pytest.raises(Forbidden):
        ops.update_event(event, judge, {"venue": "x"})
    copy = ops.copy_event(event, event.organizer)
    assert copy.id != event.id and copy.banlist_add == ["Sol Ring"] and copy.pod_size == 3
    assert copy.registrations == [] and copy.status == "registration"


def test_register_in_any_script_and_search(db, make_event, make_player):
    event = make_event()
    for name in ["山田太郎", "王小明", "Šárka Dvořáková", "<b>Bobby</b> Tables"]:
        make_player(event, name)
    assert [r.name for r in ops.search_registrations(event, "dvorak")] == ["Šárka Dvořáková"]
    assert [r.name for r in ops.search_registrations(event, "山田")] == ["山田太郎"]
    code = ops.search_registrations(event, "王")[0].access_code
    assert [r.name for r in ops.search_registrations(event, code.lower())] == ["王小明"]
    assert len(ops.search_registrations(event, "")) == 4
    assert ops.search_registrations(event, "%") == []


@pytest.mark.parametrize("scanned", ["http://127.0.0.1:5000/p/{code}", "https://192.168.1.20:5000/p/{code}?welcome=1",
                                     "http://edh.example.org/p/{code}/", "/p/{code}#round", "  p/{lower}  ",
                                     "http://" + "h" * 240 + ".example/p/{code}"])
def test_the_desk_finds_a_player_by_the_link_in_their_receipt_qr(db, make_event, make_player, scanned):
    event = make_event()
    wanted = make_player(event, "王小明")
    make_player(event, "Pavel Http")                       # a name with letters of the link in it
    query = scanned.format(code=wanted.access_code, lower=wanted.access_code.lower())
    assert ops.search_registrations(event, query) == [wanted]


def test_a_link_to_another_page_or_a_code_of_another_event_finds_nobody(db, make_event, make_player):
    event, other = make_event(), make_event(name="Other night")
    make_player(event, "王小明")
    elsewhere = make_player(other, "Olga")
    assert ops.search_registrations(event, f"http://x/p/{elsewhere.access_code}") == []
    assert ops.search_registrations(event, "http://x/events/1/desk") == []
    assert ops.code_in_link("http://x/p/<script>") is None


def test_player_id_is_unique_per_event(make_event, make_player):
    event = make_event()
    make_player(event, "A", player_id="123")
    with pytest.raises(Refused, match="already registered"):
        make_player(event, "B", player_id="123")
    make_player(make_event(name="Other"), "A", player_id="123")


def test_deadline_locks_the_list_for_players_not_judges(db, make_event, make_player, judge):
    past = datetime.now(timezone.utc) - timedelta(minutes=1)
    event = make_event(decklist_deadline=past.isoformat())
    reg = make_player(event, "Late Larry")
    with pytest.raises(Refused, match="deadline has passed"):
        ops.submit_decklist(reg, b"1 Sol Ring")
    submission = ops.submit_decklist(reg, b"Commander\n1 Sol Ring", user=judge)
    db.session.commit()
    assert reg.deck is submission.decklist and submission.decklist.submitted_by == "judge:Jan Judge"


def test_check_in_drop_and_counters(db, make_event, make_player, judge):
    event = make_event()
    a, b, c = (make_player(event, n) for n in ("A", "B", "C"))
    ops.check_in(a, judge)
    ops.check_in(b, judge)
    ops.drop(c, judge)
    with pytest.raises(Refused, match="dropped"):
        ops.check_in(c, judge)
    ops.check_in(b, judge, undo=True)
    db.session.commit()
    counters = ops.event_counters(event)
    assert counters["registered"] == 3 and counters["checked_in"] == 1 and counters["dropped"] == 1
    assert counters["missing_decks"] == 3
    with pytest.raises(Refused):
        ops.check_in(a, None)


def test_the_log_names_only_the_settings_that_changed(db, make_event, organizer):
    from tournament.events.models import AuditEntry
    import sqlalchemy as sa
    event = make_event(name="Same", venue="Hall", pod_size=4)
    unchanged = {"name": "Same", "venue": "Hall", "pod_size": 4.0, "ruleset": "edh-2010", "banlist_add": []}
    ops.update_event(event, organizer, unchanged)
    ops.update_event(event, organizer, {**unchanged, "venue": "Big hall", "pod_size": 3})
    db.session.commit()
    updates = db.session.execute(sa.select(AuditEntry.details).where(AuditEntry.event_id == event.id,
                                                                    AuditEntry.action == "event.update")).scalars()
    assert [d["fields"] for d in updates] == [["pod_size", "venue"]]
    assert (event.venue, event.pod_size) == ("Big hall", 3)
