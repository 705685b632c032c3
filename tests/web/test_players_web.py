"""The player's side: public registration, the player page with the deck check, the receipt."""
from __future__ import annotations

import html
import io
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa
from markupsafe import escape

from tournament.events.models import AuditEntry, Decklist, Event, Registration

DEMO = Path(__file__).resolve().parents[2] / "tournament" / "data" / "demo_decks"
KENRITH = (DEMO / "kenrith.txt").read_text(encoding="utf-8")
ILLEGAL = (DEMO / "phelddagrif-illegal.txt").read_text(encoding="utf-8")
MB = 1_000_000
EXPIRED = "This form has expired or did not come from this site"
SCRIPT_NAME = "<script>alert('x')</script>"


def counts(db) -> dict:
    return {m.__name__: db.session.execute(sa.select(sa.func.count()).select_from(m)).scalar()
            for m in (Event, Registration, Decklist, AuditEntry)}


def fresh(db, model, id_):
    db.session.expire_all()
    return db.session.get(model, id_)


def line_block(page: str, n: int) -> str:
    """The HTML of line n of the rendered decklist, with the findings under it, unescaped."""
    block = page.split(f'id="line-{n}"', 1)[1].split('class="deck-line', 1)[0]
    return html.unescape(block)


def register(client, event, **data):
    return client.post(f"/events/{event.id}/register", data=data, content_type="multipart/form-data")


# ----------------------------------------------------------------- registration

def test_registration_form_and_success(client, db, make_event, starter_cards):
    event = make_event(venue="Shop")
    page = client.get(f"/events/{event.id}/register").get_data(as_text=True)
    for name in ("name", "contact", "player_id", "decklist", "upload"):
        assert f'name="{name}"' in page
    assert 'enctype="multipart/form-data"' in page
    response = register(client, event, name="山田太郎", contact="yamada@example.jp", player_id="JP-7",
                        decklist=KENRITH)
    assert response.status_code == 302
    reg = db.session.execute(sa.select(Registration)).scalar_one()
    assert (reg.name, reg.contact, reg.player_id, reg.late) == ("山田太郎", "yamada@example.jp", "JP-7", False)
    assert reg.deck.legal and reg.deck.submitted_by == "player"
    assert response.headers["Location"].endswith(f"/p/{reg.access_code}?welcome=1")
    response = client.get(response.headers["Location"])
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "same-origin"       # the code never leaves the site
    assert "You are registered." in page
    assert f'id="access-code">{reg.access_code}<' in page
    assert f'href="/p/{reg.access_code}" class="player-link">/p/{reg.access_code}<' in page   # no address: the path
    assert "http://localhost" not in page              # never the request's Host
    assert f'href="/p/{reg.access_code}/receipt"' in page
    assert "山田太郎" in page and "Shop" in page


@pytest.mark.parametrize("name", ["王小明", "Šárka Dvořáková", "Ἀλέξανδρος", "محمد", "O'Brien-Smith"])
def test_names_in_any_script(client, db, make_event, name):
    event = make_event()
    response = register(client, event, name=name)
    assert response.status_code == 302
    reg = db.session.execute(sa.select(Registration)).scalar_one()
    assert reg.name == name
    assert str(escape(name)) in client.get(f"/p/{reg.access_code}").get_data(as_text=True)


def test_receipt_is_printable_with_code_link_and_qr(app, client, db, make_event, make_player):
    app.config["DETECTED_URL"] = "http://192.168.1.20:5000"        # found at start (tournament.serve)
    event = make_event(name="Cup <2>")
    reg = make_player(event, SCRIPT_NAME)
    response = client.get(f"/p/{reg.access_code}/receipt")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    assert f'class="access-code big">{reg.access_code}<' in page
    assert f"http://192.168.1.20:5000/p/{reg.access_code}" in page
    assert re.search(r"<svg[^>]*viewBox", page) and "<path" in page
    assert "Cup &lt;2&gt;" in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page and "<script>alert" not in page
    assert "data-print" in page and "page.js" in page


