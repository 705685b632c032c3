"""Shared copies of the pages every visitor sees alike (the projector, the standings), rendered once per change.

Without REDIS_URL each worker process keeps its own copies in memory. With REDIS_URL (e.g.
redis://127.0.0.1:6379/0) every worker, and every app server behind one proxy, shares them: a round start
renders the projector once for all of them. Redis being away never fails a page: it is rendered instead
and the problem logged once.

Parts of pages kept per event and state version (a pod's shared round box, tournament.rounds.box) are shared
by every worker too: through Redis with REDIS_URL, else through files under instance/parts (the laptop's
workers are processes of one machine). Each worker drew every pod's box at a round start before: about 940
draws of 4 ms for a hall's 500 pods on two workers, instead of 500.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path

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


def per_version(name: str, event_id: int, read, size: int = 64):
    """What `read()` gives for the event, kept per worker until its state version changes (every change of
    what its pages show bumps it). The version is read first, so a copy is never older than its key; nothing
    is kept while this request has an uncommitted change to the event (it may yet roll back)."""
    from .lifecycle import changing, state_version
    key = (event_id, state_version(event_id))
    store = kept(name, size)
    found = store.get(key)
    if found is None:
        found = read()
        if not changing(event_id):
            store.put(key, found)
    return found


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
    return _store("rendered_pages", RedisPages, MemoryPages)


def _store(name: str, on_redis, local):
    """The app's store called `name`, made on first use: `on_redis` (namespaced by the database: one app's
    copies) when REDIS_URL is set, else `local()`."""
    store = current_app.extensions.get(name)
    if store is None:
        url = current_app.config.get("REDIS_URL")
        if url:
            database = str(current_app.config.get("SQLALCHEMY_DATABASE_URI", ""))
            store = on_redis(url, hashlib.sha256(database.encode()).hexdigest()[:12])
        else:
            store = local()
        current_app.extensions[name] = store
    return store


PART_SECONDS = 600


class FileParts:
    """Parts shared by the worker processes of one machine: a file each, in a folder per event and state
    version (instance/parts/<event>/<version>/); the first part of a newer version removes the event's
    older folders, so a day of changes leaves one version's parts per event. Written whole (a temporary
    file renamed), so a reader sees a part or nothing; anything unreadable is drawn again."""

    def __init__(self, root: Path):
        self.root = root
        self._warned = False

    def get(self, event: str, version: int, key: str):
        try:
            with open(self.root / event / str(version) / key, "rb") as f:
                return pickle.load(f)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError, TypeError):
            return None

    def put(self, event: str, version: int, key: str, value) -> None:
        folder = self.root / event / str(version)
        try:
            if not folder.is_dir():
                folder.mkdir(parents=True, mode=0o700, exist_ok=True)
                self._older_gone(folder)
            fd, temporary = tempfile.mkstemp(dir=folder, suffix=".part")
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, folder / key)
        except OSError as e:            # a full disk or a removed folder: the part is drawn per worker
            if not self._warned:
                current_app.logger.warning("Shared parts cannot be written under %s (%s)", self.root, e)
                self._warned = True

    @staticmethod
    def _older_gone(folder: Path) -> None:
        for other in folder.parent.iterdir():
            if other.name.isdigit() and int(other.name) < int(folder.name):
                shutil.rmtree(other, ignore_errors=True)


class RedisParts(RedisPages):
    """Parts shared by every worker and every app server through Redis (kept PART_SECONDS)."""

    def get(self, event: str, version: int, key: str):
        try:
            hit = self._redis.get(self._key(f"part:{event}:{version}:{key}"))
            return pickle.loads(hit) if hit is not None else None
        except self._errors as e:
            return self._away(e)
        except (pickle.UnpicklingError, EOFError, AttributeError, ValueError, TypeError):
            return None

    def put(self, event: str, version: int, key: str, value) -> None:
        try:
            self._redis.set(self._key(f"part:{event}:{version}:{key}"),
                            pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), ex=PART_SECONDS)
        except self._errors as e:
            self._away(e)


def parts():
    """The app's store of parts shared by its workers, made on first use: Redis with REDIS_URL, else files."""
    return _store("shared_parts", RedisParts, lambda: FileParts(Path(current_app.instance_path) / "parts"))
