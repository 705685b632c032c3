"""A Saturday at the venue in a real browser (issue 17): what the organizer sees on the production server.

Each test builds its own event with the app's own operations (SETUP, run in a subprocess on the live
server's database), logs in as Olga through the login form and checks what the pages show in words:
pairing past players without a legal deck, the settings form, the round clock, finishing the event,
the event's staff and log, the event's time zone, the standings (also on a phone), and a round of 64
players with its table filters and the "Go to table" box.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait
from selenium.webdriver.support import expected_conditions as EC

from tests.e2e.conftest import STAFF_PASSWORD

LAPTOP = (1366, 768)
PHONE = (390, 844)

SETUP = r"""
import json, sys
from pathlib import Path
import sqlalchemy as sa
from tournament import create_app
from tournament.auth.models import User
from tournament.auth import operations as auth
from tournament.extensions import db
from tournament.events import operations as ev
from tournament.rounds import operations as ro

DECKS = Path("tournament/data/demo_decks")
LEGAL = (DECKS / "kenrith.txt").read_bytes()
ILLEGAL = (DECKS / "phelddagrif-illegal.txt").read_bytes()


def event_with(olga, name, players, **settings):
    event = ev.create_event(olga, {"name": name, "ruleset": "edh-2010", **settings})
    regs = [ev.register_player(event, {"name": f"{name} P{i:02d}"}, user=olga) for i in range(1, players + 1)]
    return event, regs


def started_round(event, olga):
    rnd = ro.pair_next_round(event, olga, seed=1, override_decks=True)
    ro.publish_round(rnd, olga)
    ro.start_round(rnd, olga)
    return rnd


def staff_result(table, olga):
    ids = [s.registration_id for s in table.seats]
    if table.kind == "match":
        ro.report_duel_games(table, [ids[0], ids[1], ids[0]] if table.number % 2 else [ids[1], ids[1]], user=olga)
    elif table.kind == "pod":
        ro.report_pod_result(table, [ids[0]], ids[1:], user=olga)


def play_round(event, olga):
    rnd = started_round(event, olga)
    for t in rnd.tables:
        staff_result(t, olga)
    ro.finish_round(rnd, olga)
    return rnd


def unready(olga):
    # four checked in: one legal deck, one illegal, two without a list
    event, regs = event_with(olga, "Unready", 4)
    ev.submit_decklist(regs[0], LEGAL, user=olga)
    ev.submit_decklist(regs[1], ILLEGAL, user=olga)
    for r in regs:
        ev.check_in(r, olga)
    return {"event": event.id, "names": [r.name for r in regs]}


def settings(olga):
    event, _ = event_with(olga, "Settings", 0, mode="duel")
    return {"event": event.id}


def clock(olga):
    event, regs = event_with(olga, "Clock", 8)
    for r in regs:
        ev.check_in(r, olga)
    started_round(event, olga)
    return {"event": event.id}


def last_round_done(olga):
    # one planned round, played to the end: only finishing the event is left
    event, regs = event_with(olga, "Finale", 8, planned_rounds=1)
    for r in regs:
        ev.check_in(r, olga)
    play_round(event, olga)
    return {"event": event.id}


def staff(olga):
    auth.create_user("Jan Judge", "correct horse battery", "judge")
    event, _ = event_with(olga, "Staffing", 0)
    return {"event": event.id}


def tokyo(olga):
    event, regs = event_with(olga, "Tokyo", 4, timezone="Asia/Tokyo")
    for r in regs:
        ev.check_in(r, olga)
    started_round(event, olga)
    return {"event": event.id}


def standings(olga):
    # 1v1 (MTR: percentages as tiebreakers), two rounds played, then one player drops
    event, regs = event_with(olga, "Standings", 8, mode="duel")
    for r in regs:
        ev.check_in(r, olga)
    play_round(event, olga)
    play_round(event, olga)
    ev.drop(regs[2], olga)
    return {"event": event.id, "dropped": regs[2].id, "dropped_name": regs[2].name}


