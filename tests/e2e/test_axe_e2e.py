"""axe-core (vendored in tests/e2e/vendor/axe-core, no CDN) over the pages players, staff and the projector use,
in a real browser at phone (390x844) and laptop (1366x768) size, in English and Japanese (issue 31 item 10).

Every WCAG 2.0, 2.1 and 2.2 level A and AA rule runs, target size (24 px) included, and axe's best practices
(landmarks, heading order); at phone size no table may be cut off or scroll sideways unannounced. The test fails on
any violation and prints, page by page, which rule and which elements. One event is set up once for the module and
the pages are visited in a loop in one browser per size."""
from __future__ import annotations

from pathlib import Path

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.conftest import STAFF_PASSWORD

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
# every WCAG 2.0-2.2 A and AA rule, and axe's best practices (one <main>, content in landmarks, headings in order)
RULE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
SIZES = {"phone": (390, 844, True), "laptop": (1366, 768, False)}
LOCALES = ["en", "ja"]

SETUP = r"""
import json
import sqlalchemy as sa
from tournament import create_app
from tournament.auth.models import User
from tournament.extensions import db
from tournament.events import operations as ev
from tournament.rounds import operations as ro
deck = open("tournament/data/demo_decks/kenrith.txt", encoding="utf-8").read().rstrip()
deck += "\n\nSideboard\n1 Lightning Bolt\n1 Grindstone\n1 Utter End\n"
names = ["Šárka Dvořáková", "山田 太郎", "محمد الراشد", "Zoë Müller", "Jan Svoboda", "王 小明", "Léa García",
         "Olga Novak"]
app = create_app()
with app.app_context():
    olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
    event = ev.create_event(olga, {"name": "Saturday EDH", "ruleset": "edh-2010", "venue": "The Game Shop",
                                   "scoring_profile": "democratic"})
    regs = [ev.register_player(event, {"name": n, "decklist": deck}, user=olga) for n in names]
    for reg in regs:
        ev.check_in(reg, olga)
    late = ev.register_player(event, {"name": "Ivan Late", "decklist": deck.replace("Sol Ring", "Sol Rnig")
                                      + "1 Swords to Plowshares\n"}, user=olga)   # a deck check with errors
    rnd = ro.pair_next_round(event, olga, seed=2026)
    ro.publish_round(rnd, olga)
    ro.start_round(rnd, olga)
    table = rnd.tables[0]
    ro.report_pod_result(table, [table.seats[0].registration_id], user=olga)
    open_event = ev.create_event(olga, {"name": "Sunday EDH", "ruleset": "edh-2010"})
    from tournament.series import operations as so
    league = so.create_series(olga, {"name": "Winter league", "points_table": "5, 3, 2, 1"})
    night = ev.create_event(olga, {"name": "League night", "ruleset": "edh-2010", "date": "2026-11-07",
                                   "scoring_profile": "survival"})
    for i, n in enumerate(names[:4]):
        ev.check_in(ev.register_player(night, {"name": n, "player_id": f"10{i}"}, user=olga), olga)
    played = ro.pair_next_round(night, olga, seed=7, override_decks=True)
    ro.publish_round(played, olga)
    ro.start_round(played, olga)
    for t in played.tables:
        ro.report_pod_result(t, [t.seats[0].registration_id], user=olga)
    ro.finish_round(played, olga)
    ro.finish_event(night, olga)
    so.add_event(league, olga, night.id)
    so.add_event(league, olga, event.id)
    db.session.commit()
    person = so.series_standings(league)["rows"][0].person
    print(json.dumps({"event": event.id, "open": open_event.id, "code": table.seats[1].registration.access_code,
                      "player": table.seats[1].registration_id, "late": late.access_code, "late_id": late.id, "table": table.number,
                      "series": league.id, "person": person}))
"""


def page_list(d: dict) -> tuple[dict, dict]:
    """(public pages, staff pages): name -> path."""
    e, code, n, series = d["event"], d["code"], d["table"], d["series"]
    public = {"home": "/", "login": "/auth/login", "registration": f"/events/{d['open']}/register",
              "player": f"/p/{code}", "deck check with an error": f"/p/{d['late']}", "swap": f"/p/{code}/swap",
              "receipt": f"/p/{code}/receipt", "player tracker": f"/p/{code}/tracker",
              "standings": f"/events/{e}/standings", "projector": f"/events/{e}/projector",
              "round projector": f"/events/{e}/rounds/1/projector", "series": f"/series/{series}",
              "series player": f"/series/{series}/players/{d['person']}", "series stats": f"/series/{series}/stats"}
    staff = {"events": "/events", "dashboard": f"/events/{e}", "desk": f"/events/{e}/desk",
             "rounds": f"/events/{e}/rounds", "round page and result form": f"/events/{e}/rounds/1",
             "staff standings": f"/events/{e}/standings", "staff": f"/events/{e}/staff", "log": f"/events/{e}/log",
             "decklists": f"/events/{e}/decklists", "print": f"/events/{e}/print",
             "table tracker": f"/events/{e}/rounds/1/tables/{n}/tracker",
             "table swaps": f"/events/{e}/rounds/1/tables/{n}/swaps", "new event": "/events/new",
             "edit event": f"/events/{e}/edit", "account": "/auth/account", "stats": f"/events/{e}/stats",
             "penalties": f"/events/{e}/penalties", "player swaps": f"/events/{e}/players/{d['player']}/swaps",
             "registration": f"/events/{e}/registrations/{d['player']}", "import players": f"/events/{e}/import-players",
             "import event": "/events/import", "series list": "/series", "import series": "/series/import",
             "home as staff": "/", "api docs": "/api/docs"}
    return public, staff


