"""What a player does on a phone (390x844) and what staff see first, in a real browser (issue 17 items 12,
14 and 15): the match result in wins and losses, dropping with a confirmation, the same name registered
twice, and a login form whose password field looks like its name field."""

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


PHONE = (390, 844)

SETUP = r"""
import json
import sqlalchemy as sa
from tournament import create_app
from tournament.auth.models import User
from tournament.extensions import db
from tournament.events import operations as ev
from tournament.rounds import operations as ro
app = create_app()
with app.app_context():
    olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
    duel = ev.create_event(olga, {"name": "Duel night", "ruleset": "duel-cn", "mode": "duel"})
    a, b = [ev.register_player(duel, {"name": n}, user=olga) for n in ("Ada Winner", "Bo Second")]
    for r in (a, b):
        ev.check_in(r, olga)
    rnd = ro.pair_next_round(duel, olga, seed=1, override_decks=True)
    ro.publish_round(rnd, olga)
    table = next(t for t in rnd.tables if t.kind == "match")
    ro.report_duel_games(table, [a.id, a.id], user=olga)
    open_event = ev.create_event(olga, {"name": "Open night", "ruleset": "edh-2010"})
    leaver = ev.register_player(open_event, {"name": "Lea Leaver"}, user=olga)
    db.session.commit()
    print(json.dumps({"winner": a.access_code, "second": b.access_code, "leaver": leaver.access_code,
                      "open": open_event.id}))
"""


def prepare(live_server) -> dict:
    return live_server.prepare(SETUP)


def wait(browser, check, timeout=10):
    """Until check(browser) holds. While a submitted form's page replaces the old one, Chromium may answer
    "stale element" or "node does not belong to the document": that is simply looked at again."""
    return WebDriverWait(browser, timeout, ignored_exceptions=(WebDriverException,)).until(check)


def main_text(browser) -> str:
    return browser.execute_script("var m = document.querySelector('main'); return m ? m.innerText : '';")


def no_sideways_scroll(browser) -> bool:
    return browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def test_phone_result_drop_and_same_name(live_server, browser_factory):
    data = prepare(live_server)
    phone = browser_factory(*PHONE, mobile=True)

    phone.get(f"{live_server}/p/{data['winner']}")
    wait(phone, lambda b: "You won 2–0" in b.find_element(By.ID, "round").text)
    phone.get(f"{live_server}/p/{data['second']}")
    wait(phone, lambda b: "You lost 0–2" in b.find_element(By.ID, "round").text)
    assert "2 games to 2" not in phone.page_source and no_sideways_scroll(phone)

    phone.get(f"{live_server}/p/{data['leaver']}")
    form = phone.find_element(By.ID, "drop-form")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()      # not confirmed: the browser asks
    assert phone.current_url.endswith(f"/p/{data['leaver']}")
    assert phone.find_elements(By.ID, "drop-form") and not phone.execute_script(
        "return document.querySelector('#drop-form input[name=confirm]').checkValidity()")
    phone.find_element(By.CSS_SELECTOR, "#drop-form input[name=confirm]").click()
    phone.find_element(By.CSS_SELECTOR, "#drop-form button[type=submit]").click()
    wait(phone, lambda b: not b.find_elements(By.ID, "drop-form"))
    assert "dropped" in main_text(phone).lower()

    register = f"{live_server}/events/{data['open']}/register"
    phone.get(register)
    phone.find_element(By.NAME, "name").send_keys("lea  LEAVER")          # case and spaces ignored
    phone.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(phone, lambda b: "already registered" in main_text(b))
    box = phone.find_element(By.NAME, "same_name_ok")
    assert no_sideways_scroll(phone)
    box.click()
    phone.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(phone, lambda b: "/p/" in b.current_url)
    assert "You are registered" in main_text(phone)


def test_the_login_password_field_looks_like_the_name_field(live_server, browser_factory):
    laptop = browser_factory(1366, 768)
    laptop.get(live_server + "/auth/login")
    style = ("var s = getComputedStyle(arguments[0]);"
             "return [s.fontSize, s.paddingTop, s.paddingLeft, s.borderTopWidth, s.borderTopStyle, s.width];")
    name = laptop.execute_script(style, laptop.find_element(By.NAME, "name"))
    password = laptop.execute_script(style, laptop.find_element(By.NAME, "password"))
    assert name == password, (name, password)
