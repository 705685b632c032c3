"""Staff first: the organizer's "start the clock" never waits behind a hall of phones.

At a round start every phone in the hall asks for its new table within one poll. waitress keeps one queue
for all of them: the organizer's request waited behind hundreds of phone renders (16-48 s with 1,000-2,000
phones). Two parts, used by tournament.serve:

- StaffFirstDispatcher: waitress's thread pool with a queue per kind. First the polls a remembered 304
  answers (tournament.web.not_modified: a tenth of a millisecond each; at a round start they waited behind
  2,000 renders, and the phones that already had their new table waited a second for "nothing changed").
  Then the requests that are not a phone's read (staff pages, the projector, every write: results, votes,
  swaps), before any phone's read (unless that read has waited 2 s already: a storm of writes never starves
  the phones). Phones' reads are served in their order of arrival (a poll told busy before, X-Told-Busy,
  ahead of those that were not: no phone is turned away again and again), at most a quarter of the threads at
  once, so a staff page shares the processor (one Python thread at a time) with a few renders, not with
  every thread.
- ShedStale (WSGI middleware, inside create_app's tournament.web.not_modified: a repeated poll still gets its
  cheap 304): a phone's request that has already waited too long in the queue, or would (the phones' lane's
  pace, measured, times the reads ahead of it as it arrives), is answered at once with 503 and Retry-After
  instead of being served, when the phone asks again by itself, and the time goes to the phones behind it.
  Told as it arrives, the phone hears "busy" within milliseconds, not after the second it would have waited
  for a thread only to hear it then (a round start's burst: p95 1.45 s before, 0.89 s after, 2,000 phones):
  - the page script's poll of the round box (header `X-Script: poll`, static/rounds.js) after
    POLL_SHED_AFTER_SECONDS: the phone keeps its last table and asks again after Retry-After, without a
    "connection lost" note; an answer a second late is worth less than the next phone's;
  - an opened page or an API read after SHED_AFTER_SECONDS (the page reloads itself by a meta refresh);
  - a report, confirmation or vote the phone keeps until it is stored (header `X-Script: outbox`,
    static/outbox.js) after SHED_AFTER_SECONDS: nothing was stored, the phone says "waiting to send" and
    sends the same form again after Retry-After (the server stores it once).
  A poll is asked back after RETRY_AFTER_SECONDS (its table matters within seconds); anything else after as
  long as it waited (at most MAX_RETRY_AFTER_SECONDS), and the phone spreads its next try over once to twice
  that: a queue a minute long (a result storm of 8,000 taps on SQLite) is not asked back every 2 s, which
  sent 15,000-36,000 busy taps again and kept the queue long.
  Other writes are never shed: a form posted by the browser itself (no script) or a swap would be lost.
"""
from __future__ import annotations

import math
import threading
import time
from collections import deque

from waitress.task import ThreadedTaskDispatcher

PHONE_PREFIXES = ("/p/", "/api/v1/players/")
READS = frozenset({"GET", "HEAD"})
SHED_AFTER_SECONDS = 5.0
POLL_SHED_AFTER_SECONDS = 1.0   # the setting POLL_SHED_SECONDS: chosen by measurement (bench_load --clients 2000)
PHONE_AGING_SECONDS = 2.0      # a phone's read that waited this long goes before staff requests and writes
RETRY_AFTER_SECONDS = 2
PACE_WEIGHT = 0.05
MAX_RETRY_AFTER_SECONDS = 30
# A page opened in the browser reloads itself (a meta refresh: no script, so the CSP allows it); the page's
# poll and its outbox read Retry-After and ask again then (static/rounds.js, static/outbox.js), as an API
# client does.
BUSY_PAGE = ('<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" '
             'content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="{seconds}">'
             '<title>Busy</title><main><h1>One moment</h1><p>The server is answering many phones at once. '
             'This page asks again by itself in {seconds} seconds.</p></main></html>\n')
BUSY_JSON = (b'{"error": {"code": "busy", "message": "The server is answering many phones at once; '
             b'ask again after Retry-After seconds."}}\n')


def phone_read(method: str, path: str) -> bool:
    """A player's own page, round box or poll (keyed by the access code), read only."""
    return method in READS and path.startswith(PHONE_PREFIXES)


def shed_after(environ, page_seconds: float = SHED_AFTER_SECONDS,
               poll_seconds: float = POLL_SHED_AFTER_SECONDS) -> float | None:
    """How long this request may wait in the queue before it is answered "busy" (None: it is never shed)."""
    method, path = environ.get("REQUEST_METHOD", "GET"), environ.get("PATH_INFO", "")
    script = environ.get("HTTP_X_SCRIPT", "")
    if phone_read(method, path):
        return poll_seconds if script == "poll" else page_seconds
    if method == "POST" and script == "outbox" and path.startswith("/p/"):
        return page_seconds
    return None


