"""A move after publishing reaches an open phone (issue 26 item 2), in a real browser: a player's page is open on
a phone, the organizer moves that player to another table and seat from the round page, and the phone shows the
new table within 5 seconds without being reloaded. Runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL
is set (a schema of its own, dropped afterwards)."""
from __future__ import annotations

import os
import secrets
import time

import pytest
import sqlalchemy as sa
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.e2e.conftest import STAFF_PASSWORD, serve

PHONE = (390, 844)
LAPTOP = (1280, 900)
PG_URL = os.environ.get("TEST_DATABASE_URL", "")

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
    event = ev.create_event(olga, {"name": "Seating night", "ruleset": "edh-2010"})
    regs = [ev.register_player(event, {"name": f"Player {i}"}, user=olga) for i in range(1, 9)]
    for r in regs:
        ev.check_in(r, olga)
    rnd = ro.pair_next_round(event, olga, seed=4, override_decks=True)
    ro.publish_round(rnd, olga)
    db.session.commit()
    mover = rnd.tables[0].seats[0].registration
    print(json.dumps({"event": event.id, "code": mover.access_code, "mover": mover.id, "name": mover.name}))
"""


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    """The live server on SQLite, and (with TEST_DATABASE_URL) on a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        with serve(tmp_path_factory.mktemp("seating")) as live:
            yield live
        return
    if not PG_URL.startswith("postgresql"):
        pytest.skip("TEST_DATABASE_URL is not a PostgreSQL database")
    engine = sa.create_engine(PG_URL)
    schema = f"e2e_seating_{secrets.token_hex(4)}"
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = sa.engine.make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        with serve(tmp_path_factory.mktemp("seating-pg"),
                   DATABASE_URL=url.render_as_string(hide_password=False)) as live:
            yield live
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


def wait(browser, check, timeout=10):
    return WebDriverWait(browser, timeout, ignored_exceptions=(WebDriverException,)).until(lambda b: check())


def your_table(phone) -> str:
    found = phone.find_elements(By.ID, "your-table")
    return found[0].text.replace("\xa0", " ") if found else ""


def test_a_move_after_publishing_reaches_the_open_phone(server, browser_factory):
    data = server.prepare(SETUP)
    phone = browser_factory(*PHONE, mobile=True)
    phone.get(f"{server}/p/{data['code']}")
    wait(phone, lambda: "Table 1 · seat 1" in your_table(phone))

    staff = browser_factory(*LAPTOP)
    staff.get(server + "/auth/login")
    staff.find_element(By.NAME, "name").send_keys("Olga")
    staff.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD, Keys.ENTER)
    wait(staff, lambda: staff.current_url.endswith("/events"))
    staff.get(f"{server}/events/{data['event']}/rounds/1")
    form = staff.find_element(By.ID, "move")
    Select(form.find_element(By.NAME, "move-player")).select_by_value(str(data["mover"]))
    form.find_element(By.NAME, "move-table").send_keys("2")
    form.find_element(By.NAME, "move-seat").send_keys("3")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(staff, lambda: staff.current_url.endswith("#table-2"))
    moved_at = time.monotonic()
    flashes = " ".join(e.text for e in staff.find_elements(By.CSS_SELECTOR, "p.flash"))
    assert f"{data['name']} moved to table 2." in flashes
    assert "moved" in staff.find_element(By.ID, "why").text

    # the phone was never reloaded: its page asks for the round every few seconds
    wait(phone, lambda: "Table 2 · seat 3" in your_table(phone), timeout=8)
    elapsed = time.monotonic() - moved_at
    print(f"the phone showed the move {elapsed:.1f} s after it was stored")
    assert elapsed <= 5.0, f"the phone showed the move after {elapsed:.1f} s"
    assert phone.current_url.endswith(f"/p/{data['code']}")
