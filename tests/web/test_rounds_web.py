"""Rounds through the web: the organizer's round page, the player's round, standings and the projector."""
from __future__ import annotations

import html
import re
import unicodedata
from datetime import timezone

import pytest
import sqlalchemy as sa
from markupsafe import escape

from tournament.events import operations as events
from tournament.events.models import AuditEntry, Event, Registration
from tournament.rounds.models import DuelGame, GameTable, PrizeClaim, Round, Seat, Vote
from tournament.rounds.operations import why_lines
from tournament.rounds.views import REFRESH_SECONDS

SCRIPT = "<script>alert('x')</script>"
EXPIRED = "This form has expired or did not come from this site"
NAMES = ["Zoë Zimmermann", "Ádám Álmos", "山田太郎", "Šárka Dvořáková", SCRIPT, "محمد", "Ἀλέξανδρος",
         "O'Brien-Smith", "bob <b>bold</b>"]


# ----------------------------------------------------------------- fixtures and helpers

@pytest.fixture
def pods(db, make_event, make_player, judge):
    """A democratic pods event with 9 checked-in players (hostile names among them)."""
    event = make_event(name="Pods <i>night</i>")
    regs = [make_player(event, name) for name in NAMES]
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    return event, regs


@pytest.fixture
def duel(db, make_event, make_player, judge):
    event = make_event(name="Duel night", mode="duel", ruleset="duel-cn")
    regs = [make_player(event, f"Duelist {i} {SCRIPT if i == 1 else ''}".strip()) for i in range(1, 7)]
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    return event, regs


@pytest.fixture
def public(app):
    """A second browser: nobody logged in."""
    return app.test_client()


def page_of(response) -> str:
    return response.get_data(as_text=True)


def count(db, model) -> int:
    return db.session.execute(sa.select(sa.func.count()).select_from(model)).scalar()


def counts(db) -> dict:
    return {m.__name__: count(db, m) for m in (Round, GameTable, Seat, Vote, PrizeClaim, DuelGame, AuditEntry)}


def audit(db, action) -> list[AuditEntry]:
    db.session.expire_all()
    return list(db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == action)
                                   .order_by(AuditEntry.id)).scalars())


def round_of(db, event, number=1) -> Round:
    db.session.expire_all()
    return db.session.execute(sa.select(Round).where(Round.event_id == event.id, Round.number == number)).scalar_one()


def seats_of(table) -> list[int]:
    return [s.registration_id for s in table.seats]


def pair(client, event) -> Round:
    """Pair through the rounds page; these players have no decklists, so staff tick "seat them anyway"."""
    response = client.post(f"/events/{event.id}/rounds", data={"override_decks": "y"})
    assert response.status_code == 302, page_of(response)
    assert response.headers["Location"].endswith(f"/events/{event.id}/rounds/1")
    return round_of(event=event, db=_db())


def _db():
    from tournament.extensions import db
    return db


def act(client, event, action, number=1, status=302):
    response = client.post(f"/events/{event.id}/rounds/{number}/{action}")
    assert response.status_code == status, page_of(response)
    return response


def published_round(client, login, judge, event, db) -> Round:
    login(judge)
    pair(client, event)
    act(client, event, "publish")
    return round_of(db, event)


def started_pods_round(client, db, login, judge, event, regs) -> Round:
    """Check the players in, pair round 1 through the page, publish and start it."""
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    rnd = published_round(client, login, judge, event, db)
    act(client, event, "start")
    return rnd


def enter_winners(client, event, rnd) -> None:
    """Staff enter each table's first seat as its one survivor."""
    for table in rnd.tables:
        assert client.post(f"/events/{event.id}/rounds/{rnd.number}/tables/{table.number}/result",
                           data={f"t{table.number}-survivors": seats_of(table)[:1]}).status_code == 302


def by_id(regs) -> dict[int, Registration]:
    return {r.id: r for r in regs}


def escaped_everywhere(text: str, name: str) -> bool:
    return str(escape(name)) in text and name not in text


# ----------------------------------------------------------------- pairing, drafts, swaps, publish, start

def test_round_pages_need_staff(client, pods):
    event, _regs = pods
    for url in (f"/events/{event.id}/rounds", f"/events/{event.id}/rounds/1"):
        response = client.get(url)
        assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    response = client.post(f"/events/{event.id}/rounds")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    assert count(_db(), Round) == 0


def test_pair_draft_is_for_staff_only(client, public, db, pods, judge, login):
    event, regs = pods
    login(judge)
    page = page_of(client.get(f"/events/{event.id}/rounds"))
    assert "Pair next round" in page and "9 checked-in players would be seated" in page
    rnd = pair(client, event)
    assert rnd.status == "draft" and sum(len(t.seats) for t in rnd.tables) == 9
    assert audit(db, "round.pair")
    response = client.get(f"/events/{event.id}/rounds/1")
    page = page_of(response)
    assert response.status_code == 200
    assert "draft: only staff see it" in page and "Publish" in page and "Delete draft" in page
    assert "Why these pairings" in page and all(str(escape(line)) in page for line in why_lines(rnd))
    for t in rnd.tables:
        assert f'id="table-{t.number}"' in page
    for reg in regs:
        assert str(escape(reg.name)) in page
    assert SCRIPT not in page and "<b>bold</b>" not in page
    assert 'name="first"' in page and 'name="second"' in page            # the swap form, on drafts
    # staff may preview the projector; the public may not see a draft anywhere
    assert client.get(f"/events/{event.id}/rounds/1/projector").status_code == 200
    for url in (f"/events/{event.id}/rounds/1/projector", f"/events/{event.id}/standings"):
        assert public.get(url).status_code == 404, url
    waiting = page_of(public.get(f"/events/{event.id}/projector"))       # the screen left on for the event
    assert "appear here as soon as they are published" in waiting and f'data-refresh="{REFRESH_SECONDS}"' in waiting
    assert not any(str(escape(reg.name)) in waiting for reg in regs)
    player_page = page_of(public.get(f"/p/{regs[0].access_code}"))
    assert "Your round" not in player_page and f'<section id="round" data-refresh="{REFRESH_SECONDS}"' in player_page
    box = public.get(f"/p/{regs[0].access_code}/round")                  # what the open page polls
    assert box.status_code == 200 and "Your round:" not in page_of(box) and 'id="round"' in page_of(box)
    # a second pairing while a draft is open is refused with the operation's message
    response = client.post(f"/events/{event.id}/rounds")
    assert response.status_code == 409 and "is not finished yet" in page_of(response)
    assert count(db, Round) == 1
    # no results on a draft, not even from staff
    table = rnd.tables[0]
    response = client.post(f"/events/{event.id}/rounds/1/tables/{table.number}/result",
                           data={f"t{table.number}-survivors": seats_of(table)[:1]})
    assert response.status_code == 409 and "Publish the round before entering results." in page_of(response)
    assert round_of(db, event).tables[0].result_state is None