@pytest.fixture(scope="module")
def event(live_server):
    return live_server.prepare(SETUP)


RUN_AXE = """
var done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: "tag", values: arguments[0]}, resultTypes: ["violations"]})
  .then(function (r) {
    done(r.violations.map(function (v) {
      return {id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map(function (n) {
        return {target: n.target.join(" "), summary: (n.failureSummary || "").split("\\n").slice(1, 3).join(" ")};
      }), count: v.nodes.length};
    }));
  })
  .catch(function (e) { done([{id: "axe-error", impact: "", help: String(e), nodes: [], count: 0}]); });
"""


def axe_violations(browser) -> list[dict]:
    if not browser.execute_script("return !!window.axe"):
        browser.execute_script(AXE.read_text("utf-8"))
    return browser.execute_async_script(RUN_AXE, RULE_TAGS)


def load(browser, url: str) -> None:
    browser.get(url)
    WebDriverWait(browser, 15, ignored_exceptions=(WebDriverException,)).until(
        lambda b: b.execute_script("return document.readyState") == "complete" and b.find_elements(By.TAG_NAME, "h1"))


def log_in(browser, base: str) -> None:
    load(browser, base + "/auth/login")
    browser.find_element(By.NAME, "name").send_keys("Olga")
    browser.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(browser, 15, ignored_exceptions=(WebDriverException,)).until(
        lambda b: "/auth/login" not in b.current_url)


def report(problems: dict) -> str:
    lines = []
    for where, violations in problems.items():
        lines.append(where)
        for v in violations:
            lines.append(f"  {v['id']} ({v['impact']}, {v['count']} elements): {v['help']}")
            lines.extend(f"    {n['target']}: {n['summary']}" for n in v["nodes"])
    return "\n".join(lines)


def test_the_vendored_axe_is_the_npm_release():
    head = AXE.read_text("utf-8")[:40]
    assert head.startswith("/*! axe v4."), head
    assert (AXE.parent / "LICENSE").read_text("utf-8").startswith("Mozilla Public License")


WIDE_TABLES = """
var out = [], vw = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth > vw + 1) out.push("the page scrolls sideways");
document.querySelectorAll("table").forEach(function (t) {
  if (!t.offsetParent) return;
  var box = t.closest(".table-scroll"), name = t.id || t.className || "table";
  if (box && box.scrollWidth > box.clientWidth + 1 && !box.matches("[tabindex][aria-label]"))
    out.push(name + " scrolls sideways in a box without a label and keyboard access");
  if (!box && t.getBoundingClientRect().right > vw + 1) out.push(name + " is cut off at the right");
});
return out;
"""

# What a page shows only after a tap: its state is checked too (name -> button to press first).
AFTER_TAP = {"player tracker": "tracker-start", "table tracker": "tracker-start"}


def check_page(browser, base: str, name: str, path: str, phone: bool) -> list[dict]:
    load(browser, base + path)
    found = axe_violations(browser)
    if phone:
        found += [{"id": "wide table", "impact": "", "help": w, "nodes": [], "count": 1}
                  for w in browser.execute_script(WIDE_TABLES)]
    start = browser.find_elements(By.ID, AFTER_TAP.get(name, "-"))
    if start and start[0].is_displayed():
        start[0].click()
        WebDriverWait(browser, 10).until(lambda b: not start[0].is_displayed())
        found += [dict(v, help=v["help"] + " (after the tap)") for v in axe_violations(browser)]
    return found


@pytest.mark.parametrize("size", list(SIZES))
def test_no_axe_violation_on_any_page(live_server, browser_factory, event, size):
    width, height, mobile = SIZES[size]
    browser = browser_factory(width, height, mobile=mobile)
    browser.set_script_timeout(60)
    public, staff = page_list(event)
    problems = {}
    for locale in LOCALES:
        load(browser, f"{live_server}/auth/login?lang={locale}")          # remembered in the lang cookie
        visits = [(name, path, False) for name, path in public.items()]
        visits += [(name, path, True) for name, path in staff.items()]
        logged_in = False
        for name, path, as_staff in visits:
            if as_staff and not logged_in:
                log_in(browser, live_server)
                logged_in = True
            found = check_page(browser, live_server, name, path, mobile)
            assert browser.execute_script("return document.documentElement.lang") == locale, path
            if found:
                problems[f"{name} ({path}, {size}, {locale})"] = found
        browser.delete_all_cookies()                  # logged out, for the next language's public pages
    assert not problems, "axe found violations:\n" + report(problems)