def test_qr_code_encodes_the_player_link():
    import qrcode
    import qrcode.image.svg
    from tournament.events.views import qr_svg
    svg = str(qr_svg("http://localhost/p/ABCDEFGH"))
    expected = qrcode.make("http://localhost/p/ABCDEFGH", image_factory=qrcode.image.svg.SvgPathImage)
    path = re.search(r' d="([^"]+)"', expected.to_string(encoding="unicode")).group(1)
    assert path in svg and svg.startswith("<svg")


@pytest.mark.parametrize("data,message", [
    ({}, "Your name is required."),
    ({"name": ""}, "Your name is required."),
    ({"name": "\u3000 "}, "Your name is required."),
    ({"name": "x" * 400_000}, "Your name may be at most 100 characters."),
    ({"name": "A", "contact": "c" * 400_000}, "may be at most 200 characters."),
    ({"name": "A", "player_id": "p" * 1000}, "Player ID (optional) may be at most 40 characters."),
    ({"name": "A\x00B"}, "control characters"),
    ({"name": "A", "decklist": "# nothing but a comment\n"}, "no card lines"),
    ({"name": "A", "decklist": "\x01\x02\x03\x04\x05\x06\x07\x08"}, "it contains binary data"),
])
def test_registration_refusals_store_nothing(client, db, make_event, starter_cards, data, message):
    event = make_event()
    before = counts(db)
    response = register(client, event, **data)
    page = response.get_data(as_text=True)
    assert response.status_code == 400, page
    assert message in html.unescape(page)
    assert counts(db) == before


@pytest.mark.parametrize("field", ["name", "contact", "player_id", "decklist"])
def test_one_megabyte_fields_are_refused(client, db, make_event, field):
    """Pasted (multipart, as the browser sends it) or URL-encoded, a 1 MB field is refused next to the field."""
    event = make_event()
    before = counts(db)
    data = {"name": "A", field: "x" * (MB + 1)}
    for response in (register(client, event, **data), client.post(f"/events/{event.id}/register", data=data)):
        page = response.get_data(as_text=True)
        assert response.status_code == 400
        assert "may be at most" in page or "the limit is 1 MB" in page
    assert counts(db) == before


def test_a_failed_decklist_leaves_no_half_registration(client, db, make_event, starter_cards):
    """register_player stores the player, then the decklist fails: the whole request is undone."""
    event = make_event()
    before = counts(db)
    response = register(client, event, name="Half Way", decklist="Commander\n")
    assert response.status_code == 400
    assert counts(db) == before
    assert db.session.execute(sa.select(Registration).where(Registration.name == "Half Way")).first() is None
    response = register(client, event, name="Half Way",
                        upload=(io.BytesIO(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 50), "deck.png"))
    assert response.status_code == 400
    assert counts(db) == before


def test_registration_with_markup_everywhere_is_escaped(client, db, make_event, starter_cards):
    event = make_event()
    deck = "Commander\n1 <script>alert('deck')</script>\n\nDeck\n1 <img src=x onerror=alert(1)>\n"
    response = register(client, event, name=SCRIPT_NAME, contact="<b>c</b>", decklist=deck)
    assert response.status_code == 302
    reg = db.session.execute(sa.select(Registration)).scalar_one()
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    assert "&lt;script&gt;alert(&#39;deck&#39;)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<script>alert" not in page and "<img src=x" not in page


def test_registration_after_the_event_finished(client, db, make_event):
    event = make_event(status="finished")
    page = client.get(f"/events/{event.id}/register").get_data(as_text=True)
    assert "registration is closed" in page and 'id="register-form"' not in page
    before = counts(db)
    response = register(client, event, name="Too Late")
    assert response.status_code == 409
    assert "This event has finished; registration is closed." in response.get_data(as_text=True)
    assert counts(db) == before


def test_players_cannot_self_register_once_running(client, db, make_event):
    event = make_event(status="running")
    before = counts(db)
    response = register(client, event, name="Late Player")
    assert response.status_code == 409
    assert "Ask at the desk for a late registration." in response.get_data(as_text=True)
    assert counts(db) == before


