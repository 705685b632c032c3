"""The venue Wi-Fi drops while a player reports (issue 31 item 9), in a real browser at phone size: the page says
there is no connection and keeps the table and seat, the report and the vote tapped offline are kept on the
phone as "waiting to send", and when the network is back they are sent by themselves and stored exactly once
(rows counted in the server's database)."""

import json
import sys

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.e2e.conftest import serve_fresh

PHONE = (390, 844)
BACK_ONLINE = 60       # the page retries after 3, 6, 12, 24, then every 30 s, and at once on the "online" event

SETUP = r"""
import json, sys
import sqlalchemy as sa
from tournament import create_app
from tournament.auth.models import User
from tournament.extensions import db
from tournament.events import operations as ev
from tournament.rounds import operations as ro
app = create_app()
with app.app_context():
    olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
    event = ev.create_event(olga, {"name": sys.argv[1], "ruleset": "edh-2010"})
    regs = [ev.register_player(event, {"name": n}, user=olga) for n in ("Ada Off", "Bo Line", "Cy Net", "Di Wire")]
    for r in regs:
        ev.check_in(r, olga)
    rnd = ro.pair_next_round(event, olga, seed=5, override_decks=True)
    ro.publish_round(rnd, olga)
    ro.start_round(rnd, olga)
    table = rnd.tables[0]
    seats = sorted(table.seats, key=lambda s: s.seat)
    db.session.commit()
    print(json.dumps({"code": seats[0].registration.access_code, "me": seats[0].registration_id,
                      "other_code": seats[1].registration.access_code,
                      "other": seats[1].registration_id, "other_name": seats[1].registration.name,
                      "table": table.id, "event": event.id, "uses_votes": ro.event_uses_votes(event)}))
"""

COUNT = r"""
import json, sys
import sqlalchemy as sa
from tournament import create_app
from tournament.extensions import db
from tournament.events.models import AuditEntry
from tournament.rounds.models import ResultConfirmation, ResultReport, SentForm, Vote
app = create_app()
table = int(sys.argv[1])
with app.app_context():
    count = lambda q: db.session.execute(q).scalar()
    print(json.dumps({
        "reports": count(sa.select(sa.func.count()).select_from(ResultReport).where(ResultReport.table_id == table)),
        "report_log": count(sa.select(sa.func.count()).select_from(AuditEntry).where(AuditEntry.action == "result.report")),
        "votes": [list(v) for v in db.session.execute(sa.select(Vote.voter_id, Vote.votee_id).where(Vote.table_id == table))],
        "vote_log": count(sa.select(sa.func.count()).select_from(AuditEntry).where(AuditEntry.action == "vote")),
        "keys": count(sa.select(sa.func.count()).select_from(SentForm).where(SentForm.table_id == table)),
        "confirmations": count(sa.select(sa.func.count()).select_from(ResultConfirmation)
                               .where(ResultConfirmation.table_id == table)),
    }))
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app's server on a fresh database: SQLite, or PostgreSQL in CI's second pass (TEST_DATABASE_URL)."""
    with serve_fresh(tmp_path_factory.mktemp("live"), "e2e_offline") as live:
        yield live


def wait(browser, check, timeout=15):
    """Until check(browser) holds; a box being swapped for its new copy ("stale element") is looked at again."""
    return WebDriverWait(browser, timeout, ignored_exceptions=(WebDriverException,)).until(check)


def network(browser, online: bool) -> None:
    """Chromium's network conditions (DevTools): offline, or back to normal."""
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": not online, "latency": 0,
                                                                 "downloadThroughput": -1, "uploadThroughput": -1})


def text_of(browser, element_id) -> str:
    return browser.execute_script("var e = document.getElementById(arguments[0]); return e ? e.innerText : '';",
                                  element_id)


def kept(browser) -> dict:
    """What the page keeps on the phone (localStorage) for sending."""
    return browser.execute_script(
        "var out = {}; for (var i = 0; i < localStorage.length; i++) { var k = localStorage.key(i);"
        " if (k.indexOf('edh-outbox:') === 0) out[k] = JSON.parse(localStorage.getItem(k)); } return out;")


