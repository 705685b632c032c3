"""Rate limits, with Flask-Limiter's `limits` strategies and a storage every worker process shares.

Storage: Redis when REDIS_URL is set; else the database: PostgreSQL's own `rate_limit` table, or for
SQLite a side file `instance/ratelimits.sqlite` (a counter written on its own connection must not wait
for the write lock a request holds on the main file). Counters never live in one process's memory, so
four waitress workers count together.

The limits (config RATE_LIMITS, `limits` notation such as "20/minute;100/hour"):
- wrong_code: wrong access codes per client address. A phone that has opened its page before (its
  session remembers the code's hash) is never slowed, so one guesser behind the venue's NAT cannot lock
  out every player on the Wi-Fi.
- login: tries per (name, address), every try counted, cleared by a success: 5 tries a minute, then
  longer waits, never a hard lock-out of the real owner from another address.
- login_address: wrong passwords per address whatever the names (one password sprayed over every staff
  name). A browser that has logged in before (its session remembers the name's hash) is not slowed by it,
  so a guesser behind the venue's NAT cannot lock the staff out.
- password_check: wrong "current password" tries on the account page, per account (a session left open
  on a shared laptop must not become a way to guess the password).
- registration_address: self-registrations per client address, sized for a venue whose phones share one
  NAT address (a walk-in rush of 100 registers within the minute). There is no per-event limit, which a few
  addresses could fill to lock honest walk-ins out: the event's player cap and its waitlist bound it.
- decklist: a player's decklist submissions per registration (staff are not limited).
"""
from __future__ import annotations

import hashlib
import math
import random
import time

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from flask import current_app, g, has_request_context, request, session
from flask_babel import gettext as _, lazy_gettext as _l
from limits import parse_many
from limits.storage import Storage

from ..errors import Refused
from ..extensions import db, limiter

DEFAULT_LIMITS = {
    "wrong_code": "20/minute;100/hour",
    "login": "5/minute;20/hour;60/day",
    "login_address": "10/minute;30/hour;100/day",
    "password_check": "5/10minutes;20/day",
    "registration_address": "120/minute;1000/hour",
    "decklist": "10/10minutes;40/hour",
}
WORDS = {
    "wrong_code": _l("Too many wrong access codes from this network."),
    "login": _l("Too many log-in tries for this name from this network."),
    "login_address": _l("Too many wrong passwords from this network."),
    "password_check": _l("Too many wrong current passwords for this account."),
    "registration_address": _l("Too many registrations from this network."),
    "decklist": _l("You have sent your decklist many times in a short while."),
}
KNOWN_CODES = 8      # code hashes a browser's session remembers

rate_limit = sa.Table(
    "rate_limit", db.metadata,
    sa.Column("key", sa.String(255), primary_key=True),
    sa.Column("hits", sa.Integer, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),     # seconds since the epoch
)   # with SQLite the counters live in instance/ratelimits.sqlite; this copy in the main file stays empty


class RateLimited(Refused):
    def __init__(self, message: str, retry_after: int):
        super().__init__(message, status=429)
        self.retry_after = retry_after