def test_unknown_event_and_codes_are_404(client, db, make_event, make_player):
    event = make_event()
    make_player(event, "Someone")
    before = counts(db)
    assert client.get("/events/999/register").status_code == 404
    assert register(client, type("E", (), {"id": 999}), name="X").status_code == 404
    for response in (client.get("/p/ZZZZZZZZ"), client.get("/p/ZZZZZZZZ/receipt"),
                     client.post("/p/ZZZZZZZZ/deck", data={"decklist": KENRITH}),
                     client.get("/p/" + "<script>"), client.get("/p/" + "A" * 5000)):
        assert response.status_code == 404
        assert "No registration has this access code." in response.get_data(as_text=True)
    assert counts(db) == before


def test_csrf_token_is_required_when_enabled(app, client, db, make_event, make_player, starter_cards):
    event = make_event()
    reg = make_player(event, "Player", decklist=KENRITH)
    app.config["WTF_CSRF_ENABLED"] = True
    before = counts(db)
    for token in (None, "stale"):
        extra = {"csrf_token": token} if token else {}
        response = client.post(f"/events/{event.id}/register", data={"name": "Mallory", **extra})
        assert response.status_code == 400 and EXPIRED in response.get_data(as_text=True)
        response = client.post(f"/p/{reg.access_code}/deck", data={"decklist": ILLEGAL, **extra})
        assert response.status_code == 400 and EXPIRED in response.get_data(as_text=True)
    assert counts(db) == before
    assert fresh(db, Registration, reg.id).deck.legal


# ----------------------------------------------------------------- the player page and the deck check

def test_findings_are_shown_next_to_their_lines(client, db, make_event, make_player, starter_cards):
    event = make_event()
    reg = make_player(event, "Phel Player", decklist=ILLEGAL)
    findings = reg.deck.result["findings"]
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert 'id="check"' in page and "not legal" in page
    lines = ILLEGAL.rstrip("\n").split("\n")
    assert page.count('<li class="deck-line') == len(lines)
    for f in findings:
        if f["line"] is None:
            continue
        block = line_block(page, f["line"])
        assert f["message"] in block, f
        assert lines[f["line"] - 1] in block
    # Goblin Piker (line 5) is red: the finding is under line 5 and not under line 4
    assert "Goblin Piker" in line_block(page, 5) and "general Phelddagrif" in line_block(page, 5)
    assert "general Phelddagrif" not in line_block(page, 4)
    assert 'class="deck-line flagged has-error" id="line-5"' in page
    # the summary
    summary = page.split('id="deck-summary"')[1].split("</div>\n  </div>")[0]
    assert "Phelddagrif" in summary and "white, blue and green" in summary
    assert "Creature" in summary and "Mana curve" in summary


def test_whole_deck_findings_go_in_the_box_and_suggestions_show(client, db, make_event, make_player,
                                                               starter_cards):
    event = make_event()
    deck = "Commander\n1 Kenrith, the Returned King\n\nDeck\n1 Sol Rnig\n1 Command Tower\n"
    reg = make_player(event, "Short Deck", decklist=deck)
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    box = html.unescape(page.split('id="deck-findings"')[1].split("</div>")[0])
    size = next(f for f in reg.deck.result["findings"] if f["code"] == "DECK_SIZE")
    assert size["line"] is None and size["message"] in box
    line5 = line_block(page, 5)
    assert "Sol Rnig" in line5 and "Did you mean: Sol Ring?" in line5
    assert "Sol Rnig" not in box


def test_player_fixes_and_resubmits_until_legal(client, db, make_event, make_player, starter_cards):
    event = make_event()
    reg = make_player(event, "Fixer", decklist=ILLEGAL)
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert "1 Goblin Piker</textarea>" not in page and "Goblin Piker" in page.split("<textarea")[1]  # prefilled
    response = client.post(f"/p/{reg.access_code}/deck", data={"decklist": KENRITH.replace("\n", "\r\n")})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/p/{reg.access_code}#check")
    reg = fresh(db, Registration, reg.id)
    assert reg.deck.legal and reg.deck.submitted_by == "player"
    assert db.session.execute(sa.select(sa.func.count()).select_from(Decklist)
                              .where(Decklist.registration_id == reg.id)).scalar() == 2
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert "Decklist checked: it is legal." in page and "deck-check legal" in page