def big_round(olga):
    # 64 players in 16 pods: 1-10 confirmed, 11 reported, 12 disputed, 13-16 missing, 14 and 15 extended
    event, regs = event_with(olga, "Big", 64)
    for r in regs:
        ev.check_in(r, olga)
    rnd = started_round(event, olga)
    by_id = {r.id: r for r in regs}
    tables = {t.number: t for t in rnd.tables}
    for n in range(1, 11):
        staff_result(tables[n], olga)
    a, b = [by_id[s.registration_id] for s in tables[11].seats][:2]
    ro.report_pod_result(tables[11], [a.id], reg=a)
    a, b = [by_id[s.registration_id] for s in tables[12].seats][:2]
    ro.report_pod_result(tables[12], [a.id], reg=a)
    ro.report_pod_result(tables[12], [b.id], reg=b)
    ro.extend_table(tables[14], olga, 5)
    ro.extend_table(tables[15], olga, 3)
    return {"event": event.id, "tables": len(rnd.tables)}


def third_round(olga):
    # 12 players: rounds 1 and 2 played, round 3 running with table 2 disputed (3 tables a round, so a round
    # numbered like a table exists: a judge sent to "round 2" would not notice at once)
    event, regs = event_with(olga, "Third", 12)
    for r in regs:
        ev.check_in(r, olga)
    play_round(event, olga)
    play_round(event, olga)
    rnd = started_round(event, olga)
    by_id = {r.id: r for r in regs}
    table = next(t for t in rnd.tables if t.number == 2)
    a, b = [by_id[s.registration_id] for s in table.seats][:2]
    ro.report_pod_result(table, [a.id], reg=a)
    ro.report_pod_result(table, [b.id], reg=b)
    return {"event": event.id, "round": rnd.number}


app = create_app()
with app.app_context():
    olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
    out = globals()[sys.argv[1]](olga)
    db.session.commit()
    print(json.dumps(out))
"""


# ----------------------------------------------------------------- helpers

def prepare(live_server, scenario: str) -> dict:
    """Build one scenario of SETUP on the live server's database; its ids come back as JSON."""
    return live_server.prepare(SETUP, scenario)


def login(browser, live_server):
    browser.get(live_server + "/auth/login")
    browser.find_element(By.NAME, "name").send_keys("Olga")
    browser.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD, Keys.ENTER)
    WebDriverWait(browser, 10).until(lambda b: b.current_url.endswith("/events"))


def wait(browser, check, timeout=10):
    """Wait until check() is true; an element of the page being replaced (after a click: "stale element",
    "node does not belong to the document") is simply looked for again."""
    return WebDriverWait(browser, timeout, ignored_exceptions=(WebDriverException,)).until(lambda b: check())


def text_of(browser, css: str) -> str:
    """The element's text as the user reads it (no-break spaces as spaces), or "" when there is none."""
    found = browser.find_elements(By.CSS_SELECTOR, css)
    return found[0].text.replace("\xa0", " ") if found else ""


def wait_text(browser, css: str, expected: str, timeout=10) -> str:
    """Wait until the element shows `expected` (a part of its text); its text."""
    try:
        return wait(browser, lambda: expected in text_of(browser, css) and text_of(browser, css), timeout)
    except TimeoutException:
        raise AssertionError(f"{css} never showed {expected!r}; it shows {text_of(browser, css)!r} "
                             f"at {browser.current_url}") from None


def button(browser, label: str, within=None):
    root = within or browser
    return root.find_element(By.XPATH, f".//button[normalize-space()={json.dumps(label)}]")


def flash(browser) -> list[str]:
    return [e.text for e in browser.find_elements(By.CSS_SELECTOR, "p.flash")]


@pytest.fixture(scope="module")
def olga(live_server, browser_factory):
    """One laptop browser, logged in as the organizer, for the whole module."""
    browser = browser_factory(*LAPTOP)
    login(browser, live_server)
    return browser


# ----------------------------------------------------------------- 5. pairing past unready decks

