"""Issue 4 end to end in headless Chromium against a real server process.

The organizer logs in and creates an event; three players register (one deck
illegal, its findings shown next to the lines); two are checked in at the
desk, one with a scanner-style access code + Enter; one drops.
"""
import re
from pathlib import Path

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.conftest import PASSWORD as STAFF_PASSWORD

DEMO = Path(__file__).resolve().parents[2] / "tournament" / "data" / "demo_decks"
LEGAL_DECK = (DEMO / "kenrith.txt").read_text(encoding="utf-8")
ILLEGAL_DECK = (DEMO / "phelddagrif-illegal.txt").read_text(encoding="utf-8")
HOSTILE_NAME = "<b>Bobby</b> Tables"


def wait(browser, seconds=10):
    """A wait that looks again when the element it reads belongs to a page being replaced ("stale element")."""
    return WebDriverWait(browser, seconds, ignored_exceptions=(WebDriverException,))


def set_value(browser, element, text):
    """Typing 100 lines key by key is slow; set the textarea the way a paste does."""
    browser.execute_script("arguments[0].value = arguments[1];", element, text)


def register(browser, base, event_id, name, deck):
    browser.get(f"{base}/events/{event_id}/register")
    browser.find_element(By.NAME, "name").send_keys(name)
    set_value(browser, browser.find_element(By.NAME, "decklist"), deck)
    browser.find_element(By.CSS_SELECTOR, "#register-form button[type=submit]").click()
    code = wait(browser).until(EC.presence_of_element_located((By.ID, "access-code"))).text.strip()
    assert re.fullmatch(r"[A-Z0-9]{8}", code)
    return code


def desk_search(browser, text):
    box = browser.find_element(By.ID, "desk-q")
    box.clear()
    box.send_keys(text)

    def found(b):          # the one row of this search (not the row an earlier answer left there)
        try:
            rows = b.find_elements(By.CSS_SELECTOR, "#desk-results .desk-row")
            return len(rows) == 1 and text.casefold() in rows[0].text.casefold()
        except StaleElementReferenceException:
            return False
    wait(browser).until(found)
    return browser.find_element(By.CSS_SELECTOR, "#desk-results .desk-row")


def tap_in_row(browser, text, label):
    """Search, then tap a row's button; search-as-you-type may redraw the row meanwhile: find it again."""
    desk_search(browser, text)

    def tap(b):
        try:
            b.find_element(By.CSS_SELECTOR, "#desk-results .desk-row").find_element(
                By.XPATH, f".//button[normalize-space()='{label}']").click()
            return True
        except (StaleElementReferenceException, NoSuchElementException):
            return False
    wait(browser).until(tap)


def counter(browser, name):
    return browser.find_element(By.CSS_SELECTOR, f'[data-counter="{name}"]').text.strip()


def test_organizer_players_and_desk(live_server, browser_factory):
    staff = browser_factory()
    staff.get(live_server + "/auth/login")
    staff.find_element(By.NAME, "name").send_keys("Olga")
    staff.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD, Keys.ENTER)
    wait(staff).until(EC.url_contains("/events"))

    staff.get(live_server + "/events/new")
    staff.find_element(By.NAME, "name").send_keys("Saturday Commander")
    Select(staff.find_element(By.NAME, "ruleset")).select_by_value("edh-2010")
    staff.find_element(By.CSS_SELECTOR, "#event-form button[type=submit]").click()
    wait(staff).until(EC.url_matches(r"/events/\d+$"))
    event_id = int(staff.current_url.rsplit("/", 1)[1])
    assert "Saturday Commander" in staff.find_element(By.TAG_NAME, "h1").text

    player = browser_factory(390, 844, mobile=True)
    codes = {
        "山田太郎": register(player, live_server, event_id, "山田太郎", LEGAL_DECK),
        "Šárka Dvořáková": register(player, live_server, event_id, "Šárka Dvořáková", LEGAL_DECK),
    }
    codes[HOSTILE_NAME] = register(player, live_server, event_id, HOSTILE_NAME, ILLEGAL_DECK)
    # The illegal deck's findings sit next to the lines they are about.
    assert HOSTILE_NAME in player.find_element(By.TAG_NAME, "body").text
    assert not player.find_elements(By.XPATH, "//b[text()='Bobby']")
    lines = ILLEGAL_DECK.splitlines()
    for card in ("Goblin Piker", "Badlands", "Boros Guildmage"):
        n = next(i for i, line in enumerate(lines, 1) if line.endswith(card))
        row = player.find_element(By.ID, f"line-{n}")
        finding = row.find_element(By.CSS_SELECTOR, '.finding[data-code="COLOR_IDENTITY"]')
        assert card in finding.text and "Phelddagrif" in finding.text
    assert player.find_element(By.ID, "check").get_attribute("class").split()[-1] == "illegal"

    # The dashboard shows every deck's status at a glance.
    staff.get(f"{live_server}/events/{event_id}")
    page = staff.find_element(By.TAG_NAME, "body").text
    assert "山田太郎" in page and HOSTILE_NAME in page
    assert counter(staff, "legal_decks") == "2" and counter(staff, "illegal_decks") == "1"

    # The desk: search as you type, one tap to check in; a scanner types the code and Enter.
    staff.get(f"{live_server}/events/{event_id}/desk")
    tap_in_row(staff, "山田", "Check in")
    wait(staff).until(lambda b: counter(b, "checked_in") == "1")
    box = staff.find_element(By.ID, "desk-q")
    box.clear()                         # the receipt's QR code holds the player link, here with another host
    box.send_keys(f"https://192.168.1.20:5000/p/{codes['Šárka Dvořáková']}?welcome=1", Keys.ENTER)
    wait(staff).until(lambda b: counter(b, "checked_in") == "2")
    assert "Checked in: Šárka Dvořáková" in staff.find_element(By.ID, "desk-status").text
    box.clear()
    box.send_keys(codes["Šárka Dvořáková"].lower(), Keys.ENTER)          # a code typed by hand
    wait(staff).until(lambda b: "Already checked in: Šárka Dvořáková" in b.find_element(By.ID, "desk-status").text)
    assert counter(staff, "checked_in") == "2"
    tap_in_row(staff, "bobby", "Drop")                   # asks first: cancelled, nobody is dropped
    alert = wait(staff).until(EC.alert_is_present())
    assert alert.text == "Drop <b>Bobby</b> Tables from the event?"
    alert.dismiss()
    assert counter(staff, "dropped") == "0"
    tap_in_row(staff, "bobby", "Drop")
    wait(staff).until(EC.alert_is_present()).accept()
    wait(staff).until(lambda b: counter(b, "dropped") == "1")
    assert counter(staff, "registered") == "3"
    assert counter(staff, "checked_in") == "2"
