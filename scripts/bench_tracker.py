"""Benchmark: one tracker tap costs the same early and late in a game.

    .venv/bin/python scripts/bench_tracker.py [--taps 1000] [--database URL]

Creates (in a fresh temporary SQLite database unless --database is given; the
schema is migrated there first) an event with four players, pairs and
publishes round 1 and starts the pod's game, all through the real operations.
Then, in one app context, it applies N life taps through
tournament.games.operations.apply_action, each followed by what the tracker's
request does after it (load_state + to_json) and a commit, as one request
would. It prints the median milliseconds per tap for taps 1-100 and for the
last 100, and (for comparison with the old design, which folded the whole
log on every tap) how long one fold of the final log takes. Goal: the last
taps cost the same order of magnitude as the first (ratio under 3).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tournament import create_app  # noqa: E402
from tournament.config import database_url_from_env  # noqa: E402


def setup(app):
    """Organizer, event, four checked-in players, round 1 published, the pod's game started: (table id, players)."""
    from flask_migrate import upgrade

    from tournament.auth.operations import create_user
    from tournament.events import operations as events
    from tournament.extensions import db
    from tournament.games import operations as games
    from tournament.rounds import operations as rounds

    upgrade()
    organizer = create_user(f"bench-{time.time_ns()}", "benchmark password", "organizer")
    event = events.create_event(organizer, {"name": "Tracker benchmark", "ruleset": "edh-2010"})
    regs = [events.register_player(event, {"name": f"Player {i}"}) for i in range(1, 5)]
    for reg in regs:
        events.check_in(reg, organizer)
    rnd = rounds.pair_next_round(event, organizer, seed=1, override_decks=True)
    rounds.publish_round(rnd, organizer)
    table = rnd.tables[0]
    games.start_game(table, user=organizer, seed=1)
    db.session.commit()
    return organizer.id, table.id, [s.registration_id for s in table.seats]


def tap_times(app, user_id: int, table_id: int, players: list[int], taps: int) -> list[float]:
    from tournament.auth.models import User
    from tournament.extensions import db
    from tournament.games import operations as games
    from tournament.rounds.models import GameTable

    times = []
    for i in range(taps):
        t = time.perf_counter()
        table = db.session.get(GameTable, table_id)
        user = db.session.get(User, user_id)
        delta = -1 if (i // len(players)) % 2 == 0 else 1          # nobody leaves the game
        games.apply_action(table, "life", {"player": players[i % len(players)], "delta": delta}, user=user)
        games.load_state(table).to_json()
        db.session.commit()
        times.append((time.perf_counter() - t) * 1000)
    return times


def fold_time(table_id: int) -> tuple[float, int]:
    """Milliseconds for one fold of the table's whole live log (what every tap used to do), and its length."""
    from tournament.extensions import db
    from tournament.games import operations as games
    from tournament.rounds.models import GameTable

    table = db.session.get(GameTable, table_id)
    t = time.perf_counter()
    rows = games._rows(table)
    games._replay(rows)
    return (time.perf_counter() - t) * 1000, len(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--taps", type=int, default=1000)
    ap.add_argument("--database", help="database URL (default: a fresh temporary SQLite file)")
    args = ap.parse_args(argv)
    if args.taps < 200:
        ap.error("--taps must be at least 200 (the first and the last 100 are compared)")

    with tempfile.TemporaryDirectory(prefix="bench-tracker-") as tmp:
        url = database_url_from_env(args.database) or f"sqlite:///{Path(tmp) / 'bench.sqlite'}"

        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "benchmark", "INSTANCE_PATH": tmp})
        with app.app_context():
            dialect = app.extensions["sqlalchemy"].engine.dialect.name
            user_id, table_id, players = setup(app)
            times = tap_times(app, user_id, table_id, players, args.taps)
            fold_ms, events = fold_time(table_id)
            app.extensions["sqlalchemy"].session.remove()
            app.extensions["sqlalchemy"].engine.dispose()
    first = statistics.median(times[:100])
    last = statistics.median(times[-100:])
    name = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}.get(dialect, dialect)
    print(f"tracker taps ({name}): median {first:.2f} ms for taps 1-100, {last:.2f} ms for taps "
          f"{args.taps - 99}-{args.taps} (ratio {last / first:.2f}); total {sum(times) / 1000:.1f} s for "
          f"{args.taps} taps")
    print(f"one fold of the whole log ({events} events), which every tap used to do: {fold_ms:.1f} ms")
    return 0 if last / first < 3 else 1


if __name__ == "__main__":
    sys.exit(main())
