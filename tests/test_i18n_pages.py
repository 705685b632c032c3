"""Every page a player, a judge and the projector see, in each language: the page says its language, and no
catalog message shows in English where a translation exists (a marked text the catalog has not translated, or
a page that forgot to ask for the translation)."""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tournament.events import operations as events
from tournament.i18n import TRANSLATIONS
from tournament.rounds import operations as rounds

KENRITH = (Path(events.__file__).resolve().parents[1] / "data" / "demo_decks" / "kenrith.txt").read_text("utf-8")
LANGS = ["ja", "zh_Hans", "cs"]
_TAGS = re.compile(r"<script.*?</script>|<style.*?</style>|<textarea.*?</textarea>|<[^>]+>", re.S)   # typed values


def _english_texts(locale: str) -> set[str]:
    """Messages long enough to be sentences whose translation differs from the English."""
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=locale)
    out = set()
    for m in catalog:
        if not m.id or isinstance(m.id, tuple) or "%(" in m.id or "<" in m.id:
            continue
        if len(m.id) >= 16 and m.string and m.id not in m.string:       # a translation may keep the name
            out.add(m.id)
    return out


def _visible(html: str) -> str:
    return " ".join(unescape(_TAGS.sub(" ", html)).split())


@pytest.fixture
def pages(app, db, make_event, make_player, judge, organizer, starter_cards):
    """Every HTML page of a running pods event (round 1 started), its series, and the staff's own pages."""
    from tournament.series import operations as series_ops
    app.config["DETECTED_URL"] = "http://192.168.1.20:5000"     # the receipt shows its QR code (tournament.serve)
    event = make_event(name="Sobota EDH", sideboard_enabled=True, scoring_profile="democratic")
    players = [make_player(event, f"Hráč {i}", decklist=KENRITH if i == 0 else None) for i in range(8)]
    for reg in players:
        events.check_in(reg, judge)
    rnd = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
    rounds.publish_round(rnd, judge)
    rounds.start_round(rnd, judge)
    series = series_ops.create_series(organizer, {"name": "Liga"})
    series_ops.add_event(series, organizer, event.id)
    db.session.commit()
    code = players[0].access_code
    table = next(t for t in rnd.tables if players[0].id in {s.registration_id for s in t.seats})
    e, n = event.id, table.number
    public = [f"/p/{code}", f"/p/{code}/round", f"/p/{code}/swap", f"/p/{code}/receipt", f"/p/{code}/tracker",
              f"/events/{e}/standings", f"/events/{e}/projector", f"/events/{e}/rounds/1/projector", "/auth/login",
              f"/series/{series.id}", f"/series/{series.id}/stats", "/"]
    staff = [f"/events/{e}", f"/events/{e}/edit", f"/events/{e}/desk", f"/events/{e}/rounds",
             f"/events/{e}/rounds/1", f"/events/{e}/staff", f"/events/{e}/log", f"/events/{e}/decklists",
             f"/events/{e}/import-players", f"/events/{e}/print", f"/events/{e}/stats",
             f"/events/{e}/rounds/1/tables/{n}/swaps", f"/events/{e}/rounds/1/tables/{n}/tracker",
             f"/events/{e}/players/{players[0].id}/swaps", "/events", "/events/new", "/events/import", "/series",
             "/series/import", "/auth/account"]
    return public, staff, event


@pytest.mark.parametrize("locale", LANGS)
def test_pages_show_no_catalog_message_in_english(app, client, login, organizer, pages, locale):
    public, staff, _event = pages
    english = _english_texts(locale)
    reader = app.test_client()
    login(organizer)
    left = {}
    for url, c in [(u, reader) for u in public] + [(u, client) for u in staff]:
        response = c.get(url, headers={"Accept-Language": locale.replace("_", "-")})
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        assert f'<html lang="{locale.replace("_", "-")}">' in html, url
        text = _visible(html)
        shown = sorted(m for m in english if m in text)
        if shown:
            left[url] = shown[:5]
    assert left == {}, left


@pytest.mark.parametrize("locale", LANGS)
def test_every_printout_shows_no_catalog_message_in_english(app, db, pages, locale):
    from io import BytesIO

    from pdfminer.high_level import extract_text

    from tournament.printing.documents import DOCUMENTS
    from tournament.printing.operations import build_document
    _public, _staff, event = pages
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"        # the poster's and receipts' QR codes point there
    english = _english_texts(locale)
    left = {}
    for slug in DOCUMENTS:
        pdf, _name = build_document(event, slug, 1, language=locale)
        flat = "".join(extract_text(BytesIO(pdf)).split())
        shown = sorted(m for m in english if "".join(m.split()) in flat)
        if shown:
            left[slug] = shown[:5]
    assert left == {}, left


@pytest.mark.parametrize("locale", LANGS)
def test_short_words_are_translated_too(app, client, login, organizer, pages, locale):
    """Words too short for the catalog scan: the deck's colour identity and the end-of-round choices."""
    public, _staff, event = pages
    headers = {"Accept-Language": locale.replace("_", "-")}
    player = _visible(app.test_client().get(public[0], headers=headers).get_data(as_text=True))
    assert "(WUBRG)" in player and "white" not in player and "green" not in player
    login(organizer)
    form = _visible(client.get(f"/events/{event.id}/edit", headers=headers).get_data(as_text=True))
    for english in ("Finish the turn", "A few more turns", "Turn limit", "Draw at time"):
        assert english not in form


@pytest.mark.parametrize("locale", LANGS)
def test_an_error_page_is_in_the_readers_language(app, locale):
    response = app.test_client().get("/events/999999/standings", headers={"Accept-Language": locale.replace("_", "-")})
    text = _visible(response.get_data(as_text=True))
    assert response.status_code == 404
    assert "Not found" not in text and "Go back" not in text and "Home" not in text