def test_decklist_upload_in_utf16(client, db, make_event, make_player, starter_cards):
    event = make_event()
    reg = make_player(event, "Uploader")
    data = KENRITH.encode("utf-16")
    response = client.post(f"/p/{reg.access_code}/deck", data={"upload": (io.BytesIO(data), "kenrith.txt")},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    deck = fresh(db, Registration, reg.id).deck
    assert deck.legal and deck.text.startswith("Commander") and "\x00" not in deck.text
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert '<span class="lt">Commander</span>' in page


@pytest.mark.parametrize("data,message", [
    ({}, "Paste your decklist or choose a file to upload."),
    ({"decklist": "   \n  "}, "Paste your decklist or choose a file to upload."),
    ({"decklist": "\x00" * 50}, "it contains binary data"),
    ({"decklist": "Sideboard\n"}, "no card lines"),
    ({"upload": (io.BytesIO(bytes(range(256)) * 20), "deck.png")}, "it contains binary data"),
    ({"upload": (io.BytesIO(b"1 Sol Ring\n\xff\xfe Forest\n"), "deck.txt")}, "not UTF-8 text"),
    ({"upload": (io.BytesIO(b"1 Sol Ring\n" * 200_000), "huge.txt")}, "the limit is 1 MB"),
    ({"upload": (io.BytesIO(b""), "empty.txt")}, "empty"),
])
def test_bad_decklist_submissions_store_nothing(client, db, make_event, make_player, starter_cards, data,
                                                message):
    event = make_event()
    reg = make_player(event, "Player", decklist=KENRITH)
    deck_id = reg.deck_id
    before = counts(db)
    response = client.post(f"/p/{reg.access_code}/deck", data=data, content_type="multipart/form-data")
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 400, page[:500]
    assert message.lower() in page.lower()
    assert counts(db) == before
    assert fresh(db, Registration, reg.id).deck_id == deck_id


def test_one_megabyte_pasted_decklist(client, db, make_event, make_player):
    event = make_event()
    reg = make_player(event, "Player")
    before = counts(db)
    response = client.post(f"/p/{reg.access_code}/deck", data={"decklist": "1 Sol Ring\n" * 100_000})
    assert response.status_code == 400
    assert "The decklist is too long; the limit is 1 MB." in response.get_data(as_text=True)
    response = client.post(f"/p/{reg.access_code}/deck", data={"decklist": "1 Sol Ring\n" * 100_000},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "The decklist is too long; the limit is 1 MB." in response.get_data(as_text=True)
    assert counts(db) == before


def test_the_code_in_the_url_scopes_everything(client, db, make_event, make_player, starter_cards):
    event = make_event()
    alice = make_player(event, "Alice Anders", decklist=KENRITH, contact="alice@example.com", player_id="A-1")
    bob = make_player(event, "Bob Brown", decklist=ILLEGAL, contact="bob@example.com", player_id="B-2")
    page = client.get(f"/p/{alice.access_code}").get_data(as_text=True)
    assert "Alice Anders" in page and "A-1" in page
    for secret in ("Bob Brown", bob.access_code, "B-2", "Phelddagrif"):
        assert secret not in page
    page = client.get(f"/p/{alice.access_code}/receipt").get_data(as_text=True)
    assert "Bob Brown" not in page and bob.access_code not in page
    # posting to Bob's URL changes Bob's registration only, Alice's stays as it was
    alice_deck = alice.deck_id
    response = client.post(f"/p/{bob.access_code}/deck", data={"decklist": KENRITH})
    assert response.status_code == 302 and bob.access_code in response.headers["Location"]
    assert fresh(db, Registration, alice.id).deck_id == alice_deck
    assert fresh(db, Registration, bob.id).deck.legal
    # codes are not case sensitive but must be complete
    assert client.get(f"/p/{alice.access_code.lower()}").status_code == 200
    assert client.get(f"/p/{alice.access_code[:-1]}").status_code == 404


def test_deadline_locks_the_list_for_players(client, db, make_event, make_player, starter_cards):
    event = make_event()
    reg = make_player(event, "Slow Player", decklist=ILLEGAL)
    event.decklist_deadline = datetime.now(timezone.utc) - timedelta(minutes=1)
    db.session.commit()
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert 'id="deck-locked"' in page and "The decklist deadline has passed" in page
    assert f'action="/p/{reg.access_code}/deck"' not in page
    assert 'id="check"' in page    # the last check is still shown
    before = counts(db)
    response = client.post(f"/p/{reg.access_code}/deck", data={"decklist": KENRITH})
    assert response.status_code == 409
    assert "your list is locked" in response.get_data(as_text=True)
    assert counts(db) == before
    assert not fresh(db, Registration, reg.id).deck.legal


def test_the_list_locks_when_the_event_starts_without_a_deadline(client, db, make_event, make_player):
    event = make_event(status="running")
    reg = make_player(event, "Player", staff=event.organizer)
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert 'id="deck-locked"' in page
    response = client.post(f"/p/{reg.access_code}/deck", data={"decklist": KENRITH})
    assert response.status_code == 409


def test_judge_edits_after_the_deadline_and_it_is_logged(client, db, make_event, make_player, judge, login,
                                                         starter_cards):
    event = make_event(decklist_deadline=datetime.now(timezone.utc) - timedelta(hours=1))
    reg = make_player(event, "Needs Help", staff=judge)
    login(judge)
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert 'id="deck-locked"' not in page and "logged in as judge Jan Judge" in page
    response = client.post(f"/p/{reg.access_code}/deck", data={"decklist": KENRITH})
    assert response.status_code == 302
    deck = fresh(db, Registration, reg.id).deck
    assert deck.legal and deck.submitted_by == "judge:Jan Judge"
    entry = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "decklist.submit")).scalar_one()
    assert entry.actor == "judge:Jan Judge" and entry.details["after_deadline"] is True
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert "submitted by Jan Judge (judge)" in page