def test_pairing_players_without_a_legal_deck_needs_the_override(live_server, olga):
    data = prepare(live_server, "unready")
    event, names = data["event"], data["names"]
    olga.get(f"{live_server}/events/{event}/rounds")
    warning = wait_text(olga, "#unready-decks", "3 checked-in players have no legal deck.")
    listed = [li.text for li in olga.find_elements(By.CSS_SELECTOR, "#unready-decks ul.unready li")]
    assert sorted(listed) == sorted([f"{names[1]}: deck not legal", f"{names[2]}: no decklist",
                                     f"{names[3]}: no decklist"]), listed
    assert names[0] not in warning                      # the legal deck is not listed

    button(olga, "Pair next round").click()             # without the override: refused, no round
    wait_text(olga, "#round-error", "3 checked-in players have no legal deck")
    assert "pair anyway" in text_of(olga, "#round-error")
    assert text_of(olga, "#rounds h2") == "Rounds (0)"

    box = olga.find_element(By.ID, "override_decks")
    assert box.find_element(By.XPATH, "..").text == "Seat them anyway (recorded in the event log)"
    box.click()
    button(olga, "Pair next round").click()
    wait(olga, lambda: olga.current_url.endswith(f"/events/{event}/rounds/1"))
    assert "Round 1 is paired as a draft: review it, then publish it." in flash(olga)
    assert "draft: only staff see it" in text_of(olga, "h1")
    olga.get(f"{live_server}/events/{event}/rounds")
    wait_text(olga, "#round-1", "draft")

    olga.get(f"{live_server}/events/{event}/log")
    rows = [r.text for r in olga.find_elements(By.CSS_SELECTOR, "#log tbody tr")]
    override = [r for r in rows if "seated players without a legal deck in round 1" in r]
    assert override, rows
    for name in names[1:]:
        assert name in override[0]
    assert names[0] not in override[0]
    assert "Olga (organizer)" in override[0]


# ----------------------------------------------------------------- 6. the settings form keeps what was set

def test_event_settings_are_kept(live_server, olga):
    event = prepare(live_server, "settings")["event"]
    olga.get(f"{live_server}/events/{event}/edit")
    wait_text(olga, "h1", "Settings: Settings")
    Select(olga.find_element(By.ID, "top_cut")).select_by_visible_text("Top 8 (1v1)")
    Select(olga.find_element(By.ID, "leftover_policy")).select_by_visible_text("Byes for the players left over")
    Select(olga.find_element(By.ID, "timezone")).select_by_value("Asia/Tokyo")
    for name, value in (("bye_points", "2"), ("planned_rounds", "5")):
        field = olga.find_element(By.ID, name)
        field.clear()
        field.send_keys(value)
    hide = olga.find_element(By.ID, "hide_votes")
    assert hide.is_selected()                            # the default: hidden
    hide.click()
    prizes = olga.find_element(By.ID, "prize_conditions")
    prizes.clear()
    prizes.send_keys("Biggest hit | highest\nMost tokens | total")
    button(olga, "Save settings").click()
    wait(olga, lambda: olga.current_url.endswith(f"/events/{event}"))
    assert "Settings saved." in flash(olga)

    olga.get(f"{live_server}/events/{event}/edit")
    wait_text(olga, "h1", "Settings: Settings")
    selected = {name: Select(olga.find_element(By.ID, name)).first_selected_option.text
                for name in ("top_cut", "leftover_policy", "timezone")}
    assert selected == {"top_cut": "Top 8 (1v1)", "leftover_policy": "Byes for the players left over",
                        "timezone": "Asia/Tokyo"}
    assert olga.find_element(By.ID, "bye_points").get_attribute("value") == "2"
    assert olga.find_element(By.ID, "planned_rounds").get_attribute("value") == "5"
    assert not olga.find_element(By.ID, "hide_votes").is_selected()
    assert olga.find_element(By.ID, "prize_conditions").get_attribute("value").splitlines() == [
        "Biggest hit | highest", "Most tokens | total"]



# ----------------------------------------------------------------- 7. the round clock

