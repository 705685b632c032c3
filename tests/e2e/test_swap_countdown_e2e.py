"""The swap countdown on the player's page follows the server's stored deadline: a reload does not reset it."""
from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SETUP = textwrap.dedent('''
    import sqlalchemy as sa
    from tournament import create_app
    from tournament.auth.models import User
    from tournament.events import operations as events
    from tournament.extensions import db
    from tournament.rounds import operations as rounds
    deck = open("tournament/data/demo_decks/kenrith.txt", encoding="utf-8").read().rstrip()
    deck += "\\n\\nSideboard\\n1 Lightning Bolt\\n1 Grindstone\\n1 Utter End\\n"
    app = create_app()
    with app.app_context():
        olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
        event = events.create_event(olga, {"name": "Swap night", "ruleset": "edh-2010", "swap_seconds": 150})
        regs = [events.register_player(event, {"name": f"Player {i}", "decklist": deck}) for i in range(4)]
        for reg in regs:
            events.check_in(reg, olga)
        rnd = rounds.pair_next_round(event, olga, seed=1)
        rounds.publish_round(rnd, olga)
        rounds.start_round(rnd, olga)
        db.session.commit()
        print(regs[0].access_code)
''')


@pytest.fixture(scope="module")
def swap_server(live_server):
    """The live server with a started round whose players have sideboards; yields (url, access code)."""
    return live_server, live_server.run_script(SETUP).splitlines()[-1]


def _remaining(browser) -> int:
    from selenium.webdriver.common.by import By
    text = browser.find_element(By.ID, "swap-remaining").text
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def test_the_countdown_follows_the_server_deadline_across_reloads(swap_server, browser_factory):
    from selenium.webdriver.common.by import By
    url, code = swap_server
    browser = browser_factory(mobile=True, width=390, height=844)
    browser.get(f"{url}/p/{code}/swap")
    box = browser.find_element(By.ID, "swap-window")
    deadline = box.get_attribute("data-deadline")
    assert deadline
    first = _remaining(browser)
    assert 100 < first <= 150
    time.sleep(3.2)
    ticking = _remaining(browser)
    assert first - 5 <= ticking <= first - 2           # the page counts down by itself
    browser.refresh()
    assert browser.find_element(By.ID, "swap-window").get_attribute("data-deadline") == deadline
    after = _remaining(browser)
    assert after <= ticking and after < first - 2     # a reload does not reset it to the full 150 seconds
    # a second browser (another phone) sees the same deadline and the same time left
    other = browser_factory()
    other.get(f"{url}/p/{code}/swap")
    assert other.find_element(By.ID, "swap-window").get_attribute("data-deadline") == deadline
    assert abs(_remaining(other) - _remaining(browser)) <= 1
    # and the page swaps through the API
    pickers = browser.find_elements(By.CSS_SELECTOR, "#swap-form input[list]")
    pickers[0].send_keys("sol ring")                   # typed, in any case: the server matches the card
    browser.find_elements(By.CSS_SELECTOR, "#swap-side li[data-name] button")[0].click()   # or tapped
    assert pickers[1].get_attribute("value") == "Lightning Bolt"
    browser.find_element(By.ID, "swap-submit").click()
    for _ in range(50):
        if "Sol Ring → Lightning Bolt" in browser.page_source:
            break
        time.sleep(0.1)
    assert "Sol Ring → Lightning Bolt" in browser.page_source
    assert _remaining(browser) <= after


def test_the_swap_form_is_first_and_the_clock_stays_in_view(swap_server, browser_factory):
    """On a phone the form is on the first screen, the countdown stays visible while scrolling the 99 cards,
    and every card is a target a thumb can hit (44 px)."""
    from selenium.webdriver.common.by import By
    url, code = swap_server
    browser = browser_factory(mobile=True, width=390, height=844)
    browser.get(f"{url}/p/{code}/swap")
    assert browser.find_element(By.ID, "swap-form").rect["y"] < 844
    cards = browser.find_elements(By.CSS_SELECTOR, "li[data-zone] button")
    heights = {round(c.rect["height"]) for c in cards[:5] + cards[-5:]}
    assert min(heights) >= 44, heights
    # the keyboard's focus is drawn by the app, thick enough to see on the dark button
    from selenium.webdriver.common.keys import Keys
    picker = browser.find_element(By.CSS_SELECTOR, "#swap-form input[list]")
    picker.send_keys(Keys.TAB)
    focused = browser.switch_to.active_element
    assert focused.get_attribute("name") == "in"
    assert browser.execute_script("return getComputedStyle(arguments[0]).outlineWidth", focused) == "3px"
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    top = browser.execute_script("return document.getElementById('swap-countdown').getBoundingClientRect().top")
    assert 0 <= top < 844


CONTRAST = """
function lum(c) {
  var m = c.match(/[\\d.]+/g).map(Number);
  var ch = m.slice(0, 3).map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}
function background(node) {
  for (; node; node = node.parentElement) {
    var c = getComputedStyle(node).backgroundColor, m = c.match(/[\\d.]+/g);
    if (m && (m.length < 4 || Number(m[3]) > 0)) return c;
  }
  return "rgb(255, 255, 255)";
}
var node = arguments[0], a = lum(getComputedStyle(node).color), b = lum(background(node));
return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
"""


def test_the_deck_list_on_the_swap_page_is_readable(swap_server, browser_factory):
    """The card names are buttons styled as links: they must not take the header's white log-out link colour."""
    from selenium.webdriver.common.by import By
    url, code = swap_server
    browser = browser_factory(mobile=True, width=390, height=844)
    browser.get(f"{url}/p/{code}/swap")
    cards = browser.find_elements(By.CSS_SELECTOR, "li[data-zone] button.link")
    assert len(cards) > 60
    for card in (cards[0], cards[-1]):
        assert card.text and card.size["width"] > 0
        assert browser.execute_script(CONTRAST, card) >= 4.5, card.text      # WCAG AA for body text


def test_at_the_deadline_the_form_greys_out_and_says_why(live_server, browser_factory):
    """When the clock reaches 0 on the phone, the pickers and the button are disabled together and the reason
    shows, without a reload (the server refuses a late swap anyway)."""
    from selenium.webdriver.common.by import By
    code = live_server.run_script(SETUP.replace('"swap_seconds": 150', '"swap_seconds": 4')
                                  .replace("Swap night", "Short swap")).splitlines()[-1]
    browser = browser_factory(mobile=True, width=390, height=844)
    browser.get(f"{live_server}/p/{code}/swap")
    fields = browser.find_element(By.ID, "swap-fields")
    reason = browser.find_element(By.ID, "swap-closed-reason")
    assert fields.get_attribute("disabled") is None and not reason.is_displayed()
    for _ in range(80):
        if fields.get_attribute("disabled") is not None:
            break
        time.sleep(0.1)
    assert fields.get_attribute("disabled") is not None and reason.is_displayed()
    assert "no longer possible" in reason.text
    submit = browser.find_element(By.ID, "swap-submit")
    assert not submit.is_enabled()
    assert browser.execute_script("return getComputedStyle(arguments[0]).borderStyle", submit) == "dashed"
    if os.environ.get("SWAP_SCREENSHOT"):
        browser.save_screenshot(os.environ["SWAP_SCREENSHOT"])
