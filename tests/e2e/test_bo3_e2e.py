"""A best-of-three match reported game by game on two phones, in a real browser (issue 26 items 4 and 8):
sideboarding before game 2 opened by game 1's report and closed by a player's "Start game 2" (the other phone
follows by itself), before game 3 closed by a judge, and the loser confirming the whole match they see."""


import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.conftest import STAFF_PASSWORD, serve_fresh

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
    duel = ev.create_event(olga, {"name": "Bo3 night", "ruleset": "duel-cn", "mode": "duel"})
    ann, bob = [ev.register_player(duel, {"name": n}, user=olga) for n in ("Ann Archer", "Bob <b>Bold</b>")]
    for r in (ann, bob):
        ev.check_in(r, olga)
    rnd = ro.pair_next_round(duel, olga, seed=1, override_decks=True)
    ro.publish_round(rnd, olga)
    ro.start_round(rnd, olga)
    db.session.commit()
    table = rnd.tables[0]
    print(json.dumps({"ann": ann.access_code, "bob": bob.access_code, "event": duel.id, "table": table.number}))
"""


def wait(browser, check, timeout=10):
    return WebDriverWait(browser, timeout, ignored_exceptions=(WebDriverException,)).until(check)


def round_text(browser) -> str:
    return browser.find_element(By.ID, "round").text.replace("\u2068", "").replace("\u2069", "")


def tap(browser, text: str) -> None:
    """Press the button whose words are `text` (in "Your round"), then wait for the page after it."""
    button = next(b for b in browser.find_elements(By.CSS_SELECTOR, "#round button") if b.text.strip() == text)
    button.click()
    wait(browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".flash, .messages, [role=status]")
         or "#round" in b.current_url)


@pytest.fixture
def bo3_server(tmp_path):
    """The live server on SQLite, or with TEST_DATABASE_URL (the PostgreSQL pass) on a new PostgreSQL database
    of that server, dropped afterwards."""
    with serve_fresh(tmp_path, "bo3") as server:
        yield server


def test_a_bo3_match_game_by_game_with_sideboarding(bo3_server, browser_factory):
    live_server = bo3_server
    data = live_server.prepare(SETUP)
    ann = browser_factory(*PHONE, mobile=True)
    bob = browser_factory(*PHONE, mobile=True)
    ann.get(f"{live_server}/p/{data['ann']}")
    bob.get(f"{live_server}/p/{data['bob']}")
    assert "When game 1 ends, report it:" in round_text(ann)

    # game 1: Ann won. In progress, nobody confirms; sideboarding for game 2 opens on both phones
    tap(ann, "I won game 1")
    wait(ann, lambda b: "game 1: Ann Archer won — in progress" in round_text(b))
    wait(bob, lambda b: "Sideboarding for game 2 is open until" in round_text(b))      # Bob's page follows
    assert not bob.find_elements(By.ID, "confirm-form") and "You lost" not in round_text(bob)
    assert "Start game 2" in round_text(ann)

    # Bob starts game 2: sideboarding closes for both; Ann's open page follows within seconds
    tap(bob, "Start game 2")
    wait(bob, lambda b: "Game 2 is under way." in round_text(b))
    wait(ann, lambda b: "Game 2 is under way." in round_text(b) and "Start game 2" not in round_text(b))

    # game 2: Bob won (his phone). 1-1: game 3's sideboarding opens; a judge closes it from the table's swap log
    tap(bob, "I won game 2")
    wait(ann, lambda b: "Sideboarding for game 3 is open until" in round_text(b))
    judge = browser_factory()
    judge.get(live_server + "/auth/login")
    judge.find_element(By.NAME, "name").send_keys("Olga")
    judge.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD, Keys.ENTER)
    wait(judge, lambda b: b.current_url.endswith("/events"))
    judge.get(f"{live_server}/events/{data['event']}/rounds/1/tables/{data['table']}/swaps")
    judge.find_element(By.XPATH, "//button[contains(., 'Start game 3')]").click()
    wait(judge, lambda b: "Game 3 at table" in b.find_element(By.TAG_NAME, "main").text)
    wait(ann, lambda b: "Game 3 is under way." in round_text(b))

    # game 3: Ann won (her phone): decided; Bob sees the whole match before he confirms it
    tap(ann, "I won game 3")
    wait(bob, lambda b: b.find_elements(By.ID, "confirm-what"))
    what = bob.find_element(By.ID, "confirm-what").text.replace("\u2068", "").replace("\u2069", "")
    assert "game 1: Ann Archer won" in what and "game 2: Bob <b>Bold</b> won" in what
    assert "game 3: Ann Archer won" in what and "You lost 1–2" in round_text(bob)
    assert not ann.find_elements(By.ID, "confirm-form")
    tap(bob, "This result is right: confirm")
    wait(bob, lambda b: "confirmed" in b.find_element(By.ID, "result-state").text)
    wait(ann, lambda b: "confirmed" in b.find_element(By.ID, "result-state").text and "You won 2–1" in round_text(b))
    assert bob.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
