"""Backups of the SQLite database: after every published and finished round, and on demand.

SQLite's online backup API copies a consistent snapshot while the app keeps
serving (readers and writers wait only for the page copy). Backups live in
`instance/backups/`; the newest KEEP are kept. PostgreSQL is backed up with
`pg_dump` (the README gives the line).
"""
from __future__ import annotations

import re
import sqlite3
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
    if sqlite_path() is None:
        raise Refused("Backups here are for SQLite; for PostgreSQL use pg_dump (see the README).", status=409)
    target_dir = private_folder(folder())
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
    slug = re.sub(r"[^a-z0-9-]+", "-", reason.lower()).strip("-")[:60] or "manual"
    target = target_dir / f"{stamp}-{slug}.sqlite"
    private_file(target)       # 0600 before a byte is written: every contact and access code is in it
    raw = db.engine.raw_connection()
    try:
        dest = sqlite3.connect(target)
        try:
            raw.driver_connection.backup(dest)
        finally:
            dest.close()
    finally:
        raw.close()
    _prune(target_dir)
    return target


def _prune(target_dir: Path) -> None:
    files = sorted(p for p in target_dir.iterdir() if NAME.match(p.name))
    for old in files[:-KEEP]:
        old.unlink(missing_ok=True)


def backups() -> list[Path]:
    d = folder()
    return sorted((p for p in d.iterdir() if NAME.match(p.name)), reverse=True) if d.exists() else []


def after_round(rnd_number: int, what: str) -> None:
    """Called once the transaction that published or finished a round has committed."""
    if sqlite_path() is None:
        return
    try:
        backup(f"round-{rnd_number}-{what}")
    except Exception:   # noqa: BLE001 - a failed backup must not fail the round; it is logged
        current_app.logger.exception("backup after round %s %s failed", rnd_number, what)


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
