"""A phone's poll that finds nothing changed, answered before Flask.

Every open phone asks for its round box every few seconds with the ETag it holds. Flask answers such a poll
from caches (no database work), but the request still pays for Flask itself: the request context, the
session, the language, the hooks — about half a millisecond, most of a poll's cost once waitress has read it.

This WSGI layer remembers the 304s Flask gave: for the same path, cookie, language header, scheme and ETag,
the answer is the same for as long as the event's state version has not moved. So the next identical poll is
answered here when the worker's cached state version (tournament.web.lifecycle.state_version, refreshed
every STATE_VERSION_TTL seconds by any request) is still fresh and still the one the 304 was given for;
otherwise the request goes to Flask as before, which reads the version again and answers.

Only anonymous polls are remembered (no staff session: logging out must end what a copied cookie can see),
and never a response that sets a cookie.
"""
from __future__ import annotations

import threading
import time

ENVIRON_KEY = "tournament.poll_key"
ENVIRON_ANSWER = "tournament.poll_304"
LIMIT = 20_000              # remembered polls per worker (a hall of 2,000 phones, several tabs each)


class QuickNotModified:
    def __init__(self, wsgi_app, app):
        self.wsgi_app, self.app = wsgi_app, app
        self.kept: dict[tuple, tuple] = {}
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") != "GET" or not environ.get("HTTP_IF_NONE_MATCH"):
            return self.wsgi_app(environ, start_response)
        key = (environ.get("PATH_INFO"), environ.get("QUERY_STRING", ""), environ.get("HTTP_COOKIE", ""),
               environ.get("HTTP_ACCEPT_LANGUAGE", ""), environ.get("HTTP_IF_NONE_MATCH"), environ.get("wsgi.url_scheme"))
        hit = self.kept.get(key)
        if hit is not None and self.still_current(*hit[:3]):
            start_response("304 NOT MODIFIED", list(hit[3]))
            return []
        environ[ENVIRON_KEY] = key
        return self.wsgi_app(environ, self._remembering(environ, key, start_response))

    def still_current(self, event_id: int, version: int, period_end: float) -> bool:
        """The worker's cached version of the event is fresh and unchanged, and the ETag's period not over."""
        cached = self.app.extensions.get("state_versions", {}).get(event_id)
        if cached is None or cached[0] != version or time.time() >= period_end:
            return False
        return time.monotonic() - cached[1] < self.app.config.get("STATE_VERSION_TTL", 1.0)

    def _remembering(self, environ, key, start_response):
        def remember(status, headers, exc_info=None):
            answer = environ.get(ENVIRON_ANSWER)
            if (answer is not None and status.startswith("304") and exc_info is None
                    and not any(name.lower() == "set-cookie" for name, _ in headers)):
                with self._lock:
                    if len(self.kept) >= LIMIT:
                        self.kept.clear()
                    self.kept[key] = (*answer, tuple(headers))
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)
        return remember


def mark_not_modified(event_id: int | None, version: int, period_end: float) -> None:
    """Called by a polled view that answers 304 to an anonymous viewer: this answer may be given again before
    Flask while the event's version stays `version` (and the ETag's period lasts)."""
    from flask import request
    if event_id is not None and ENVIRON_KEY in request.environ:
        request.environ[ENVIRON_ANSWER] = (event_id, version, period_end)