def test_round_clock_pause_resume_add_time_and_table_extension(live_server, olga):
    event = prepare(live_server, "clock")["event"]
    page = f"{live_server}/events/{event}/rounds/1"
    olga.get(page)
    wait_text(olga, "#actions .hint", "time is up at")
    ends_before = text_of(olga, "#ends-at")

    minutes = olga.find_element(By.CSS_SELECTOR, "#clock-form input[name=minutes]")
    minutes.clear()
    minutes.send_keys("10")
    button(olga, "Add time").click()
    wait(olga, lambda: "Round 1: time added." in flash(olga))
    ends_after = text_of(olga, "#ends-at")
    stamp = lambda text: datetime.strptime(text.rsplit(" ", 1)[0], "%Y-%m-%d %H:%M")   # "2026-… 10:30 UTC"
    assert stamp(ends_after) - stamp(ends_before) == timedelta(minutes=10), (ends_before, ends_after)

    button(olga, "Pause the clock").click()
    wait(olga, lambda: "Round 1: the clock is paused." in flash(olga))
    wait_text(olga, "[data-timer-note]", "paused by the organizer")      # the page's script draws the clock
    assert "paused" in olga.find_element(By.CSS_SELECTOR, ".round-timer").get_attribute("class")
    shown = wait(olga, lambda: re.fullmatch(r"1:3\d:\d\d|1:40:00", text_of(olga, "[data-clock]")))
    assert shown, text_of(olga, "[data-clock]")                # 90 + 10 minutes, standing still
    button(olga, "Resume the clock").click()
    wait(olga, lambda: "Round 1: the clock runs again." in flash(olga))
    wait(olga, lambda: text_of(olga, "[data-timer-note]") == "")
    button(olga, "Pause the clock")                     # the pause button is back

    table = olga.find_element(By.ID, "table-1")
    assert not table.find_elements(By.ID, "extension-1")
    field = table.find_element(By.CSS_SELECTOR, "form.extension input[name=minutes]")
    field.clear()
    field.send_keys("7")
    button(olga, "Set", within=table).click()
    wait(olga, lambda: "Table 1: its extension is set." in flash(olga))
    assert text_of(olga, "#extension-1") == "+7 min"
    assert not olga.find_elements(By.ID, "extension-2")

    olga.get(f"{live_server}/events/{event}/log?kind=Round+clock")
    what = [r.text for r in olga.find_elements(By.CSS_SELECTOR, "#log tbody tr td:nth-child(3)")]
    assert what == ["gave table 1 of round 1 an extension of 7 minutes", "resumed the clock of round 1",
                    "paused the clock of round 1", "added 10 minutes to round 1"], what


def test_a_judge_stays_on_round_3_after_settling_a_dispute_and_extending_a_table(live_server, olga):
    data = prepare(live_server, "third_round")
    event, number = data["event"], data["round"]
    assert number == 3
    round_3 = f"{live_server}/events/{event}/rounds/3"
    olga.get(round_3)
    table = olga.find_element(By.ID, "table-2")
    assert "Disputed" in table.text
    button(olga, "Accept this version", within=table).click()
    wait(olga, lambda: any(m.startswith("Table 2: version") for m in flash(olga)))
    assert olga.current_url.split("#")[0] == round_3, olga.current_url
    assert olga.current_url.endswith("#table-2")
    assert text_of(olga, "h1").startswith("Round 3"), text_of(olga, "h1")
    assert "Disputed" not in olga.find_element(By.ID, "table-2").text

    table = olga.find_element(By.ID, "table-3")
    field = table.find_element(By.CSS_SELECTOR, "form.extension input[name=minutes]")
    field.clear()
    field.send_keys("4")
    button(olga, "Set", within=table).click()
    wait(olga, lambda: "Table 3: its extension is set." in flash(olga))
    assert olga.current_url.split("#")[0] == round_3, olga.current_url
    assert olga.current_url.endswith("#table-3")
    assert text_of(olga, "h1").startswith("Round 3"), text_of(olga, "h1")
    assert text_of(olga, "#extension-3") == "+4 min"


# ----------------------------------------------------------------- 8. finishing the event

