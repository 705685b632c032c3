"""Archenemy started from the table's tracker in a real browser: on the archenemy's phone with a pasted scheme
list (a short one refused first, HTML in it shown as text), and by the organizer choosing the archenemy with
scheme cards on paper. On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set (CI's second pass)."""
from __future__ import annotations


import pytest
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.e2e.conftest import STAFF_PASSWORD, fresh_database, serve
from tests.games.schemecards import ATOMIC_CARDS, real_cards, scheme_list

pytestmark = pytest.mark.skipif(not ATOMIC_CARDS.exists(), reason=f"{ATOMIC_CARDS} not found")

SETUP = r"""
import json, sys, tempfile
from pathlib import Path
import sqlalchemy as sa
from tournament import create_app
from tournament.auth.models import User
from tournament.cards.operations import import_cards
from tournament.extensions import db
from tournament.events import operations as ev
from tournament.rounds import operations as ro
from tournament.games import operations as games
from tests.games.schemecards import write_subset
app = create_app()
with app.app_context():
    cards = Path(tempfile.mkdtemp()) / "AtomicSchemes.json"
    write_subset(cards)
    import_cards(cards, source="mtgjson")
    olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
    event = ev.create_event(olga, {"name": "Archenemy Night " + sys.argv[1], "ruleset": "edh-2010",
                                   "variant": "archenemy"})
    regs = [ev.register_player(event, {"name": f"Villain {i}"}, user=olga) for i in range(1, 5)]
    for r in regs:
        ev.check_in(r, olga)
    rnd = ro.pair_next_round(event, olga, seed=1, override_decks=True)
    ro.publish_round(rnd, olga)
    ro.start_round(rnd, olga)
    db.session.commit()
    boss = games.suggested_archenemy(rnd.tables[0])
    print(json.dumps({"event": event.id, "codes": {r.id: r.access_code for r in regs}, "boss": boss,
                      "names": {r.id: r.name for r in regs},
                      "seats": [s.registration_id for s in rnd.tables[0].seats]}))
"""


@pytest.fixture(scope="module")
def server_database(tmp_path_factory):
    """SQLite; with TEST_DATABASE_URL a new PostgreSQL database on that server, dropped afterwards."""
    with fresh_database(tmp_path_factory.mktemp("archenemy"), "archenemy_e2e") as database:
        yield database


@pytest.fixture(scope="module")
def server(tmp_path_factory, server_database):
    with serve(tmp_path_factory.mktemp("archenemy-live"), DATABASE_URL=server_database) as live:
        yield live


def wait(browser, check, timeout=10, what="the page"):
    try:
        return WebDriverWait(browser, timeout, ignored_exceptions=(WebDriverException,)).until(lambda b: check())
    except TimeoutException:
        raise AssertionError(f"{what} never came; the message says "
                             f"{browser.find_element(By.ID, 'tracker-msg').text!r}") from None


def text(browser, css):
    found = browser.find_elements(By.CSS_SELECTOR, css)
    return found[0].text if found else ""


def paste(browser, textarea, value):
    """Put a long list into the textarea as a paste would (typing 20 lines key by key is slow, not different)."""
    browser.execute_script("arguments[0].value = arguments[1];", textarea, value)