def test_repair_and_delete_draft(client, db, pods, judge, login):
    event, _regs = pods
    login(judge)
    first = pair(client, event)
    seed = first.seed
    act(client, event, "repair")
    again = round_of(db, event)
    assert again.number == 1 and again.seed != seed and count(db, Round) == 1
    assert audit(db, "round.delete_draft")
    response = act(client, event, "delete")
    assert response.headers["Location"].endswith(f"/events/{event.id}/rounds")
    assert count(db, Round) == 0 and count(db, Seat) == 0


def test_swap_seats_is_logged(client, db, pods, judge, login):
    event, _regs = pods
    login(judge)
    rnd = pair(client, event)
    t1, t2 = rnd.tables[0], rnd.tables[1]
    a, b = t1.seats[0].registration_id, t2.seats[1].registration_id
    response = client.post(f"/events/{event.id}/rounds/1/swap", data={"first": a, "second": b})
    assert response.status_code == 302
    rnd = round_of(db, event)
    assert seats_of(rnd.tables[0])[0] == b and seats_of(rnd.tables[1])[1] == a
    entry = audit(db, "round.swap_seats")[-1]
    assert entry.details["players"] == [a, b] and entry.actor == "judge:Jan Judge"
    # the same player twice, a player not in the round, nonsense: refused, nothing changes
    before = counts(db)
    for data, message in (({"first": a, "second": a}, "Choose two different players"),
                          ({"first": a, "second": 999999}, "Choose two different players"),
                          ({"first": "abc", "second": b}, "Choose a player from the list."),
                          ({"first": a}, "Choose the second player.")):
        response = client.post(f"/events/{event.id}/rounds/1/swap", data=data)
        assert response.status_code == 400 and message in page_of(response), data
    assert counts(db) == before
    # once published, a swap is a logged correction (tests/rounds/test_seating.py has the rest)
    act(client, event, "publish")
    response = client.post(f"/events/{event.id}/rounds/1/swap", data={"first": a, "second": b})
    assert response.status_code == 302
    rnd = round_of(db, event)
    assert seats_of(rnd.tables[0])[0] == a and seats_of(rnd.tables[1])[1] == b
    assert audit(db, "round.seating.swap")[-1].details["players"] == [a, b]


