"""Words a person would say, and screens that show everything (issue 31, items 6 and 7): tiebreakers by name in
every language, one name per scoring profile, "Round 4 — top 4 cut", the tracker's reasons, the rules' real
source, the staff form's bracket question; the home page's current events; the dashboard's every setting."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from markupsafe import escape

from tournament.events import operations as events
from tournament.rounds import operations as rounds

ROOT = Path(__file__).resolve().parents[2]


def _page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def _played(db, event, judge, n=8):
    regs = [events.register_player(event, {"name": f"Player {i}"}) for i in range(n)]
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    rnd = rounds.pair_next_round(event, judge, seed=1, override_decks=True)
    rounds.publish_round(rnd, judge)
    db.session.commit()
    return rnd


# ----------------------------------------------------------------- words

@pytest.mark.parametrize("lang, opp, profile", [
    ("en", "Opp. points", "Democratic victory"),
    ("ja", "対戦相手の勝ち点", None),
    ("cs", "Body soupeřů", None),
])
def test_standings_name_the_opponents_points_in_words(client, db, make_event, judge, lang, opp, profile):
    event = make_event(name="Words", scoring_profile="democratic")
    _played(db, event, judge)
    page = _page(client, f"/events/{event.id}/standings?lang={lang}")
    head = page.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert f">{opp}</abbr>" in head and ">OPP<" not in head
    if profile:
        assert f"{profile}. Ties are broken" in page and "Democratic (votes)" not in page


def test_one_name_per_scoring_profile_on_the_dashboard_the_form_and_the_api(client, db, make_event, organizer,
                                                                             login):
    event = make_event(name="Names", scoring_profile="democratic")
    login(organizer)
    assert "Democratic victory" in _page(client, f"/events/{event.id}")
    form = _page(client, f"/events/{event.id}/edit")
    assert "Democratic victory" in form and "Democratic (votes)" not in form and "MTR (match points)" not in form
    spec = json.dumps(client.get("/api/v1/openapi.json").get_json())
    assert "democratic: Democratic victory" in spec and "mtr: Magic Tournament Rules (1v1 Swiss)" in spec


def test_a_cut_round_is_named_as_a_person_says_it(app):
    from types import SimpleNamespace
    from tournament.rounds.presenting import round_title
    event = SimpleNamespace(planned_rounds=3)
    with app.test_request_context("/?lang=en"):
        assert round_title(SimpleNamespace(number=4, stage="top4"), event) == "Round 4 — top 4 cut"
        assert round_title(SimpleNamespace(number=2, stage="pods"), event) == "Round 2 of 3"
    with app.test_request_context("/?lang=ja"):
        assert round_title(SimpleNamespace(number=4, stage="top4"), event) == "第4ラウンド — 上位4名の決勝ラウンド"
    with app.test_request_context("/?lang=cs"):
        assert round_title(SimpleNamespace(number=4, stage="top4"), event) == "4. kolo — vyřazovací část nejlepších 4"


def test_the_trackers_reasons_are_sentences_with_the_lethal_amount():
    script = (ROOT / "static" / "tracker.js").read_text(encoding="utf-8")
    assert 'out_general_damage: "out: %(limit)s general damage"' in script
    assert "general_damage)" not in script.split("var ENGLISH", 1)[1].split("};", 1)[0]
    from tournament.i18n import JS_TEXTS
    assert JS_TEXTS["out_general_damage"] == "out: %(limit)s general damage"
    assert all(JS_TEXTS[k].startswith("out: ") and not JS_TEXTS[k].endswith(")")
               for k in ("out_life", "out_poison", "out_conceded", "out_other", "out_general_damage"))


@pytest.mark.parametrize("lang, words", [("en", "out: %(limit)s general damage"),
                                          ("ja", "脱落：ジェネラル・ダメージ%(limit)s点"),
                                          ("cs", "vypadl: %(limit)s zranění od generála")])
def test_the_tracker_page_gives_its_script_the_reason_in_the_readers_language(client, db, make_event, judge,
                                                                                lang, words):
    event = make_event(name="Tracker")
    rnd = _played(db, event, judge)
    code = rnd.tables[0].seats[0].registration.access_code
    page = _page(client, f"/p/{code}/tracker?lang={lang}")
    texts = json.loads(page.split('id="page-texts">', 1)[1].split("</script>", 1)[0])
    assert texts["out_general_damage"] == words


@pytest.mark.parametrize("lang, title", [
    ("en", "Elder Dragon Highlander (EDH) rules, Japanese edition, with the changes of September 10, 2009"),
    ("ja", "「エルダードラゴン・ハイランダー(EDH)」ルール 日本語版（2009年9月10日の変更を含む）"),
    ("cs", "Pravidla Elder Dragon Highlander (EDH), japonské vydání se změnami z 10. září 2009"),
])
def test_the_rules_sheet_names_its_source_document(app, db, make_event, lang, title):
    from io import BytesIO
    from pdfminer.high_level import extract_text
    from tournament.printing import operations as printing
    event = make_event(name="Rules", ruleset="edh-2010")
    with app.test_request_context():
        text = "".join(extract_text(BytesIO(printing.build_document(event, "rules", language=lang)[0])).split())
    assert "".join(title.split()) in text and "seed000" not in text


def test_every_ruleset_source_is_a_documents_name_not_a_seed_number():
    for path in (ROOT / "tournament" / "data" / "rulesets").glob("*.json"):
        source = json.loads(path.read_text(encoding="utf-8"))["source"]
        assert source and "seed" not in source.lower(), path.name


@pytest.mark.parametrize("lang, question", [("en", "The player's deck bracket (optional)"),
                                             ("ja", "プレイヤーのデッキのブラケット（任意）"),
                                             ("cs", "Úroveň balíku hráče (nepovinné)")])
def test_the_staff_form_asks_for_the_players_bracket_not_yours(client, make_event, organizer, login, lang,
                                                               question):
    event = make_event(name="Staff form")
    login(organizer)
    form = _page(client, f"/events/{event.id}?lang={lang}").split('id="late-registration"', 1)[1]
    assert (question in form or str(escape(question)) in form) and "Your deck" not in form


def test_czech_names_the_brackets_and_game_changers_in_czech(client, make_event):
    event = make_event(name="Brackets")
    page = _page(client, f"/events/{event.id}/register?lang=cs")
    assert "1 Ukázková" in page and "1 Exhibition" not in page and "Exhibition" not in page


# ----------------------------------------------------------------- screens

def test_the_home_page_lists_current_events_with_their_links(client, db, make_event, judge):
    open_event = make_event(name="<b>Open</b> Saturday", venue="The Game Shop")
    running = make_event(name="Running Sunday")
    _played(db, running, judge)
    running.status = "running"
    finished = make_event(name="Last month")
    finished.status = "finished"
    db.session.commit()
    page = _page(client, "/")
    events_part = page.split('id="current-events"', 1)[1].split("</section>", 1)[0]
    assert "&lt;b&gt;Open&lt;/b&gt; Saturday" in events_part and "<b>Open" not in events_part
    assert f"/events/{open_event.id}/register" in events_part
    assert f"/events/{running.id}/standings" in events_part and f"/events/{running.id}/register" not in events_part
    assert f"/events/{open_event.id}/standings" not in events_part         # no round published yet
    assert "Last month" not in events_part
    assert client.get(f"/events/{running.id}/standings").status_code == 200   # the link works for anyone


def test_the_home_page_says_so_when_no_event_is_current(client):
    page = _page(client, "/")
    assert "No event is open for registration or under way right now." in page


def test_the_dashboard_shows_every_setting(client, make_event, organizer, login):
    event = make_event(name="All settings", scoring_profile="survival", planned_rounds=5, top_cut=10,
                       player_cap=64, entry_fee="€10, cash", max_bracket=3,
                       prize_conditions=[{"id": "x", "name": "Most tokens at once", "kind": "max"}])
    login(organizer)
    page = _page(client, f"/events/{event.id}")
    settings = page.split('id="settings"', 1)[1].split("</section>", 1)[0]
    expected = {"event-tiebreakers": "Opp. points", "event-planned-rounds": "5", "event-top-cut": "Top 10 (pods)",
                "event-cut-seating": "Assigned by seed", "event-cut-draw": "goes on", "event-cut-deal": "Snake",
                "event-leftover": "Pods of 3", "event-end-of-round": "", "event-intentional-draws": "yes",
                "event-max-bracket": "3 Upgraded", "event-prizes": "Most tokens at once", "event-cap": "64",
                "event-fee": "€10, cash", "event-timezone": ""}
    for key, words in expected.items():
        part = settings.split(f'id="{key}">', 1)
        assert len(part) == 2, key
        assert words in part[1].split("</dd>", 1)[0], key
    assert "Survival" in settings and "90 minutes" in settings


def test_the_projector_sizes_itself_to_the_event(client, db, make_event, judge):
    small = make_event(name="Small")
    rnd = _played(db, small, judge, n=16)
    from tournament.rounds.operations.clock import extend_table
    rounds.start_round(rnd, judge)
    extend_table(rnd.tables[1], judge, 5)
    db.session.commit()
    page = _page(client, f"/events/{small.id}/projector")
    assert '<body class="projector few">' in page                 # 4 pods: big cards
    table = page.split(f'id="p-table-{rnd.tables[1].number}"', 1)[1].split("</li>", 1)[0]
    number = table.split('class="table-no">', 1)[1].split('<span class="players">', 1)[0]
    assert "+5 min" in number                                     # the badge sits with the table number
    big = make_event(name="Big")
    _played(db, big, judge, n=100)
    assert '<body class="projector many">' in _page(client, f"/events/{big.id}/projector")
