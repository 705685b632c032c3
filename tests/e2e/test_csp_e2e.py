"""Every page works under the Content-Security-Policy: Chromium reports no blocked script, style or
connection on the pages staff and players use, and their scripts still run."""

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.conftest import STAFF_PASSWORD

SETUP = r"""
import json
from tournament import create_app
from tournament.auth.models import User
from tournament.extensions import db
from tournament.events import operations as ev
from tournament.rounds import operations as ro
import sqlalchemy as sa
app = create_app()
with app.app_context():
    olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
    event = ev.create_event(olga, {"name": "CSP Night", "ruleset": "edh-2010"})
    ev.set_public_address(event, olga, "http://192.168.1.20:5000")     # the receipt shows its QR code
    regs = [ev.register_player(event, {"name": f"Player {i}"}, user=olga) for i in range(1, 5)]
    ev.submit_decklist(regs[0], b"Commander\n1 Kenrith, the Returned King\nDeck\n1 Sol Ring\n98 Plains", user=olga)
    for r in regs:
        ev.check_in(r, olga)
    rnd = ro.pair_next_round(event, olga, seed=1, override_decks=True)
    ro.publish_round(rnd, olga)
    ro.start_round(rnd, olga)
    db.session.commit()
    print(json.dumps({"event": event.id, "code": regs[0].access_code}))
"""


def violations(browser) -> list[str]:
    return [e["message"] for e in browser.get_log("browser")
            if "Content Security Policy" in e["message"] or "Refused to" in e["message"]]


def test_pages_run_under_the_policy(live_server, browser_factory):
    data = live_server.prepare(SETUP)
    event, code = data["event"], data["code"]
    phone = browser_factory(390, 844, mobile=True)
    for path in (f"/p/{code}", f"/p/{code}/receipt", f"/p/{code}/tracker", f"/p/{code}/swap",
                 f"/events/{event}/register", "/"):
        phone.get(live_server + path)
        assert violations(phone) == [], path
        if path.endswith("/receipt"):
            assert phone.find_elements(By.CSS_SELECTOR, "#receipt .qr svg"), path      # the whole receipt
    phone.get(f"{live_server}/p/{code}")
    WebDriverWait(phone, 10).until(lambda b: b.execute_script("return document.readyState") == "complete")
    bar = phone.find_elements(By.CSS_SELECTOR, "table.curve td.bar rect")
    assert bar and bar[0].get_attribute("width").endswith("%")

    laptop = browser_factory(1366, 768)
    laptop.get(live_server + "/auth/login")
    laptop.find_element(By.NAME, "name").send_keys("Olga")
    laptop.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD, Keys.ENTER)
    WebDriverWait(laptop, 10).until(lambda b: "/events" in b.current_url)
    for path in (f"/events/{event}", f"/events/{event}/desk", f"/events/{event}/rounds",
                 f"/events/{event}/rounds/1", f"/events/{event}/standings", f"/events/{event}/log",
                 f"/events/{event}/staff", "/auth/account", f"/events/{event}/print", f"/events/{event}/stats"):
        laptop.get(live_server + path)
        assert violations(laptop) == [], path
    # the statistics page draws its charts with the vendored Chart.js, under the same policy
    WebDriverWait(laptop, 10).until(lambda b: b.execute_script(
        "var c = document.querySelector('canvas.chart'); return !!(window.Chart && c && Chart.getChart(c));"))
    assert laptop.execute_script("return document.querySelector('canvas.chart').width") > 100
    laptop.get(f"{live_server}/events/{event}/desk")
    laptop.find_element(By.ID, "desk-q").send_keys("Player 2")
    WebDriverWait(laptop, 10, ignored_exceptions=(StaleElementReferenceException,)).until(   # rows are redrawn
        lambda b: [e.text for e in b.find_elements(By.CSS_SELECTOR, "li.desk-row .name")] == ["Player 2"])
    assert violations(laptop) == []
