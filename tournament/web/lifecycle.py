"""One request lifecycle, as Indico's request handler (RH) does it.

Every web and API request runs its view, then commits once: a response under
400 is committed, a refusal is rolled back. Views, API handlers and CLI
commands never commit, flush or roll back themselves.

A database conflict (a unique constraint another request won, a serialization
failure or deadlock, SQLite's "database is locked") is retried a bounded
number of times: the retry sees the other request's committed row, so the
operation decides again (a double-tapped vote becomes one vote, a second
registration with a player ID gets the usual "already registered" refusal).
What still conflicts after the retries is a 409 with a message, never a 500.

SQLite: a write request (POST, PUT, PATCH, DELETE) takes the write lock when
its transaction begins (BEGIN IMMEDIATE), so it waits its turn instead of
failing on a stale read snapshot. The writers of one worker queue on a lock of
the process (a thread asleep on it wakes the moment the writer before it
commits, instead of SQLite's busy handler polling with sleeps of up to 100 ms,
which let the newest writer overtake the oldest ones again and again), and
wait there as long as the queue moves (a storm: each its turn). Only the writer
at the head of each worker's queue waits on SQLite itself, for SQLITE_WRITE_WAIT
seconds (default 5). When SQLite's lock stays refused for HELD_AFTER seconds,
another program holds the database (a copy tool, a `sqlite3` shell left in a
transaction): the head is answered 503 with Retry-After and "busy, retrying"
(the pages' scripts send it again) when its wait is over, the writers queued
behind it at once, so they do not hold every server thread for seconds, and
the reads go on (WAL: readers never wait on a writer); nobody is held for 30 s.
"""
from __future__ import annotations

import random
import threading
import time

import sqlalchemy as sa
from flask import Flask, current_app, g, has_app_context, has_request_context, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_babel import lazy_gettext as _l

from ..extensions import db

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
ATTEMPTS = 5
CONFLICT_MESSAGE = _l("This conflicts with a change made at the same moment by someone else. "
                      "Reload the page to see it, then try again.")
BUSY_MESSAGE = _l("The server is busy with other changes right now. Wait a moment and try again.")
UNAVAILABLE_MESSAGE = _l("The database cannot be reached right now. Wait a moment and try again; "
                         "staff: check that the database server is running.")
LOCKED_MESSAGE = _l("The database is busy with another change right now; retrying in a few seconds. "
                    "Nothing was saved yet.")
BAD_VALUE_MESSAGE = _l("A value in the request is too long or out of range for what it describes.")

_LOCK_WORDS = ("database is locked", "database table is locked", "database schema has changed")
_RETRY_SQLSTATES = {"40001", "40P01", "55P03"}      # serialization failure, deadlock, lock not available


class SecureWhenHttps(SecureCookieSessionInterface):
    """The session cookie is Secure on every request that came over HTTPS (directly, or as the trusted proxy
    says), not only when PUBLIC_URL starts with https://: a staff cookie set over HTTPS never travels in clear."""

    def get_cookie_secure(self, app) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)

    def get_signing_serializer(self, app):
        """Made once per key, not on every request (making one costs a poll a sixth of its time)."""
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()), self.salt,
                app.config.get("SESSION_COOKIE_NAME"))
        kept = app.extensions.get("session_serializer")
        if kept is None or kept[0] != keys:
            kept = (keys, super().get_signing_serializer(app))
            app.extensions["session_serializer"] = kept
        return kept[1]


class TournamentFlask(Flask):
    def full_dispatch_request(self):
        return run_request(super().full_dispatch_request)

    def url_for(self, endpoint, *, _external=None, **values):
        """Links that leave the page (player links, QR codes) use PUBLIC_URL, else the address found when the server
        started, never the request's Host: without either, a request's link is its path (tournament.web.links)."""
        public = self.config.get("PUBLIC_URL") or self.config.get("DETECTED_URL")
        external = _external if _external is not None else not has_request_context()
        if external and (public or has_request_context()):
            values.pop("_scheme", None)
            return (public or "").rstrip("/") + super().url_for(endpoint, _external=False, **values)
        return super().url_for(endpoint, _external=_external, **values)


