"""The desk corrects the day in a real browser against the real server: a misspelled name renamed and shown on a
reprinted pairing; a new access code after a receipt was seen (asked first, the old code refused at once on an
open phone); the address phones open set on the print page so receipts print without a restart."""
from __future__ import annotations

import urllib.request
from io import BytesIO

import pytest
from pdfminer.high_level import extract_text
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.conftest import STAFF_PASSWORD, serve_fresh

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
    event = ev.create_event(olga, {"name": "Corrections", "ruleset": "edh-2010"})
    names = ["Sarka Dvorakova", "Ben Smith", "Chen Wei", "Dana Doe", "Eve Ek", "Finn Fa", "Gus Go", "Hana Ho"]
    regs = [ev.register_player(event, {"name": n}, user=olga) for n in names]
    for r in regs:
        ev.check_in(r, olga)
    rnd = ro.pair_next_round(event, olga, seed=3, override_decks=True)
    ro.publish_round(rnd, olga)
    db.session.commit()
    print(json.dumps({"event": event.id, "reg": regs[0].id, "code": regs[0].access_code}))
"""


def wait(browser, seconds=10):
    """A wait that looks again when the element it reads belongs to a page being replaced ("stale element")."""
    return WebDriverWait(browser, seconds, ignored_exceptions=(WebDriverException,))


def flashes(browser) -> str:
    return " ".join(e.text for e in browser.find_elements(By.CSS_SELECTOR, "p.flash"))


def fetch(browser, url: str) -> tuple[int, bytes]:
    """GET with the browser's session cookie, as its download would (the PDF viewer shows no text to read)."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in browser.get_cookies())
    request = urllib.request.Request(url, headers={"Cookie": cookies})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """The real server on SQLite, or with TEST_DATABASE_URL (CI's PostgreSQL pass) on a new PostgreSQL database."""
    with serve_fresh(tmp_path_factory.mktemp("live"), "e2e_corr") as server:
        yield server


@pytest.fixture(scope="module")
def data(live_server):
    return live_server.prepare(SETUP)


@pytest.fixture(scope="module")
def olga(live_server, browser_factory):
    browser = browser_factory(1366, 900)
    browser.get(live_server + "/auth/login")
    browser.find_element(By.NAME, "name").send_keys("Olga")
    browser.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD, Keys.ENTER)
    wait(browser).until(lambda b: b.current_url.endswith("/events"))
    return browser


def test_rename_at_the_desk_shows_on_the_reprinted_pairing(live_server, data, olga):
    event = data["event"]
    status, pdf = fetch(olga, f"{live_server}/events/{event}/print/pairings-by-table.pdf?round=1")
    assert status == 200 and "Sarka Dvorakova" in extract_text(BytesIO(pdf))
    olga.get(f"{live_server}/events/{event}/desk")
    box = olga.find_element(By.ID, "desk-q")
    box.send_keys("sarka")
    wait(olga).until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#desk-results .desk-row")) == 1)
    row = olga.find_element(By.CSS_SELECTOR, "#desk-results .desk-row")
    assert row.find_element(By.CSS_SELECTOR, "a.receipt-link").get_attribute("href").endswith(
        f"/p/{data['code']}/receipt")
    row.find_element(By.CSS_SELECTOR, "a.manage-link").click()
    wait(olga).until(EC.presence_of_element_located((By.ID, "rename-form")))
    name = olga.find_element(By.CSS_SELECTOR, "#rename-form input[name=name]")
    name.clear()
    name.send_keys("Šárka Dvořáková")
    olga.find_element(By.CSS_SELECTOR, "#rename-form button[type=submit]").click()
    wait(olga).until(lambda b: "Renamed Sarka Dvorakova to Šárka Dvořáková" in flashes(b))
    assert olga.find_element(By.TAG_NAME, "h1").text.startswith("Šárka Dvořáková")
    # reprinted: the new name, never the old one
    status, pdf = fetch(olga, f"{live_server}/events/{event}/print/pairings-by-table.pdf?round=1")
    text = extract_text(BytesIO(pdf))
    assert status == 200 and "Šárka Dvořáková" in text and "Sarka Dvorakova" not in text
    olga.get(f"{live_server}/events/{event}/rounds/1")
    assert "Šárka Dvořáková" in olga.find_element(By.ID, "tables").text
    olga.get(f"{live_server}/events/{event}/log")
    assert "renamed Sarka Dvorakova to Šárka Dvořáková" in olga.find_element(By.TAG_NAME, "main").text


