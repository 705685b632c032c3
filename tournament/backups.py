"""Backups of the SQLite database: after every published and finished round, and on demand.

SQLite's online backup API copies a consistent snapshot while the app keeps
serving (a WAL database: readers and writers do not wait for the copy). Backups
live in `instance/backups/`; the newest KEEP are kept. PostgreSQL is backed up
with `pg_dump` (the README gives the line).

A round's backup never runs inside the organizer's request: the commit hands
it to the worker's backup thread, which waits BACKUP_DELAY seconds (default 2)
for more changes (a publish and the start of its clock make one backup, named
after the latest), then copies with its own connection. One backup at a time
(a lock of the process and, on POSIX, a lock file shared by the workers); a
change committed while a backup runs gets another one after it, and a backup
another worker started after the change covers it (the latest state is always
backed up). The copy is written to a hidden `.part` file, flushed to disk and
renamed: a server stopped in the middle leaves no damaged backup, only a
`.part` file the next backup removes. A wanted backup is marked in
`backups/.wanted` first, so one the server stopped before making is made when
it starts again (tournament.serve). BACKUP_DELAY = None (the tests): right
after the commit, in the request, as before.
"""
from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import sqlalchemy as sa
from flask import current_app

from .errors import Refused
from .extensions import db
from .files import private_file, private_folder

KEEP = 20
NAME = re.compile(r"^\d{8}-\d{6}-\d{6}-[a-z0-9-]{1,60}\.sqlite$")


def folder() -> Path:
    return Path(current_app.instance_path) / "backups"


def sqlite_path() -> Path | None:
    """The database file, when the app runs on SQLite."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database)


def backup(reason: str = "manual") -> Path:
    """Copy the database into instance/backups/ now; returns the new file."""
    live = sqlite_path()
    if live is None:
        raise Refused("Backups here are for SQLite; for PostgreSQL use pg_dump (see the README).", status=409)
    return _copy(live, folder(), reason)


def _copy(live: Path, target_dir: Path, reason: str, unless_after: float | None = None) -> Path | None:
    """The copy itself, with a connection of its own, one at a time across the workers. None: a backup that
    began after `unless_after` (a time.time()) already holds that state, so none was made."""
    target_dir = private_folder(target_dir)
    with _one_at_a_time(target_dir):
        newest = _newest_stamp(target_dir)
        if unless_after is not None and newest is not None and newest >= unless_after:
            return None
        for stale in target_dir.glob(".*.part"):      # left by a server stopped mid-copy (we hold the lock)
            stale.unlink(missing_ok=True)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
        slug = re.sub(r"[^a-z0-9-]+", "-", reason.lower()).strip("-")[:60] or "manual"
        target = target_dir / f"{stamp}-{slug}.sqlite"
        part = private_file(target_dir / f".{target.name}.part")   # 0600 before a byte: every contact is in it
        source, dest = sqlite3.connect(live, timeout=30), sqlite3.connect(part)
        try:
            source.backup(dest)
        finally:
            dest.close()
            source.close()
        fd = os.open(part, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(part, target)
        _prune(target_dir)
        return target


_process_lock = threading.Lock()


class _one_at_a_time:
    """One backup at a time: this process's threads (a lock) and, on POSIX, every worker (a lock file)."""

    def __init__(self, target_dir: Path):
        self.path = target_dir / ".lock"

    def __enter__(self):
        _process_lock.acquire()
        self.file = None
        try:
            import fcntl
        except ImportError:         # Windows: one worker process, the thread lock is enough
            return self
        try:
            self.file = open(private_file(self.path), "r+b")
            fcntl.flock(self.file.fileno(), fcntl.LOCK_EX)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc):
        try:
            if self.file is not None:
                self.file.close()           # closing releases the flock
        finally:
            _process_lock.release()