def wants_write_lock() -> bool:
    if not has_app_context() or g.get("write_held_elsewhere"):     # told "busy": its refusal only reads
        return False
    return g.get("write_lock", False) or (has_request_context() and request.method not in SAFE_METHODS)


def conflict_kind(error: BaseException) -> str | None:
    """'constraint', 'busy', 'unavailable', 'bad_value', or None for an error that is not the database's."""
    if isinstance(error, sa.orm.exc.StaleDataError):
        return "busy"
    if not isinstance(error, sa.exc.DBAPIError):
        return None
    if getattr(error.orig, "sqlstate", None) in _RETRY_SQLSTATES:
        return "busy"
    if isinstance(error, sa.exc.IntegrityError):
        return "constraint"
    if isinstance(error, sa.exc.DataError):
        return "bad_value"
    if isinstance(error, sa.exc.OperationalError):
        text = str(error.orig or error).lower()
        if any(word in text for word in _LOCK_WORDS):
            return "busy"
        if error.connection_invalidated or "connect" in text or "closed" in text:
            return "unavailable"
    return None


def run_request(dispatch):
    """Run the whole request (hooks, view, error handlers), then commit once or roll back."""
    flashes = list(session.get("_flashes", [])) if "_flashes" in session else None
    _write_wait(current_app.config.get("SQLITE_WRITE_WAIT", 5.0))
    for attempt in range(ATTEMPTS):
        g.write_lock = attempt > 0
        g.pop("changed_events", None)
        try:
            response = dispatch()
            if not _began_anything():
                pass                        # a poll answered from caches: nothing to commit or roll back
            elif response.status_code < 400:
                db.session.commit()
            else:
                db.session.rollback()
            return response
        except (sa.exc.SQLAlchemyError, sa.orm.exc.StaleDataError) as e:
            db.session.rollback()
            kind = conflict_kind(e)
            if kind is None:
                raise
            _restore_flashes(flashes)
            if kind == "busy" and g.get("write_held_elsewhere"):
                kind = "locked"         # another program holds the database: tell the phone now
            retry = kind == "busy" or (kind == "constraint" and attempt == 0)
            if not retry or attempt + 1 == ATTEMPTS:
                from . import loggable_path
                current_app.logger.warning("request %s %s: %s after %d attempts: %s", request.method,
                                           loggable_path(request.path), kind, attempt + 1, e.__class__.__name__)
                return _refusal_for(kind)
            time.sleep(random.uniform(0.005, 0.03) * (attempt + 1))


def _began_anything() -> bool:
    """Whether the request opened a transaction or left work for its commit (a version to bump, a backup)."""
    return db.session().in_transaction() or bool(g.get("changed_events")) or bool(g.get("after_commit"))


def _restore_flashes(flashes) -> None:
    if flashes is None:
        session.pop("_flashes", None)
    else:
        session["_flashes"] = flashes


def _refusal_for(kind: str):
    from . import error_response, json_request
    status, message = {"constraint": (409, CONFLICT_MESSAGE), "busy": (409, BUSY_MESSAGE),
                       "locked": (503, LOCKED_MESSAGE if json_request() else BUSY_MESSAGE),   # the scripts retry
                       "unavailable": (503, UNAVAILABLE_MESSAGE), "bad_value": (400, BAD_VALUE_MESSAGE)}[kind]
    response = current_app.make_response(error_response(str(message), status))
    if status in (409, 503):
        response.headers["Retry-After"] = "2"
    return current_app.finalize_request(response, from_error_handler=True)


READ_WRITE_WAIT_MS = 1000      # a page read that stores a row on the way waits this long for the write lock
HELD_AFTER = 3.0               # SQLite's lock refused this long: another program holds the database (a storm's
                               # writers of the other worker hold it for well under a second at a time)
HELD_MEMORY = 30.0             # ... and counts as held that long after, unless a writer gets it sooner
QUEUE_CAP = 4                  # a writer queued behind its worker's others waits at most 4 x SQLITE_WRITE_WAIT
QUEUE_SLICE = 0.25             # a queued writer looks again this often whether the database is held elsewhere
_held: dict = {"since": None, "head": None}   # when a writer last found the database held (None: it got it since),
                                              # since when the writer at the head of the queue waits on SQLite
