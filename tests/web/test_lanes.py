"""Staff first (tournament.web.lanes): waitress's threads take staff requests and writes before phones' reads,
and a phone's read that already waited too long is answered 503 at once; nothing else is turned away."""
from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest
from werkzeug.test import Client

from tournament.web.lanes import (MAX_RETRY_AFTER_SECONDS, POLL_SHED_AFTER_SECONDS, SHED_AFTER_SECONDS, ShedStale,
                                  StaffFirstDispatcher, StaffFirstQueue)


class Channel:
    """What waitress queues: a connection with its parsed request; service() is the request being served."""

    def __init__(self, method, path, served, gate=None, headers=None):
        self.requests = [SimpleNamespace(command=method, path=path, headers=headers or {})]
        self.served, self.gate, self.name = served, gate, f"{method} {path}"

    def service(self):
        if self.gate is not None:
            assert self.gate.wait(10)
        self.served.append(self.name)

    def cancel(self):
        pass


def test_the_queue_gives_staff_and_writes_before_phones_reads_and_phones_in_their_order():
    queue, served = StaffFirstQueue(), []
    for method, path in [("GET", "/p/A/round"), ("GET", "/p/B/round"), ("GET", "/events/1/rounds/1"),
                         ("POST", "/p/C/result"), ("GET", "/api/v1/players/D"), ("GET", "/events/1/projector")]:
        queue.append(Channel(method, path, served))
    assert len(queue) == 6
    order = [queue.popleft().name for _ in range(6)]
    assert order == ["GET /events/1/rounds/1", "POST /p/C/result", "GET /events/1/projector",
                     "GET /p/A/round", "GET /p/B/round", "GET /api/v1/players/D"]
    assert not queue


def test_with_every_thread_busy_the_organizer_is_served_before_the_phones_queued_ahead_of_him():
    dispatcher, served, gate = StaffFirstDispatcher(), [], threading.Event()
    dispatcher.set_thread_count(1)
    try:
        dispatcher.add_task(Channel("GET", "/p/BUSY/round", served, gate))   # the one thread is rendering
        time.sleep(0.05)
        for i in range(50):
            dispatcher.add_task(Channel("GET", f"/p/P{i}/round", served))
        dispatcher.add_task(Channel("POST", "/events/1/rounds/1/start", served))
        gate.set()
        deadline = time.monotonic() + 10
        while len(served) < 52 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        dispatcher.shutdown()
    assert served[:2] == ["GET /p/BUSY/round", "POST /events/1/rounds/1/start"]
    assert served[2:] == [f"GET /p/P{i}/round" for i in range(50)]


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"rendered"]


class QueuedChannel:
    def __init__(self, seconds):
        self.edh_queued_at = time.monotonic() - seconds

    def check_client_disconnected(self):
        return False


def waited(seconds):
    """An environ as waitress builds it (it hands the app its channel's method), for a request that waited
    `seconds` in the queue."""
    return {"waitress.client_disconnected": QueuedChannel(seconds).check_client_disconnected}


POLL, OUTBOX = {"X-Script": "poll"}, {"X-Script": "outbox"}


@pytest.mark.parametrize("path, method, headers, waited_for, status", [
    ("/p/CODE/round", "GET", {}, SHED_AFTER_SECONDS + 1, 503),        # stale phone read: answered at once
    ("/p/CODE", "GET", {}, SHED_AFTER_SECONDS + 1, 503),
    ("/p/CODE/round", "GET", {}, 0.1, 200),                           # a fresh one is rendered
    ("/p/CODE/round", "GET", {}, POLL_SHED_AFTER_SECONDS + 0.1, 200),  # an opened page waits longer than a poll
    ("/p/CODE/round", "GET", POLL, POLL_SHED_AFTER_SECONDS + 0.1, 503),  # the script's poll asks again soon
    ("/p/CODE/round", "GET", POLL, POLL_SHED_AFTER_SECONDS - 0.3, 200),
    ("/p/CODE/result", "POST", {}, 60, 200),                     # a form the browser posts is never shed
    ("/p/CODE/confirm", "POST", POLL, 60, 200),
    ("/p/CODE/result", "POST", OUTBOX, SHED_AFTER_SECONDS + 1, 503),    # one the phone keeps is sent again
    ("/p/CODE/vote", "POST", OUTBOX, SHED_AFTER_SECONDS - 1, 200),
    ("/events/1/rounds/1/start", "POST", OUTBOX, 60, 200),       # a staff write never, whatever it says
    ("/events/1/rounds/1", "GET", {}, 60, 200),                  # nor a staff page
])
def test_a_phone_request_that_waited_too_long_is_told_to_ask_again(path, method, headers, waited_for, status):
    shed = ShedStale(app)
    response = Client(shed).open(path, method=method, headers=headers, environ_base=waited(waited_for),
                                 buffered=True)
    assert response.status_code == status
    if status == 503:
        seconds = response.headers["Retry-After"]
        # a poll asks again soon; anything else after about as long as it waited (the queue's length now)
        assert int(seconds) == 2 if headers == POLL else int(seconds) in (waited_for, waited_for + 1)
        assert response.headers["Cache-Control"] == "no-store"
        assert f'<meta http-equiv="refresh" content="{seconds}">' in response.get_data(as_text=True)
        assert shed.shed == 1
    else:
        assert response.get_data() == b"rendered"