def test_a_report_and_a_vote_tapped_offline_are_sent_when_the_network_is_back_and_stored_once(server,
                                                                                              browser_factory):
    live_server = server
    data = live_server.prepare(SETUP, "Wi-Fi night")
    assert data["uses_votes"]
    counts = lambda: json.loads(live_server.run_script(COUNT, str(data["table"])).splitlines()[-1])
    phone = browser_factory(*PHONE, mobile=True)
    phone.get(f"{live_server}/p/{data['code']}")
    wait(phone, lambda b: b.find_element(By.ID, "report-form").is_displayed())
    table_and_seat = text_of(phone, "your-table")
    assert "Table" in table_and_seat and "seat" in table_and_seat

    # the Wi-Fi drops: the page says so (its next poll fails) and keeps the table and seat
    network(phone, online=False)
    wait(phone, lambda b: "No connection" in text_of(b, "connection-lost"))
    assert "showing your last table" in text_of(phone, "connection-lost")
    assert text_of(phone, "your-table") == table_and_seat

    # the report tapped offline: kept on the phone, "waiting to send"
    phone.find_element(By.CSS_SELECTOR, f"#report-form input[name='r-survivors'][value='{data['me']}']").click()
    phone.find_element(By.CSS_SELECTOR, "#report-form button[type=submit]").click()
    wait(phone, lambda b: "waiting to send" in text_of(b, "outbox-result"))
    stored = kept(phone)
    place = f"edh-outbox:{data['event']}/1/{data['code']}"
    assert list(stored) == [place] and list(stored[place]) == ["result"]
    fields = dict(stored[place]["result"]["fields"])
    assert fields["r-survivors"] == str(data["me"]) and len(fields["r-send_key"]) == 32
    # ... and so is the vote
    Select(phone.find_element(By.CSS_SELECTOR, "#vote-form select")).select_by_value(str(data["other"]))
    phone.find_element(By.CSS_SELECTOR, "#vote-form button[type=submit]").click()
    wait(phone, lambda b: "waiting to send" in text_of(b, "outbox-vote"))
    assert sorted(kept(phone)[place]) == ["result", "vote"]
    assert text_of(phone, "your-table") == table_and_seat and "No connection" in text_of(phone, "connection-lost")
    assert counts() == {"reports": 0, "report_log": 0, "votes": [], "vote_log": 0, "keys": 0, "confirmations": 0}

    # the network is back: both are sent by themselves, the page shows the stored result, nothing is kept
    network(phone, online=True)
    wait(phone, lambda b: not b.find_elements(By.ID, "outbox-result") and not b.find_elements(By.ID, "outbox-vote")
         and not b.find_elements(By.ID, "connection-lost") and "reported by" in text_of(b, "result-state"),
         timeout=BACK_ONLINE)
    wait(phone, lambda b: data["other_name"] in text_of(b, "my-vote"))
    wait(phone, lambda b: "Your vote is in." in b.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('main > p.flash'), function (p) {"
        " return p.textContent; }).join(' ')"))
    assert kept(phone) == {}
    assert counts() == {"reports": 1, "report_log": 1, "votes": [[data["me"], data["other"]]], "vote_log": 1,
                        "keys": 2, "confirmations": 1}          # the reporter's own

    # the next player at the table confirms it while the Wi-Fi is down: kept, then sent and stored once
    other = browser_factory(*PHONE, mobile=True)
    other.get(f"{live_server}/p/{data['other_code']}")
    wait(other, lambda b: b.find_element(By.ID, "confirm-form").is_displayed())
    network(other, online=False)
    other.find_element(By.CSS_SELECTOR, "#confirm-form button[type=submit]").click()
    wait(other, lambda b: "confirmation is waiting to send" in text_of(b, "outbox-confirm"))
    assert counts()["confirmations"] == 1
    network(other, online=True)
    wait(other, lambda b: not b.find_elements(By.ID, "outbox-confirm") and not b.find_elements(By.ID, "confirm-form"),
         timeout=BACK_ONLINE)
    assert kept(other) == {} and counts()["confirmations"] == 2

    # a reload sends nothing again
    phone.get(f"{live_server}/p/{data['code']}")
    wait(phone, lambda b: "reported by" in text_of(b, "result-state"))
    assert kept(phone) == {}
    assert counts()["reports"] == 1 and counts()["vote_log"] == 1



