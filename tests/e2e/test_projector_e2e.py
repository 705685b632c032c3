"""The projector at 1920×1080 shows every table and every name, page by page, readable from the back."""
from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SETUP = textwrap.dedent('''
    import sys
    import sqlalchemy as sa
    from tournament import create_app
    from tournament.auth.models import User
    from tournament.events import operations as events
    from tournament.extensions import db
    from tournament.rounds import operations as rounds
    app = create_app()
    with app.app_context():
        olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
        first = ["Šárka", "山田", "Olga", "Mohammed", "Zoë", "Jan", "Ana", "Li"]
        last = ["Dvořáková", "太郎", "Novak", "Al-Rashid", "Müller", "Svoboda", "García", "Wei"]
        for players in map(int, sys.argv[1:]):
            event = events.create_event(olga, {"name": f"Projector {players}", "ruleset": "edh-2010"})
            for i in range(players):
                reg = events.register_player(event, {"name": f"{first[i % 8]} {last[i // 8 % 8]} {i}"}, user=olga)
                events.check_in(reg, olga)
            rnd = rounds.pair_next_round(event, olga, seed=5, override_decks=True)   # no decklists here
            rounds.publish_round(rnd, olga)
            rounds.start_round(rnd, olga)
            db.session.commit()
            print(event.id)
''')

VISIBLE = """
var box = document.querySelector(arguments[0] + " [data-pages]"), r = box.getBoundingClientRect();
return Array.prototype.filter.call(box.querySelectorAll(arguments[1]), function (node) {
  var q = node.getBoundingClientRect();
  return q.width > 0 && q.left >= r.left - 1 && q.right <= r.right + 1 && q.top >= r.top - 1 && q.bottom <= r.bottom + 1;
}).map(function (node) { return node.id || node.textContent.trim(); });
"""


@pytest.fixture(scope="module")
def projector_events(live_server):
    ids = live_server.run_script(SETUP, "64", "400").split()[-2:]
    return live_server, {64: ids[0], 400: ids[1]}


def _pages(browser, section: str, selector: str) -> tuple[list[set], int]:
    """What is wholly visible in a section on each of its pages, turning them with the arrow key."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    def attribute(name):             # the page swaps its box for a fresh copy when the server's changes
        return browser.execute_script("return document.querySelector(arguments[0]).getAttribute(arguments[1])",
                                      f"{section} [data-pages]", name)
    count = int(attribute("data-page-count"))
    seen = []
    for page in range(count):
        for _ in range(40):
            if attribute("data-page") == str(page % count):
                break
            time.sleep(0.05)
        time.sleep(0.1)
        seen.append(set(browser.execute_script(VISIBLE, section, selector)))
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    return seen, count


@pytest.mark.parametrize("players", [64, 400])
def test_every_table_and_every_name_is_on_some_page(projector_events, browser_factory, players):
    from selenium.webdriver.common.by import By
    url, events = projector_events
    browser = browser_factory(width=1920, height=1080)
    browser.get(f"{url}/events/{events[players]}/projector")
    every = "return Array.prototype.map.call(document.querySelectorAll(arguments[0]), function (e) { return e.id || e.textContent.trim(); });"
    tables = set(browser.execute_script(every, "#by-table li.projector-table"))
    names = set(browser.execute_script(every, "#by-name .name"))
    assert len(tables) == players // 4 and len(names) == players
    assert browser.execute_script("return document.documentElement.scrollHeight") <= 1080   # no scrolling

    table_pages, table_count = _pages(browser, "#by-table", "li.projector-table")
    name_pages, name_count = _pages(browser, "#by-name", ".name")
    assert set().union(*table_pages) == tables
    assert set().union(*name_pages) == names
    assert all(page for page in table_pages + name_pages)                   # no empty page
    if players == 400:
        assert table_count > 1 and name_count > 1
        heading = browser.find_element(By.CSS_SELECTOR, "#by-name [data-page-of]").text
        assert heading.startswith("page ") and heading.endswith(f"of {name_count}")
    size = browser.execute_script("return parseFloat(getComputedStyle(document.querySelector('#by-name .name')).fontSize)")
    assert size >= 24                                                       # readable from 5 m at 1080p
    assert browser.find_element(By.CSS_SELECTOR, ".projector-head [data-clock]").is_displayed()


def test_on_a_phone_the_projector_scrolls_instead(projector_events, browser_factory):
    from selenium.webdriver.common.by import By
    url, events = projector_events
    browser = browser_factory(mobile=True, width=390, height=844)
    browser.get(f"{url}/events/{events[64]}/projector")
    assert "paged" not in browser.find_element(By.TAG_NAME, "body").get_attribute("class")
    assert browser.execute_script("return document.documentElement.scrollHeight") > 844
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