def test_finish_the_event(live_server, olga):
    event = prepare(live_server, "last_round_done")["event"]
    olga.get(f"{live_server}/events")
    wait_text(olga, "#events-open", "Finale")
    olga.get(f"{live_server}/events/{event}/rounds")
    wait_text(olga, "#planned-done", "The planned round is played: finish the event to make the results final.")
    button(olga, "Finish the event").click()
    WebDriverWait(olga, 10).until(EC.alert_is_present()).accept()       # it asks first
    wait(olga, lambda: olga.current_url.endswith(f"/events/{event}/standings"))
    assert "The event has finished: the results are final and these are the final standings." in flash(olga)
    assert text_of(olga, "h1").startswith("Final standings")
    rows = olga.find_elements(By.CSS_SELECTOR, "#standings table.standings tbody tr")
    assert len(rows) == 8
    assert text_of(olga, "#prizes h2") == "Prize winners"

    olga.get(f"{live_server}/events/{event}/rounds")
    wait_text(olga, "#event-finished", "The event has finished: results are final.")
    assert not olga.find_elements(By.ID, "finish-event")
    olga.get(f"{live_server}/events")
    finished = wait_text(olga, "#events-finished", "Finale")
    assert "Finished" in finished and "Final standings" in finished
    assert "Finale" not in text_of(olga, "#events-open")


# ----------------------------------------------------------------- 9. the event's staff, in the log

def test_add_a_judge_to_the_staff(live_server, olga):
    event = prepare(live_server, "staff")["event"]
    olga.get(f"{live_server}/events/{event}/staff")
    wait_text(olga, "#staff", "Organizer (owner)")
    assert not olga.find_elements(By.CSS_SELECTOR, '#staff tr[data-staff="Jan Judge"]')
    olga.find_element(By.CSS_SELECTOR, "#staff-form input[name=name]").send_keys("Jan Judge")
    Select(olga.find_element(By.CSS_SELECTOR, "#staff-form select[name=role]")).select_by_value("judge")
    button(olga, "Add to staff").click()
    wait(olga, lambda: "Jan Judge is on the staff as judge." in flash(olga))
    row = olga.find_element(By.CSS_SELECTOR, '#staff tr[data-staff="Jan Judge"]')
    assert row.text.startswith("Jan Judge Judge")

    olga.get(f"{live_server}/events/{event}/log")
    olga.find_element(By.NAME, "who").send_keys("olga")
    Select(olga.find_element(By.NAME, "kind")).select_by_visible_text("Staff changed")
    button(olga, "Show").click()
    wait(olga, lambda: "kind=Staff+changed" in olga.current_url)
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in olga.find_elements(By.CSS_SELECTOR, "#log tbody tr")]
    assert [r[1:3] for r in rows] == [["Olga (organizer)", "added Jan Judge to the staff as judge"]], rows

    Select(olga.find_element(By.NAME, "kind")).select_by_visible_text("Event created")
    button(olga, "Show").click()
    wait(olga, lambda: "kind=Event+created" in olga.current_url)
    assert "Jan Judge" not in text_of(olga, "main")


# ----------------------------------------------------------------- 10. the event's local time

def test_times_on_the_events_clock(live_server, olga):
    event = prepare(live_server, "tokyo")["event"]
    tokyo_now = datetime.now(ZoneInfo("Asia/Tokyo")).replace(tzinfo=None)
    olga.get(f"{live_server}/events/{event}/rounds/1")
    hint = wait_text(olga, "#actions .hint", "Started ")
    started = re.search(r"Started (\d{4}-\d\d-\d\d \d\d:\d\d) (\S+);", hint)
    assert started and started.group(2) == "JST", hint
    assert abs(datetime.strptime(started.group(1), "%Y-%m-%d %H:%M") - tokyo_now) < timedelta(minutes=3), hint
    assert text_of(olga, "#ends-at").endswith(" JST")

    olga.get(f"{live_server}/events/{event}/log")
    stamps = [td.text for td in olga.find_elements(By.CSS_SELECTOR, "#log td.when")]
    assert stamps and all(s.endswith(" JST") for s in stamps), stamps
    first = datetime.strptime(stamps[0].rsplit(" ", 1)[0], "%Y-%m-%d %H:%M:%S")
    assert abs(first - tokyo_now) < timedelta(minutes=3), stamps[0]


# ----------------------------------------------------------------- 11. the standings, also on a phone

