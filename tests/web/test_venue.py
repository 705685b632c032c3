"""At the venue: links from the configured public URL, /healthz, and scripts/run's production server."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.conftest import REPO
from tournament import create_app
from tournament.config import TestingConfig


def test_player_links_use_the_public_url_not_the_host_header(app, client, db, make_event, make_player):
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    event = make_event(name="LAN night")
    reg = make_player(event, "Ada")
    page = client.get(f"/p/{reg.access_code}/receipt", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert f"http://192.168.1.20:5000/p/{reg.access_code}" in page
    assert "evil.example" not in page


def test_healthz_answers_with_the_database_state(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok", "database": "ok"}


def test_healthz_is_503_when_the_database_is_unreachable(tmp_path):
    class Down(TestingConfig):
        SQLALCHEMY_DATABASE_URI = "postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=1"
        INSTANCE_PATH = str(tmp_path)
    app = create_app(Down)
    response = app.test_client().get("/healthz")
    assert response.status_code == 503 and response.get_json()["database"] == "unreachable"
    page = app.test_client().get("/events/1/register")
    assert page.status_code == 503 and "database cannot be reached" in page.get_data(as_text=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_scripts_run_serves_with_waitress_on_the_lan_address(tmp_path):
    """The command scripts/run ends with, on HOST=0.0.0.0: a production server, not Werkzeug's."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'venue.sqlite'}", "SECRET_KEY": "venue",
           "INSTANCE_PATH": str(tmp_path), "HOST": "0.0.0.0", "PORT": str(_free_port()),
           "PUBLIC_URL": "http://10.1.2.3:5999"}
    env.pop("TEST_DATABASE_URL", None)
    subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "db", "upgrade"], env=env, cwd=REPO,
                   check=True, capture_output=True)
    proc = subprocess.Popen([sys.executable, "-m", "tournament.serve"], env=env, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{env['PORT']}"
        for _ in range(100):
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
                    body, server = r.read(), r.headers.get("Server")
                break
            except OSError:
                assert proc.poll() is None, proc.stdout.read().decode()
                time.sleep(0.1)
        else:
            pytest.fail("the server did not answer")
        assert json.loads(body) == {"status": "ok", "database": "ok"}
        assert server == "edh-tournament"          # waitress's ident; Werkzeug would say Werkzeug/x
    finally:
        proc.terminate()
        out = proc.communicate(timeout=10)[0].decode()
    assert "with waitress" in out and "http://10.1.2.3:5999" in out


def test_lan_mode_prints_a_qr_code_of_the_player_url():
    from tournament.serve import parse_args, public_url_for, terminal_qr
    args = parse_args(["--lan", "--port", "5001"])
    saved = os.environ.pop("PUBLIC_URL", None)
    try:
        assert public_url_for(args, ["192.168.1.20"]) == "http://192.168.1.20:5001"
    finally:
        if saved is not None:
            os.environ["PUBLIC_URL"] = saved
    qr = terminal_qr("http://192.168.1.20:5001/")
    assert len(qr.splitlines()) > 10 and set(qr) <= set("█▀▄ \xa0\n")


def test_behind_an_https_proxy_cookies_are_secure_and_hsts_is_sent(tmp_path):
    class Proxied(TestingConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{tmp_path / 'p.sqlite'}"
        INSTANCE_PATH = str(tmp_path)
        PUBLIC_URL = "https://edh.local"
        TRUSTED_PROXIES = 1
    app = create_app(Proxied)
    client = app.test_client()
    response = client.get("/healthz", headers={"X-Forwarded-Proto": "https", "X-Forwarded-Host": "edh.local"})
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert app.config["SESSION_COOKIE_SECURE"] is True
    plain = client.get("/healthz")
    assert "Strict-Transport-Security" not in plain.headers


def test_without_a_trusted_proxy_forwarded_headers_are_ignored(client, db):
    response = client.get("/healthz", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in response.headers