@pytest.mark.parametrize("waited_for, told", [(5.2, 6), (12.0, (12, 13)), (400, MAX_RETRY_AFTER_SECONDS)])
def test_a_write_shed_after_a_long_queue_is_asked_back_later_not_every_two_seconds(waited_for, told):
    """A result storm on SQLite queues for a minute: taps asked back every 2 s kept the queue full of resends."""
    response = Client(ShedStale(app)).post("/p/CODE/vote", headers=OUTBOX, environ_base=waited(waited_for),
                                           buffered=True)
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) in (told if isinstance(told, tuple) else (told,))
    poll = Client(ShedStale(app)).get("/p/CODE/round", headers=POLL, environ_base=waited(waited_for), buffered=True)
    assert poll.status_code == 503 and poll.headers["Retry-After"] == "2"     # a poll still soon: its table


def test_the_api_gets_its_busy_answer_as_json():
    response = Client(ShedStale(app)).get("/api/v1/players/X", environ_base=waited(60), buffered=True)
    assert response.status_code == 503 and response.json["error"]["code"] == "busy"


def test_without_waitress_nothing_is_shed():
    assert Client(ShedStale(app)).get("/p/CODE/round").status_code == 200


def test_phones_reads_hold_at_most_their_share_of_the_threads_and_staff_get_the_rest():
    dispatcher, served, gate = StaffFirstDispatcher(), [], threading.Event()
    dispatcher.set_thread_count(8)
    assert dispatcher.phone_threads == 2
    try:
        for i in range(6):
            dispatcher.add_task(Channel("GET", f"/p/P{i}/round", served, gate))
        time.sleep(0.2)
        assert dispatcher.phones_running == 2                          # six threads left free
        dispatcher.add_task(Channel("GET", "/events/1/rounds/1", served))
        dispatcher.add_task(Channel("POST", "/p/W/result", served))
        deadline = time.monotonic() + 10
        while len(served) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert served == ["GET /events/1/rounds/1", "POST /p/W/result"]    # while the phones still wait
        gate.set()
        while len(served) < 8 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        dispatcher.shutdown()
    assert sorted(served[2:]) == [f"GET /p/P{i}/round" for i in range(6)]
    assert dispatcher.phones_running == 0


def test_a_phones_read_that_waited_two_seconds_goes_before_a_stream_of_writes():
    queue, served = StaffFirstQueue(), []
    old = Channel("GET", "/p/OLD/round", served)
    queue.append(old)
    old.edh_queued_at -= 2.5                                   # it has waited 2.5 s
    for i in range(3):
        queue.append(Channel("POST", f"/p/W{i}/swap", served))
    assert queue.take(True) == (old, True)
    assert [queue.take(True)[0].name for _ in range(3)] == [f"POST /p/W{i}/swap" for i in range(3)]


def test_no_phone_read_is_taken_while_the_phones_threads_are_full():
    queue, served = StaffFirstQueue(), []
    phone = Channel("GET", "/p/A/round", served)
    queue.append(phone)
    phone.edh_queued_at -= 10
    queue.append(Channel("GET", "/events/1", served))
    assert queue.take(False)[0].name == "GET /events/1"
    assert queue.take(True) == (phone, True)


def quick_polls(environ):
    """A stand-in for QuickNotModified.answers: the polls whose path says they hold the current ETag."""
    return environ["PATH_INFO"].endswith("/current")


def test_a_poll_a_remembered_304_answers_goes_before_everything_and_is_not_a_phones_read():
    queue, served = StaffFirstQueue(quick_polls), []
    for method, path in [("GET", "/p/A/round"), ("GET", "/events/1/rounds/1"), ("GET", "/p/B/current"),
                         ("POST", "/p/C/result"), ("GET", "/p/D/current")]:
        queue.append(Channel(method, path, served))
    order = [queue.take(True) for _ in range(5)]
    assert [(c.name, counted) for c, counted in order] == [
        ("GET /p/B/current", False), ("GET /p/D/current", False), ("GET /events/1/rounds/1", False),
        ("POST /p/C/result", False), ("GET /p/A/round", True)]
    assert queue.take(True) == (None, False) and not queue


def test_a_quick_poll_whose_304_is_gone_waits_its_turn_as_a_phones_read():
    """The round started while it waited: it is a render now, and the phones' share of threads holds."""
    answered = {"yes": True}
    queue, served = StaffFirstQueue(lambda environ: answered["yes"]), []
    poll = Channel("GET", "/p/A/round", served)
    queue.append(poll)
    queue.append(Channel("GET", "/p/B/round", served))
    assert len(queue.quick_ones) == 2
    answered["yes"] = False
    assert queue.take(False) == (None, False)                  # no phone's read may run now
    assert [c.name for c in queue.phones] == ["GET /p/A/round", "GET /p/B/round"]     # in their order
    assert queue.take(True) == (poll, True)