def _newest_stamp(target_dir: Path) -> float | None:
    """When the newest backup began (its name's stamp), as a time.time()."""
    files = sorted(p.name for p in target_dir.iterdir() if NAME.match(p.name))
    if not files:
        return None
    return datetime.strptime(files[-1][:22], "%Y%m%d-%H%M%S-%f").replace(tzinfo=timezone.utc).timestamp()


def _prune(target_dir: Path) -> None:
    files = sorted(p for p in target_dir.iterdir() if NAME.match(p.name))
    for old in files[:-KEEP]:
        old.unlink(missing_ok=True)


def backups() -> list[Path]:
    d = folder()
    return sorted((p for p in d.iterdir() if NAME.match(p.name)), reverse=True) if d.exists() else []


def after_round(rnd_number: int, what: str) -> None:
    """Called once the transaction that published or finished a round has committed: the backup thread makes
    it a moment later (or, with BACKUP_DELAY = None, now)."""
    live = sqlite_path()
    if live is None:
        return
    reason = f"round-{rnd_number}-{what}"
    delay = current_app.config.get("BACKUP_DELAY", 2.0)
    if delay is None:
        try:
            backup(reason)
        except Exception:   # noqa: BLE001 - a failed backup must not fail the round; it is logged
            current_app.logger.exception("backup after round %s %s failed", rnd_number, what)
        return
    _worker_for(live, folder(), current_app.logger).want(reason, float(delay))


def resume_wanted(app) -> None:
    """At a server's start: a backup wanted (marked) but not made before the server stopped is made now."""
    with app.app_context():
        live = sqlite_path()
        if live is None:
            return
        marker = folder() / ".wanted"
        try:
            reason, wanted_at = marker.read_text().strip(), marker.stat().st_mtime
        except OSError:
            return
        newest = _newest_stamp(folder()) if folder().exists() else None
        if newest is None or newest < wanted_at:
            _worker_for(live, folder(), app.logger).want(reason or "wanted", 0.0)


def settle(timeout: float = 30.0) -> bool:
    """Wait until this process's backup threads have nothing wanted or running (tests, a clean shutdown)."""
    end = time.monotonic() + timeout
    for worker in list(_workers.values()):
        if not worker.idle.wait(max(0.0, end - time.monotonic())):
            return False
    return True


_workers: dict[tuple, "_BackupThread"] = {}
_workers_lock = threading.Lock()


def _worker_for(live: Path, target_dir: Path, logger) -> "_BackupThread":
    key = (str(live), str(target_dir))
    with _workers_lock:
        worker = _workers.get(key)
        if worker is None or not worker.thread.is_alive():
            worker = _workers[key] = _BackupThread(live, target_dir, logger)
        return worker


class _BackupThread:
    """A daemon thread per database: coalesces wanted backups and makes them off the request path."""

    def __init__(self, live: Path, target_dir: Path, logger):
        self.live, self.target_dir, self.logger = live, target_dir, logger
        self.cond = threading.Condition()
        self.wanted: tuple[str, float, float] | None = None      # (reason, wanted at, not before)
        self.idle = threading.Event()
        self.idle.set()
        self.thread = threading.Thread(target=self._run, daemon=True, name="sqlite-backup")
        self.thread.start()

    def want(self, reason: str, delay: float) -> None:
        with self.cond:
            not_before = time.monotonic() + delay
            if self.wanted is not None:
                not_before = max(self.wanted[2], not_before)
            self.wanted = (reason, time.time(), not_before)
            self.idle.clear()
            self.cond.notify()

    def _run(self) -> None:
        while True:
            with self.cond:
                while self.wanted is None:
                    self.cond.wait()
                reason = self.wanted[0]
            self._mark(reason)
            with self.cond:
                while time.monotonic() < self.wanted[2]:      # more changes may come (the clock's start)
                    self.cond.wait(self.wanted[2] - time.monotonic())
                reason, wanted_at, _not_before = self.wanted
                self.wanted = None
            self._make(reason, wanted_at)
            with self.cond:
                if self.wanted is None:
                    self.idle.set()

    def _mark(self, reason: str) -> None:
        try:
            private_folder(self.target_dir)
            private_file(self.target_dir / ".wanted").write_text(reason + "\n")
        except OSError:
            self.logger.exception("could not mark the wanted backup %s", reason)

    def _make(self, reason: str, wanted_at: float) -> None:
        try:
            _copy(self.live, self.target_dir, reason, unless_after=wanted_at)
        except Exception:   # noqa: BLE001 - a failed backup must not stop the next ones; it is logged
            self.logger.exception("backup %s failed", reason)


