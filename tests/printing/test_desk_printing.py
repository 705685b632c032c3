"""The desk and printing: a renamed player on a reprinted pairing, one table's result slip, a receipt link on
every desk row, confirmations before "Drop" and "Finish the event", pair buttons only when they can apply, and
a finished round that says so instead of showing a clock."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from pdf_helpers import pdf_text, squash

from tournament.events import operations as events
from tournament.rounds import operations as rounds
from tournament.rounds.views import can_pair_cut, can_pair_next


def test_a_rename_shows_on_the_reprinted_pairings_and_slips(client, db, login, pods_event, judge):
    login(judge)
    reg = next(r for r in pods_event.registrations if r.name == "Ben Smith")
    before = squash(pdf_text(client.get(f"/events/{pods_event.id}/print/pairings-by-table.pdf?round=2").data))
    assert "BenSmith" in before
    response = client.post(f"/events/{pods_event.id}/registrations/{reg.id}/rename", data={"name": "Benjamin Smythe"})
    assert response.status_code == 302
    for document in ("pairings-by-table", "pairings-by-name", "result-slips"):
        flat = squash(pdf_text(client.get(f"/events/{pods_event.id}/print/{document}.pdf?round=2").data))
        assert "BenjaminSmythe" in flat and "BenSmith" not in flat, document
    flat = squash(pdf_text(client.get(f"/events/{pods_event.id}/print/standings.pdf").data))
    assert "BenjaminSmythe" in flat and "BenSmith" not in flat


def test_one_tables_result_slip(client, db, login, pods_event, judge):
    login(judge)
    rnd = rounds.get_round(pods_event, 2)
    table = next(t for t in rnd.tables if t.kind == "pod" and t.number == 2)
    names = {r.id: r.name for r in pods_event.registrations}
    seated = [names[s.registration_id] for s in table.seats]
    others = [n for n in names.values() if n not in seated]
    r = client.get(f"/events/{pods_event.id}/print/result-slips.pdf?round=2&table=2")
    assert r.status_code == 200
    assert f'filename="event-{pods_event.id}-result-slips-round-2-table-2.pdf"' in r.headers["Content-Disposition"]
    flat = squash(pdf_text(r.data))
    assert all(squash(n) in flat for n in seated) and not any(squash(n) in flat for n in others)
    for query, status, words in (("round=2&table=99", 404, "has no table 99"), ("round=2&table=x", 400, "whole number"),
                                 ("round=2&table=-1", 400, "whole number"), ("round=2&table=0", 400, "whole number")):
        response = client.get(f"/events/{pods_event.id}/print/result-slips.pdf?{query}")
        assert response.status_code == status and words in response.get_data(as_text=True), query
    response = client.get(f"/events/{pods_event.id}/print/pairings-by-table.pdf?round=2&table=1")
    assert response.status_code == 400 and "Only result slips" in response.get_data(as_text=True)
    page = client.get(f"/events/{pods_event.id}/print").get_data(as_text=True)
    assert 'id="table-slip-2"' in page and 'name="table"' in page


def test_every_desk_row_has_its_receipt_and_corrections(client, db, login, make_event, make_player, judge):
    event = make_event()
    regs = [make_player(event, n) for n in ("Ada", "Bob", "<b>Cy</b>")]
    login(judge)
    page = client.get(f"/events/{event.id}/desk").get_data(as_text=True)
    for reg in regs:
        assert f'href="/p/{reg.access_code}/receipt"' in page
        assert f'href="/events/{event.id}/registrations/{reg.id}"' in page
    found = client.get(f"/events/{event.id}/desk/search?q=ada").get_json()["results"]
    assert found[0]["receipt_url"] == f"/p/{regs[0].access_code}/receipt"
    dashboard = client.get(f"/events/{event.id}").get_data(as_text=True)
    assert all(f'href="/p/{r.access_code}/receipt"' in dashboard for r in regs)
    # "Drop" asks first (page.js; the CSP allows no inline script); the text is escaped
    assert page.count("data-confirm=") == 3 and "Drop &lt;b&gt;Cy&lt;/b&gt; from the event?" in page
    script = client.get("/static/page.js").get_data(as_text=True)
    assert "data-confirm" in script and "window.confirm" in script
    assert "<script>" not in page.split("</head>", 1)[1].replace('<script type="application/json"', "")


def test_finish_the_event_asks_first(client, db, login, make_round, organizer, judge):
    event, rnd, regs = make_round(players=8)
    for t in rnd.tables:
        ids = [s.registration_id for s in t.seats]
        rounds.report_pod_result(t, ids[:1], ids[1:], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()
    login(organizer)
    page = client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    form = re.search(r'<form[^>]*id="finish-event"[^>]*>', page, re.S).group(0)
    assert "data-confirm=" in form and "results become final" in form


def _round(stage="pods", status="finished", tables=()):
    return SimpleNamespace(stage=stage, status=status, tables=[SimpleNamespace(kind=k) for k in tables])


@pytest.mark.parametrize("event,rounds_,pair,cut", [
    ({"top_cut": 4}, [], True, False),                                         # no cut before round 1
    ({"top_cut": 0}, [_round()], True, False),
    ({"top_cut": 4}, [_round()], True, True),
    ({"top_cut": 4}, [_round(status="published")], False, False),              # a round is open
    ({"top_cut": 4}, [_round(status="draft")], False, False),
    ({"top_cut": 4, "status": "finished"}, [_round()], False, False),          # after the event
    ({"top_cut": 4}, [_round(), _round("top4", tables=("match", "match"))], False, True),   # semifinals done
    ({"top_cut": 4}, [_round(), _round("top2", tables=("match",))], False, False),          # after the final
    ({"top_cut": 7}, [_round(), _round("top7", tables=("pod", "bye", "bye", "bye"))], False, True),
    ({"top_cut": 7}, [_round(), _round("top4", tables=("pod",))], False, False),            # the final pod
])
def test_pair_buttons_only_when_they_can_apply(event, rounds_, pair, cut):
    event = SimpleNamespace(**{"status": "running", **event})
    assert (can_pair_next(event, rounds_), can_pair_cut(event, rounds_)) == (pair, cut)


def test_the_rounds_page_offers_no_cut_before_round_one_and_no_pairing_after_the_event(
        client, db, login, make_event, make_player, organizer, judge):
    event = make_event(mode="duel", ruleset="duel-cn", top_cut=4)
    regs = [make_player(event, f"Duelist {i}") for i in range(1, 5)]
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    login(organizer)
    page = client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    assert 'id="pair-form"' in page and "Pair the top cut" not in page
    rnd = rounds.pair_next_round(event, judge, seed=1, override_decks=True)
    rounds.publish_round(rnd, judge)
    db.session.commit()
    page = client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    assert 'id="pair-form"' not in page and "Pair the top cut" not in page      # round 1 is still open
    for t in rnd.tables:
        a, b = [s.registration_id for s in t.seats]
        rounds.report_duel_games(t, [a, a], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()
    page = client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    assert 'id="pair-form"' in page and "Pair the top cut" in page
    rounds.finish_event(event, organizer)
    db.session.commit()
    page = client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    assert 'id="pair-form"' not in page and "Pair the top cut" not in page and 'id="finish-event"' not in page


def test_a_finished_round_says_so_instead_of_a_clock(client, db, login, make_round, judge):
    event, rnd, regs = make_round(players=8, start=True)
    login(judge)
    page = client.get(f"/events/{event.id}/rounds/1").get_data(as_text=True)
    assert "time is up at" in page and "Round finished" not in page
    for t in rnd.tables:
        ids = [s.registration_id for s in t.seats]
        rounds.report_pod_result(t, ids[:1], ids[1:], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()
    page = client.get(f"/events/{event.id}/rounds/1").get_data(as_text=True)
    assert "Round finished" in page and "time is up at" not in page
    timer = re.search(r'<div class="round-timer.*?</div>', page, re.S).group(0)
    assert re.search(r"\d+:\d\d", re.sub(r"<[^>]+>", "", timer)) is None     # no clock shown
    projector = client.get(f"/events/{event.id}/rounds/1/projector").get_data(as_text=True)
    assert "Round finished" in projector
    phone = client.get(f"/p/{regs[0].access_code}").get_data(as_text=True)
    assert "time is up" not in phone


def test_one_tables_slip_from_the_command_line(runner, pods_event, tmp_path):
    rnd = rounds.get_round(pods_event, 2)
    names = {r.id: r.name for r in pods_event.registrations}
    table = next(t for t in rnd.tables if t.kind == "pod" and t.number == 1)
    out = tmp_path / "slip.pdf"
    result = runner.invoke(args=["print", "result-slips", "--event", str(pods_event.id), "--round", "2",
                                 "--table", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    flat = squash(pdf_text(out.read_bytes()))
    seated = {names[s.registration_id] for s in table.seats}
    assert all(squash(n) in flat for n in seated)
    assert not any(squash(n) in flat for n in set(names.values()) - seated)
    bad = runner.invoke(args=["print", "result-slips", "--event", str(pods_event.id), "--round", "2",
                              "--table", "x", "-o", str(out)])
    assert bad.exit_code != 0 and "whole number" in bad.output
