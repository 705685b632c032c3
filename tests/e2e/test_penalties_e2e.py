"""A judge gives a game loss from the round page in a real browser, and the standings show it: the player is out
of that pod's game (no points, a loss) and marked; on SQLite, and on PostgreSQL with TEST_DATABASE_URL."""
from __future__ import annotations

import textwrap

import pytest

from tests.e2e.conftest import STAFF_PASSWORD, serve_fresh

SETUP = textwrap.dedent('''
    import json
    import sqlalchemy as sa
    from tournament import create_app
    from tournament.auth.models import User
    from tournament.events import operations as events
    from tournament.extensions import db
    from tournament.rounds import operations as rounds
    app = create_app()
    with app.app_context():
        olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
        event = events.create_event(olga, {"name": "Penalty night", "ruleset": "edh-2010", "scoring_profile": "cedh"})
        names = ["Šárka Dvořáková", "山田太郎", "<b>Bold</b> Bob", "Zoë Müller", "Jan Svoboda", "Ana García",
                 "Li Wei", "Mohammed Al-Rashid"]
        for name in names:
            events.check_in(events.register_player(event, {"name": name}, user=olga), olga)
        rnd = rounds.pair_next_round(event, olga, seed=5, override_decks=True)
        rounds.publish_round(rnd, olga)
        rounds.start_round(rnd, olga)
        db.session.commit()
        table = rnd.tables[0]
        late = table.seats[0].registration
        print(json.dumps({"event": event.id, "table": table.number, "late": late.id, "late_name": late.name}))
''')

REPORT = textwrap.dedent('''
    import sys
    from tournament import create_app
    from tournament.auth.models import User
    from tournament.events import operations as events
    from tournament.extensions import db
    from tournament.rounds import operations as rounds
    import sqlalchemy as sa
    app = create_app()
    with app.app_context():
        olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
        event = events.get_event(int(sys.argv[1]))
        rnd = rounds.get_round(event, 1)
        for t in rnd.tables:
            rounds.report_pod_result(t, [t.seats[0].registration_id], user=olga)   # seat 1 won each pod
        db.session.commit()
''')


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The server on a fresh database: PostgreSQL (a new database on TEST_DATABASE_URL's server) or SQLite."""
    with serve_fresh(tmp_path_factory.mktemp("penalties"), "pen") as live:
        yield live


def test_a_game_loss_given_in_the_browser_shows_in_the_standings(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.ui import WebDriverWait

    data = server.prepare(SETUP)
    browser.get(server + "/auth/login")
    browser.find_element(By.NAME, "name").send_keys("Olga")
    browser.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD, Keys.ENTER)
    WebDriverWait(browser, 10).until(lambda b: b.current_url.endswith("/events"))

    browser.get(f"{server}/events/{data['event']}/rounds/1")
    browser.find_element(By.ID, "give-penalty").click()
    WebDriverWait(browser, 10).until(lambda b: "/penalties" in b.current_url)
    assert browser.find_element(By.ID, "round").get_attribute("value") == "1"
    Select(browser.find_element(By.ID, "registration_id")).select_by_visible_text(data["late_name"])
    Select(browser.find_element(By.ID, "infraction")).select_by_visible_text("Tardiness")
    browser.find_element(By.ID, "note").send_keys("Arrived 11 minutes after the round started.")
    browser.find_element(By.ID, "give").click()
    WebDriverWait(browser, 10).until(lambda b: "Recorded: Game loss for" in b.page_source)
    log = browser.find_element(By.ID, "penalty-log").text
    assert data["late_name"] in log and "Tardiness" in log and f"table {data['table']}" in log

    browser.get(f"{server}/events/{data['event']}/rounds/1")
    section = browser.find_element(By.ID, "penalties").text
    assert data["late_name"] in section and "Game loss" in section

    server.run_script(REPORT, str(data["event"]))          # the pod reported the late player as its winner
    browser.get(f"{server}/events/{data['event']}/standings")
    row = browser.find_element(By.ID, f"standing-{data['late']}")
    cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
    assert "1 penalty loss" in cells[1]
    assert cells[2] == "0"                                  # no points for the game they "won"
    assert "0-1-0" in row.text
    assert "<b>Bold</b> Bob" in browser.find_element(By.ID, "standings").text     # a name is text, not markup
    assert not browser.find_elements(By.CSS_SELECTOR, "#standings td.name b")
