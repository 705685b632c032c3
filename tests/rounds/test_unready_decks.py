"""Pairing warns about checked-in players whose deck is missing or not legal; seating them is a logged choice."""
from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from markupsafe import escape

from tournament.events import operations as events
from tournament.events.models import AuditEntry
from tournament.rounds import operations as rounds
from tournament.rounds.models import Round

DEMO = Path(events.__file__).resolve().parents[1] / "data" / "demo_decks"
KENRITH = (DEMO / "kenrith.txt").read_text(encoding="utf-8")
ILLEGAL = (DEMO / "phelddagrif-illegal.txt").read_text(encoding="utf-8")
HOSTILE = "<img src=x onerror=alert(1)> Tables"


@pytest.fixture
def night(db, make_event, make_player, judge, starter_cards):
    event = make_event(name="Deck night")
    regs = [make_player(event, f"Legal {i}", decklist=KENRITH) for i in range(6)]
    regs.append(make_player(event, "Šárka Dvořáková", decklist=ILLEGAL))
    regs.append(make_player(event, HOSTILE))
    regs.append(make_player(event, "Not here", decklist=ILLEGAL))          # not checked in: not seated, no warning
    for reg in regs[:-1]:
        events.check_in(reg, judge)
    db.session.commit()
    return event, regs


def _rounds(db) -> int:
    return db.session.execute(sa.select(sa.func.count()).select_from(Round)).scalar()


def test_pairing_refuses_and_names_the_players_without_a_legal_deck(db, night, judge):
    event, regs = night
    assert [(r.name, status) for r, status in rounds.unready_decks(event)] == [
        ("Šárka Dvořáková", "illegal"), (HOSTILE, "missing")]
    with pytest.raises(rounds.UnreadyDecks) as refused:
        rounds.pair_next_round(event, judge, seed=1)
    assert refused.value.status == 409
    assert "2 checked-in players have no legal deck" in refused.value.message
    assert "Šárka Dvořáková (deck not legal)" in refused.value.message and f"{HOSTILE} (no decklist)" in refused.value.message
    db.session.rollback()
    assert _rounds(db) == 0


def test_pairing_anyway_seats_them_and_logs_who_decided(db, night, judge):
    event, regs = night
    rnd = rounds.pair_next_round(event, judge, seed=1, override_decks=True)
    db.session.commit()
    seated = {s.registration_id for t in rnd.tables for s in t.seats}
    assert seated == {r.id for r in regs[:-1]}
    entry = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "round.pair.unready_decks")).scalar_one()
    assert entry.actor == f"judge:{judge.name}" and entry.at is not None
    assert [p["name"] for p in entry.details["players"]] == ["Šárka Dvořáková", HOSTILE]


def test_a_long_list_is_cut_in_the_message(db, make_event, make_player, judge):
    event = make_event(name="Nobody brought a list")
    for i in range(14):
        events.check_in(make_player(event, f"Player {i:02d}"), judge)
    with pytest.raises(rounds.UnreadyDecks, match=r"14 checked-in players .* and 4 more\."):
        rounds.pair_next_round(event, judge, seed=1)


def test_the_rounds_page_warns_and_pairs_only_with_the_box_ticked(client, db, night, judge, login):
    event, regs = night
    login(judge)
    page = client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    box = page.split('id="unready-decks"', 1)[1].split("</div>", 1)[0]
    assert "Šárka Dvořáková" in box and str(escape(HOSTILE)) in box and HOSTILE not in page
    assert "Not here" not in box and "Legal 0" not in box
    assert 'name="override_decks"' in page
    refused = client.post(f"/events/{event.id}/rounds")
    assert refused.status_code == 409 and "have no legal deck" in refused.get_data(as_text=True)
    assert _rounds(db) == 0
    paired = client.post(f"/events/{event.id}/rounds", data={"override_decks": "y"})
    assert paired.status_code == 302 and _rounds(db) == 1


def test_no_warning_when_every_deck_is_legal(client, db, make_event, make_player, judge, login, starter_cards):
    event = make_event(name="All good")
    for i in range(4):
        events.check_in(make_player(event, f"Legal {i}", decklist=KENRITH), judge)
    db.session.commit()
    login(judge)
    page = client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    assert 'id="unready-decks"' not in page and 'name="override_decks"' not in page
    assert client.post(f"/events/{event.id}/rounds").status_code == 302
