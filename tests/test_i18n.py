"""Languages: how a request's language is chosen, and catalogs that are complete and in step with the code."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tournament.i18n import LANGUAGES, language_code

REPO = Path(__file__).resolve().parents[1]


def _catalog_tool():
    spec = importlib.util.spec_from_file_location("translations_tool", REPO / "scripts" / "translations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("sent, code", [
    ("ja", "ja"), ("ja-JP", "ja"), ("zh-CN", "zh_Hans"), ("zh-Hans", "zh_Hans"), ("zh", "zh_Hans"),
    ("cs-CZ", "cs"), ("en-GB", "en"), ("zh-TW", None), ("zh-Hant", None), ("de", None), ("", None),
    ("<script>", None), ("x" * 500, None),
])
def test_language_codes_are_read_the_way_browsers_send_them(sent, code):
    assert language_code(sent) == code


def test_accept_language_chooses_the_page_language(client):
    page = client.get("/auth/login", headers={"Accept-Language": "de;q=0.9, ja;q=0.8, en;q=0.1"})
    text = page.get_data(as_text=True)
    assert '<html lang="ja">' in text and "スタッフのログイン" in text
    page = client.get("/auth/login", headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert '<html lang="zh-Hans">' in page.get_data(as_text=True)


def test_the_switcher_changes_the_language_and_it_is_remembered(client):
    headers = {"Accept-Language": "ja"}
    page = client.get("/auth/login?lang=cs", headers=headers)
    assert '<html lang="cs">' in page.get_data(as_text=True)
    assert "lang=cs" in page.headers["Set-Cookie"] and "HttpOnly" in page.headers["Set-Cookie"]
    again = client.get("/auth/login", headers=headers).get_data(as_text=True)
    assert '<html lang="cs">' in again and "Přihlášení pro organizátory" in again
    switcher = again.split('<footer class="languages"', 1)[1]
    for code, label in LANGUAGES.items():
        assert label in switcher
    assert 'href="/auth/login?lang=ja"' in switcher and 'aria-current="true" lang="cs">Čeština' in switcher


def test_a_hostile_language_value_is_ignored(client):
    page = client.get("/auth/login?lang=%3Cscript%3Ealert(1)%3C/script%3E", headers={"Accept-Language": "cs"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and '<html lang="cs">' in text and "<script>alert" not in text
    assert "Set-Cookie" not in page.headers or "lang=" not in page.headers["Set-Cookie"]


def test_a_staff_members_own_language_comes_before_the_cookie(client, db, organizer, login):
    login(organizer)
    client.get("/auth/account?lang=cs")
    assert '<html lang="cs">' in client.get("/auth/account").get_data(as_text=True)
    response = client.post("/auth/account/language", data={"language": "zh_Hans"})
    assert response.status_code == 302
    page = client.get("/auth/account", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert '<html lang="zh-Hans">' in page and "赛事" in page
    assert client.post("/auth/account/language", data={"language": "klingon"}).status_code == 400
    client.post("/auth/account/language", data={"language": ""})
    assert '<html lang="cs">' in client.get("/auth/account").get_data(as_text=True)     # the cookie again


def test_an_events_default_language_serves_readers_the_browser_cannot_place(app, db, make_event, make_player):
    event = make_event(name="Praha EDH")
    event.language = "cs"
    db.session.commit()
    reg = make_player(event, "Jana")
    public = app.test_client()
    page = public.get(f"/p/{reg.access_code}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="cs">' in page
    page = public.get(f"/p/{reg.access_code}", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert '<html lang="ja">' in page                           # the reader's own language first


def test_a_polled_page_is_never_answered_from_another_languages_copy(app, db, make_round):
    event, rnd, regs = make_round(players=8)
    phone = app.test_client()
    url = f"/p/{regs[0].access_code}"
    first = phone.get(url, headers={"Accept-Language": "ja"})
    tag = first.headers["ETag"]
    assert phone.get(url, headers={"Accept-Language": "ja", "If-None-Match": tag}).status_code == 304
    other = phone.get(url + "?lang=cs", headers={"If-None-Match": tag})
    assert other.status_code == 200 and '<html lang="cs">' in other.get_data(as_text=True)
    assert "Accept-Language" in other.headers.get("Vary", "")


def test_every_message_has_a_translation_in_every_language():
    tool = _catalog_tool()
    gaps = {locale: tool.missing(locale) for locale in tool.LOCALES}
    assert {k: v[:10] for k, v in gaps.items() if v} == {}


def test_the_catalogs_hold_exactly_the_messages_of_the_code_and_templates():
    """A message added, changed or removed in the code without `scripts/translations.py update` fails here."""
    tool = _catalog_tool()
    wanted = {(m.context, m.id) for m in tool.extract() if m.id}
    for locale in tool.LOCALES:
        have = {(m.context, m.id) for m in tool.load(locale) if m.id}
        assert sorted(map(str, wanted - have))[:10] == [], f"{locale}: new messages not in the catalog"
        assert sorted(map(str, have - wanted))[:10] == [], f"{locale}: messages no longer used"


def test_the_organizer_sets_an_events_language_and_bad_values_are_refused(app, client, db, make_event, organizer,
                                                                          login):
    from tournament.events import operations as events
    from tournament.errors import Refused
    event = make_event(name="Tokyo EDH")
    login(organizer)
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert 'name="language"' in page and "日本語" in page
    with pytest.raises(Refused, match="Choose one of the languages"):
        events.update_event(event, organizer, {"language": "tlh"})
    events.update_event(event, organizer, {"language": "ja"})
    db.session.commit()
    assert 'id="event-language">日本語' in client.get(f"/events/{event.id}").get_data(as_text=True)
    standings = app.test_client().get(f"/events/{event.id}/standings", headers={"Accept-Language": "de"})
    assert '<html lang="ja">' in standings.get_data(as_text=True)
    api = client.get(f"/api/v1/events/{event.id}")
    assert api.status_code == 200 and api.get_json()["language"] == "ja"


def test_a_pdf_in_another_language_does_not_change_the_readers_language(client, db, make_event, organizer, login):
    event = make_event(name="Brno EDH")
    login(organizer)
    response = client.get(f"/events/{event.id}/print/rules.pdf?lang=cs")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert "lang=" not in response.headers.get("Set-Cookie", "")


@pytest.mark.parametrize("value", [{}, [], 3, True, "x" * 300, "<b>ja</b>"])
def test_an_events_language_of_the_wrong_kind_is_a_400_not_a_500(db, make_event, organizer, value):
    from tournament.events import operations as events
    from tournament.errors import Refused
    event = make_event(name="API event")
    with pytest.raises(Refused) as refused:
        events.update_event(event, organizer, {"language": value})
    assert refused.value.status == 400 and refused.value.field == "language"


@pytest.mark.parametrize("lang, points, share", [("en", "3.3333", "45.7"), ("cs", "3,3333", "45,7"),
                                                 ("ja", "3.3333", "45.7")])
def test_numbers_on_pages_are_written_as_each_language_writes_them(app, lang, points, share):
    from flask import render_template_string
    with app.test_request_context(f"/?lang={lang}"):
        text = render_template_string('{% from "rounds/_macros.html" import number, percent %}'
                                      '{{ number(3.33333) }}|{{ number(4.0) }}|{{ percent(0.4567) }}|'
                                      '{{ 50.0|decimal(1, true) }}')
    assert text == f"{points}|4|{share}&nbsp;%|{'50,0' if lang == 'cs' else '50.0'}"


def test_only_the_data_files_own_texts_are_translated(app):
    """A text the data says (a ruleset's name, a draw kind, draws.json's end-of-round text with its {turns}) is
    worded in the reader's language; the same words typed by an organizer elsewhere are not data and stay."""
    import json as _json
    from tournament.i18n import data_text, js_texts
    with app.test_request_context("/?lang=ja"):
        assert data_text("EDH (2010 rules)") != "EDH (2010 rules)"
        procedure = _json.loads((REPO / "tournament" / "data" / "draws.json").read_text("utf-8"))["end_of_round"]
        text = data_text(procedure["extra_turns"]["text"], turns=3)
        assert "3" in text and "{turns}" not in text and text != procedure["extra_turns"]["text"].format(turns=3)
        assert data_text("Save") == "Save" and data_text("Most mana, {x}", x=1) == "Most mana, 1"
        assert _json.loads(str(js_texts()))["no_connection"] != "No connection; try again."
    with app.test_request_context("/?lang=en"):
        assert data_text(procedure["extra_turns"]["text"], turns=3) == procedure["extra_turns"]["text"].format(turns=3)


def test_an_app_started_from_a_fresh_checkout_compiles_its_catalogs(tmp_path):
    """No .mo is committed: an app started without scripts/run (flask run, waitress-serve) compiles them."""
    import shutil

    from tournament import create_app
    from tournament.config import TestingConfig
    from tournament.i18n import TRANSLATIONS
    copy = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS, copy, ignore=shutil.ignore_patterns("*.mo"))

    class Config(TestingConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
        INSTANCE_PATH = str(tmp_path / "instance")
        BABEL_TRANSLATION_DIRECTORIES = str(copy)
    create_app(Config)
    compiled = sorted(p.parent.parent.name for p in copy.glob("*/LC_MESSAGES/messages.mo"))
    assert compiled == sorted(code for code in LANGUAGES if code != "en")
    assert not list(copy.glob("**/*.tmp"))