@pytest.fixture(scope="module")
def laptop(browser_factory):
    return browser_factory(1366, 768)


def test_the_axe_run_finds_what_it_should(live_server, laptop):
    """The run is not blind: a picture without a text, an unlabelled field and two 12 px links side by side put
    on a page are reported (image-alt, label, target-size)."""
    load(laptop, f"{live_server}/auth/login")
    laptop.execute_script("""var m = document.querySelector("main");
      m.insertAdjacentHTML("beforeend", '<img src="/static/favicon.svg"><input type="text"><p><a href="#">a</a>'
        + '<a href="#">b</a></p>');
      m.querySelectorAll("p:last-child a").forEach(function (a) {    // the CSP allows styles set by a script
        a.style.display = "inline-block"; a.style.width = a.style.height = "12px"; a.style.fontSize = "8px";
      });""")
    found = {v["id"] for v in axe_violations(laptop)}
    assert {"image-alt", "label", "target-size"} <= found, found


ACTIVE = """var a = document.activeElement, li = a && a.closest("li.desk-row"), form = a && a.closest("form");
return {tag: a ? a.tagName : null, row: li ? li.getAttribute("data-id") : null,
        action: form ? form.getAttribute("data-action") : null, text: a ? a.textContent.trim() : ""};"""


def test_the_desk_keeps_the_keyboard_on_the_row_after_check_in_and_drop(live_server, laptop, event):
    """Issue 31 item 5: after a check-in or a drop the row is drawn again; the focus goes to the same row's new
    button (Check in -> Undo check-in, Drop -> Undrop), not to <body>, so the desk goes on with the keyboard."""
    from selenium.webdriver.common.keys import Keys
    browser = laptop
    load(browser, f"{live_server}/auth/login?lang=en")
    log_in(browser, live_server)
    load(browser, f"{live_server}/events/{event['event']}/desk")
    rid = event["late_id"]
    row = f'li.desk-row[data-id="{rid}"]'

    def press(action: str) -> None:
        button = browser.find_element(By.CSS_SELECTOR, f'{row} form[data-action="{action}"] button')
        browser.execute_script("arguments[0].focus()", button)
        assert browser.execute_script(ACTIVE)["action"] == action
        button.send_keys(Keys.ENTER)

    def focus_moves_to(action: str) -> dict:
        """Waits for the redrawn row (its form for `action`) and returns where the focus is then."""
        WebDriverWait(browser, 10, ignored_exceptions=(WebDriverException,)).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, f'{row} form[data-action="{action}"] button'))
        WebDriverWait(browser, 10).until(lambda b: b.execute_script(ACTIVE)["tag"] != "BODY")
        return browser.execute_script(ACTIVE)

    press("checkin")
    assert focus_moves_to("checkin/undo") == {"tag": "BUTTON", "row": str(rid), "action": "checkin/undo",
                                              "text": "Undo check-in"}
    browser.switch_to.active_element.send_keys(Keys.ENTER)          # the keyboard goes on: undo it
    assert focus_moves_to("checkin")["action"] == "checkin"
    press("drop")
    WebDriverWait(browser, 10).until(lambda b: b.switch_to.alert).accept()     # "Drop Ivan Late from the event?"
    assert focus_moves_to("drop/undo") == {"tag": "BUTTON", "row": str(rid), "action": "drop/undo",
                                           "text": "Undrop"}
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    assert focus_moves_to("drop")["row"] == str(rid)


def test_a_table_that_scrolls_sideways_says_so(live_server, browser_factory, event):
    """A .table-scroll box wider than the phone (here made so by a long cell added to the staff's swap log, which
    fits in Japanese) gets a visible line saying it scrolls, a name and keyboard access; when it fits again the
    line goes away."""
    phone = browser_factory(390, 844, mobile=True)
    load(phone, f"{live_server}/auth/login?lang=ja")
    log_in(phone, live_server)
    load(phone, f"{live_server}/events/{event['event']}/rounds/1/tables/{event['table']}/swaps")
    box = phone.find_element(By.CSS_SELECTOR, "#swap-log .table-scroll")
    assert phone.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", box)
    assert not [c for c in phone.find_elements(By.CSS_SELECTOR, ".scroll-cue") if c.is_displayed()]
    phone.execute_script("""var td = document.createElement("td");
      td.id = "wide-cell"; td.textContent = "W".repeat(120);
      document.querySelector("#swap-log tbody tr").appendChild(td);""")
    cue = WebDriverWait(phone, 10).until(
        lambda b: [c for c in b.find_elements(By.CSS_SELECTOR, ".scroll-cue") if c.is_displayed()])[0]
    assert cue.text.strip() and cue.location["y"] < box.location["y"]           # said above the box
    assert box.get_attribute("tabindex") == "0" and box.get_attribute("role") == "region"
    assert box.get_attribute("aria-label").strip()
    assert not axe_violations(phone)
    phone.execute_script('document.getElementById("wide-cell").remove()')
    WebDriverWait(phone, 10).until(lambda b: not cue.is_displayed())
    assert box.get_attribute("tabindex") is None and box.get_attribute("role") is None
