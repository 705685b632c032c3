"""A full event in a real browser (issue 26 item 6): a walk-in registers on a phone and is told their place on
the waitlist; the organizer drops a player at the desk before round 1; the open phone page shows the
promotion within a poll, and the desk can check the player in."""

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import pytest

from tests.e2e.conftest import STAFF_PASSWORD, serve_fresh

PHONE = (390, 844)

SETUP = r"""
import json
import sqlalchemy as sa
from tournament import create_app
from tournament.auth.models import User
from tournament.extensions import db
from tournament.events import operations as ev
app = create_app()
with app.app_context():
    olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
    event = ev.create_event(olga, {"name": "Capped Saturday", "ruleset": "edh-2010", "player_cap": 2,
                                   "entry_fee": "€10, cash or card"})
    for name in ("Anna Early", "Ben Dropper"):
        ev.register_player(event, {"name": name}, user=olga)
    db.session.commit()
    print(json.dumps({"event": event.id}))
"""


@pytest.fixture
def server(tmp_path):
    """The real server on SQLite, or with TEST_DATABASE_URL (CI's second pass) on a new PostgreSQL database."""
    with serve_fresh(tmp_path, "e2e_wait") as live:
        yield live


def wait(browser, check, timeout=10):
    return WebDriverWait(browser, timeout, ignored_exceptions=(WebDriverException,)).until(lambda b: check())


def text_of(browser, css: str) -> str:
    found = browser.find_elements(By.CSS_SELECTOR, css)
    return found[0].text.replace("\xa0", " ") if found else ""


def test_a_waitlisted_player_is_promoted_after_a_drop_and_sees_it_on_the_phone(server, browser_factory):
    live_server = server
    data = live_server.prepare(SETUP)
    event = data["event"]
    phone = browser_factory(*PHONE, mobile=True)
    phone.get(f"{live_server}/events/{event}/register")
    assert "The event is full (2 players)" in text_of(phone, "#places")
    assert "€10, cash or card" in text_of(phone, "#entry-fee")
    phone.find_element(By.NAME, "name").send_keys("Cecilie Waiting", Keys.ENTER)
    wait(phone, lambda: phone.find_elements(By.ID, "waitlist-place"))
    assert "number 1 on the waitlist" in text_of(phone, "#waitlist-place")
    assert "you are number 1 on the waitlist" in phone.find_element(By.TAG_NAME, "main").text
    phone_url = phone.current_url

    desk = browser_factory()
    desk.get(live_server + "/auth/login")
    desk.find_element(By.NAME, "name").send_keys("Olga")
    desk.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD, Keys.ENTER)
    wait(desk, lambda: desk.current_url.endswith("/events"))
    desk.get(f"{live_server}/events/{event}/desk")
    wait(desk, lambda: "waitlist · number 1" in text_of(desk, "#desk li.desk-row:last-child"))
    assert "Entry fee: €10, cash or card" in text_of(desk, "#desk-fee")
    search = desk.find_element(By.ID, "desk-q")
    search.send_keys("Ben Dropper")
    wait(desk, lambda: len(desk.find_elements(By.CSS_SELECTOR, "#desk li.desk-row")) == 1)
    desk.execute_script("window.confirm = function () { return true; };")     # a confirmation dialog, if any
    desk.find_element(By.XPATH, "//li[contains(@class,'desk-row')]//button[contains(., 'Drop')]").click()
    wait(desk, lambda: "Dropped" in text_of(desk, "#desk li.desk-row"))

    # the phone was left open: its polled box shows the promotion without a reload
    assert phone.current_url == phone_url
    wait(phone, lambda: phone.find_elements(By.ID, "waitlist-promoted"), timeout=20)
    assert "A place freed up: you are in the event." in text_of(phone, "#waitlist-promoted")
    assert not phone.find_elements(By.ID, "waitlist-place")

    search = desk.find_element(By.ID, "desk-q")
    search.clear()
    search.send_keys("Cecilie")
    wait(desk, lambda: "Cecilie Waiting" in text_of(desk, "#desk li.desk-row")
         and "waitlist" not in text_of(desk, "#desk li.desk-row"))
    desk.find_element(By.XPATH, "//li[contains(@class,'desk-row')]//button[normalize-space()='Check in']").click()
    wait(desk, lambda: "Checked in" in text_of(desk, "#desk li.desk-row .state"))
    wait(phone, lambda: not phone.find_elements(By.ID, "waitlist-promoted"), timeout=20)