class DatabaseStorage(Storage):
    """A fixed-window counter store in SQL: one upsert per hit, atomic on SQLite and PostgreSQL.
    `sqldb://` is the app's own (PostgreSQL) database; `sqldb+sqlite:///PATH` a side SQLite file."""
    STORAGE_SCHEME = ["sqldb", "sqldb+sqlite"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._own = None
        if uri and uri.startswith("sqldb+sqlite:"):
            self._own = sa.create_engine(uri[len("sqldb+"):], poolclass=sa.pool.NullPool,
                                         connect_args={"timeout": 10})
            rate_limit.create(self._own, checkfirst=True)

    @property
    def base_exceptions(self):
        return sa.exc.SQLAlchemyError

    def _engine(self):
        return self._own if self._own is not None else db.engine

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        insert = (postgresql.insert if self._engine().dialect.name == "postgresql" else sqlite.insert)(rate_limit)
        stale = rate_limit.c.expires_at <= now
        stmt = insert.values(key=key, hits=amount, expires_at=now + expiry).on_conflict_do_update(
            index_elements=[rate_limit.c.key],
            set_={"hits": sa.case((stale, amount), else_=rate_limit.c.hits + amount),
                  "expires_at": sa.case((stale, now + expiry), else_=rate_limit.c.expires_at)},
        ).returning(rate_limit.c.hits)
        with self._engine().begin() as conn:
            hits = conn.execute(stmt).scalar_one()
            if random.random() < 0.01:
                conn.execute(sa.delete(rate_limit).where(rate_limit.c.expires_at <= now))
        return hits

    def _row(self, key: str):
        with self._engine().connect() as conn:
            return conn.execute(sa.select(rate_limit.c.hits, rate_limit.c.expires_at)
                                .where(rate_limit.c.key == key, rate_limit.c.expires_at > time.time())).first()

    def get(self, key: str) -> int:
        row = self._row(key)
        return row.hits if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return row.expires_at if row else time.time()

    def check(self) -> bool:
        try:
            with self._engine().connect() as conn:
                conn.execute(sa.select(sa.func.count()).select_from(rate_limit))
            return True
        except sa.exc.SQLAlchemyError:
            return False

    def reset(self) -> int | None:
        with self._engine().begin() as conn:
            return conn.execute(sa.delete(rate_limit)).rowcount

    def clear(self, key: str) -> None:
        with self._engine().begin() as conn:
            conn.execute(sa.delete(rate_limit).where(rate_limit.c.key == key))


def storage_uri(config: dict, instance_path: str) -> str:
    if config.get("RATELIMIT_STORAGE_URI"):
        return config["RATELIMIT_STORAGE_URI"]
    if config.get("REDIS_URL"):
        return config["REDIS_URL"]
    if str(config.get("SQLALCHEMY_DATABASE_URI", "")).startswith("postgresql"):
        return "sqldb://"
    import os
    from ..files import private_file
    path = os.path.join(instance_path, "ratelimits.sqlite")
    if os.path.isdir(instance_path):
        private_file(path)      # addresses of who tried what: 0600 like the database
    return "sqldb+sqlite:///" + path


def no_check_per_request(app) -> None:
    """Flask-Limiter checks its route and default limits before every request and adds headers after it. The
    app declares none (the limits above are checked where they apply), so those hooks only cost time on every
    poll: they are taken off again. Its strategy and storage stay in use (limiter.limiter)."""
    from functools import partial
    mine = limiter._check_request_limit
    befores = app.before_request_funcs.get(None, [])
    befores[:] = [f for f in befores if f != mine]
    afters = app.after_request_funcs.get(None, [])
    afters[:] = [f for f in afters if not (isinstance(f, partial) and limiter in f.args)]


# ----------------------------------------------------------------- checks

def _items(name: str):
    return parse_many(current_app.config.get("RATE_LIMITS", {}).get(name) or DEFAULT_LIMITS[name])


def client_address() -> str:
    return (request.remote_addr or "unknown") if has_request_context() else "local"


def _enabled() -> bool:
    return has_request_context() and limiter.enabled and current_app.config.get("RATELIMIT_ENABLED", True)


def _refuse(name: str, keys: tuple[str, ...], items) -> None:
    wait = max((limiter.limiter.get_window_stats(item, name, *keys).reset_time - time.time()
                for item in items if not limiter.limiter.test(item, name, *keys)), default=1)  # cleared meanwhile
    wait = max(1, math.ceil(wait))
    g.retry_after = wait
    raise RateLimited(_("%(reason)s Wait %(duration)s and try again.", reason=str(WORDS[name]),
                        duration=_duration(wait)), wait)


def _duration(seconds: int) -> str:
    if seconds < 90:
        return _("%(count)s seconds", count=seconds)
    if seconds < 5400:
        return _("%(count)s minutes", count=round(seconds / 60))
    return _("%(count)s hours", count=round(seconds / 3600))


def _run(action: str, name: str, keys) -> None:
    """One limit action; a counter store that cannot be reached lets the request through (and says so in
    the log) rather than stopping the event."""
    if not _enabled():
        return
    keys = tuple(str(k) for k in keys)
    items = _items(name)
    strategy = limiter.limiter
    try:
        if action == "check":
            allowed = all(strategy.test(item, name, *keys) for item in items)
        elif action == "spend":
            spent = g.setdefault("throttle_spent", {})     # a request retried after a conflict spends once
            if (name, keys) not in spent:
                spent[(name, keys)] = all([strategy.hit(item, name, *keys) for item in items])
            allowed = spent[(name, keys)]
        else:
            for item in items:
                (strategy.hit if action == "count" else strategy.clear)(item, name, *keys)
            return
    except Exception as e:      # noqa: BLE001  (Redis or the database is down: fail open)
        current_app.logger.warning("rate limit %s %s not applied: %s", action, name, e.__class__.__name__)
        return
    if not allowed:
        _refuse(name, keys, items)


def check(name: str, *keys) -> None:
    """Refuse (429) when the limit is already spent, without spending any of it."""
    _run("check", name, keys)


def spend(name: str, *keys) -> None:
    """Count one try, atomically, and refuse (429) once it is over the limit: concurrent tries cannot
    get past it together."""
    _run("spend", name, keys)


def count(name: str, *keys) -> None:
    """Count a failure (a wrong code) after the fact."""
    _run("count", name, keys)


def forget(name: str, *keys) -> None:
    _run("forget", name, keys)


# ----------------------------------------------------------------- codes this browser has opened

def _code_mark(code: str) -> str:
    return hashlib.sha256(f"{current_app.secret_key}:{code}".encode()).hexdigest()[:16]


def knows_code(code: str) -> bool:
    return has_request_context() and _code_mark(code) in (session.get("codes") or ())


def remember_code(code: str) -> None:
    """A browser that opened a code's page once is not slowed by other people's wrong guesses. Only a
    keyed hash is kept: the session cookie is signed, not encrypted."""
    if not has_request_context():
        return
    mark = _code_mark(code)
    known = list(session.get("codes") or ())
    if mark not in known:
        session["codes"] = [mark, *known][:KNOWN_CODES]


def _login_mark(name: str) -> str:
    return hashlib.sha256(f"{current_app.secret_key}:login:{name.casefold()}".encode()).hexdigest()[:16]


def knows_login(name: str) -> bool:
    """This browser has logged in with this name before (the mark outlives logging out)."""
    return has_request_context() and _login_mark(name) in (session.get("logins") or ())


def remember_login(name: str) -> None:
    if not has_request_context():
        return
    mark = _login_mark(name)
    known = list(session.get("logins") or ())
    if mark not in known:
        session["logins"] = [mark, *known][:KNOWN_CODES]


def kept_marks() -> dict:
    """What a browser keeps across logging in and out: the codes it opened and the names it logged in as."""
    return {k: session[k] for k in ("codes", "logins") if has_request_context() and k in session}


def add_retry_after(response):
    """A 429 says when to try again, whichever renderer made it."""
    if response.status_code == 429 and "Retry-After" not in response.headers and g.get("retry_after"):
        response.headers["Retry-After"] = str(g.retry_after)
    return response


def log_code(code: str) -> str:
    """A code as logs may show it: a short hash, never the code."""
    return "code#" + hashlib.sha256(code.encode()).hexdigest()[:8]