# The server too busy for a moment (tournament/web/lanes.py: a request that waited too long in its queue is
# answered 503 with Retry-After at once). A real hall's overload cannot be made on cue in a test, so the
# browser itself answers the first few of the page's own requests that way (its fetch, wrapped before the
# page loads); everything after goes to the real server.
BUSY_FOR_A_MOMENT = r"""
(function () {
  var real = window.fetch, left = {poll: 2, outbox: 1};
  window.busyLog = [];
  window.fetch = function (url, options) {
    var headers = (options && options.headers) || {}, kind = headers["X-Script"];
    window.busyLog.push([kind || "", Date.now(), headers["X-Told-Busy"] || ""]);
    if (left[kind] > 0) {
      left[kind] -= 1;
      return Promise.resolve(new Response("busy", {status: 503, headers: {"Retry-After": "1"}}));
    }
    return real.apply(this, arguments);
  };
})();
"""


def test_a_busy_server_is_asked_again_soon_without_a_lost_connection_note_and_the_report_is_stored_once(
        server, browser_factory):
    data = server.prepare(SETUP, "Busy hall")
    counts = lambda: json.loads(server.run_script(COUNT, str(data["table"])).splitlines()[-1])
    logged = counts()["report_log"]             # every event's reports (this module's server is shared)
    phone = browser_factory(*PHONE, mobile=True)
    phone.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": BUSY_FOR_A_MOMENT})
    phone.get(f"{server}/p/{data['code']}")
    wait(phone, lambda b: b.find_element(By.ID, "report-form").is_displayed())
    table_and_seat = text_of(phone, "your-table")

    # two polls answered "busy": the page keeps its table, says nothing about the connection, and asks again
    # after Retry-After (1 s, plus up to 1 s to spread the hall), not after the lost connection's back-off
    polls = lambda b: [(at, told) for kind, at, told in b.execute_script("return window.busyLog") if kind == "poll"]
    wait(phone, lambda b: len(polls(b)) >= 4, timeout=20)
    times = [at for at, _told in polls(phone)]
    assert all(1000 <= later - earlier <= 2500 for earlier, later in zip(times[:2], times[1:3]))
    # each ask after a busy answer says how many it had (the server's queue puts it ahead of the phones that
    # have not waited); after a real answer, nothing
    assert [told for _at, told in polls(phone)][:4] == ["", "1", "2", ""]
    assert not phone.find_elements(By.ID, "connection-lost")
    assert text_of(phone, "your-table") == table_and_seat

    # the report's first send is answered "busy": nothing is stored, the phone says "waiting to send" and
    # sends the same form again by itself; it is stored once
    phone.find_element(By.CSS_SELECTOR, f"#report-form input[name='r-survivors'][value='{data['me']}']").click()
    phone.find_element(By.CSS_SELECTOR, "#report-form button[type=submit]").click()
    wait(phone, lambda b: "reported by" in text_of(b, "result-state"), timeout=20)
    sends = [at for kind, at, _told in phone.execute_script("return window.busyLog") if kind == "outbox"]
    assert len(sends) == 2
    assert 1000 <= sends[1] - sends[0] <= 2500       # after Retry-After, spread over once to twice it
    assert not phone.find_elements(By.ID, "outbox-result") and kept(phone) == {}
    assert not phone.find_elements(By.ID, "connection-lost")
    assert counts()["reports"] == 1 and counts()["report_log"] == logged + 1
