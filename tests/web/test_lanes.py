"""Staff first (tournament.web.lanes): phones' reads fill only their lanes; the rest is answered 503 at once,
and nothing else is ever turned away for load."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from werkzeug.test import Client

from tournament.web.lanes import PhoneLanes, phone_lanes


class SlowApp:
    """A WSGI app whose phone reads wait until the test lets them go."""

    def __init__(self):
        self.go = threading.Event()
        self.inside = threading.Semaphore(0)
        self.lock = threading.Lock()
        self.now = self.most = 0

    def __call__(self, environ, start_response):
        if environ["PATH_INFO"].startswith("/p/") and environ["REQUEST_METHOD"] == "GET":
            with self.lock:
                self.now += 1
                self.most = max(self.most, self.now)
            self.inside.release()
            assert self.go.wait(10)
            with self.lock:
                self.now -= 1
        if environ["PATH_INFO"] == "/p/BOOM":
            raise RuntimeError("boom")
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]


@pytest.fixture
def slow():
    return SlowApp()


def get(app, path):
    """A GET read to the end and closed, as a server does (closing gives the lane back)."""
    return Client(app).get(path, buffered=True)


def hold_lanes(slow, lanes, n):
    """n phone reads inside the app, waiting; returns their futures."""
    pool = ThreadPoolExecutor(n)
    futures = [pool.submit(get, lanes, f"/p/CODE{i}") for i in range(n)]
    for _ in range(n):
        assert slow.inside.acquire(timeout=10)
    return pool, futures


def test_a_phone_read_past_the_lanes_is_told_to_retry_while_staff_and_writes_go_through(slow):
    lanes = PhoneLanes(slow, 2)
    pool, futures = hold_lanes(slow, lanes, 2)
    busy = get(lanes, "/p/OTHER/round")
    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == "2" and busy.headers["Cache-Control"] == "no-store"
    assert "asks again by itself" in busy.get_data(as_text=True)          # a page that reloads itself
    assert '<meta http-equiv="refresh" content="2">' in busy.get_data(as_text=True)
    assert get(lanes, "/events/1/rounds/1").status_code == 200           # the organizer is not queued
    assert Client(lanes).post("/p/OTHER/result", buffered=True).status_code == 200             # a write is never shed
    api = get(lanes, "/api/v1/players/X")                                     # the API's phone reads too
    assert api.status_code == 503 and api.json["error"]["code"] == "busy"
    slow.go.set()
    assert [f.result(timeout=10).status_code for f in futures] == [200, 200]
    pool.shutdown()
    assert lanes.shed == 2
    assert get(lanes, "/p/OTHER/round").status_code == 200               # the lanes are free again


def test_a_lane_is_given_back_when_the_app_fails(slow):
    slow.go.set()
    lanes = PhoneLanes(slow, 1)
    with pytest.raises(RuntimeError):
        get(lanes, "/p/BOOM")
    assert get(lanes, "/p/CODE").status_code == 200


def test_many_phones_at_once_never_hold_more_than_their_lanes(slow):
    slow.go.set()
    lanes = PhoneLanes(slow, 3)
    with ThreadPoolExecutor(24) as pool:
        codes = list(pool.map(lambda i: get(lanes, f"/p/C{i}").status_code, range(240)))
    assert set(codes) <= {200, 503} and codes.count(200) + lanes.shed == 240
    assert slow.most <= 3
    # every lane came back: three reads can be inside at once again
    slow.go.clear()
    pool, futures = hold_lanes(slow, lanes, 3)
    slow.go.set()
    assert [f.result(timeout=10).status_code for f in futures] == [200, 200, 200]
    pool.shutdown()


@pytest.mark.parametrize("threads, lanes", [(1, 1), (2, 1), (4, 3), (8, 6), (16, 12)])
def test_a_quarter_of_the_threads_stay_free_for_staff(threads, lanes):
    assert phone_lanes(threads) == lanes
