"""A phone's poll that finds nothing changed, answered before Flask.

Every open phone asks for its round box every few seconds with the ETag it holds. Flask answers such a poll
from caches (no database work), but the request still pays for Flask itself: the request context, the
session, the language, the hooks — about half a millisecond, most of a poll's cost once waitress has read it.

This WSGI layer remembers the 304s Flask gave: for the same path, cookie, language header, scheme and ETag,
the answer is the same for as long as the event's state version has not moved. So the next identical poll is
answered here when the worker's cached state version (tournament.web.lifecycle.state_version, refreshed
every STATE_VERSION_TTL seconds by any request) is still fresh and still the one the 304 was given for;
otherwise the request goes to Flask as before, which reads the version again and answers.

A page or box Flask renders (200) for such a viewer is remembered the same way, as the 304 its next poll with
the new ETag will get: at a round start every phone fetches its new box and polls again 3 s later with its new
ETag, and that first poll no longer goes through Flask (2,000 requests of a hall's burst).

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
        if environ.get("REQUEST_METHOD") != "GET":
            return self.wsgi_app(environ, start_response)
        key = poll_key(environ, environ.get("HTTP_IF_NONE_MATCH", ""))
        hit = self._current(key)
        if hit is not None:
            start_response("304 NOT MODIFIED", list(hit[3]))
            return []
        environ[ENVIRON_KEY] = key
        return self.wsgi_app(environ, self._remembering(environ, key, start_response))

    def answers(self, environ) -> bool:
        """Whether this request would get a remembered 304 now (the lanes ask it of a request waitress has
        queued, tournament.web.lanes.environ_of, and serve it ahead of the renders)."""
        return (environ.get("REQUEST_METHOD") == "GET"
                and self._current(poll_key(environ, environ.get("HTTP_IF_NONE_MATCH", ""))) is not None)

    def _current(self, key):
        """The remembered 304 for this poll, while it still holds (None: Flask answers)."""
        hit = self.kept.get(key) if key[4] else None
        return hit if hit is not None and self.still_current(*hit[:3]) else None

    def still_current(self, event_id: int, version: int, period_end: float) -> bool:
        """The worker's cached version of the event is fresh and unchanged, and the ETag's period not over."""
        cached = self.app.extensions.get("state_versions", {}).get(event_id)
        if cached is None or cached[0] != version or time.time() >= period_end:
            return False
        return time.monotonic() - cached[1] < self.app.config.get("STATE_VERSION_TTL", 0.5)

    def _remembering(self, environ, key, start_response):
        def remember(status, headers, exc_info=None):
            answer = environ.get(ENVIRON_ANSWER)
            if (answer is not None and exc_info is None
                    and not any(name.lower() == "set-cookie" for name, _ in headers)):
                if status.startswith("304"):
                    self._keep(key, answer, headers)
                elif status.startswith("200") and len(answer) > 3:        # its next poll carries the new ETag
                    self._keep(key[:4] + (answer[3],) + key[5:], answer[:3],
                               [(k, v) for k, v in headers if k.lower() not in ENTITY_HEADERS])
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)
        return remember

    def _keep(self, key, answer, headers) -> None:
        with self._lock:
            if len(self.kept) >= LIMIT:
                self.kept.clear()
            self.kept[key] = (*answer, tuple(headers))


ENTITY_HEADERS = frozenset({"content-type", "content-length", "content-encoding", "content-language",
                            "transfer-encoding", "content-range", "content-md5"})   # a 304 has no body


def poll_key(environ, tag: str) -> tuple:
    """What makes two polls the same: path, query, cookie, language header, the ETag held, scheme."""
    return (environ.get("PATH_INFO"), environ.get("QUERY_STRING", ""), environ.get("HTTP_COOKIE", ""),
            environ.get("HTTP_ACCEPT_LANGUAGE", ""), tag, environ.get("wsgi.url_scheme"))


def mark_not_modified(event_id: int | None, version: int, period_end: float, etag: str | None = None) -> None:
    """Called by a polled view that answers an anonymous viewer: a 304 may be given again before Flask while
    the event's version stays `version` (and the ETag's period lasts); a page sent with `etag` (200) earns
    the 304 its next poll with that ETag will ask for, on the same terms."""
    from flask import request
    if event_id is not None and ENVIRON_KEY in request.environ:
        request.environ[ENVIRON_ANSWER] = (event_id, version, period_end) + ((etag,) if etag else ())
