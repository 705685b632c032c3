"""Changing the card database: imports. One transaction per import."""
from __future__ import annotations

import os
import tempfile
import urllib.request
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable

import sqlalchemy as sa

from ..extensions import db
from .domain import Card
from .importers import STARTER_FILE, CardFileError, read_cards
from .models import Card as CardRow, CardImport, CardName, card_to_row
from .names import keys_for


@dataclass(frozen=True)
class ImportResult:
    source: str
    filename: str
    card_count: int      # cards in the file, all stored
    total_cards: int     # cards in the database afterwards
    seconds: float


def _upsert(session, table, rows: list[dict], conflict: list[str], update: list[str] | None, returning=None):
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    else:  # pragma: no cover
        raise RuntimeError(f"Unsupported database {dialect}")
    stmt = insert(table)
    if update:
        stmt = stmt.on_conflict_do_update(index_elements=conflict, set_={c: stmt.excluded[c] for c in update})
    else:
        stmt = stmt.on_conflict_do_nothing(index_elements=conflict)
    if returning is not None:
        return session.execute(stmt.returning(*returning), rows).all()
    session.execute(stmt, rows)
    return None


def _store_batch(session, batch: list[Card]) -> None:
    now = datetime.now(timezone.utc)
    rows = [{**card_to_row(c), "updated_at": now} for c in batch]
    update = [k for k in rows[0] if k != "name"]
    table = CardRow.__table__
    ids = dict((name, id_) for id_, name in _upsert(
        session, table, rows, ["name"], update, returning=[table.c.id, table.c.name]))
    session.execute(sa.delete(CardName).where(CardName.card_id.in_(list(ids.values()))))
    names = [{"key": k, "card_id": ids[c.name], "priority": p} for c in batch for k, p in keys_for(c)]
    if names:
        session.execute(sa.insert(CardName.__table__), names)


def import_cards(path: str | os.PathLike, source: str | None = None,
                 progress: Callable[[int], None] | None = None, batch_size: int = 2000,
                 cards: Iterable[Card] | None = None) -> ImportResult:
    """Store every card of a file, updating cards already present by name.

    Runs in the caller's transaction and flushes; on any error the caller
    rolls back and the card data stays as it was.
    """
    session = db.session
    started = datetime.now(timezone.utc)
    stream = cards if cards is not None else read_cards(path)
    batch: list[Card] = []
    seen: set[str] = set()
    count = 0
    for card in stream:
        if card.name in seen:
            continue
        seen.add(card.name)
        batch.append(card)
        if len(batch) >= batch_size:
            _store_batch(session, batch)
            count += len(batch)
            batch.clear()
            if progress:
                progress(count)
    if batch:
        _store_batch(session, batch)
        count += len(batch)
    if not count:
        raise CardFileError(f"{Path(path).name} holds no cards.")
    filename = Path(path).name
    session.add(CardImport(source=source or _guess_source(path), filename=filename, card_count=count,
                           started_at=started, finished_at=datetime.now(timezone.utc)))
    session.flush()
    total = session.execute(sa.select(sa.func.count()).select_from(CardRow)).scalar()
    return ImportResult(source or _guess_source(path), filename, count, total,
                        (datetime.now(timezone.utc) - started).total_seconds())


def _guess_source(path) -> str:
    name = Path(path).name.lower()
    if name == STARTER_FILE.name:
        return "starter"
    return "scryfall" if ("oracle" in name or "default" in name or "scryfall" in name) else "mtgjson"


def load_starter_cards_if_empty() -> ImportResult | None:
    """A fresh database gets the project's starter cards so the demo runs offline."""
    if db.session.execute(sa.select(CardRow.id).limit(1)).first():
        return None
    return import_cards(STARTER_FILE, source="starter")


def card_status() -> dict:
    """What the first page shows: how many cards, from which file, when."""
    total = db.session.execute(sa.select(sa.func.count()).select_from(CardRow)).scalar()
    last = db.session.execute(sa.select(CardImport).order_by(CardImport.id.desc()).limit(1)).scalar()
    return {"total": total, "last_import": last}


def download_card_file(source: str, urls: dict, dest_dir: str | os.PathLike,
                       on_start: Callable[[int | None], None] | None = None,
                       on_chunk: Callable[[int], None] | None = None, timeout: float = 60) -> Path:
    """Fetch the current bulk file to dest_dir. Scryfall's URL is an index naming the file."""
    if source not in urls:
        raise CardFileError(f"Unknown source {source!r}; choose one of {', '.join(urls)}.")
    url = urls[source]
    try:
        if source == "scryfall":
            with urllib.request.urlopen(_request(url), timeout=timeout) as resp:
                index = json.load(resp)
            url = index.get("download_uri") or ""
            if not url:
                raise CardFileError("Scryfall's bulk-data answer has no download_uri.")
        suffix = ".json.gz" if url.endswith(".gz") else ".json"
        fd, tmp = tempfile.mkstemp(prefix=f"{source}-", suffix=suffix, dir=dest_dir)
        try:
            with os.fdopen(fd, "wb") as out, urllib.request.urlopen(_request(url), timeout=timeout) as resp:
                length = resp.headers.get("Content-Length")
                if on_start:
                    on_start(int(length) if length and length.isdigit() else None)
                while chunk := resp.read(1 << 16):
                    out.write(chunk)
                    if on_chunk:
                        on_chunk(len(chunk))
        except BaseException:
            os.unlink(tmp)
            raise
        final = Path(dest_dir) / (("AtomicCards" if source == "mtgjson" else "oracle-cards") + suffix)
        os.replace(tmp, final)
        return final
    except (OSError, ValueError) as e:
        raise CardFileError(f"Download from {url} failed: {e}. Check the connection, or import a file "
                            f"you downloaded elsewhere with `flask cards import PATH`.") from e


def _request(url: str) -> urllib.request.Request:
    return urllib.request.Request(url, headers={"User-Agent": "edh-tournament/1.0", "Accept": "*/*"})
