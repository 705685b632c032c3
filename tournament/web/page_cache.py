"""Shared copies of the pages every visitor sees alike (the projector, the standings), rendered once per change.

Without REDIS_URL each worker process keeps its own copies in memory. With REDIS_URL (e.g.
redis://127.0.0.1:6379/0) every worker, and every app server behind one proxy, shares them: a round start
renders the projector once for all of them. Redis being away never fails a page: it is rendered instead
and the problem logged once.
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict

from flask import current_app

RENDERED_MAX = 256
KEPT_SECONDS = 3600


class Kept:
    """A small least-recently-used store of rendered parts of pages, per worker process."""

    def __init__(self, size: int):
        self._items: OrderedDict = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
            return hit

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)


def kept(name: str, size: int) -> Kept:
    """This app's store of rendered parts called `name` (each worker process has its own)."""
    store = current_app.extensions.get(name)
    if store is None:
        store = current_app.extensions.setdefault(name, Kept(size))
    return store


class MemoryPages(Kept):
    """The shared pages of this worker process (no REDIS_URL)."""

    def __init__(self):
        super().__init__(RENDERED_MAX)

    def put(self, key: str, body: bytes, headers: list) -> None:
        super().put(key, (body, headers))


class RedisPages:
    def __init__(self, url: str, namespace: str):
        import redis
        self._redis = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self._errors = redis.RedisError
        self._namespace = namespace
        self._warned = False

    def _key(self, key: str) -> str:
        return f"edh:page:{self._namespace}:{key}"

    def get(self, key: str):
        try:
            hit = self._redis.hmget(self._key(key), "body", "headers")
        except self._errors as e:
            return self._away(e)
        if hit[0] is None or hit[1] is None:
            return None
        return hit[0], [tuple(h) for h in json.loads(hit[1])]

    def put(self, key: str, body: bytes, headers: list) -> None:
        try:
            with self._redis.pipeline() as pipe:
                pipe.hset(self._key(key), mapping={"body": body, "headers": json.dumps(headers)})
                pipe.expire(self._key(key), KEPT_SECONDS)
                pipe.execute()
        except self._errors as e:
            self._away(e)

    def _away(self, error) -> None:
        if not self._warned:
            current_app.logger.warning("Redis at REDIS_URL is unreachable (%s): pages are rendered per worker", error)
            self._warned = True
        return None


def pages():
    """The app's store, made on first use: Redis when REDIS_URL is set, else this process's memory."""
    store = current_app.extensions.get("rendered_pages")
    if store is None:
        url = current_app.config.get("REDIS_URL")
        if url:
            database = str(current_app.config.get("SQLALCHEMY_DATABASE_URI", ""))
            store = RedisPages(url, hashlib.sha256(database.encode()).hexdigest()[:12])   # one app's pages
        else:
            store = MemoryPages()
        current_app.extensions["rendered_pages"] = store
    return store