CLI_WRITE_WAIT = 30.0          # a command at the laptop waits longer for the server's writers than a phone
_writer = threading.Lock()      # this worker's SQLite writers, one at a time (see the module docstring)
_WRITER_KEY = "sqlite_writer"


@sa.event.listens_for(sa.orm.Session, "after_begin")
def _sqlite_write_lock(session, _transaction, connection) -> None:
    """SQLite: a write request's transaction queues on the worker's writer lock, then takes SQLite's write lock
    (BEGIN IMMEDIATE) within SQLITE_WRITE_WAIT seconds; past it, "database is locked" (a 503)."""
    if connection.dialect.name != "sqlite":
        return
    raw = connection.connection.dbapi_connection
    if raw is None or raw.in_transaction:
        return
    if not wants_write_lock():      # a read that stores something on the way (a swap window's first look)
        _busy_timeout(connection, 0 if database_held() else READ_WRITE_WAIT_MS)     # waits a moment at most
        return
    if not session.info.get(_WRITER_KEY):
        _queue(session)
    started = _held["head"] = time.monotonic()
    try:
        _busy_timeout(connection, int(g.get("write_wait", 5.0) * 1000))
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    except BaseException as e:
        _release_writer(session)
        if time.monotonic() - started >= HELD_AFTER and "locked" in str(e).lower():
            _held["since"] = time.monotonic()       # another program holds it: the writers queued here give up
            g.write_held_elsewhere = True
        raise
    finally:
        _held["head"] = None
    _held["since"] = None


def _busy_timeout(connection, ms: int) -> None:
    """Set SQLite's busy timeout on this pooled connection only when it changes: a read request's transaction
    costs no extra statement (the connection remembers what it was last given)."""
    info = connection.connection.info
    if info.get("busy_timeout_ms") != ms:
        connection.exec_driver_sql(f"PRAGMA busy_timeout = {ms}")
        info["busy_timeout_ms"] = ms


def _write_wait(seconds: float) -> None:
    """How long the writer at the head of the queue waits on SQLite's lock (`seconds`), and how long a writer may
    queue behind the others of its worker while they make progress (QUEUE_CAP of those)."""
    g.write_wait = float(seconds)
    g.write_deadline = time.monotonic() + QUEUE_CAP * float(seconds)


def _queue(session) -> None:
    """Wait for this worker's writer lock while the writers before it make progress (a storm: each waits its
    turn); only a moment while another program holds the database (the writer at the head of the queue waits on
    SQLite for everyone, and the ones behind it are told "busy, retrying" at once instead of each holding a
    server thread for seconds)."""
    if g.get("write_deadline") is None:
        _write_wait(current_app.config.get("SQLITE_WRITE_WAIT", 5.0))
    while True:
        if _writer.acquire(timeout=QUEUE_SLICE):
            session.info[_WRITER_KEY] = True
            return
        if database_held() or time.monotonic() >= g.write_deadline:
            g.write_held_elsewhere = True
            raise sa.exc.OperationalError("BEGIN IMMEDIATE", None,
                                          RuntimeError("database is locked (the worker's writers' queue)"))


def database_held() -> bool:
    """Another program holds SQLite's write lock, as far as this worker can tell: a writer found it held for
    HELD_AFTER seconds and none has had it since, or the writer at the head of the queue has waited that long."""
    head, since, now = _held["head"], _held["since"], time.monotonic()
    return (since is not None and now - since < HELD_MEMORY) or (head is not None and now - head >= HELD_AFTER)


def _release_writer(session) -> None:
    if session.info.pop(_WRITER_KEY, None):
        _writer.release()


@sa.event.listens_for(sa.orm.Session, "after_transaction_end")
def _writer_done(session, transaction) -> None:
    """The write transaction has committed or rolled back (or the session closed): the next writer goes."""
    if transaction.parent is None:
        _release_writer(session)


