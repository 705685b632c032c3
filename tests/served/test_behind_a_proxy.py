"""The audit's reproductions through the real server behind the README's HTTPS proxy: one phone's wrong
passwords locked the desk out, one phone's wrong codes locked other phones out, and no HSTS was sent, because
waitress dropped X-Forwarded-* before the app saw them."""
from __future__ import annotations

import pytest

from tests.conftest import PG_URL
from tests.served.conftest import CSRF, PASSWORD, log_in

pytestmark = pytest.mark.skipif(bool(PG_URL), reason="the laptop's server on SQLite; run in the SQLite pass")

WRONG = "not the password at all"


def test_one_phones_wrong_passwords_do_not_lock_the_desk_out(behind_proxy):
    phone = behind_proxy.phone("203.0.113.10")
    statuses = [log_in(phone, "Olga Organizer", f"{WRONG} {i}").status_code for i in range(6)]
    assert statuses == [401] * 5 + [429]
    desk = behind_proxy.phone("203.0.113.20")
    response = log_in(desk, "Olga Organizer")
    assert response.status_code == 302, response.text[:300]


def test_one_phones_wrong_codes_do_not_lock_other_phones_out(behind_proxy):
    guesser = behind_proxy.phone("203.0.113.30")
    statuses = [guesser.get(f"/p/WRONG{i:03d}").status_code for i in range(21)]
    assert statuses[:20] == [404] * 20 and statuses[20] == 429
    player = behind_proxy.phone("203.0.113.31")
    assert player.get(f"/p/{behind_proxy.people['codes'][0]}").status_code == 200


def test_the_address_the_proxy_reports_is_the_one_limited(behind_proxy):
    """With two proxies' worth of X-Forwarded-For, only the entry the nearest proxy added counts: a phone cannot
    pick a fresh address for each guess by writing its own header."""
    statuses = []
    for i in range(22):
        phone = behind_proxy.phone(f"198.51.100.{i}, 203.0.113.40")   # the client's claim, then the proxy's
        statuses.append(phone.get(f"/p/SPOOF{i:03d}").status_code)
    assert statuses[-1] == 429


def test_https_through_the_proxy_gets_hsts_and_a_secure_cookie(behind_proxy):
    secure = behind_proxy.phone("203.0.113.50", https=True)
    response = secure.get("/healthz")
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    page = secure.get("/auth/login")
    first = page.headers["Set-Cookie"]
    assert "Secure" in first and "HttpOnly" in first       # even the anonymous session's cookie
    # the proxy talks plain HTTP to the app: send the cookie as the browser sent it to the proxy over HTTPS
    cookie = first.split(";", 1)[0]
    token = CSRF.search(page.text).group(1)
    login = secure.post("/auth/login", data={"csrf_token": token, "name": "Jan Judge", "password": PASSWORD},
                        headers={"Cookie": cookie})
    assert login.status_code == 302, login.text[:300]
    assert "Secure" in login.headers["Set-Cookie"]
    plain = behind_proxy.phone("203.0.113.51")
    assert "Strict-Transport-Security" not in plain.get("/healthz").headers


def test_without_a_proxy_forwarded_headers_are_ignored(no_proxy):
    """Nothing in front: a phone claiming another address or HTTPS is not believed."""
    assert "Strict-Transport-Security" not in no_proxy.phone("203.0.113.60", https=True).get("/healthz").headers
    statuses = [no_proxy.phone(f"198.51.100.{i}").get(f"/p/NOPE{i:03d}").status_code for i in range(21)]
    assert statuses[-1] == 429            # every request is 127.0.0.1, whatever it claims


class HttpsBrowser:
    """A browser on https://… behind the proxy, as the app sees it over the proxy's plain HTTP: it keeps its
    Secure cookie itself, and sends a Referer only as each page's Referrer-Policy allows."""

    def __init__(self, served, address):
        self.http = served.phone(address, https=True)
        self.http.headers.pop("Referer", None)
        self.origin = served.url.replace("http://", "https://")
        self.cookie = ""
        self.policy = {}

    def _keep(self, response):
        for value in response.headers.get_list("Set-Cookie"):
            if value.startswith("session="):
                assert "Secure" in value, value
                self.cookie = value.split(";", 1)[0]
        return response

    def get(self, path):
        response = self._keep(self.http.get(path, headers={"Cookie": self.cookie}))
        self.policy[path] = response.headers.get("Referrer-Policy", "strict-origin-when-cross-origin")
        return response

    def post_form(self, page, path, **fields):
        """Open `page`, then submit its form to `path` (same origin)."""
        token = CSRF.search(self.get(page).text).group(1)
        headers = {"Cookie": self.cookie}
        if self.policy[page] != "no-referrer":
            headers["Referer"] = self.origin + page
        return self._keep(self.http.post(path, data={"csrf_token": token, **fields}, headers=headers))


def test_staff_forms_work_over_https_through_the_proxy(behind_proxy):
    """Once the app knows a request came over HTTPS, Flask-WTF wants a same-site Referer on every form post:
    the pages must let the browser send one (staff pages said "no-referrer", which would refuse them all)."""
    desk = HttpsBrowser(behind_proxy, "203.0.113.70")
    login = desk.post_form("/auth/login", "/auth/login", name="Olga Organizer", password=PASSWORD)
    assert login.status_code == 302, login.text[:300]
    event, reg = behind_proxy.people["event"], behind_proxy.people["regs"][0]
    checked = desk.post_form(f"/events/{event}/desk", f"/events/{event}/registrations/{reg}/checkin")
    assert checked.status_code in (200, 302), checked.text[:300]
    out = desk.post_form("/events", "/auth/logout")
    assert out.status_code == 302 and out.headers["Location"].endswith("/auth/login")
