#!/usr/bin/env python
"""Card database benchmark: import time, peak memory, names resolved per second.

    .venv/bin/python scripts/bench_cards.py [--cards PATH] [--runs 3] [--big 200000]

Each import runs in a fresh process on a fresh SQLite database (or DATABASE_URL
if --database is given), so peak memory (max RSS) is that import's own. The
--big run generates an MTGJSON-shaped file of that many cards to show that
memory stays bounded whatever the file size. Figures are medians of --runs.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_CARDS = REPO.parent / "shared" / "cards" / "AtomicCards.json.gz"


def make_app(url: str):
    from tournament import create_app
    return create_app({"SQLALCHEMY_DATABASE_URI": url})


def child_import(path: str, url: str) -> None:
    from flask_migrate import upgrade
    from tournament.cards.operations import import_cards
    from tournament.extensions import db
    app = make_app(url)
    with app.app_context():
        upgrade()
        base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        result = import_cards(path)
        db.session.commit()
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"cards": result.card_count, "seconds": seconds,
                      "peak_mb": peak / 1024, "import_mb": (peak - base_rss) / 1024}))


def run_import(path: Path, url: str | None, workdir: Path) -> dict:
    db_url = url or f"sqlite:///{workdir / f'bench-{time.time_ns()}.sqlite'}"
    if url:
        reset_postgres(url)
    out = subprocess.run([sys.executable, __file__, "--child-import", str(path), "--database", db_url],
                         capture_output=True, text=True, check=True, cwd=REPO,
                         env={**os.environ, "PYTHONWARNINGS": "ignore"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def reset_postgres(url: str) -> None:
    import sqlalchemy as sa
    from tournament.config import database_url_from_env
    engine = sa.create_engine(database_url_from_env(url))
    with engine.begin() as conn:
        conn.execute(sa.text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(sa.text("CREATE SCHEMA public"))
    engine.dispose()


def generate_big_file(path: Path, count: int) -> None:
    """An MTGJSON-shaped file of `count` made-up cards, written as a stream."""
    rng = random.Random(7)
    colors = "WUBRG"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write('{"meta": {"version": "bench"}, "data": {')
        for i in range(count):
            ci = sorted(rng.sample(colors, rng.randint(0, 2)))
            face = {"name": f"Bench Card {i:06d}", "type": "Creature — Bench Golem", "types": ["Creature"],
                    "supertypes": [], "subtypes": ["Bench", "Golem"], "manaCost": "{2}" + "".join("{%s}" % c for c in ci),
                    "manaValue": 2 + len(ci), "text": "Whenever this creature attacks, scry 1. " * 3,
                    "colorIdentity": ci, "colors": ci, "layout": "normal",
                    "legalities": {"commander": "Legal", "vintage": "Legal", "duel": "Legal"}}
            out.write(("," if i else "") + json.dumps(face["name"]) + ":" + json.dumps([face]))
        out.write("}}")


def bench_resolve(url: str, runs: int) -> tuple[float, float]:
    """Names per second through DbCardPool, 100-name decks of real names as players type them."""
    import sqlalchemy as sa
    from tournament.cards.models import Card
    from tournament.cards.repository import DbCardPool
    from tournament.extensions import db
    app = make_app(url)
    with app.app_context():
        from tournament.cards.names import name_key
        names = [n for n in db.session.execute(sa.select(Card.name)).scalars() if name_key(n)]
        rng = random.Random(1)
        decks = []
        for _ in range(200):
            deck = []
            for name in rng.sample(names, 100):
                front = name.split(" // ")[0]
                deck.append(rng.choice([front, front.lower(), front.upper(), front.replace("'", "’")]))
            decks.append(deck)
        pool = DbCardPool()
        rates = []
        for _ in range(runs):
            DbCardPool.clear_cache()
            cold = time_decks(pool, decks)
            warm = time_decks(pool, decks)
            rates.append((cold, warm))
        return statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)


def time_decks(pool, decks) -> float:
    start = time.perf_counter()
    for deck in decks:
        got = pool.resolve(deck)
        assert all(got.values()), [n for n, c in got.items() if c is None][:3]
    return len(decks) * 100 / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=Path, default=DEFAULT_CARDS)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--big", type=int, default=200_000, help="cards in the generated file (0: skip)")
    ap.add_argument("--database", default=None, help="PostgreSQL URL (default: a fresh SQLite file per run)")
    ap.add_argument("--child-import", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_import:
        child_import(args.child_import, args.database)
        return

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        runs = [run_import(args.cards, args.database, tmp) for _ in range(args.runs)]
        print(f"import {args.cards.name}: {runs[0]['cards']} cards, "
              f"{statistics.median(r['seconds'] for r in runs):.1f} s, "
              f"peak RSS {statistics.median(r['peak_mb'] for r in runs):.0f} MB "
              f"(median of {args.runs}; {'PostgreSQL' if args.database else 'SQLite'})")
        db_url = args.database or f"sqlite:///{tmp / 'resolve.sqlite'}"
        if not args.database:
            subprocess.run([sys.executable, __file__, "--child-import", str(args.cards), "--database", db_url],
                           capture_output=True, check=True, cwd=REPO)
        cold, warm = bench_resolve(db_url, args.runs)
        print(f"names resolved: {cold:,.0f} per second cold (two queries per deck), {warm:,.0f} per second "
              f"with the card cache warm (one query per deck); 100-name decks, median of {args.runs}")
        if args.big:
            big = tmp / f"big-{args.big}.json.gz"
            generate_big_file(big, args.big)
            r = run_import(big, args.database, tmp)
            print(f"import generated file: {r['cards']} cards, {r['seconds']:.1f} s, peak RSS {r['peak_mb']:.0f} MB "
                  f"(bounded: compare with the {runs[0]['cards']}-card import above)")


if __name__ == "__main__":
    main()