def changed(event_id: int) -> None:
    """This transaction changes what the event's pages show: bump its state version when it commits."""
    if has_app_context():
        g.setdefault("changed_events", set()).add(event_id)


def changing(event_id: int) -> bool:
    """This transaction has a change to the event it has yet to commit."""
    return has_app_context() and event_id in g.get("changed_events", ())


@sa.event.listens_for(sa.orm.Session, "before_commit")
def _bump_state_versions(session) -> None:
    """Every commit (request, CLI, script) bumps the state version of the events it changed. The bump
    runs last, so an event's row is locked (PostgreSQL) only for the moment of the commit."""
    if not has_app_context():
        return
    events = g.pop("changed_events", None)
    if events:
        table = _VERSIONED["table"]
        session.execute(sa.update(table).where(table.c.id.in_(sorted(events)))
                        .values(state_version=table.c.state_version + 1)
                        .execution_options(synchronize_session=False))
        session.info.setdefault("bumped_events", set()).update(events)


_VERSIONED: dict = {"table": None}


def versioned(model):
    """Declare the model whose rows carry the state version that changed() bumps (the event): the lifecycle is
    infrastructure and imports no feature; the feature names its table here."""
    _VERSIONED["table"] = model.__table__
    return model


_versions_lock = threading.Lock()


def state_version(event_id: int) -> int | None:
    """The event's state version (None: no such event). Phones poll every few seconds; the version read is
    kept for STATE_VERSION_TTL seconds (0.5) per worker, so a poll that finds nothing changed costs
    no database work at all, and a change reaches every phone at most that much later."""
    if not isinstance(event_id, int) or not 0 < event_id < 2**31:
        return None                 # no event has it (PostgreSQL refuses to compare an integer column with it)
    if has_request_context():
        g.version_event = event_id          # for tournament.web.not_modified: which event a 304 depends on
    ttl = current_app.config.get("STATE_VERSION_TTL", 0.5)
    cache = current_app.extensions.setdefault("state_versions", {})
    now = time.monotonic()
    hit = cache.get(event_id)
    if hit is not None and now - hit[1] < ttl:
        return hit[0]
    table = _VERSIONED["table"]
    version = db.session.execute(sa.select(table.c.state_version).where(table.c.id == event_id)).scalar()
    with _versions_lock:
        if len(cache) > 10_000:
            cache.clear()
        cache[event_id] = (version, now)
    return version


def one_transaction(command):
    """A CLI command is one transaction: committed when it returns, rolled back when it fails."""
    from functools import wraps

    import click

    @wraps(command)
    def wrapped(*args, **kwargs):
        g.write_lock = True
        _write_wait(CLI_WRITE_WAIT)
        try:
            result = command(*args, **kwargs)
            db.session.commit()
            return result
        except (sa.exc.SQLAlchemyError, sa.orm.exc.StaleDataError) as e:
            db.session.rollback()
            if conflict_kind(e) is None:
                raise
            raise click.ClickException(f"Nothing was stored: the database refused the change ({conflict_kind(e)}): "
                                       f"{str(getattr(e, 'orig', e))[:200]}") from None
        except BaseException:
            db.session.rollback()
            raise
    return wrapped


def after_commit(fn, *args) -> None:
    """Run fn(*args) once this transaction has committed (a backup after a round is published)."""
    if has_app_context():
        g.setdefault("after_commit", []).append((fn, args))


@sa.event.listens_for(sa.orm.Session, "after_commit")
def _run_after_commit(session) -> None:
    if not has_app_context():
        return
    versions = current_app.extensions.get("state_versions", {})
    for event_id in session.info.pop("bumped_events", ()):     # this worker sees its own change at once
        versions.pop(event_id, None)
    for fn, args in g.pop("after_commit", []):
        fn(*args)


@sa.event.listens_for(sa.orm.Session, "after_soft_rollback")
def _forget(_session, previous_transaction) -> None:
    """A rolled-back transaction changed nothing anyone sees, and nothing waits for its commit."""
    if has_app_context() and previous_transaction.parent is None:
        g.pop("changed_events", None)
        g.pop("after_commit", None)
        previous_transaction.session.info.pop("bumped_events", None)
