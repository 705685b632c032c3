"""The event log in words, with filters; staff only."""
from __future__ import annotations

from tournament.events import operations as events
from tournament.rounds import operations as rounds

HOSTILE = "<img src=x onerror=alert(1)>"


def test_the_log_says_who_did_what_in_words(app, client, db, make_round, make_player, organizer, judge, login):
    event, rnd, regs = make_round(players=8, seed=2)
    table = rnd.tables[0]
    a, b = table.seats[0].registration, table.seats[1].registration
    rounds.report_pod_result(table, [a.id], reg=a)
    late = make_player(event, HOSTILE, staff=judge)
    db.session.commit()
    login(organizer)
    page = client.get(f"/events/{event.id}/log").get_data(as_text=True)
    log = page.split('id="log"', 1)[1]
    assert f"checked in {regs[0].name}" in log and "published round 1" in log and "paired round 1" in log
    assert f"{a.name}</td><td>reported the result of table {table.number}, round 1" in log
    assert "Jan Judge (judge)" in log
    assert "&lt;img src=x onerror=alert(1)&gt;" in log and HOSTILE not in page
    assert "player:" not in log and "{" not in log                      # no raw actors, no JSON
    def entries(url):            # the log's own section (the page also carries its scripts' texts)
        return client.get(url).get_data(as_text=True).split('id="log"', 1)[-1]
    only = entries(f"/events/{event.id}/log?table={table.number}")
    assert "reported the result" in only and "checked in" not in only
    mine = entries(f"/events/{event.id}/log?player={a.id}")
    assert f"checked in {a.name}" in mine and f"checked in {b.name}" not in mine
    kind = entries(f"/events/{event.id}/log?kind=Registrations")
    assert "registered" in kind and "checked in" not in kind
    nobody = client.get(f"/events/{event.id}/log?who=Nobody%20at%20all").get_data(as_text=True)
    assert 'id="log-empty"' in nobody
    for junk in ("table=abc", "player=-1", "kind=<script>", "who=" + "x" * 5000, "player=99999999999"):
        assert client.get(f"/events/{event.id}/log?{junk}").status_code == 200, junk


def test_players_and_strangers_cannot_read_the_log(app, db, make_round):
    event, rnd, regs = make_round(players=4, seed=1)
    response = app.test_client().get(f"/events/{event.id}/log")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
