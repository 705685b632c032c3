"""Passwords under attack: one password sprayed over every staff name from one address, the account page's
"current password" guessed, and the account's own name plus a year as a password."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.web.test_rate_limits import ATTACKER, NEIGHBOUR, assert_slowed, client_at
from tournament.auth import operations as auth
from tournament.errors import Refused

PASSWORD = "correct horse battery"    # conftest.PASSWORD
NEW_PASSWORD = "lantern orchard seventeen"


def test_one_password_sprayed_over_many_names_is_slowed_per_address(app, db, make_user):
    """The audit's case: one password tried on 43 names from one address was never limited."""
    for i in range(3):
        make_user(f"Staff Member {i}", "judge")
    attacker = client_at(app, ATTACKER)
    statuses = [attacker.post("/auth/login", data={"name": f"Name {i:02d}", "password": "Summer2026!"}).status_code
                for i in range(10)]
    assert statuses == [401] * 10
    assert_slowed(attacker.post("/auth/login", data={"name": "Staff Member 0", "password": "Summer2026!"}),
                  "Too many wrong passwords from this network")
    # the right password from that address waits too: a slowed address learns nothing
    assert_slowed(attacker.post("/auth/login", data={"name": "Staff Member 1", "password": PASSWORD}),
                  "Too many wrong passwords")
    owner = client_at(app, NEIGHBOUR)
    assert owner.post("/auth/login", data={"name": "Staff Member 1", "password": PASSWORD}).status_code == 302


def test_a_browser_that_logged_in_before_is_not_locked_out_by_a_sprayer_behind_the_same_nat(app, db, organizer):
    venue = {"REMOTE_ADDR": "192.168.1.1"}
    desk, sprayer = client_at(app, venue), client_at(app, venue)
    assert desk.post("/auth/login", data={"name": organizer.name, "password": PASSWORD}).status_code == 302
    assert desk.post("/auth/logout").status_code == 302
    for i in range(12):
        sprayer.post("/auth/login", data={"name": f"Guess {i}", "password": "Summer2026!"})
    assert_slowed(sprayer.post("/auth/login", data={"name": "Guess", "password": "x"}), "Too many wrong passwords")
    assert desk.post("/auth/login", data={"name": organizer.name, "password": PASSWORD}).status_code == 302


def test_concurrent_sprays_are_stopped_near_the_limit(app, db):
    attacker = {"REMOTE_ADDR": "10.7.7.7"}

    def attempt(i):
        return client_at(app, attacker).post("/auth/login", data={"name": f"N{i}", "password": "p"}).status_code
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(attempt, range(40)))
    assert statuses.count(429) >= 40 - 10 - 8         # at most one try per thread past the count


def test_the_current_password_on_the_account_page_cannot_be_guessed_without_limit(app, client, db, organizer,
                                                                                   login):
    login(organizer)
    for i in range(5):
        response = client.post("/auth/account", data={"current": f"guess number {i}", "password": NEW_PASSWORD,
                                                      "repeat": NEW_PASSWORD})
        assert response.status_code == 400 and "current password is not right" in response.get_data(as_text=True)
    right = client.post("/auth/account", data={"current": PASSWORD, "password": NEW_PASSWORD,
                                               "repeat": NEW_PASSWORD})
    assert_slowed(right, "Too many wrong current passwords")
    other_browser = app.test_client()       # the limit is the account's: another browser waits as well
    other_browser.post("/auth/login", data={"name": organizer.name, "password": PASSWORD})
    assert other_browser.post("/auth/account", data={"current": PASSWORD, "password": NEW_PASSWORD,
                                                     "repeat": NEW_PASSWORD}).status_code == 429
    assert organizer.check_password(PASSWORD)


def test_a_right_current_password_clears_the_count(app, client, db, organizer, login):
    login(organizer)
    for i in range(4):
        client.post("/auth/account", data={"current": f"guess {i}", "password": NEW_PASSWORD, "repeat": NEW_PASSWORD})
    assert client.post("/auth/account", data={"current": PASSWORD, "password": NEW_PASSWORD,
                                              "repeat": NEW_PASSWORD}).status_code == 302
    for i in range(4):
        assert client.post("/auth/account", data={"current": f"guess {i}", "password": PASSWORD,
                                                  "repeat": PASSWORD}).status_code == 400


@pytest.mark.parametrize("name, password", [
    ("Jan Judge", "Jan Judge-2027"),
    ("Jan Judge", "janjudge-2027"),
    ("Jan Judge", "JanJudge2027!"),
    ("Jan Judge", "JUDGE!!2027##"),
    ("Olga Organizer", "OlgaOrganizer-2027"),
    ("Olga Organizer", "organizer-2027"),
    ("Olga Organizer", "Olga-20272027"),
    ("scorekeeper", "scorekeeper-2027"),
    ("Kateřina Nováková", "Kateřina-2027"),
    ("Kateřina Nováková", "nováková 123456"),
])
def test_the_account_name_plus_digits_or_a_year_is_refused(db, name, password):
    with pytest.raises(Refused) as refused:
        auth.create_user(name, password, "judge")
    assert "your name" in refused.value.message or "too easy" in refused.value.message


@pytest.mark.parametrize("name, password", [
    ("Jan Judge", "lantern orchard seventeen"),
    ("Jan Judge", "Jan says lantern orchard"),      # the name beside enough words of its own
    ("Olga Organizer", "correct horse battery"),
])
def test_strong_passwords_still_pass(db, name, password):
    auth.create_user(name, password, "judge")