def test_publish_start_and_the_stored_deadline(client, public, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    assert rnd.status == "published" and rnd.ends_at is None
    page = page_of(client.get(f"/events/{event.id}/rounds/1"))
    assert "Start round (90 min)" in page and "Tables still missing a result (" in page
    act(client, event, "start")
    rnd = round_of(db, event)
    ends = rnd.ends_at.replace(tzinfo=timezone.utc) if rnd.ends_at.tzinfo is None else rnd.ends_at
    stamp = ends.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    for url in (f"/events/{event.id}/rounds/1", f"/events/{event.id}/rounds/1/projector",
                f"/p/{regs[0].access_code}"):
        for _ in range(2):   # reloading shows the same deadline, never a fresh one
            text = page_of(public.get(url) if "/p/" in url or "projector" in url else client.get(url))
            assert f'data-ends-at="{stamp}"' in text, url
            assert re.search(r'data-server-now="\d{4}-\d\d-\d\dT[\d:]+Z"', text)
    assert audit(db, "round.start")[-1].details["ends_at"].startswith(stamp[:16])
    act(client, event, "start", status=409)          # already started
    assert round_of(db, event).ends_at == rnd.ends_at


def test_projector_by_table_and_by_name(client, public, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    response = public.get(f"/events/{event.id}/rounds/1/projector")
    page = page_of(response)
    assert response.status_code == 200
    assert f'data-refresh="{REFRESH_SECONDS}"' in page and "rounds.js" in page and 'http-equiv="refresh" content="30"' in page
    by_table = page.split('id="by-table"', 1)[1].split('id="by-name"', 1)[0]
    by_name = page.split('id="by-name"', 1)[1]
    for t in rnd.tables:
        assert f'id="p-table-{t.number}"' in by_table
    for reg in regs:
        assert str(escape(reg.name)) in by_table and str(escape(reg.name)) in by_name
    assert SCRIPT not in page
    names_in_order = [html.unescape(n) for n in re.findall(r'<span class="name">(.*?)</span>', by_name)]
    assert names_in_order == sorted((r.name for r in regs),
                                    key=lambda n: unicodedata.normalize("NFKD", n).casefold())
    seat = {s.registration_id: (t.number, s.seat) for t in rnd.tables for s in t.seats}
    row = by_name.split(str(escape(regs[2].name)), 1)[1].split("</li>", 1)[0]
    table, place = seat[regs[2].id]
    assert f'<span class="table-no">{table}</span> <span class="label">seat</span> {place}</span>' in row
    # the projector's stable address follows the latest published round
    response = public.get(f"/events/{event.id}/projector")
    assert response.status_code == 200 and "Round 1" in page_of(response)
    assert public.get(f"/events/{event.id}/rounds/2/projector").status_code == 404


# ----------------------------------------------------------------- the player's round

def test_player_sees_table_seat_opponents_and_timer(client, public, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    table = rnd.tables[0]
    me = by_id(regs)[table.seats[1].registration_id]
    response = public.get(f"/p/{me.access_code}")
    page = page_of(response)
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    section = page.split('id="round"', 1)[1]
    assert f"Table <strong class=\"big-number\">{table.number}</strong> · seat <strong class=\"big-number\">2</strong>" \
        in section
    seat_list = section.split('id="your-seats"', 1)[1].split("</ol>", 1)[0]
    names = [str(escape(by_id(regs)[rid].name)) for rid in seats_of(table)]
    positions = [seat_list.index(n) for n in names]
    assert positions == sorted(positions)                  # in seat order
    assert "(you)" in seat_list and "data-timer" in section and "not started" in section
    assert 'action="/p/' + me.access_code + '/result"' in section
    assert 'action="/p/' + me.access_code + '/vote"' in section
    vote_select = section.split('name="votee"', 1)[1].split("</select>", 1)[0]
    assert f'value="{me.id}"' not in vote_select                     # no self-vote offered
    for rid in seats_of(table):
        if rid != me.id:
            assert f'value="{rid}"' in vote_select
    assert SCRIPT not in page


def test_bye_is_shown(client, public, db, make_event, make_player, judge, login):
    event = make_event(leftover_policy="byes")
    regs = [make_player(event, f"P{i}") for i in range(5)]
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    rnd = published_round(client, login, judge, event, db)
    byes = [t for t in rnd.tables if t.kind == "bye"]
    assert byes, [t.kind for t in rnd.tables]
    reg = by_id(regs)[byes[0].seats[0].registration_id]
    assert "You have a bye this round." in page_of(public.get(f"/p/{reg.access_code}"))
    assert "has a bye." in page_of(client.get(f"/events/{event.id}/rounds/1"))


def test_report_confirm_and_vote_from_the_player_page(client, public, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    table = rnd.tables[0]
    ids = seats_of(table)
    regs_by = by_id(regs)
    a, b, c = (regs_by[i] for i in ids[:3])
    form = {"r-round": 1, "r-table": table.number, "r-survivors": [a.id], f"r-order_{b.id}": 1,
            f"r-order_{c.id}": 2}
    response = public.post(f"/p/{a.access_code}/result", data=form)
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/p/{a.access_code}#round")
    db.session.expire_all()
    table = db.session.get(GameTable, table.id)
    assert table.result_state == "reported" and [c.registration_id for c in table.confirmations] == [a.id]
    assert [s.survived for s in table.seats if s.registration_id == a.id] == [True]
    assert {s.registration_id: s.eliminated_order for s in table.seats}[c.id] == 2
    assert audit(db, "result.report")
    # b sees the reported result with a confirm button; a does not
    page_b = page_of(public.get(f"/p/{b.access_code}"))
    assert 'id="confirm-form"' in page_b and "reported by" in page_b
    assert 'id="confirm-form"' not in page_of(public.get(f"/p/{a.access_code}"))
    response = public.post(f"/p/{b.access_code}/confirm", data={"round": 1, "revision": 1, "table": table.number})
    assert response.status_code == 302
    db.session.expire_all()
    assert sorted(c.registration_id for c in db.session.get(GameTable, table.id).confirmations) == sorted([a.id, b.id])
    assert 'id="confirm-form"' not in page_of(public.get(f"/p/{b.access_code}"))
    for rid in ids[2:]:
        public.post(f"/p/{regs_by[rid].access_code}/confirm", data={"round": 1, "revision": 1, "table": table.number})
    db.session.expire_all()
    assert db.session.get(GameTable, table.id).result_state == "confirmed"
    page_a = page_of(public.get(f"/p/{a.access_code}"))
    assert "ask a judge to correct it" in page_a and 'id="report-form"' not in page_a
    response = public.post(f"/p/{a.access_code}/result", data=form)       # confirmed: players cannot change it
    assert response.status_code == 409 and "ask a judge to correct it" in page_of(response)

    # votes: not for yourself, not for someone at another table; nothing stored on refusal
    before = counts(db)
    response = public.post(f"/p/{a.access_code}/vote", data={"round": 1, "table": table.number, "votee": a.id})
    assert response.status_code == 400
    assert "Vote for one of the other players at your table, not yourself." in page_of(response)
    stranger = rnd.tables[1].seats[0].registration_id
    response = public.post(f"/p/{a.access_code}/vote", data={"round": 1, "table": table.number, "votee": stranger})
    assert response.status_code == 400 and "must be at this table" in page_of(response)
    response = public.post(f"/p/{a.access_code}/vote", data={"round": 1, "table": table.number, "votee": ""})
    assert response.status_code == 400 and "Choose the player you vote for." in page_of(response)
    response = public.post(f"/p/{a.access_code}/vote", data={"round": 1, "table": table.number, "votee": "x"})
    assert response.status_code == 400 and "Choose a player from the list." in page_of(response)
    assert counts(db) == before
    # a valid vote; others' votes stay hidden until everyone at the table voted (hide_votes)
    response = public.post(f"/p/{a.access_code}/vote", data={"round": 1, "table": table.number, "votee": b.id})
    assert response.status_code == 302
    assert db.session.execute(sa.select(Vote.votee_id).where(Vote.voter_id == a.id)).scalar() == b.id
    page_a = page_of(public.get(f"/p/{a.access_code}"))
    assert "You voted for <strong>" + str(escape(b.name)) in page_a and 'id="votes-hidden"' in page_a
    public.post(f"/p/{b.access_code}/vote", data={"round": 1, "table": table.number, "votee": c.id})
    page_c = page_of(public.get(f"/p/{c.access_code}"))
    assert 'id="votes-hidden"' in page_c and "2 of 3 players have voted" in page_c
    assert 'id="table-votes"' not in page_c
    public.post(f"/p/{c.access_code}/vote", data={"round": 1, "table": table.number, "votee": a.id})
    page_c = page_of(public.get(f"/p/{c.access_code}"))
    votes = page_c.split('id="table-votes"', 1)[1].split("</ul>", 1)[0]
    assert f"{escape(a.name)} → {escape(b.name)}" in votes and f"{escape(c.name)} → {escape(a.name)}" in votes


def test_player_cannot_act_on_another_table(client, public, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    mine, theirs = rnd.tables[0], rnd.tables[1]
    me = by_id(regs)[mine.seats[0].registration_id]
    other_ids = seats_of(theirs)
    before = counts(db)
    response = public.post(f"/p/{me.access_code}/result",
                           data={"r-round": 1, "r-table": theirs.number, "r-survivors": other_ids[:1]})
    assert response.status_code == 403 and "Only the players at this table" in page_of(response)
    response = public.post(f"/p/{me.access_code}/confirm", data={"round": 1, "revision": 1, "table": theirs.number})
    assert response.status_code == 403
    response = public.post(f"/p/{me.access_code}/vote",
                           data={"round": 1, "table": theirs.number, "votee": other_ids[0]})
    assert response.status_code == 403
    # another table's player in my own table's form
    response = public.post(f"/p/{me.access_code}/result",
                           data={"r-round": 1, "r-table": mine.number, "r-survivors": [other_ids[0]]})
    assert response.status_code == 400 and f"is not at table {mine.number}" in page_of(response)
    # wrong types, unknown rounds and tables, forged hidden fields
    for data, status, message in (
            ({"r-round": "abc", "r-table": mine.number}, 400, "out of date"),
            ({"r-table": mine.number}, 400, "out of date"),
            ({"r-round": 99, "r-table": mine.number}, 404, "Round 99 does not exist yet."),
            ({"r-round": 1, "r-table": 999}, 404, "has no table 999"),
            ({"r-round": 1, "r-table": mine.number, "r-survivors": "abc"}, 400, "Choose a player from the list."),
            ({"r-round": 1, "r-table": mine.number, "r-survivors": "999999"}, 400, "is not at table"),
            ({"r-round": 1, "r-table": mine.number, f"r-order_{me.id}": "first"}, 400,
             "An elimination number is a whole number"),
            ({"r-round": 1, "r-table": mine.number, f"r-order_{me.id}": "7"}, 400,
             "An elimination number is a whole number"),
            ({"r-round": 1, "r-table": mine.number, "r-survivors": [me.id], f"r-order_{me.id}": "1"}, 400,
             "cannot both survive and be eliminated"),
            ({"r-round": 1, "r-table": mine.number, f"r-order_{mine.seats[1].registration_id}": "1",
              f"r-order_{mine.seats[2].registration_id}": "1"}, 400, "the same elimination number"),
            ({"r-round": 1, "r-table": mine.number, "r-prize_0_holder": other_ids[0]}, 400,
             "choose a player at this table"),
            ({"r-round": 1, "r-table": mine.number, "r-prize_0_holder": me.id, "r-prize_0_value": "lots"}, 400,
             "A prize value is a number"),
            ({"r-round": 1, "r-table": mine.number, "r-prize_0_value": "5"}, 400, "choose the player who holds it"),
    ):
        response = public.post(f"/p/{me.access_code}/result", data=data)
        assert response.status_code == status and message in html.unescape(page_of(response)), (data, status)
    assert public.post("/p/NOSUCHCODE/result", data={"r-round": 1, "r-table": 1}).status_code == 404
    db.session.expire_all()
    assert counts(db) == before
    assert all(t.result_state is None for t in round_of(db, event).tables)


def test_draft_tables_cannot_be_reported_by_players(client, public, db, pods, judge, login):
    event, regs = pods
    login(judge)
    rnd = pair(client, event)
    table = rnd.tables[0]
    me = by_id(regs)[table.seats[0].registration_id]
    response = public.post(f"/p/{me.access_code}/result",
                           data={"r-round": 1, "r-table": table.number, "r-survivors": [me.id]})
    assert response.status_code == 404
    assert round_of(db, event).tables[0].result_state is None


# ----------------------------------------------------------------- staff results, corrections, finishing

def staff_result(client, event, table, survivors=(), votes=None, order=None, prizes=None, number=1):
    data = {f"t{table.number}-survivors": list(survivors)}
    for voter, votee in (votes or {}).items():
        data[f"t{table.number}-vote_{voter}"] = votee
    for rid, n in (order or {}).items():
        data[f"t{table.number}-order_{rid}"] = n
    for i, (holder, value) in (prizes or {}).items():
        data[f"t{table.number}-prize_{i}_holder"] = holder
        if value is not None:
            data[f"t{table.number}-prize_{i}_value"] = value
    return client.post(f"/events/{event.id}/rounds/{number}/tables/{table.number}/result", data=data)


def test_staff_results_missing_list_correction_and_finish(client, public, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    act(client, event, "start")
    tables = rnd.tables
    page = page_of(client.get(f"/events/{event.id}/rounds/1"))
    missing = page.split('id="missing"', 1)[1].split("</section>", 1)[0]
    assert f"Tables still missing a result ({len(tables)})" in missing
    for t in tables:
        assert f'href="#table-{t.number}"' in missing
    # finishing with results missing: refused with the operation's 409 and message
    response = act(client, event, "finish", status=409)
    assert "Results are missing for table" in page_of(response)
    assert round_of(db, event).status == "published"
    # staff enter the first table (with votes and a prize): confirmed at once
    t1 = tables[0]
    a, b, c = seats_of(t1)[:3]
    response = staff_result(client, event, t1, survivors=[a], votes={a: b, b: a, c: a}, prizes={0: (a, 12)})
    assert response.status_code == 302 and response.headers["Location"].endswith(f"#table-{t1.number}")
    db.session.expire_all()
    t1 = db.session.get(GameTable, t1.id)
    assert t1.result_state == "confirmed" and t1.result_by == "judge:Jan Judge"
    assert {v.voter_id: v.votee_id for v in t1.votes} == {a: b, b: a, c: a}
    assert [(p.holder_id, p.value) for p in t1.prize_claims] == [(a, 12.0)]
    page = page_of(client.get(f"/events/{event.id}/rounds/1"))
    assert f"Tables still missing a result ({len(tables) - 1})" in page
    assert f'href="#table-{t1.number}"' not in page.split('id="missing"', 1)[1].split("</section>", 1)[0]
    # the stored result is shown in the form again
    form = page.split(f'id="table-{t1.number}"', 1)[1].split("</article>", 1)[0]
    assert re.search(rf'value="{a}" id="t{t1.number}-survivors-{a}" checked', form)
    assert "Correct the result" in form
    # a correction is logged with before and after
    response = staff_result(client, event, t1, survivors=[a, b], votes={a: b, b: a, c: a}, prizes={0: (a, 12)})
    assert response.status_code == 302
    entry = audit(db, "result.correct")[-1]
    assert entry.details["before"]["survivors"] == [a] and sorted(entry.details["after"]["survivors"]) == sorted([a, b])
    # the rest, then finish
    for t in tables[1:]:
        assert staff_result(client, event, t).status_code == 302
    page = page_of(client.get(f"/events/{event.id}/rounds/1"))
    assert "Every table has a confirmed result" in page
    act(client, event, "finish")
    assert round_of(db, event).status == "finished"
    assert audit(db, "round.finish")


def test_staff_form_refusals_store_nothing(client, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    t1, t2 = rnd.tables[0], rnd.tables[1]
    a, b = seats_of(t1)[:2]
    stranger = seats_of(t2)[0]
    before = counts(db)
    cases = [
        (dict(survivors=[stranger]), 400, f"player {by_id(regs)[stranger].name} is not at table {t1.number}"),
        (dict(survivors=[999999]), 400, f"player #999999 is not at table {t1.number}"),
        (dict(survivors=["abc"]), 400, "Choose a player from the list."),
        (dict(survivors=[a], votes={a: a}), 400, "not yourself"),
        (dict(survivors=[a], votes={a: stranger}), 400, "must be at this table"),
        (dict(survivors=[a], votes={a: "-1"}), 400, "Choose a player from the list."),
        (dict(survivors=[a], order={b: "x"}), 400, "An elimination number is a whole number"),
        (dict(survivors=[a], order={b: 0}), 400, "An elimination number is a whole number"),
        (dict(survivors=[a], prizes={0: (stranger, 3)}), 400, "choose a player at this table"),
        (dict(survivors=[a], prizes={0: (a, -5)}), 400, "A prize value is a number"),
        (dict(survivors=[a], prizes={0: (a, "1e999")}), 400, "A prize value is a number"),
    ]
    for kwargs, status, message in cases:
        response = staff_result(client, event, t1, **kwargs)
        text = html.unescape(page_of(response))
        assert response.status_code == status and message in text, (kwargs, text[-3000:])
        assert f'id="table-{t1.number}"' in text                  # the round page again, the form with the error
    response = client.post(f"/events/{event.id}/rounds/1/tables/999/result", data={})
    assert response.status_code == 404
    response = client.post(f"/events/{event.id}/rounds/7/tables/1/result", data={})
    assert response.status_code == 404
    db.session.expire_all()
    assert counts(db) == before
    assert all(t.result_state is None for t in round_of(db, event).tables)


def test_organizer_of_another_event_is_refused(client, db, pods, make_user, login):
    event, _regs = pods
    other = make_user("Otto Other", "organizer")
    login(other)
    assert client.get(f"/events/{event.id}/rounds").status_code == 403
    response = client.post(f"/events/{event.id}/rounds")
    assert response.status_code == 403 and count(db, Round) == 0


# ----------------------------------------------------------------- standings

def test_standings_democratic_points_by_hand(client, public, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    t1 = rnd.tables[0]
    a, b, c = seats_of(t1)[:3]
    # a survives (2) and gets two votes (2) = 4; b gets one vote = 1; c = 0
    assert staff_result(client, event, t1, survivors=[a], votes={a: b, b: a, c: a}).status_code == 302
    t2 = rnd.tables[1]
    d, e = seats_of(t2)[:2]
    # d and e survive (2 each), no votes
    assert staff_result(client, event, t2, survivors=[d, e]).status_code == 302
    expected = {a: "4", b: "1", c: "0", d: "2", e: "2"}
    for viewer in (client, public):
        response = viewer.get(f"/events/{event.id}/standings")
        page = page_of(response)
        assert response.status_code == 200
        head = page.split("<thead>", 1)[1].split("</thead>", 1)[0]
        assert "<th>Points</th>" in head and head.count(">Votes<") == 1 and "<th>Record</th>" in head
        for rid, points in expected.items():
            row = page.split(f'id="standing-{rid}"', 1)[1].split("</tr>", 1)[0]
            assert f'<td class="name"><bdi>{escape(by_id(regs)[rid].name)}</bdi></td>' in row
            assert f'<td class="points" data-label="Points">{points}</td>' in row
        rows = re.findall(r'id="standing-(\d+)"', page)
        assert int(rows[0]) == a and len(rows) == 9
        assert SCRIPT not in page and str(escape(SCRIPT)) in page
        assert 'id="prizes"' in page
    from tournament.rounds.operations import standings
    tiebreakers = list(standings(event)[0].tiebreakers)
    head = page.split("<thead>", 1)[1].split("</thead>", 1)[0]
    legend = page.split('id="tiebreak-legend"', 1)[1].split("</dl>", 1)[0]
    for name in tiebreakers:
        shown = {"votes": "Votes", "OPP": "Opp. points"}.get(name, name)
        assert f'tabindex="0">{escape(shown)}</abbr></th>' in head
        assert f"<dt>{escape(shown)}</dt><dd>" in legend          # explained where a tap cannot show a title


def test_standings_show_prize_leaders(client, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    t1, t2 = rnd.tables[0], rnd.tables[1]
    a = seats_of(t1)[0]
    d = seats_of(t2)[0]
    staff_result(client, event, t1, survivors=[a], prizes={0: (a, 7)})
    staff_result(client, event, t2, survivors=[d], prizes={0: (d, 11)})
    page = page_of(client.get(f"/events/{event.id}/standings"))
    prizes = page.split('id="prizes"', 1)[1]
    name = event.prize_conditions[0]["name"]
    row = prizes.split(str(escape(name)), 1)[1].split("</tr>", 1)[0]
    assert str(escape(by_id(regs)[d].name)) in row and "11" in row
    assert "Prize leaders" in page_of(client.get(f"/events/{event.id}/rounds"))



def test_a_dispute_over_a_prize_claim_shows_what_each_version_claims(client, db, pods, judge, login):
    from tournament.rounds import operations as rounds
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    act(client, event, "start")
    table = round_of(db, event).tables[0]
    a, b = (by_id(regs)[i] for i in seats_of(table)[:2])
    condition = event.prize_conditions[0]
    rounds.report_pod_result(table, [a.id], [], reg=a)
    rounds.report_pod_result(table, [a.id], [], {condition["id"]: {"holder": b.id, "value": 1.5}}, reg=b)
    db.session.commit()
    assert table.result_state == "disputed"
    page = page_of(client.get(f"/events/{event.id}/rounds/1"))
    versions = page.split(f'id="versions-{table.number}"', 1)[1].split("</div>", 1)[0]
    claim = f"{escape(condition['name'])}: {escape(b.name)} (1.5)"
    assert versions.count(str(claim)) == 1, versions


# ----------------------------------------------------------------- 1v1

def test_duel_round_report_confirm_and_mtr_standings(client, public, db, duel, judge, login):
    event, regs = duel
    rnd = published_round(client, login, judge, event, db)
    assert [t.kind for t in rnd.tables] == ["match"] * 3
    page = page_of(client.get(f"/events/{event.id}/rounds/1"))
    assert page.count('class="versus"') == 3 and SCRIPT not in page
    assert page.count('<span class="player"><bdi>') == 6                  # each name isolated beside "vs"
    assert 'name="t1-game1"' in page and ">draw<" in page and ">not played<" in page
    m1 = rnd.tables[0]
    p, q = seats_of(m1)
    rp, rq = by_id(regs)[p], by_id(regs)[q]
    section = page_of(public.get(f"/p/{rp.access_code}")).split('id="round"', 1)[1]
    assert "Your opponent" in section and str(escape(rq.name)) in section and 'name="r-game1"' in section
    # p reports 2-1, q confirms
    data = {"r-round": 1, "r-table": m1.number, "r-game1": p, "r-game2": q, "r-game3": p}
    assert public.post(f"/p/{rp.access_code}/result", data=data).status_code == 302
    assert public.post(f"/p/{rq.access_code}/confirm", data={"round": 1, "revision": 1, "table": m1.number}).status_code == 302
    db.session.expire_all()
    m1 = db.session.get(GameTable, m1.id)
    assert m1.result_state == "confirmed" and [g.winner_id for g in m1.games] == [p, q, p]
    assert "You won 2–1" in page_of(public.get(f"/p/{rp.access_code}"))
    assert "You lost 1–2" in page_of(public.get(f"/p/{rq.access_code}"))
    # gaps, a third game after 2-0, a stranger as winner: refused, nothing stored
    m2 = rnd.tables[1]
    x, y = seats_of(m2)
    rx = by_id(regs)[x]
    before = counts(db)
    for games, message in (({"r-game1": x, "r-game3": y}, "Game 2 is marked as not played"),
                           ({}, "Enter at least game 1"),
                           ({"r-game1": x, "r-game2": x, "r-game3": y}, "Game 3 cannot be played: the match was already won 2–0."),
                           ({"r-game1": p}, "the winner must be one of the two players"),
                           ({"r-game1": "both"}, "Choose the game's winner, a draw, or not played.")):
        response = public.post(f"/p/{rx.access_code}/result", data={"r-round": 1, "r-table": m2.number, **games})
        assert response.status_code == 400 and message in html.unescape(page_of(response)), games
    assert counts(db) == before
    # staff: a 1-1 draw at table 2, 2-0 at table 3
    response = client.post(f"/events/{event.id}/rounds/1/tables/{m2.number}/result",
                           data={f"t{m2.number}-game1": x, f"t{m2.number}-game2": y, f"t{m2.number}-time": "y"})
    assert response.status_code == 302
    m3 = rnd.tables[2]
    u, v = seats_of(m3)
    response = client.post(f"/events/{event.id}/rounds/1/tables/{m3.number}/result",
                           data={f"t{m3.number}-game1": "draw", f"t{m3.number}-game2": v, f"t{m3.number}-game3": v})
    assert response.status_code == 302
    act(client, event, "finish")
    page = page_of(public.get(f"/events/{event.id}/standings"))
    points = {int(rid): pts for rid, pts in
              re.findall(r'id="standing-(\d+)">.*?<td class="points"[^>]*>([^<]*)</td>', page, flags=re.S)}
    assert points == {p: "3", q: "0", x: "1", y: "1", u: "0", v: "3"}
    assert "Votes" not in page.split("<thead>", 1)[1].split("</thead>", 1)[0] and "OMW%" in page
    cells = re.findall(r'<td class="num"[^>]*>([^<]*)</td>', page)
    assert cells and all(re.fullmatch(r"\d{1,3}\.\d&nbsp;%", c) for c in cells), cells[:6]


# ----------------------------------------------------------------- CSRF and escaping

def test_csrf_is_required_on_every_post(app, client, public, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    table = rnd.tables[0]
    me = by_id(regs)[table.seats[0].registration_id]
    app.config["WTF_CSRF_ENABLED"] = True
    before = counts(db)
    posts = [
        (client, f"/events/{event.id}/rounds", {}),
        (client, f"/events/{event.id}/rounds/1/start", {}),
        (client, f"/events/{event.id}/rounds/1/finish", {}),
        (client, f"/events/{event.id}/rounds/1/tables/{table.number}/result",
         {f"t{table.number}-survivors": [me.id]}),
        (public, f"/p/{me.access_code}/result", {"r-round": 1, "r-table": table.number, "r-survivors": [me.id]}),
        (public, f"/p/{me.access_code}/vote", {"round": 1, "table": table.number,
                                                "votee": table.seats[1].registration_id}),
        (public, f"/p/{me.access_code}/confirm", {"round": 1, "revision": 1, "table": table.number}),
    ]
    for who, url, data in posts:
        for token in ({}, {"csrf_token": "stale-token"}):
            response = who.post(url, data={**data, **token})
            assert response.status_code == 400 and EXPIRED in page_of(response), url
    assert counts(db) == before
    # the pages carry a working token
    page = page_of(client.get(f"/events/{event.id}/rounds/1"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or \
        re.search(r'name="csrf_token" value="([^"]+)"', page)
    response = client.post(f"/events/{event.id}/rounds/1/start", data={"csrf_token": token.group(1)})
    assert response.status_code == 302 and round_of(db, event).ends_at is not None
    # (the same browser: the tests share one app context, so one token per test)
    page = page_of(client.get(f"/p/{me.access_code}"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    response = client.post(f"/p/{me.access_code}/vote", data={"csrf_token": token, "round": 1, "table": table.number,
                                                              "votee": table.seats[1].registration_id})
    assert response.status_code == 302, page_of(response)[-2500:]


def test_hostile_names_are_escaped_everywhere(client, public, db, pods, judge, login):
    event, regs = pods
    rnd = published_round(client, login, judge, event, db)
    hostile = next(r for r in regs if r.name == SCRIPT)
    table = next(t for t in rnd.tables if hostile.id in seats_of(t))
    friend = by_id(regs)[next(i for i in seats_of(table) if i != hostile.id)]
    staff_result(client, event, table, survivors=[hostile.id], votes={friend.id: hostile.id})
    urls = [(client, f"/events/{event.id}/rounds"), (client, f"/events/{event.id}/rounds/1"),
            (public, f"/events/{event.id}/rounds/1/projector"), (public, f"/events/{event.id}/standings"),
            (public, f"/p/{friend.access_code}"), (public, f"/p/{hostile.access_code}")]
    for who, url in urls:
        page = page_of(who.get(url))
        assert SCRIPT not in page and "<b>bold</b>" not in page and "<i>night</i>" not in page, url
    for who, url in urls[1:]:
        assert str(escape(SCRIPT)) in page_of(who.get(url)), url


def test_static_script_sets_text_only():
    from pathlib import Path
    script = (Path(__file__).resolve().parents[2] / "static" / "rounds.js").read_text(encoding="utf-8")
    assert "innerHTML" not in script and "textContent" in script
    assert "data-ends-at" in script and "data-server-now" in script


def test_duel_top_cut_button(client, db, make_event, make_player, judge, login):
    event = make_event(name="Cut", mode="duel", ruleset="duel-cn", top_cut=4)
    regs = [make_player(event, f"D{i}") for i in range(6)]
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    rnd = published_round(client, login, judge, event, db)
    assert "Pair the top cut" not in page_of(client.get(f"/events/{event.id}/rounds"))   # only once it can apply
    response = client.post(f"/events/{event.id}/rounds/top-cut")
    assert response.status_code == 409 and "Finish the current round" in page_of(response)
    for t in rnd.tables:
        a, _b = seats_of(t)
        assert client.post(f"/events/{event.id}/rounds/1/tables/{t.number}/result",
                           data={f"t{t.number}-game1": a, f"t{t.number}-game2": a}).status_code == 302
    act(client, event, "finish")
    assert "Pair the top cut" in page_of(client.get(f"/events/{event.id}/rounds"))
    response = client.post(f"/events/{event.id}/rounds/top-cut")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/events/{event.id}/rounds/2")
    cut = round_of(db, event, 2)
    assert cut.stage == "top4" and cut.status == "draft" and len(cut.tables) == 2
    assert "Round 2 — top 4 cut" in page_of(client.get(f"/events/{event.id}/rounds/2"))


def test_staff_set_and_clear_a_tables_archenemy(client, db, pods, judge, login, organizer):
    event, _regs = pods
    events.update_event(event, organizer, {"variant": "archenemy"})
    db.session.commit()
    rnd = published_round(client, login, judge, event, db)
    table = rnd.tables[0]
    ids = seats_of(table)
    page = page_of(client.get(f"/events/{event.id}/rounds/1"))
    assert f'name="t{table.number}-archenemy"' in page and "nobody (not an Archenemy game)" in page
    url = f"/events/{event.id}/rounds/1/tables/{table.number}/result"
    response = client.post(url, data={f"t{table.number}-survivors": ids[:1], f"t{table.number}-archenemy": ids[0]})
    assert response.status_code == 302, page_of(response)
    assert round_of(db, event).tables[0].archenemy_id == ids[0]
    # not at this table: refused next to the field
    stranger = seats_of(round_of(db, event).tables[1])[0]
    response = client.post(url, data={f"t{table.number}-survivors": ids[:1], f"t{table.number}-archenemy": stranger})
    assert response.status_code == 400 and "The archenemy must be a player at table" in page_of(response)
    response = client.post(url, data={f"t{table.number}-survivors": ids[:1], f"t{table.number}-archenemy": ""})
    assert response.status_code == 302
    assert round_of(db, event).tables[0].archenemy_id is None


def test_standings_mark_dropped_players_and_list_those_who_never_played_apart(app, db, make_round, make_event,
                                                                              make_player, judge):
    from tournament.events import operations as events
    from tournament.rounds import operations as rounds
    event = make_event(name="Drop night")
    late = make_player(event, "Late <i>Larry</i>")                 # registered, never checked in
    event, rnd, regs = make_round(players=8, seed=3, event=event)
    for t in rnd.tables:
        rounds.report_pod_result(t, [t.seats[0].registration_id], user=judge)
    events.drop(regs[0], judge)
    db.session.commit()
    page = page_of(app.test_client().get(f"/events/{event.id}/standings"))
    row = page.split(f'id="standing-{regs[0].id}"', 1)[1].split("</tr>", 1)[0]
    assert f'<tr id="standing-{regs[0].id}" class="dropped">' in page
    assert '<span class="badge">dropped</span>' in row
    assert f'id="standing-{late.id}"' not in page
    apart = page.split('id="unplayed"', 1)[1].split("</ul>", 1)[0]
    assert "Late &lt;i&gt;Larry&lt;/i&gt;" in apart and "Player" not in apart


def test_pod_top_cut_from_the_rounds_page(client, db, make_event, make_player, judge, login):
    event = make_event(name="cEDH cut", top_cut=7, cut_seating="choice", scoring_profile="survival")
    rnd = started_pods_round(client, db, login, judge, event, [make_player(event, f"P{i:02d}") for i in range(12)])
    enter_winners(client, event, rnd)
    act(client, event, "finish")
    assert "Pair the top cut" in page_of(client.get(f"/events/{event.id}/rounds"))
    response = client.post(f"/events/{event.id}/rounds/top-cut")
    assert response.status_code == 302, page_of(response)
    cut = round_of(db, event, 2)
    assert cut.stage == "top7" and [t.kind for t in cut.tables] == ["pod", "bye", "bye", "bye"]
    page = page_of(client.get(f"/events/{event.id}/rounds/2"))
    assert "Round 2 — top 7 cut" in page and "waits for the next stage (top seed)" in page
    assert "Seats are chosen in seed order" in page
    act(client, event, "publish", number=2)
    waiting = db.session.get(Registration, cut.tables[1].seats[0].registration_id)
    player_page = page_of(client.get(f"/p/{waiting.access_code}"))
    assert "You wait for the next stage of the top cut" in player_page
    from tests.printing.pdf_helpers import pdf_text
    from tournament.printing import operations as printing
    pairings = " ".join(pdf_text(printing.build_document(event, "pairings-by-table", 2)[0]).split())
    assert "Top seeds waiting for the next stage" in pairings
    assert "Top 7: seeds 1-3 wait for the next stage; seeds 4-7 play 1 pod" in pairings
    projector = page_of(client.get(f"/events/{event.id}/projector"))
    assert 'id="stage-note"' in projector and "seeds 1-3 wait" in projector and ">Waits<" in projector
    act(client, event, "start", number=2)
    [pod] = [t for t in round_of(db, event, 2).tables if t.kind == "pod"]
    winner = seats_of(pod)[-1]
    assert client.post(f"/events/{event.id}/rounds/2/tables/{pod.number}/result",
                       data={f"t{pod.number}-survivors": [winner]}).status_code == 302
    act(client, event, "finish", number=2)
    assert client.post(f"/events/{event.id}/rounds/top-cut").status_code == 302
    act(client, event, "publish", number=3)
    act(client, event, "start", number=3)
    [final] = round_of(db, event, 3).tables
    assert client.post(f"/events/{event.id}/rounds/3/tables/{final.number}/result",
                       data={f"t{final.number}-survivors": [winner]}).status_code == 302
    act(client, event, "finish", number=3)
    standings = html.unescape(page_of(client.get(f"/events/{event.id}/standings")))
    name = db.session.get(Registration, winner).name
    assert f"<strong><bdi>{name}</bdi></strong> won the final and the event." in standings
    assert re.search(r"table \d+: 4\. <bdi>[^<]+</bdi>, ", standings)   # names isolated from seeds and commas
    assert f'<td class="name"><bdi>{name}</bdi>' in standings
    assert "Round 2 (top 7 cut):" in standings and "Round 3 (top 4 cut), the final:" in standings


def test_a_drawn_result_from_the_round_page_and_the_phone(client, db, make_event, make_player, judge, login,
                                                          organizer):
    event = make_event(name="Draw night", scoring_profile="cedh")
    rnd = started_pods_round(client, db, login, judge, event, [make_player(event, f"Q{i}") for i in range(8)])
    table = rnd.tables[0]
    n = table.number
    page = page_of(client.get(f"/events/{event.id}/rounds/1"))
    assert f'name="t{n}-draw"' in page and ">Intentional draw<" in page
    response = client.post(f"/events/{event.id}/rounds/1/tables/{n}/result",
                           data={f"t{n}-survivors": seats_of(table)[:2], f"t{n}-draw": "intentional"})
    assert response.status_code == 302, page_of(response)
    assert round_of(db, event).tables[0].draw_kind == "intentional"
    # corrected to one survivor with the form still showing the draw: a win
    response = client.post(f"/events/{event.id}/rounds/1/tables/{n}/result",
                           data={f"t{n}-survivors": seats_of(table)[:1], f"t{n}-draw": "intentional"})
    assert response.status_code == 302, page_of(response)
    assert round_of(db, event).tables[0].draw_kind is None
    events.update_event(event, organizer, {"intentional_draws": False})
    db.session.commit()
    phone = page_of(client.get(f"/p/{db.session.get(Registration, seats_of(table)[2]).access_code}"))
    assert "Draw by board state" in phone and "Intentional draw" not in phone


def test_the_statistics_page_and_the_export(client, db, make_event, make_player, judge, login, starter_cards,
                                            organizer):
    from tournament.events import exchange_ops
    event = make_event(name="Stats night", scoring_profile="cedh")
    from pathlib import Path
    kenrith = (Path(events.__file__).resolve().parents[1] / "data" / "demo_decks" / "kenrith.txt").read_text()
    regs = [make_player(event, f"S<b>{i}</b>", decklist=kenrith if i < 4 else None, staff=judge) for i in range(8)]
    assert client.get(f"/events/{event.id}/stats").status_code == 404        # not public before the end
    rnd = started_pods_round(client, db, login, judge, event, regs)
    enter_winners(client, event, rnd)
    act(client, event, "finish")
    page = page_of(client.get(f"/events/{event.id}/stats"))
    assert "Kenrith, the Returned King" in page and "50.0 %" in page and "(no decklist)" in page
    assert 'class="chart"' in page and "vendor/chartjs/chart.umd.min.js" in page
    assert 'data-labels="[&#34;' in page and "&#34;Kenrith, the Returned King&#34;" in page   # JSON, escaped
    document = exchange_ops.export_event(event, judge, "json").data
    import json
    stats = json.loads(document)["stats"]
    assert stats["players"] == 8 and stats["games"] == 2
    assert {m["commander"]: m["players"] for m in stats["meta"]}["Kenrith, the Returned King"] == 4
    assert [s["games"] for s in stats["seats"]] == [2, 2, 2, 2]
    anyone = client.application.test_client()
    assert anyone.get(f"/events/{event.id}/stats").status_code == 404        # finished, lists not published
    event = db.session.get(Event, event.id)
    from tournament.rounds import operations as rounds_ops
    rounds_ops.finish_event(event, organizer)
    event.publish_decklists = True
    db.session.commit()
    assert anyone.get(f"/events/{event.id}/stats").status_code == 200


def test_standings_ranks_run_on_over_players_who_never_played_and_the_printout_agrees(app, db, make_round,
                                                                                       make_event, make_player):
    import re
    from tournament.printing import operations as printing
    from tests.printing.pdf_helpers import pdf_text
    event = make_event(name="No-show night")
    absent = [make_player(event, f"Absent {i}") for i in range(4)]          # registered, never checked in
    event, _rnd, regs = make_round(players=8, seed=3, event=event)          # round 1 on, nobody has points yet
    page = page_of(app.test_client().get(f"/events/{event.id}/standings"))
    ranks = [int(r) for r in re.findall(r'<tr id="standing-\d+"[^>]*>\s*<td class="rank"[^>]*>(\d+)</td>', page)]
    assert ranks == list(range(1, 9))
    web_order = [int(p) for p in re.findall(r'<tr id="standing-(\d+)"', page)]
    assert set(web_order) == {r.id for r in regs} and not {a.id for a in absent} & set(web_order)
    names = {r.id: r.name for r in regs}
    text = pdf_text(printing.build_document(event, "standings", 1)[0])
    for rank, player in enumerate(web_order, 1):
        assert f"{rank} {names[player]}" in text
    assert "Absent" not in text