def first_request(channel):
    """What a queued waitress channel asks for: its first parsed request (a channel is queued once per request
    it has ready)."""
    requests = getattr(channel, "requests", None) or ()
    return requests[0] if requests else None


def environ_of(request) -> dict:
    """The WSGI names the lanes and the remembered 304s read (shed_after, QuickNotModified.answers), from a
    request waitress has parsed but not yet handed to a thread (its headers: "COOKIE", "IF_NONE_MATCH"...)."""
    environ = {"HTTP_" + name: value for name, value in (getattr(request, "headers", None) or {}).items()}
    environ.update({"REQUEST_METHOD": getattr(request, "command", ""), "PATH_INFO": getattr(request, "path", ""),
                    "QUERY_STRING": getattr(request, "query", ""),
                    "wsgi.url_scheme": getattr(request, "url_scheme", "http")})
    return environ


def told_busy(environ) -> bool:
    """The page's poll says it was told busy last time (rounds.js: X-Told-Busy): it goes ahead of the phones
    that have not waited yet, so that no phone is turned away again and again while newcomers get in. (Only
    the order among phones' reads: a client that always says so gains a place among them, nothing more.)"""
    return environ.get("HTTP_X_TOLD_BUSY", "").strip() not in ("", "0")


def channel_is_phone_read(channel) -> bool:
    request = first_request(channel)
    return request is not None and phone_read(getattr(request, "command", "") or "",
                                              getattr(request, "path", "") or "")


class StaffFirstQueue:
    """The deque waitress's dispatcher reads (append, popleft, len): phones' reads after everything else, except
    the polls a remembered 304 answers (`quick`: tournament.web.not_modified.QuickNotModified.answers), which go
    first: a tenth of a millisecond each, they need not wait behind a round start's renders. Each queued
    channel is stamped with when it was queued, for ShedStale."""

    def __init__(self, quick=None, poll_seconds: float = POLL_SHED_AFTER_SECONDS):
        self.poll_seconds = poll_seconds
        self.others: deque = deque()
        self.again: deque = deque()     # phones' reads told busy before (X-Told-Busy): ahead of the others
        self.phones: deque = deque()
        self.quick_ones: deque = deque()
        self.quick = quick or (lambda environ: False)
        self.seconds_per_phone = 0.0    # how long the phones' lane takes per queued read (StaffFirstDispatcher)

    def append(self, channel) -> None:
        channel.edh_queued_at, channel.edh_busy_for = time.monotonic(), 0.0
        if not channel_is_phone_read(channel):
            self.others.append(channel)
            return
        environ = environ_of(first_request(channel))
        if self.quick(environ):
            self.quick_ones.append(channel)
            return
        lane = self.again if told_busy(environ) else self.phones
        ahead = len(self.again) + (len(self.phones) if lane is self.phones else 0)
        wait = ahead * self.seconds_per_phone       # an empty lane always takes it (the pace is learnt)
        limit = shed_after(environ, poll_seconds=self.poll_seconds)
        if limit is not None and wait >= limit:     # it would be shed after waiting: told so now (ShedStale)
            channel.edh_busy_for = wait
            self.quick_ones.append(channel)
        else:
            lane.append(channel)

    def popleft(self):
        """For waitress's shutdown (cancelling what is left): any task."""
        return next(lane for lane in (self.quick_ones, self.others, self.again, self.phones) if lane).popleft()

    def take(self, phone_allowed: bool):
        """The next task for a thread and whether it is a phone's read to count (None: nothing it may take).
        A quick poll first (unless its 304 is gone while it waited: then it is a phone's read like the others,
        at the head of their queue); then staff and writes, except that a phone's read waiting PHONE_AGING
        seconds goes first (a long write storm never starves the phones), and a phone's read only when
        `phone_allowed`."""
        gone = []
        while self.quick_ones:
            channel = self.quick_ones.popleft()
            if channel.edh_busy_for or self.quick(environ_of(first_request(channel))):
                self.phones.extendleft(reversed(gone))
                return channel, False
            gone.append(channel)
        self.phones.extendleft(reversed(gone))
        phones = self.again or self.phones
        if phones and phone_allowed and (
                not self.others or time.monotonic() - phones[0].edh_queued_at >= PHONE_AGING_SECONDS):
            return phones.popleft(), True
        return (self.others.popleft(), False) if self.others else (None, False)

    def __len__(self) -> int:
        return len(self.others) + len(self.again) + len(self.phones) + len(self.quick_ones)


