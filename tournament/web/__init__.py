"""The web plumbing every feature's views share: refusals rendered one way, JSON errors, the headers of every
response, pages that phones poll. Infrastructure: nothing here imports a feature.

Every refusal becomes a clear 4xx page or JSON message, never a 500 for bad
input. The request handler (tournament.web.handler) rolls a refused request
back and renders it as the view declared; what it does not render comes here
(error_response), and the lifecycle (tournament.web.lifecycle) commits once.
"""
from __future__ import annotations

import re
import time
from datetime import datetime, timezone
from functools import wraps

from flask import current_app, g, jsonify, render_template, request, session
from flask_babel import gettext as _, lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import HTTPException

from . import page_cache
from .not_modified import mark_not_modified
from ..errors import Refused
from ..extensions import db
from .handler import EXPIRED, form_error_text  # noqa: F401  (the pages' one wording of both)

OUT_OF_DATE = _l("This form is out of date: reload the page and try again.")


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def json_request() -> bool:
    return wants_json() or request.is_json


def json_error(message: str, status: int, field: str | None = None):
    """{"error": {"status", "message", "field"?}}: the one JSON refusal shape."""
    db.session.rollback()
    body = {"error": {"status": status, "message": str(message)}}
    if field:
        body["error"]["field"] = field
    return jsonify(body), status


def error_response(message: str, status: int, field: str | None = None):
    message = str(message)      # a lazy message (EXPIRED, lifecycle's) is read in this request's language
    if json_request():
        return json_error(message, status, field)
    db.session.rollback()
    return render_template("error.html", message=message, status=status), status


def json_fields() -> ImmutableMultiDict | None:
    """A fetch() body sent as JSON: an object of text fields, else refused. None: a form post."""
    if not request.is_json:
        return None
    body = request.get_json(silent=True)
    if body is None:
        if request.get_data(cache=True):
            raise Refused(_("The request body is not valid JSON."))
        return ImmutableMultiDict()
    if not isinstance(body, dict):
        raise Refused(_('Send a JSON object of fields, like {"notes": "…"}.'))
    for key, value in body.items():
        if value is not None and not isinstance(value, str):
            raise Refused(_("The field %(field)s must be text.", field=str(key)[:40]), field=str(key)[:40])
    return ImmutableMultiDict({str(k): v for k, v in body.items() if v is not None})


def register_error_handlers(app) -> None:
    @app.errorhandler(Refused)
    def refused(e: Refused):
        return error_response(e.message, e.status, e.field)

    @app.errorhandler(CSRFError)
    def csrf_error(e: CSRFError):
        return error_response(str(EXPIRED), 400)

    @app.errorhandler(RecursionError)
    def too_deep(e: RecursionError):
        return error_response(_("What you sent is nested too deeply to read."), 400)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        messages = {
            400: _("The request could not be read."),
            404: _("There is nothing at this address."),
            405: _("This address does not accept that kind of request."),
            413: _("What you sent is too large."),
            429: _("Too many requests; wait a moment and try again."),
        }
        response = error_response(messages.get(e.code, e.description or e.name), e.code or 500)
        if e.code == 405 and hasattr(e, "valid_methods") and e.valid_methods:
            response = app.make_response(response)
            response.headers["Allow"] = ", ".join(e.valid_methods)
        return response


CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
    "media-src 'self' blob:", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
))
_CODE_IN_PATH = re.compile(r"(/(?:p|players)/)([^/?#]+)")


def private_request() -> bool:
    """Staff pages (codes, contacts) and a player's own pages (keyed by their access code)."""
    path = request.path
    if path.startswith("/static/"):
        return False
    return g.get("user") is not None or path.startswith("/p/") or path.startswith("/api/v1/players/")


def security_headers(response):
    """On every response: no inline script, no framing, no MIME sniffing, no Referer off the site (so a
    player's page never hands its access code to another site); pages that show codes or contacts are never
    stored by a browser or proxy. The site's own forms do send the Referer back to it ("same-origin"): over
    HTTPS, Flask-WTF refuses a form post without one (WTF_CSRF_SSL_STRICT)."""
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    headers.setdefault("Permissions-Policy", "camera=(self), microphone=(), geolocation=()")
    if private_request():
        headers["Cache-Control"] = "no-store"
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response


def loggable_path(path: str) -> str:
    """A request path as logs may show it: an access code becomes a short hash of it."""
    from .throttle import log_code
    return _CODE_IN_PATH.sub(lambda m: m.group(1) + log_code(m.group(2)), path)