PERCENT = re.compile(r"\d{1,3}\.\d %")


def test_standings_percentages_dropped_players_and_phone_width(live_server, olga, browser_factory):
    data = prepare(live_server, "standings")
    page = f"{live_server}/events/{data['event']}/standings"
    olga.get(page)
    wait_text(olga, "#standings", "OMW%")
    heads = [th.text for th in olga.find_elements(By.CSS_SELECTOR, "#standings thead th")]
    percent_columns = [i for i, h in enumerate(heads) if h.endswith("%")]
    assert [heads[i] for i in percent_columns] == ["OMW%", "GW%", "OGW%"], heads
    rows = olga.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
    assert len(rows) == 8
    for row in rows:
        cells = [td.text.replace("\xa0", " ") for td in row.find_elements(By.TAG_NAME, "td")]
        for i in percent_columns:
            assert PERCENT.fullmatch(cells[i]), (heads[i], cells[i])
    dropped = olga.find_element(By.ID, f"standing-{data['dropped']}")
    assert "dropped" in dropped.get_attribute("class").split()
    assert dropped.find_element(By.CSS_SELECTOR, "td.name").text == f"{data['dropped_name']} dropped"
    assert len(olga.find_elements(By.CSS_SELECTOR, "#standings tbody .badge")) == 1

    phone = browser_factory(*PHONE, mobile=True)        # a player's phone: the public standings
    phone.get(page)
    wait_text(phone, "#standings", data["dropped_name"])
    assert PERCENT.search(text_of(phone, "#standings tbody"))
    widths = phone.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[1] == PHONE[0] and widths[0] <= widths[1], widths


# ----------------------------------------------------------------- 13. a round of 64: filters and "Go to table"

def shown_tables(browser) -> list[int]:
    return [int(a.get_attribute("id").removeprefix("table-"))
            for a in browser.find_elements(By.CSS_SELECTOR, "#tables article.table-card")]


def test_big_round_filters_and_jump_to_table(live_server, olga):
    data = prepare(live_server, "big_round")
    assert data["tables"] == 16
    page = f"{live_server}/events/{data['event']}/rounds/1"
    olga.get(page)
    wait_text(olga, "#tables h2", "Tables (16)")
    assert shown_tables(olga) == list(range(1, 17))
    assert text_of(olga, "#missing h2") == "Tables still missing a result (4)"
    assert text_of(olga, "#unconfirmed") == "Table 11, Table 12 disputed"

    expected = {"Missing results": ([13, 14, 15, 16], "Tables (4 of 16)"),
                "Disputed": ([12], "Tables (1 of 16)"),
                "Not confirmed": ([11, 12], "Tables (2 of 16)"),
                "With an extension": ([14, 15], "Tables (2 of 16)"),
                "All tables": (list(range(1, 17)), "Tables (16)")}
    for label, (numbers, heading) in expected.items():
        olga.find_element(By.CSS_SELECTOR, "#table-filter").find_element(By.LINK_TEXT, label).click()
        wait(olga, lambda: text_of(olga, "#table-filter a.current") == label)
        assert text_of(olga, "#tables h2") == heading, label
        assert shown_tables(olga) == numbers, label
    olga.get(page + "?show=extended")
    assert text_of(olga, "#extension-14") == "+5 min" and text_of(olga, "#extension-15") == "+3 min"
    olga.get(page + "?show=disputed")
    assert "Disputed: the players reported different results." in text_of(olga, "#versions-12")

    olga.get(page)
    box = olga.find_element(By.CSS_SELECTOR, "#jump-form input[name=table]")
    box.send_keys("13", Keys.ENTER)
    wait(olga, lambda: olga.current_url.endswith("/rounds/1#table-13"))
    target = olga.find_element(By.ID, "table-13")
    top = olga.execute_script("return arguments[0].getBoundingClientRect().top", target)
    assert -2 <= top < 100, top                         # the page is scrolled to table 13 (sub-pixel rounding)
    assert target.find_element(By.TAG_NAME, "h3").text.startswith("Table 13")
    assert olga.execute_script("return window.scrollY") > 0