INTERNAL = re.compile(r"^sqlite_(sequence|stat\d|autoindex_.+)$")    # SQLite's own bookkeeping, no code


def _open_untrusted(path: Path) -> sqlite3.Connection:
    """A file nobody vouches for, read only, its schema never trusted: a view or trigger in it cannot call
    functions with side effects, and nothing in it runs while it is inspected."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.execute("PRAGMA trusted_schema = OFF")
    conn.execute("PRAGMA cell_size_check = ON")
    return conn


def _schema(conn) -> dict[tuple[str, str], str]:
    """Every object the file's schema holds, (type, name) -> its SQL with spacing evened out."""
    rows = conn.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    return {(kind, name): " ".join((sql or "").split()) for kind, name, sql in rows}


def schema_revision_of(path: Path) -> str | None:
    """The Alembic revision a SQLite file was migrated to, or None if it is not one of our databases (or damaged)."""
    try:
        conn = _open_untrusted(path)
    except sqlite3.Error:
        return None
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"alembic_version", "event", "registration", "round"} <= tables:
            return None
        if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            return None
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        return row[0] if row else None
    except sqlite3.DatabaseError:
        return None
    finally:
        conn.close()


def foreign_objects(path: Path, live: Path) -> list[str]:
    """What the file's schema holds that the live database (made by the migrations, at the same revision) does
    not: a trigger, a view, an extra table or index, or a table defined differently. A restore copies the
    schema with the rows, so any of these would run inside the app afterwards; an empty list: none."""
    theirs_conn, ours_conn = _open_untrusted(path), _open_untrusted(live)
    try:
        theirs, ours = _schema(theirs_conn), _schema(ours_conn)
    finally:
        theirs_conn.close()
        ours_conn.close()
    found = []
    for (kind, name), sql in sorted(theirs.items()):
        if INTERNAL.match(name) and kind in ("table", "index"):
            continue
        if (kind, name) not in ours:
            found.append(f"{kind} {name}")
        elif ours[(kind, name)] != sql:
            found.append(f"{kind} {name} (defined differently)")
    return found


def current_revision() -> str | None:
    return db.session.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


def restore(path: Path) -> Path:
    """Replace the live database's content with a backup of the same schema (refused otherwise).
    Returns the backup made of the database as it was, just before."""
    live = sqlite_path()
    if live is None:
        raise Refused("Restore here is for SQLite; for PostgreSQL use pg_restore (see the README).", status=409)
    if not path.is_file():
        raise Refused(f"No file at {path}.", status=404)
    theirs, ours = schema_revision_of(path), current_revision()
    if theirs is None:
        raise Refused(f"{path.name} is not a backup of this app's database (or it is damaged).")
    if theirs != ours:
        raise Refused(f"{path.name} was made with schema {theirs}; this database has {ours}. Restore it into a "
                      f"copy of the app at that version, or upgrade the backup first.")
    foreign = foreign_objects(path, live)
    if foreign:
        raise Refused(f"{path.name} holds what this app's database does not: {', '.join(foreign[:5])}"
                      f"{' …' if len(foreign) > 5 else ''}. A backup made by the app never does: nothing was "
                      f"restored. Use another backup (flask backup --list).")
    settle()
    safety = backup("before-restore")
    db.session.remove()
    db.engine.dispose()
    source = _open_untrusted(path)
    dest = sqlite3.connect(live)
    try:
        source.backup(dest)
    finally:
        source.close()
        dest.close()
    return safety
