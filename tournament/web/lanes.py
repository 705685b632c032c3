"""Staff first: phones' reads may fill only some of a worker's threads.

At a round start every phone in the hall asks for its new table within one poll. With waitress's one queue
and one pool of threads, the organizer's "start the clock" then waits behind hundreds of phone renders.
This WSGI middleware keeps `reserved` threads of each worker for everything that is not a phone's read
(staff pages, every write, the projector): a phone's GET that finds all the phone lanes busy is answered
at once, from memory, with a 503 and Retry-After, and the page asks again at its next poll (static/rounds.js
keeps showing the last table meanwhile). Writes are never shed: a result or a swap is never refused for
load.
"""
from __future__ import annotations

import threading

from werkzeug.wsgi import ClosingIterator

PHONE_PREFIXES = ("/p/", "/api/v1/players/")
READS = frozenset({"GET", "HEAD"})
RETRY_AFTER_SECONDS = 2
# A page opened in the browser reloads itself (a meta refresh: no script, so the CSP allows it); a poll's
# fetch ignores the answer and asks again at its next poll; an API client reads Retry-After.
BUSY_PAGE = (b'<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" '
             b'content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="2">'
             b'<title>Busy</title><main><h1>One moment</h1><p>The server is answering many phones at once. '
             b'This page asks again by itself in 2 seconds.</p></main></html>\n')
BUSY_JSON = (b'{"error": {"code": "busy", "message": "The server is answering many phones at once; '
             b'ask again after Retry-After seconds."}}\n')


def phone_read(environ) -> bool:
    """A player's own page, round box or poll (keyed by the access code), read only."""
    return (environ.get("REQUEST_METHOD", "GET") in READS
            and environ.get("PATH_INFO", "").startswith(PHONE_PREFIXES))


def phone_lanes(threads: int) -> int:
    """How many of a worker's threads phones may hold: all but a quarter (at least one kept for staff)."""
    return max(1, threads - max(1, threads // 4))


class PhoneLanes:
    """Wraps a WSGI app; `lanes` phone reads at a time per process, the rest answered 503 at once."""

    def __init__(self, app, lanes: int):
        self.app = app
        self.lanes = lanes
        self._free = threading.BoundedSemaphore(lanes)
        self.shed = 0                      # how many phone reads were answered "busy" (for the benchmarks)

    def __call__(self, environ, start_response):
        if not phone_read(environ):
            return self.app(environ, start_response)
        if not self._free.acquire(blocking=False):
            self.shed += 1
            return self._busy(environ, start_response)
        try:
            result = self.app(environ, start_response)
        except BaseException:
            self._free.release()
            raise
        return ClosingIterator(result, [self._free.release])

    @staticmethod
    def _busy(environ, start_response):
        api = environ.get("PATH_INFO", "").startswith("/api/")
        body, kind = (BUSY_JSON, "application/json") if api else (BUSY_PAGE, "text/html; charset=utf-8")
        start_response("503 Service Unavailable", [
            ("Content-Type", kind), ("Content-Length", str(len(body))),
            ("Retry-After", str(RETRY_AFTER_SECONDS)), ("Cache-Control", "no-store"),
        ])
        return [body]