def test_the_archenemy_pastes_a_scheme_list_on_their_phone(server, browser_factory):
    data = server.prepare(SETUP, "phone")
    boss, code = data["boss"], data["codes"][str(data["boss"])]
    names = real_cards()["schemes"]
    browser = browser_factory(390, 844, mobile=True)
    browser.get(f"{server}/p/{code}/tracker")
    archenemy = Select(browser.find_element(By.ID, "tracker-archenemy"))
    assert archenemy.first_selected_option.get_attribute("value") == str(boss)      # the suggestion, fixed
    assert not browser.find_element(By.ID, "tracker-archenemy").is_enabled()
    deck = browser.find_element(By.ID, f"schemes-{boss}")
    assert deck.is_displayed()
    others = [p for p in data["seats"] if p != boss]
    assert not any(browser.find_element(By.ID, f"schemes-{p}").is_displayed() for p in others)
    assert deck.find_element(By.CSS_SELECTOR, 'input[value="list"]').is_selected()   # no registered schemes
    assert not deck.find_element(By.CSS_SELECTOR, 'input[value="registered"]').is_enabled()
    textarea = browser.find_element(By.ID, f"scheme-text-{boss}")

    paste(browser, textarea, '<b id="injected">x</b>\n' + scheme_list(names, count=19))
    browser.find_element(By.ID, "tracker-start").click()
    message = wait(browser, lambda: text(browser, "#tracker-msg"), what="a refusal")
    assert '<b id="injected">x</b> is not a card in the card data' in message
    assert "has 19 schemes; an archenemy needs at least 20" in message
    assert not browser.find_elements(By.ID, "injected")                  # shown as text, never as markup
    assert not browser.find_element(By.ID, "tracker-game").is_displayed()

    textarea.clear()
    textarea.send_keys("2 Feed the Machine", Keys.ENTER)                 # typed, as on a phone
    paste(browser, textarea, textarea.get_attribute("value") +
          scheme_list([n for n in names if n != "Feed the Machine"], count=18))
    browser.find_element(By.ID, "tracker-start").click()
    wait(browser, lambda: browser.find_element(By.ID, "tracker-game").is_displayed(), what="the started game")
    assert text(browser, "#tracker-msg") == ""
    box = browser.find_element(By.ID, f"player-{boss}")
    assert "(archenemy)" in box.text and "Schemes left 20" in box.text
    assert text(browser, f'[data-test="life-{boss}"]') == "40"
    assert all(text(browser, f'[data-test="life-{p}"]') == "20" for p in others)
    assert browser.find_element(By.ID, "tracker-status").text.startswith("Turn order: Villain")
    browser.find_element(By.CSS_SELECTOR, f'[data-test="scheme-{boss}"]').click()
    wait(browser, lambda: "last:" in browser.find_element(By.ID, f"player-{boss}").text,
         what="the scheme set in motion")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390


def test_the_organizer_chooses_the_archenemy_with_schemes_on_paper(server, browser_factory):
    data = server.prepare(SETUP, "laptop")
    chosen = [p for p in data["seats"] if p != data["boss"]][0]
    browser = browser_factory(1280, 900)
    browser.get(server + "/auth/login")
    browser.find_element(By.NAME, "name").send_keys("Olga")
    browser.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD, Keys.ENTER)
    WebDriverWait(browser, 10).until(lambda b: b.current_url.endswith("/events"))
    browser.get(f"{server}/events/{data['event']}/rounds/1/tables/1/tracker")
    Select(browser.find_element(By.ID, "tracker-archenemy")).select_by_value(str(chosen))
    assert browser.find_element(By.ID, f"schemes-{chosen}").is_displayed()
    assert not browser.find_element(By.ID, f"schemes-{data['boss']}").is_displayed()
    browser.find_element(By.CSS_SELECTOR, f'#schemes-{chosen} input[value="paper"]').click()
    browser.find_element(By.ID, "tracker-start").click()
    wait(browser, lambda: browser.find_element(By.ID, "tracker-game").is_displayed(), what="the started game")
    box = browser.find_element(By.ID, f"player-{chosen}")
    assert "(archenemy)" in box.text and "Scheme deck on paper (not checked)" in box.text
    assert text(browser, f'[data-test="life-{chosen}"]') == "40"
    browser.get(f"{server}/events/{data['event']}/log")
    log = browser.find_element(By.TAG_NAME, "main").text
    name = data["names"][str(chosen)]
    assert (f"started the game tracker at table 1, round 1, archenemy: {name}, scheme deck of {name}: scheme "
            f"cards on paper, not checked") in log