def register_health(app) -> None:
    @app.get("/favicon.ico")
    def favicon():
        """Browsers ask for /favicon.ico on every page whatever the page links: the app's icon (SVG)."""
        from flask import send_from_directory
        return send_from_directory(app.static_folder, "favicon.svg", mimetype="image/svg+xml", max_age=86400)

    @app.get("/healthz")
    def healthz():
        """For a monitor or a reverse proxy: 200 when the app can reach its database, else 503."""
        import sqlalchemy as sa
        try:
            db.session.execute(sa.text("SELECT 1"))
            return jsonify({"status": "ok", "database": "ok"})
        except sa.exc.SQLAlchemyError as e:
            db.session.rollback()
            return jsonify({"status": "unavailable", "database": "unreachable",
                            "message": str(getattr(e, "orig", e)).splitlines()[0][:200]}), 503


# ----------------------------------------------------------------- pages that open phones poll

VERSION_PERIOD = 1800          # a cached copy is re-sent at least every half hour (its form tokens age)


def _etag(version: int) -> str:
    """The page's version for this viewer, in this viewer's language (as the app's `page_language` hook, set by
    tournament.i18n, knows it without the database)."""
    language = current_app.extensions.get("page_language", lambda: "")()
    user = g.get("user")
    return (f"v{version}-u{user.id if user is not None else 0}-{language}"
            f"-t{int(time.time() // VERSION_PERIOD)}")


def whole_number(raw, digits: int = 6) -> int | None:
    """A query or form value that is a plain whole number (ASCII digits, at most `digits` of them), else None:
    the one reading of "table", "minutes", "player" in URLs and small forms."""
    raw = raw.strip() if isinstance(raw, str) else ""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= digits else None


def required_number(name: str, message: str, digits: int = 6) -> int:
    """whole_number of a request value, refused with `message` next to its field when it is not one."""
    value = whole_number(request.values.get(name), digits)
    if value is None:
        raise Refused(message, field=name)
    return value


def polled(version_of, shared: bool = False):
    """A page that phones and the projector poll. While the event's state version and the viewer are the
    same, a request with the page's ETag gets a 304 at the cost of one indexed read. `shared`: the page is
    the same for every visitor who is not logged in, so it is rendered once per change for all of them."""
    def decorate(view):
        @wraps(view)
        def wrapped(*args, **kwargs):
            g.pop("version_event", None)
            version = version_of(*args, **kwargs)
            if version is None:
                return view(*args, **kwargs)
            tag = _etag(version)
            period_end = (int(time.time() // VERSION_PERIOD) + 1) * VERSION_PERIOD
            if "_flashes" not in session and request.if_none_match.contains_weak(tag):
                if g.get("user") is None:
                    mark_not_modified(g.get("version_event"), version, period_end)
                response = current_app.response_class(status=304)
                response.set_etag(tag, weak=True)
                return response
            g.page_etag = f'W/"{tag}"'
            key = f"{request.endpoint}|{request.full_path}|{tag}" if shared and g.get("user") is None else None
            response = _cached(key) if key else None
            if response is None:
                response = current_app.make_response(view(*args, **kwargs))
                if key and response.status_code == 200 and "_flashes" not in session:
                    _remember(key, response)
            if response.status_code == 200:
                response.set_etag(tag, weak=True)
                response.headers.setdefault("Cache-Control", "no-cache")
                response.vary.update(("Accept-Language", "Cookie"))
                if g.get("user") is None and "_flashes" not in session:
                    mark_not_modified(g.get("version_event"), version, period_end, g.page_etag)
            return response
        return wrapped
    return decorate


def _cached(key):
    hit = page_cache.pages().get(key)
    if hit is None:
        return None
    body, headers = hit
    return current_app.response_class(_server_now(body), headers=headers)


_SERVER_NOW = re.compile(rb'data-server-now="[^"]*"')


def _server_now(body: bytes) -> bytes:
    """A page rendered earlier tells the round clock the server's time now, not when it was rendered."""
    now = datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z").encode()
    return _SERVER_NOW.sub(b'data-server-now="' + now + b'"', body)


def refresh_server_now(html: str) -> str:
    """_server_now for a rendered part kept as text (a pod's shared round box)."""
    return _server_now(html.encode()).decode()


def _remember(key, response) -> None:
    body = response.get_data()
    headers = [(k, v) for k, v in response.headers.items() if k.lower() not in ("content-length", "set-cookie")]
    page_cache.pages().put(key, body, headers)