def test_a_new_access_code_refuses_the_old_one_at_once(live_server, data, olga, browser_factory):
    event, reg, old = data["event"], data["reg"], data["code"]
    phone = browser_factory(390, 844, mobile=True)
    phone.get(f"{live_server}/p/{old}")                 # the receipt left on a table, opened on someone's phone
    wait(phone).until(EC.presence_of_element_located((By.ID, "access-code")))
    olga.get(f"{live_server}/events/{event}/registrations/{reg}")
    olga.find_element(By.CSS_SELECTOR, "#new-code-form button[type=submit]").click()
    alert = wait(olga).until(EC.alert_is_present())
    assert "stop working at once" in alert.text
    alert.dismiss()                                     # asked first: cancelled, nothing changes
    assert olga.find_element(By.ID, "access-code").text == old
    olga.find_element(By.CSS_SELECTOR, "#new-code-form button[type=submit]").click()
    wait(olga).until(EC.alert_is_present()).accept()
    wait(olga).until(lambda b: "has a new access code" in flashes(b))
    new = olga.find_element(By.ID, "access-code").text
    assert new != old and len(new) == 8
    assert olga.find_element(By.ID, "receipt-link").get_attribute("href").endswith(f"/p/{new}/receipt")
    # the open phone: its next load is refused; the new code opens the page
    phone.refresh()
    wait(phone).until(lambda b: "No registration has this access code" in b.find_element(By.TAG_NAME, "body").text)
    phone.get(f"{live_server}/p/{new}")
    wait(phone).until(EC.presence_of_element_located((By.ID, "access-code")))
    assert phone.find_element(By.ID, "access-code").text == new
    olga.get(f"{live_server}/events/{event}/log")
    log = olga.find_element(By.TAG_NAME, "main").text
    assert "a new access code" in log and old not in log and new not in log


def test_receipts_print_once_the_address_is_set_without_a_restart(live_server, data, olga):
    event = data["event"]
    olga.get(f"{live_server}/events/{event}/registrations/{data['reg']}")
    olga.find_element(By.ID, "receipt-link").click()    # the server listens on 127.0.0.1: phones could not open it
    wait(olga).until(lambda b: "only this computer can open" in b.find_element(By.TAG_NAME, "body").text)
    olga.get(f"{live_server}/events/{event}/print")
    assert "Only this computer can open" in olga.find_element(By.ID, "address-warning").text
    box = olga.find_element(By.CSS_SELECTOR, "#address-form input[name=public_url]")
    box.send_keys("http://2130706433:5000", Keys.ENTER)
    wait(olga).until(lambda b: "only this computer (or none) can open" in b.find_element(By.ID, "address").text)
    box = olga.find_element(By.CSS_SELECTOR, "#address-form input[name=public_url]")
    box.clear()
    box.send_keys("http://192.168.1.20:5000", Keys.ENTER)
    wait(olga).until(lambda b: "now start with http://192.168.1.20:5000" in flashes(b))
    olga.get(f"{live_server}/events/{event}/registrations/{data['reg']}")
    code = olga.find_element(By.ID, "access-code").text
    olga.find_element(By.ID, "receipt-link").click()
    wait(olga).until(EC.presence_of_element_located((By.ID, "receipt")))
    assert olga.find_element(By.CSS_SELECTOR, "#receipt .player-link").text == f"http://192.168.1.20:5000/p/{code}"
    assert olga.find_elements(By.CSS_SELECTOR, "#receipt .qr svg")
    status, pdf = fetch(olga, f"{live_server}/events/{event}/print/receipts.pdf")
    assert status == 200 and f"http://192.168.1.20:5000/p/{code}" in "".join(extract_text(BytesIO(pdf)).split())
