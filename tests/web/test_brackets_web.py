"""Commander Brackets at the event: the organizer's maximum, the player's declared bracket, the floor and its
reasons on the player's page, in the API and on the deck check report."""
from __future__ import annotations

import html

import sqlalchemy as sa

from tests.printing.pdf_helpers import pdf_text
from tests.web.test_events_web import fresh, settings
from tournament.events.models import Event, Registration
from tournament.printing import operations as printing

COMBO_LIST = ("Commander\n1 Phelddagrif\n\nDeck\n1 Mystical Tutor\n1 Painter's Servant\n1 Grindstone\n"
              "48 Forest\n48 Island\n")


def register(client, event, **data):
    return client.post(f"/events/{event.id}/register", data=data, content_type="multipart/form-data")


def test_the_organizer_sets_a_maximum_bracket(client, db, make_event, organizer, login):
    event = make_event()
    login(organizer)
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert 'name="max_bracket"' in page
    response = client.post(f"/events/{event.id}/edit", data=settings(max_bracket="2"))
    assert response.status_code == 302, response.get_data(as_text=True)
    assert fresh(db, Event, event.id).max_bracket == 2
    assert 'selected value="2"' in client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    response = client.post(f"/events/{event.id}/edit", data=settings(max_bracket="6"))
    assert response.status_code == 400 and "Choose one of" in response.get_data(as_text=True)
    assert fresh(db, Event, event.id).max_bracket == 2
    client.post(f"/events/{event.id}/edit", data=settings(max_bracket=""))
    assert fresh(db, Event, event.id).max_bracket is None


def test_a_deck_over_the_maximum_is_not_legal_and_says_why(client, db, make_event, starter_cards, judge, login):
    event = make_event(ruleset="commander", max_bracket=2)
    response = register(client, event, name="Bára Bracketová", decklist=COMBO_LIST, declared_bracket="2")
    assert response.status_code == 302, response.get_data(as_text=True)
    reg = db.session.execute(sa.select(Registration)).scalar_one()
    assert reg.declared_bracket == 2
    assert not reg.deck.legal
    bracket = reg.deck.result["bracket"]
    assert bracket["floor"] == 3 and bracket["game_changers"] == ["Mystical Tutor"]
    assert bracket["two_card_combos"] == [{"cards": ["Grindstone", "Painter's Servant"],
                                           "produces": ["Mill each opponent's library"]}]
    page = html.unescape(client.get(f"/p/{reg.access_code}").get_data(as_text=True))
    assert "Commander bracket: at least 3 (Upgraded)" in page
    assert "1 Game Changer (Mystical Tutor): at least bracket 3" in page
    assert "This event allows decks up to bracket 2; this list is at least bracket 3" in page
    assert "You declared bracket 2, but this list is at least bracket 3" in page
    assert "declared bracket 2" in page
    report = " ".join(pdf_text(printing.build_document(event, "deck-check-report")[0]).split())
    assert "this list is at least bracket 3 (Upgraded): 1 Game Changer (Mystical Tutor); 1 two-card combo" in report
    assert "Declared bracket 2 (below the floor: ask the player)" in report
    rules = " ".join(pdf_text(printing.build_document(event, "rules")[0]).split())
    assert "Commander Brackets: decks up to bracket 2 (Core)" in rules
    login(judge)
    assert "bracket 3 &gt; declared 2" in client.get(f"/events/{event.id}/desk").get_data(as_text=True)
    [row] = client.get(f"/events/{event.id}/desk/search?q=Bára").get_json()["results"]
    assert row["bracket_flag"] == "bracket 3 > declared 2"


def test_no_flag_when_the_declared_bracket_covers_the_floor(client, db, make_event, starter_cards, judge, login):
    event = make_event(ruleset="commander")
    register(client, event, name="Honest Player", decklist=COMBO_LIST, declared_bracket="4")
    register(client, event, name="Quiet Player", decklist=COMBO_LIST)
    login(judge)
    rows = client.get(f"/events/{event.id}/desk/search?q=Player").get_json()["results"]
    assert [r["bracket_flag"] for r in rows] == ["", ""]
    report = " ".join(pdf_text(printing.build_document(event, "deck-check-report")[0]).split())
    assert "Bracket at least 3: 1 Game Changer (Mystical Tutor); 1 two-card combo" in report
    assert "Declared bracket 4" in report and "Declared bracket 4 (below" not in report
    assert db.session.execute(sa.select(Registration.declared_bracket).order_by(Registration.id)).scalars().all() \
        == [4, None]


def test_the_api_takes_and_returns_the_brackets(client, db, make_event, organizer, starter_cards):
    from tournament.auth.operations import issue_token
    event = make_event(ruleset="commander")
    token = issue_token(organizer)
    db.session.commit()
    auth = {"Authorization": f"Bearer {token}"}
    response = client.patch(f"/api/v1/events/{event.id}", json={"max_bracket": 4}, headers=auth)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["max_bracket"] == 4
    assert client.patch(f"/api/v1/events/{event.id}", json={"max_bracket": 0}, headers=auth).status_code == 400
    assert client.patch(f"/api/v1/events/{event.id}", json={"max_bracket": "3"}, headers=auth).status_code == 400
    response = client.post(f"/api/v1/events/{event.id}/registrations", headers=auth,
                           json={"name": "API Player", "declared_bracket": 3, "decklist": COMBO_LIST})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["declared_bracket"] == 3
    assert body["deck"]["bracket"]["floor"] == 3 and body["deck"]["legal"]
    refused = client.post(f"/api/v1/events/{event.id}/registrations", headers=auth,
                          json={"name": "Other Player", "declared_bracket": 9})
    assert refused.status_code == 400 and "bracket" in str(refused.get_json()["error"]).lower()
