"""Behind a reverse proxy (Caddy, nginx, HAProxy): the real client address and scheme, from the proxy only.

TRUSTED_PROXIES (how many proxies stand in front) and TRUSTED_PROXY_ADDRESS (the address the nearest one
connects from: 127.0.0.1 for a proxy on the same machine, "*" for any) are read the same way by both places
that apply X-Forwarded-*:

- the real server (tournament.serve): waitress is given trusted_proxy, trusted_proxy_count and
  trusted_proxy_headers, so it applies the headers itself and drops them from anyone else (waitress 3 drops
  untrusted forwarded headers by default: without these settings every phone was the proxy's 127.0.0.1);
- the app (this middleware, for any other WSGI server and the test client): Werkzeug's ProxyFix, applied
  only to a request whose peer is that address; from anyone else the headers are removed.

Under waitress the two agree: waitress keeps only the last TRUSTED_PROXIES entries of X-Forwarded-For, and
ProxyFix reading them again finds the same client.
"""
from __future__ import annotations

from werkzeug.middleware.proxy_fix import ProxyFix

FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT",
             "HTTP_X_FORWARDED_PREFIX", "HTTP_FORWARDED")
WAITRESS_HEADERS = "x-forwarded-for x-forwarded-host x-forwarded-proto x-forwarded-port"
DEFAULT_ADDRESS = "127.0.0.1"


def settings(config) -> tuple[int, str]:
    """(how many proxies, the nearest one's address) from the app's settings; (0, "") when none."""
    try:
        count = max(0, min(int(config.get("TRUSTED_PROXIES") or 0), 10))
    except (TypeError, ValueError):
        count = 0
    address = str(config.get("TRUSTED_PROXY_ADDRESS") or DEFAULT_ADDRESS).strip()
    return (count, address) if count else (0, "")


def waitress_options(config) -> dict:
    """waitress.serve's keyword arguments for these settings: none without a proxy (waitress then drops
    every X-Forwarded-* header, so nobody can claim another address)."""
    count, address = settings(config)
    if not count:
        return {}
    return {"trusted_proxy": address, "trusted_proxy_count": count, "trusted_proxy_headers": WAITRESS_HEADERS}


class TrustedProxies:
    """WSGI middleware: ProxyFix for requests from the trusted proxy; forwarded headers removed from others."""

    def __init__(self, app, count: int, address: str):
        self.app = app
        self.address = address
        self.fixed = ProxyFix(app, x_for=count, x_proto=count, x_host=count, x_port=count)

    def __call__(self, environ, start_response):
        if self.address == "*" or environ.get("REMOTE_ADDR") == self.address:
            return self.fixed(environ, start_response)
        for key in FORWARDED:
            environ.pop(key, None)
        return self.app(environ, start_response)
