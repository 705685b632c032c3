"""Tap through life and general damage on a phone-sized screen against the live server."""
import time

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By


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
    event = ev.create_event(olga, {"name": "Tracker Night", "ruleset": "edh-2010"})
    regs = [ev.register_player(event, {"name": f"Player {i}"}, user=olga) for i in range(1, 5)]
    for r in regs:
        ev.check_in(r, olga)
    rnd = ro.pair_next_round(event, olga, seed=1, override_decks=True)
    ro.publish_round(rnd, olga)
    ro.start_round(rnd, olga)
    db.session.commit()
    print(json.dumps({"codes": [r.access_code for r in regs], "ids": [r.id for r in regs]}))
"""


def wait_for(check, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        try:
            value = check()
        except (StaleElementReferenceException, NoSuchElementException):
            value = None   # the tracker re-rendered between finding and reading an element
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_phone_taps_life_and_general_damage(live_server, browser_factory):
    data = live_server.prepare(SETUP)
    me, victim = data["ids"][0], data["ids"][1]
    browser = browser_factory(390, 844, mobile=True)
    browser.get(f"{live_server}/p/{data['codes'][0]}/tracker")
    browser.find_element(By.ID, "tracker-start").click()

    def tap(selector):
        wait_for(lambda: browser.find_element(By.CSS_SELECTOR, selector).click() or True)

    def life_of(pid):
        els = browser.find_elements(By.CSS_SELECTOR, f'[data-test="life-{pid}"]')
        return els[0].text if els else None
    wait_for(lambda: life_of(me) == "40")
    tap(f'[data-test="life-minus-{me}"]')
    wait_for(lambda: life_of(me) == "39")
    tap(f'[data-test="life-minus5-{me}"]')
    wait_for(lambda: life_of(me) == "34")
    tap(f'[data-test="life-plus-{me}"]')
    wait_for(lambda: life_of(me) == "35")
    plus, five, cell = (f'[data-test="{kind}-{victim}-{me}-0"]' for kind in ("gd", "gd5", "gdn"))
    for n in range(1, 4):
        tap(plus)
        wait_for(lambda: browser.find_element(By.CSS_SELECTOR, cell).text == str(n))
    wait_for(lambda: life_of(victim) == "37")
    tap(five)                                         # general damage by 5, not five taps
    wait_for(lambda: browser.find_element(By.CSS_SELECTOR, cell).text == "8")
    wait_for(lambda: life_of(victim) == "32")
    tap("#tracker-undo")
    wait_for(lambda: browser.find_element(By.CSS_SELECTOR, cell).text == "3")
    tap("#tracker-undo")
    wait_for(lambda: browser.find_element(By.CSS_SELECTOR, cell).text == "2")
    wait_for(lambda: life_of(victim) == "38")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390   # no sideways scrolling
    assert browser.find_element(By.ID, "tracker-msg").text == ""
    width = browser.execute_script("return document.documentElement.clientWidth")
    assert width <= 400