def test_another_organizer_is_treated_as_a_player(client, db, make_event, make_player, make_user, login):
    event = make_event(decklist_deadline=datetime.now(timezone.utc) - timedelta(hours=1))
    reg = make_player(event, "Someone", staff=event.organizer)
    login(make_user("Other Organizer"))
    before = counts(db)
    response = client.post(f"/p/{reg.access_code}/deck", data={"decklist": KENRITH})
    assert response.status_code == 409
    assert counts(db) == before


def test_dropped_player_cannot_change_the_list(client, db, make_event, make_player, organizer):
    from tournament.events.operations import drop
    event = make_event()
    reg = make_player(event, "Quitter")
    drop(reg, organizer)
    db.session.commit()
    assert 'id="deck-locked"' in client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    before = counts(db)
    response = client.post(f"/p/{reg.access_code}/deck", data={"decklist": KENRITH})
    assert response.status_code == 409 and "You have dropped" in response.get_data(as_text=True)
    assert counts(db) == before


def test_a_name_registered_twice_asks_whether_it_is_another_person(client, db, make_event):
    from tournament.events.models import Registration
    event = make_event()
    assert register(client, event, name="Šárka Dvořáková").status_code == 302
    again = register(client, event, name="  sarka DVORAKOVA ")                  # case, accents, spaces ignored
    page = html.unescape(again.get_data(as_text=True))
    assert again.status_code == 409 and "is already registered for this event" in page
    assert 'name="same_name_ok"' in page
    assert db.session.query(Registration).count() == 1
    other = register(client, event, name="Šárka Dvořáková", same_name_ok="y")
    assert other.status_code == 302 and db.session.query(Registration).count() == 2


def test_the_desk_asks_too_for_a_late_entry_with_a_known_name(client, db, make_event, make_player, judge, login):
    from tournament.events.models import Registration
    event = make_event()
    make_player(event, "Jan Novák")
    login(judge)
    refused = client.post(f"/events/{event.id}/registrations", data={"name": "Jan Novák", "back": "desk"})
    assert refused.status_code == 409 and "already registered" in html.unescape(refused.get_data(as_text=True))
    ok = client.post(f"/events/{event.id}/registrations", data={"name": "Jan Novák", "back": "desk",
                                                                "same_name_ok": "y"})
    assert ok.status_code == 302 and db.session.query(Registration).count() == 2


