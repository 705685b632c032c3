"""TRUSTED_PROXIES and TRUSTED_PROXY_ADDRESS, read alike by waitress (tournament.serve) and the app (ProxyFix);
through the real server: tests/served/test_behind_a_proxy.py."""
from __future__ import annotations

import pytest

from tournament import create_app
from tournament.config import TestingConfig
from tournament.web import proxy


def _app(tmp_path, **settings):
    class Proxied(TestingConfig):
        SQLALCHEMY_DATABASE_URI = f"sqlite:///{tmp_path / 'p.sqlite'}"
        INSTANCE_PATH = str(tmp_path)
    for k, v in settings.items():
        setattr(Proxied, k, v)
    return create_app(Proxied)


def test_waitress_gets_the_same_trust_as_the_app():
    assert proxy.waitress_options({"TRUSTED_PROXIES": 0}) == {}
    assert proxy.waitress_options({"TRUSTED_PROXIES": 2, "TRUSTED_PROXY_ADDRESS": "10.0.0.2"}) == {
        "trusted_proxy": "10.0.0.2", "trusted_proxy_count": 2,
        "trusted_proxy_headers": "x-forwarded-for x-forwarded-host x-forwarded-proto x-forwarded-port"}
    assert proxy.waitress_options({"TRUSTED_PROXIES": 1})["trusted_proxy"] == "127.0.0.1"
    assert proxy.settings({"TRUSTED_PROXIES": "junk"}) == (0, "")


def test_the_environment_sets_both(monkeypatch):
    from tournament.config import Config
    monkeypatch.setenv("TRUSTED_PROXIES", "1")
    monkeypatch.setenv("TRUSTED_PROXY_ADDRESS", "10.0.0.9")
    assert {k: v for k, v in Config.from_env().items() if k.startswith("TRUSTED")} == {
        "TRUSTED_PROXIES": 1, "TRUSTED_PROXY_ADDRESS": "10.0.0.9"}
    from tournament.serve import proxy_line
    assert "10.0.0.9" in proxy_line()


@pytest.mark.parametrize("peer, trusted", [("127.0.0.1", True), ("192.168.1.50", False)])
def test_forwarded_headers_count_only_from_the_proxys_address(tmp_path, peer, trusted):
    app = _app(tmp_path, TRUSTED_PROXIES=1)
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = peer
    response = client.get("/healthz", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"})
    assert ("Strict-Transport-Security" in response.headers) is trusted


def test_a_session_cookie_set_over_https_is_secure_without_an_https_public_url(tmp_path):
    app = _app(tmp_path, TRUSTED_PROXIES=1, WTF_CSRF_ENABLED=True)     # the form's token starts a session
    assert not app.config.get("SESSION_COOKIE_SECURE")
    client = app.test_client()
    over_https = client.get("/auth/login", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in over_https.headers["Set-Cookie"]
    plain = app.test_client().get("/auth/login")
    assert "Secure" not in plain.headers["Set-Cookie"]
