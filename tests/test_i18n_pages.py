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
_TAGS = re.compile(r"<script.*?</script>|<style.*?</style>|<[^>]+>", re.S)


def _english_texts(locale: str) -> set[str]:
    """Messages long enough to be sentences whose translation differs from the English."""
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=locale)
    out = set()
    for m in catalog:
        if not m.id or isinstance(m.id, tuple) or "%(" in m.id or "<" in m.id:
            continue
        if len(m.id) >= 16 and m.string and m.string != m.id:
            out.add(m.id)
    return out


def _visible(html: str) -> str:
    return " ".join(unescape(_TAGS.sub(" ", html)).split())


@pytest.fixture
def pages(app, db, make_event, make_player, judge, organizer, starter_cards):
    event = make_event(name="Sobota EDH", sideboard_enabled=True)
    players = [make_player(event, f"Hráč {i}", decklist=KENRITH if i == 0 else None) for i in range(8)]
    for reg in players:
        events.check_in(reg, judge)
    rnd = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
    rounds.publish_round(rnd, judge)
    rounds.start_round(rnd, judge)
    db.session.commit()
    code = players[0].access_code
    public = [f"/p/{code}", f"/p/{code}/round", f"/p/{code}/swap", f"/events/{event.id}/standings",
              f"/events/{event.id}/projector", "/auth/login"]
    staff = [f"/events/{event.id}", f"/events/{event.id}/desk", f"/events/{event.id}/rounds",
             f"/events/{event.id}/rounds/1", f"/events/{event.id}/staff", "/events", "/series", "/auth/account"]
    return public, staff


@pytest.mark.parametrize("locale", LANGS)
def test_pages_show_no_catalog_message_in_english(app, client, login, organizer, pages, locale):
    public, staff = pages
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