def test_after_the_deadline_a_new_player_registers_without_a_list(client, db, make_event, starter_cards):
    event = make_event()
    event.decklist_deadline = datetime.now(timezone.utc) - timedelta(minutes=1)
    db.session.commit()
    page = client.get(f"/events/{event.id}/register").get_data(as_text=True)
    assert 'name="decklist"' not in page and 'name="upload"' not in page
    assert "show your deck to a judge at the desk" in page
    before = counts(db)
    response = client.post(f"/events/{event.id}/register", data={"name": "Late Lucy", "decklist": KENRITH})
    refused = response.get_data(as_text=True)
    assert response.status_code == 409 and 'id="decklist-error"' in refused            # said, not only hinted
    assert refused.split('id="decklist-error">', 1)[1].startswith("The decklist deadline has passed: register")
    assert counts(db) == before
    assert client.post(f"/events/{event.id}/register", data={"name": "Late Lucy"}).status_code == 302


def test_an_event_whose_rules_have_no_sideboard_offers_no_swap(app, db, make_round):
    event, rnd, regs = make_round(players=4, start=True, ruleset="commander")     # today's rules: no sideboard
    reg = regs[0]
    page = app.test_client().get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert "/swap" not in page.split('id="round"', 1)[1]
    swap = app.test_client().get(f"/p/{reg.access_code}/swap").get_data(as_text=True)
    assert 'data-deadline=""' in swap and 'name="out"' not in swap and "does not use sideboards" in swap


def test_the_deck_check_lists_every_line_finding_at_the_top_with_a_link(client, db, make_event, make_player,
                                                                        starter_cards):
    """On a phone the list is thousands of pixels long: each line's finding is named at the top, errors first,
    linking to the line (an anchor that exists); the line numbers are readable (WCAG AA, 4.5:1)."""
    event = make_event()
    deck = "Commander\n1 Kenrith, the Returned King\n\nDeck\n1 Sol Rnig\n1 Command Tower\n"
    reg = make_player(event, "Short <b>Deck</b>", decklist=deck)
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    index = page.split('id="finding-index"')[1].split("</nav>")[0]
    assert page.index('id="finding-index"') < page.index('id="deck-summary"') < page.index('id="deck-lines"')
    links = re.findall(r'href="#line-(\d+)"', index)
    assert "5" in links and all(f'id="line-{n}"' in page for n in links)
    items = re.findall(r'<li class="(error|warning)">', index)
    assert items == sorted(items)                                 # errors before warnings
    assert "Sol Rnig" in html.unescape(index)
    # the line numbers' colour on their background
    css = (Path(__file__).resolve().parents[2] / "static" / "style.css").read_text()
    rule = re.search(r"\.deck-line \.ln\{([^}]*)\}", css).group(1)
    fg, bg = re.search(r"color:#(\w{6})", rule).group(1), re.search(r"background:#(\w{6})", rule).group(1)

    def lum(hex_):
        c = [int(hex_[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    a, b = sorted((lum(fg), lum(bg)))
    assert (b + 0.05) / (a + 0.05) >= 4.5



def test_the_deck_check_is_rendered_once_per_list_and_language(client, db, make_event, make_player, starter_cards,
                                                               monkeypatch):
    """A stored list's check never changes, so the page reuses its rendering; another language or a new list
    is rendered afresh."""
    event = make_event()
    reg = make_player(event, "Rerender", decklist=ILLEGAL)
    first = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert 'Deck check: <span class="error">not legal</span>' in first
    monkeypatch.setattr("tournament.events.views.annotate",
                        lambda *a: pytest.fail("the stored check should have been reused"))
    again = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    check = re.search(r'<section class="card deck-check.*?</section>', first, re.S).group(0)
    assert check in again
    monkeypatch.undo()
    japanese = client.get(f"/p/{reg.access_code}", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "デッキチェック：<span class=\"error\">不適正</span>" in japanese
    assert client.post(f"/p/{reg.access_code}/deck", data={"decklist": KENRITH}).status_code == 302
    fixed = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert "deck-check legal" in fixed and "deck-check illegal" not in fixed