@pytest.mark.parametrize("headers, limit", [({"X_SCRIPT": "poll"}, POLL_SHED_AFTER_SECONDS), ({}, SHED_AFTER_SECONDS)])
def test_a_phones_read_that_would_wait_past_its_limit_is_told_busy_as_it_arrives(headers, limit):
    """Not after waiting a second for a thread: the wait is the lane's pace times the reads ahead of it."""
    queue, served = StaffFirstQueue(), []
    queue.seconds_per_phone = 0.1
    ahead = round(limit / 0.1)
    for i in range(ahead):
        queue.append(Channel("GET", f"/p/P{i}/round", served, headers=headers))
    assert len(queue.phones) == ahead and not queue.quick_ones
    late = Channel("GET", "/p/LATE/round", served, headers=headers)
    queue.append(late)
    assert late.edh_busy_for == pytest.approx(limit) and list(queue.quick_ones) == [late]
    assert queue.take(False) == (late, False)                  # a thread answers it at once, phones' share or not
    staff = Channel("GET", "/events/1/rounds/1", served)
    queue.append(staff)                                        # staff and writes are never told busy
    assert staff.edh_busy_for == 0 and list(queue.others) == [staff]


def test_an_empty_phones_lane_takes_a_read_however_slow_the_last_ones_were():
    """Else a slow spell (a database outage) would leave every later read told busy, and nothing to learn from."""
    queue, served = StaffFirstQueue(), []
    queue.seconds_per_phone = 60.0
    queue.append(Channel("GET", "/p/A/round", served, headers={"X_SCRIPT": "poll"}))
    assert len(queue.phones) == 1 and not queue.quick_ones


def test_the_busy_answer_given_as_it_arrived_says_when_to_ask_again():
    response = Client(ShedStale(app)).get("/p/CODE", environ_base=busy_on_arrival(7.4), buffered=True)
    assert response.status_code == 503 and response.headers["Retry-After"] == "8"
    poll = Client(ShedStale(app)).get("/p/CODE/round", headers=POLL, environ_base=busy_on_arrival(1.2), buffered=True)
    assert poll.status_code == 503 and poll.headers["Retry-After"] == "2"
    fresh = Client(ShedStale(app)).get("/p/CODE/round", headers=POLL, environ_base=busy_on_arrival(0.0), buffered=True)
    assert fresh.status_code == 200


def busy_on_arrival(seconds):
    channel = QueuedChannel(0.0)
    channel.edh_busy_for = seconds
    return {"waitress.client_disconnected": channel.check_client_disconnected}


def test_the_phones_lane_learns_its_pace_from_the_reads_it_serves():
    dispatcher, served = StaffFirstDispatcher(), []
    dispatcher.set_thread_count(8)                             # two phones' threads
    slow = Channel("GET", "/p/SLOW/round", served)
    slow.service = lambda: time.sleep(0.05)
    try:
        for _ in range(20):
            dispatcher.add_task(slow)
            deadline = time.monotonic() + 5
            while dispatcher.phones_running or len(dispatcher.queue):
                assert time.monotonic() < deadline
                time.sleep(0.005)
    finally:
        dispatcher.shutdown()
    assert 0.02 < dispatcher.queue.seconds_per_phone < 0.04      # 50 ms each, two at a time: about 25 ms apart


def test_a_poll_told_busy_before_goes_ahead_of_the_phones_that_were_not():
    """Else, in a round start's burst, a phone could be told busy again and again while newcomers got in."""
    queue, served = StaffFirstQueue(), []
    queue.seconds_per_phone = 0.1
    for i in range(10):                                         # a second's worth of renders queued
        queue.append(Channel("GET", f"/p/P{i}/round", served, headers={"X_SCRIPT": "poll"}))
    fresh = Channel("GET", "/p/NEW/round", served, headers={"X_SCRIPT": "poll"})
    queue.append(fresh)
    assert fresh.edh_busy_for                                   # a newcomer would wait too long: told busy
    back = Channel("GET", "/p/BACK/round", served, headers={"X_SCRIPT": "poll", "X_TOLD_BUSY": "1"})
    queue.append(back)
    assert not back.edh_busy_for                                # only the reads told busy before are ahead of it
    zero = Channel("GET", "/p/ZERO/round", served, headers={"X_SCRIPT": "poll", "X_TOLD_BUSY": "0"})
    queue.append(zero)
    assert zero.edh_busy_for                                    # "0": not told busy
    assert queue.take(True) == (fresh, False)                   # its busy answer first
    assert queue.take(True) == (zero, False)
    assert queue.take(True) == (back, True)
    assert [queue.take(True)[0].name for _ in range(10)] == [f"GET /p/P{i}/round" for i in range(10)]
