"""Links that leave the page (player links, the registration link, QR codes on paper): built from the address
phones open, never from the Host header a request sends.

The address, the first one known:
1. PUBLIC_URL, the server's configuration (a store's server behind its proxy): nobody changes it from a page;
2. the address staff set on an event's print page (stored with the event; `stored`);
3. the address the server found when it started (tournament.serve: the laptop's LAN address with --lan, else
   where it listens, e.g. http://127.0.0.1:5000): DETECTED_URL.
With none of them (a test client, `flask run`), a link is the path alone ("/p/CODE"), which works on the page
that shows it and nowhere else.

A document with a QR code (the poster, the receipts) refuses an address only this computer can open (loopback:
127.x in any spelling, 2130706433, [::1], localhost) or no computer (unspecified: 0.0.0.0, [::]).
"""
from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from flask import current_app, has_request_context, url_for
from flask_babel import gettext as _

from ..errors import Refused

MAX_LENGTH = 200


def configured() -> str | None:
    """PUBLIC_URL: set by whoever runs the server; it wins over any address typed on a page."""
    public = current_app.config.get("PUBLIC_URL")
    return str(public).rstrip("/") if public else None


def detected() -> str | None:
    found = current_app.config.get("DETECTED_URL")
    return str(found).rstrip("/") if found else None


def base(stored: str | None = None) -> str | None:
    """The address links start with (see the module's docstring); None: no address is known."""
    return configured() or (stored.rstrip("/") if stored else None) or detected()


def path(endpoint: str, **values) -> str:
    """The link's path on this server, with or without a request."""
    if has_request_context():
        return url_for(endpoint, _external=False, **values)
    with current_app.test_request_context("/"):
        return url_for(endpoint, _external=False, **values)


def external(start: str | None, endpoint: str, **values) -> str:
    """`start` + the endpoint's path; the path alone when no address is known."""
    return (start or "") + path(endpoint, **values)


def _ip(host: str):
    """The IP address a host names as browsers read it (2130706433, 0x7f.1 and 127.1 are 127.0.0.1); None: a
    name."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        try:
            ip = ipaddress.IPv4Address(socket.inet_aton(host))
        except (OSError, ValueError):
            return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip


def host_kind(host: str | None) -> str | None:
    """'loopback' (only this computer), 'unspecified' (no computer), or None: other phones may reach it."""
    name = (host or "").strip().rstrip(".").lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    if not name:
        return "unspecified"
    if name == "localhost" or name.endswith(".localhost"):
        return "loopback"
    ip = _ip(name)
    if ip is None:
        return None
    if ip.is_loopback:
        return "loopback"
    if ip.is_unspecified or ip.is_multicast or (ip.version == 4 and (ip in ipaddress.ip_network("0.0.0.0/8")
                                                                    or ip == ipaddress.IPv4Address("255.255.255.255"))):
        return "unspecified"
    return None


def _host_of(url: str) -> str:
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""


def reachable(url: str | None) -> bool:
    """Other phones may open what this address starts (an address is known, not loopback, not unspecified)."""
    return bool(url) and host_kind(_host_of(url)) is None


def reachable_or_refuse(url: str | None) -> str:
    """The address, when phones can open what it starts; refused (409) with what to do otherwise."""
    if not url:
        raise Refused(_("QR codes on paper need the address phones open: set it on the event's print page, start "
                        "with --lan, or set PUBLIC_URL (e.g. http://192.168.1.20:5000)."), status=409)
    if host_kind(_host_of(url)) is not None:
        raise Refused(_("The QR codes would point at %(url)s, which only this computer can open: set the address "
                        "phones use on the event's print page, start with --lan, or set PUBLIC_URL.", url=url),
                      status=409)
    return url


def clean_address(value, field: str = "public_url") -> str | None:
    """An address typed on a print page or sent to the API: http(s)://host[:port], nothing after it; empty: None
    (the detected address). Refused in words: another scheme, a path, a user name, an address only this
    computer (or none) could open."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise Refused(_("The address must be text, like http://192.168.1.20:5000."), field=field)
    text = value.strip().rstrip("/")
    if not text:
        return None
    if len(text) > MAX_LENGTH or any(not ch.isprintable() or ch.isspace() for ch in text):
        raise Refused(_("Type the address phones open, like http://192.168.1.20:5000 (at most %(limit)s "
                        "characters, no spaces).", limit=MAX_LENGTH), field=field)
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise Refused(_("Type the address phones open, like http://192.168.1.20:5000."), field=field) from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username is not None \
            or parts.password is not None or parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        raise Refused(_("Type only the address phones open, like http://192.168.1.20:5000: http or https, the "
                        "computer's address and its port, nothing after it."), field=field)
    kind = host_kind(parts.hostname)
    if kind is not None:
        raise Refused(_("%(host)s is an address only this computer (or none) can open; type the address phones "
                        "use, like http://192.168.1.20:5000.", host=parts.hostname), field=field)
    host = parts.hostname
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")