class StaffFirstDispatcher(ThreadedTaskDispatcher):
    """waitress's thread pool, taking staff requests and writes before phones' reads, and running at most
    `phone_threads` phones' reads at once: Python runs one thread at a time, so the organizer's page shares
    the processor with at most that many renders, never with every thread (default: a quarter of the threads,
    2 of waitress's 8 per worker: chosen by measurement, bench_load --clients 2000, against half)."""

    def __init__(self, phone_threads: int | None = None, quick=None, poll_seconds: float = POLL_SHED_AFTER_SECONDS):
        super().__init__()
        self.queue = StaffFirstQueue(quick, poll_seconds)
        self.phone_threads = phone_threads
        self.phones_running = 0

    def set_thread_count(self, count):
        if self.phone_threads is None:
            self.phone_threads = max(1, count // 4)
        super().set_thread_count(count)

    def _ready(self) -> bool:
        queue = self.queue
        return (bool(queue.others) or bool(queue.quick_ones)
                or ((bool(queue.phones) or bool(queue.again)) and self.phones_running < self.phone_threads))

    def handler_thread(self, thread_no):
        """waitress's handler loop (waitress 3.0.2, task.py), choosing what it may take."""
        while True:
            with self.lock:
                task, phone = self._next_task(thread_no)
                if task is None:
                    break
            started = time.perf_counter()
            try:
                task.service()
            except BaseException:
                self.logger.exception("Exception when servicing %r", task)
            finally:
                if phone:
                    with self.lock:
                        self.phones_running -= 1
                        self._took(time.perf_counter() - started)
                        self.queue_cv.notify()          # a phone's read waiting for its turn

    def _took(self, seconds: float) -> None:
        """A phone's read took `seconds`: the lane's pace (a moving average over about 20 reads), which tells
        a newly queued read how long it would wait."""
        each, pace = seconds / self.phone_threads, self.queue.seconds_per_phone
        self.queue.seconds_per_phone = pace + (each - pace) * PACE_WEIGHT if pace else each

    def _next_task(self, thread_no):
        """(task, whether it is a counted phone's read), waiting for one; (None, False): this thread stops.
        Called holding the lock."""
        while True:
            while not self._ready() and self.stop_count == 0:
                self.active_count -= 1
                self.queue_cv.wait()
                self.active_count += 1
            if self.stop_count > 0:
                self.active_count -= 1
                self.stop_count -= 1
                self.threads.discard(thread_no)
                self.thread_exit_cv.notify()
                return None, False
            task, phone = self.queue.take(self.phones_running < self.phone_threads)
            if task is not None:
                self.phones_running += phone
                return task, phone


def queued_seconds(environ) -> float:
    """How long this request waited for a thread (waitress hands the channel's method to the app)."""
    queued = getattr(_channel(environ), "edh_queued_at", None)
    return time.monotonic() - queued if queued is not None else 0.0


def busy_for(environ) -> float:
    """How long this request would have waited, when the queue found that too long as it arrived."""
    return getattr(_channel(environ), "edh_busy_for", 0.0)


def _channel(environ):
    return getattr(environ.get("waitress.client_disconnected"), "__self__", None)


class ShedStale:
    """Wraps a WSGI app: a phone's request that waited its `shed_after` or more is answered 503 at once."""

    def __init__(self, app, page_seconds: float = SHED_AFTER_SECONDS,
                 poll_seconds: float = POLL_SHED_AFTER_SECONDS):
        self.app = app
        self.page_seconds, self.poll_seconds = page_seconds, poll_seconds
        self.shed = 0                      # how many phone requests were answered "busy" (for the benchmarks)
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        limit = shed_after(environ, self.page_seconds, self.poll_seconds)
        waited = max(queued_seconds(environ), busy_for(environ)) if limit is not None else 0.0
        if limit is not None and waited >= limit:
            with self._lock:
                self.shed += 1
            return busy(environ, start_response, retry_after(environ, waited))
        return self.app(environ, start_response)


def retry_after(environ, waited: float) -> int:
    """When to ask again: a poll soon; anything else after as long as it waited in the queue (its length now)."""
    if environ.get("HTTP_X_SCRIPT", "") == "poll":
        return RETRY_AFTER_SECONDS
    return min(MAX_RETRY_AFTER_SECONDS, max(RETRY_AFTER_SECONDS, math.ceil(waited)))


def busy(environ, start_response, seconds: int = RETRY_AFTER_SECONDS):
    api = environ.get("PATH_INFO", "").startswith("/api/")
    body, kind = ((BUSY_JSON, "application/json") if api else
                  (BUSY_PAGE.format(seconds=seconds).encode(), "text/html; charset=utf-8"))
    start_response("503 Service Unavailable", [
        ("Content-Type", kind), ("Content-Length", str(len(body))),
        ("Retry-After", str(seconds)), ("Cache-Control", "no-store"),
    ])
    return [body]
