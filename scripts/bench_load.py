#!/usr/bin/env python3
"""A round start at the venue: 300 (or 2,000) phones and 5 projectors on the server scripts/run uses, the
organizer pressing "Publish and start" in the middle of it, then a result storm; beside the floor.

    .venv/bin/python scripts/bench_load.py [--clients 300] [--seconds 60] [--database-url URL --reset] [--json]
    .venv/bin/python scripts/bench_load.py --clients 2000 --json
    .venv/bin/python scripts/bench_load.py --balancer --database-url postgresql://... --reset --json
    .venv/bin/python scripts/bench_load.py --swap-storm [--clients 300] [--json]   (scripts/bench_storms.py)
    .venv/bin/python scripts/bench_load.py --locked-database [--clients 40] [--json]

1. Builds a pods event of `--clients` players with decklists (a fresh SQLite database, or the PostgreSQL
   database given, wiped first with --reset) and pairs round 1 as a draft.
2. The floor (skip with --no-floor): the same phones, projectors and organizer against a trivial app that
   answers the same requests on the very same server (scripts/bench_hall.py), so each figure can be read as
   a ratio to it (`floor`, `ratios`).
3. Starts `python -m tournament.serve` (waitress, its real workers and threads; with --balancer:
   scripts/cluster, two app servers behind HAProxy sharing PostgreSQL and Redis) on 127.0.0.1.
4. Every client opens its own player page (its own access code and cookies) within 10 s (300 phones; a bigger
   hall as densely: 2,000 within 67 s) and polls it
   the way the page's script does (its round box every 3 s, with the page's ETag), beside 5 projectors; the
   organizer, logged in over HTTP, presses "Publish and start" (`publish_and_start_ms`), which changes every
   page at once (the round start), and during the burst opens the round page and the dashboard
   (`round_page_ms`, `dashboard_ms`); the polling goes on for `--seconds`.
5. The result storm: at every table the first player reports, the others confirm and everyone votes,
   every tap sent twice, all at once. Every tap goes as static/outbox.js sends it (X-Script: outbox):
   one that waited 5 s in the server's queue is answered "busy" (nothing stored) and sent again after
   Retry-After (`storm_busy_resent`), one whose connection dropped at the next poll (`storm_dropped_resent`);
   the storm's figures are the time until each tap was stored; a tap still waiting after 30 s is an error.
6. Checks the database against what every client was told, and that the server is still running.

Prints latency percentiles of the clients from the moment round 1 is published (`p50_ms`, `p95_ms`,
`p99_ms`: the round-start burst included; `steady_p95_ms`: after it), how long after the publish request was
sent the last phone showed round 1 (`update_seconds_max`), the storm's own figures (`storm_*`:
1,200 posts sent at the same instant queue behind each other, so their p95 is about the storm's length),
and lost or duplicated writes. Every refused storm tap counts as an error. A phone's read answered 503 (it
waited 5 s in the queue: tournament/web/lanes.py) is not an error: it is counted in the statuses, and the
phone asks again as the page does (after Retry-After; a poll, X-Script: poll, is shed after 1 s in the queue).
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tournament.rounds.views import REFRESH_SECONDS as POLL_SECONDS   # as often as the pages' script asks
sys.path.insert(0, str(REPO / "scripts"))
from bench_hall import balancer_command, bench_round, floor_command, organizer, wait_until_up  # noqa: E402
RAMP_SECONDS = 10         # the phones open their pages during check-in, 300 within 10 s (more: as densely, so
                          # 2,000 within 67 s), before round 1 is published; publishing it changes every page
                          # at once: the round-start burst
RAMP_PHONES = 300
# one TLS context for every client (the phones speak plain HTTP here, but each httpx client would build its own:
# about 12 ms each, so 2,000 phones started their check-in 24 s late, some after the round was published)
TLS = ssl.create_default_context()
OUTBOX = {"X-Script": "outbox"}     # how static/outbox.js sends a kept report, confirmation or vote
STORM_GIVE_UP_SECONDS = 120


def ramp_seconds(clients: int) -> float:
    """How long check-in takes: 300 phones open their pages within 10 s (a rush no real desk makes), a bigger
    hall as densely, so the round start is measured after check-in, not in the middle of it."""
    return RAMP_SECONDS * max(1.0, clients / RAMP_PHONES)
PROJECTORS = 5
CSRF = re.compile(r'<input[^>]*name="csrf_token"[^>]*value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(url: str, instance: str, players: int, reset: bool) -> dict:
    """Schema, cards, an organizer, and round 1 of a pods event with decklists, paired as a draft."""
    if reset and url.startswith("postgres"):
        prepare_reset(url)

    def extract(event, rnd, regs):
        tables = [{"id": t.id, "number": t.number, "seats": [(s.registration_id, s.registration.access_code)
                                                             for s in t.seats]}
                  for t in rnd.tables if t.kind == "pod"]
        return {"event": event.id, "tables": tables, "codes": [r.access_code for r in regs], "round": rnd.id}
    return bench_round(url, instance, players, "Load test", extract)


def publish(round_id: int) -> None:
    """The organizer publishes and starts round 1 while every phone is open on its page."""
    from tournament import create_app
    from tournament.auth.models import User
    from tournament.extensions import db
    from tournament.rounds import operations as rounds
    from tournament.rounds.models import Round
    import sqlalchemy as sa
    app = create_app()
    with app.app_context():
        olga = db.session.execute(sa.select(User).where(User.name == "Olga Bench")).scalar_one()
        rnd = db.session.get(Round, round_id)
        rounds.publish_round(rnd, olga)
        rounds.start_round(rnd, olga)
        db.session.commit()
        db.session.remove()
        db.engine.dispose()


def poll_cost_ms(samples: int = 2000) -> float:
    """Server CPU for one poll that finds nothing changed (a 304), in this process, median of 5 batches."""
    from tournament import create_app
    from tournament.extensions import db
    app = create_app()
    with app.app_context():
        from tournament.events.models import Registration
        import sqlalchemy as sa
        code = db.session.execute(sa.select(Registration.access_code).limit(1)).scalar()
        db.session.remove()
    client = app.test_client()
    tag = client.get(f"/p/{code}").headers["ETag"]
    batches = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(samples // 5):
            assert client.get(f"/p/{code}", headers={"If-None-Match": tag}).status_code == 304
        batches.append((time.process_time() - start) * 1000 / (samples // 5))
    return statistics.median(batches)


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.started: list[float] = []
        self.errors: list[str] = []
        self.statuses: dict[int, int] = {}
        self.busy = 0                   # storm taps answered "busy" and sent again
        self.dropped = 0                # storm taps whose connection dropped, sent again

    def add(self, ms: float, status: int | None, what: str = "") -> None:
        self.latencies.append(ms)
        self.started.append(time.time() - ms / 1000)
        if status is None or (status >= 500 and status != 503):
            self.errors.append(f"{what}: {status}")
        else:
            self.statuses[status] = self.statuses.get(status, 0) + 1


async def timed(stats: Stats, client: httpx.AsyncClient, method: str, url: str, **kw):
    start = time.perf_counter()
    try:
        response = await client.request(method, url, **kw)
    except httpx.HTTPError as e:
        stats.add((time.perf_counter() - start) * 1000, None, f"{method} {url} {e.__class__.__name__}")
        return None
    stats.add((time.perf_counter() - start) * 1000, response.status_code, f"{method} {url}")
    return response


async def phone(base: str, code: str, opening: Stats, stats: Stats, until: float, clients: dict,
                published: asyncio.Event, updated: dict, ramp: float = RAMP_SECONDS) -> None:
    """Open the page during check-in (with its style sheet and script), then poll its round box as rounds.js
    does (`/p/<code>/round` with the page's ETag)."""
    client = httpx.AsyncClient(base_url=base, timeout=30, headers={"Accept-Encoding": "gzip"}, verify=TLS)
    clients[code] = client
    await asyncio.sleep(random.uniform(0, ramp))
    r = await timed(opening, client, "GET", f"/p/{code}")
    while r is not None and r.status_code == 503 and time.time() < until:     # busy: the page reloads itself
        await asyncio.sleep(float(r.headers.get("Retry-After", 2)))
        r = await timed(opening, client, "GET", f"/p/{code}")
    for asset in ("/static/style.css", "/static/rounds.js"):
        await timed(opening, client, "GET", asset)
    tag = r.headers.get("ETag") if r is not None else None
    if r is not None and "Your round: round 1" in r.text:       # opened slowly enough to see round 1 already
        updated.setdefault(code, time.time())
    wait, told = POLL_SECONDS + random.uniform(-0.3, 0.3), 0
    while time.time() < until:
        await asyncio.sleep(wait)
        counted = stats if published.is_set() else opening
        r = await timed(counted, client, "GET", f"/p/{code}/round",
                        headers={"X-Script": "poll", **({"If-None-Match": tag} if tag else {}),
                                 **({"X-Told-Busy": str(told)} if told else {})})
        wait = POLL_SECONDS + random.uniform(-0.3, 0.3)
        told = told + 1 if busy_for(r) else 0
        if busy_for(r):                         # as rounds.js: keep the table, ask again after Retry-After
            wait = busy_for(r) + random.random()
        if r is not None and r.status_code == 200:
            tag = r.headers.get("ETag", tag)
            if "Your round: round 1" in r.text:
                updated.setdefault(code, time.time())


def busy_for(r) -> float:
    """The seconds our busy server asked for (503 with Retry-After, tournament/web/lanes.py), else 0."""
    if r is None or r.status_code != 503:
        return 0.0
    try:
        return float(r.headers.get("Retry-After", 0))
    except ValueError:
        return 0.0


async def projector(base: str, event_id: int, stats: Stats, until: float) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        r = await timed(stats, client, "GET", f"/events/{event_id}/projector")
        tag = r.headers.get("ETag") if r is not None else None
        while time.time() < until:
            await asyncio.sleep(POLL_SECONDS)
            r = await timed(stats, client, "GET", f"/events/{event_id}/projector",
                            headers={"If-None-Match": tag} if tag else {})
            if r is not None and r.status_code == 200:
                tag = r.headers.get("ETag", tag)


async def csrf_of(client: httpx.AsyncClient, code: str) -> str:
    page = await client.get(f"/p/{code}")
    while page.status_code == 503:                  # busy: the page reloads itself after Retry-After
        await asyncio.sleep(float(page.headers.get("Retry-After", 2)))
        page = await client.get(f"/p/{code}")
    match = CSRF.search(page.text)
    return match.group(1) if match else ""


async def storm(data: dict, clients: dict, stats: Stats) -> list[tuple]:
    """Every table reports, confirms and votes at once, every tap twice; returns (kind, key, status)."""
    tokens = dict(zip(clients, await asyncio.gather(*(csrf_of(c, code) for code, c in clients.items()))))

    async def post(kind, key, code, url, form):
        """As static/outbox.js sends a kept report, confirmation or vote: a busy answer (nothing stored) is sent
        again after its Retry-After, one lost on the way (the connection dropped) at the page's next poll; the
        figure is the time until the tap was stored. A timeout (30 s) is an error."""
        started, busy = time.perf_counter(), 0
        while True:
            wait, failure = 0.0, ""
            try:
                r = await clients[code].post(url, data={**form, "csrf_token": tokens[code]}, headers=OUTBOX)
                wait = busy_for(r)
            except httpx.TimeoutException as e:
                r, failure = None, e.__class__.__name__
            except httpx.TransportError as e:         # e.g. a kept-alive connection closed as the tap went
                r, failure, wait = None, e.__class__.__name__, POLL_SECONDS
                stats.dropped += 1
            if not wait or time.perf_counter() - started > STORM_GIVE_UP_SECONDS:
                break
            busy += r is not None
            await asyncio.sleep(wait * (1 + random.random()) if r is not None else wait + random.random())
        status = r.status_code if r is not None else None
        stats.add((time.perf_counter() - started) * 1000, status, f"POST {url}" + ("" if r is not None else f" {failure}"))
        stats.busy += busy
        if r is not None and r.status_code >= 400:
            stats.errors.append(f"POST {url}: {r.status_code} (every tap of the storm is one a player may make)")
        return kind, key, status

    reports, rest = [], []
    for t in data["tables"]:
        (first, code), ids = t["seats"][0], [rid for rid, _c in t["seats"]]
        form = {"r-round": "1", "r-table": str(t["number"]), "r-revision": "0", "r-survivors": [str(first)]}
        reports += [("report", (t["id"], first), code, f"/p/{code}/result", form)] * 2
        for i, (rid, c) in enumerate(t["seats"]):
            votee = ids[(i + 1) % len(ids)]
            rest += [("vote", (t["id"], rid, votee), c, f"/p/{c}/vote",
                      {"round": "1", "table": str(t["number"]), "votee": str(votee)})] * 2
            if i:
                rest += [("confirm", (t["id"], rid), c, f"/p/{c}/confirm",
                          {"round": "1", "table": str(t["number"]), "revision": "1"})] * 2
    done = await asyncio.gather(*(post(*job) for job in reports))
    return done + await asyncio.gather(*(post(*job) for job in rest))


def verify(url: str, data: dict, told: list[tuple]) -> tuple[int, int]:
    """(lost, duplicated): acknowledged writes missing from the database, and writes stored twice."""
    import sqlalchemy as sa
    from tournament import create_app
    from tournament.extensions import db
    from tournament.rounds.models import ResultConfirmation, ResultReport, Vote
    app = create_app()
    with app.app_context():
        confirmations = db.session.execute(sa.select(ResultConfirmation.table_id,
                                                     ResultConfirmation.registration_id)).all()
        votes = db.session.execute(sa.select(Vote.table_id, Vote.voter_id, Vote.votee_id)).all()
        reports = db.session.execute(sa.select(ResultReport.table_id)).scalars().all()
    stored = {"confirm": set(map(tuple, confirmations)), "vote": set(map(tuple, votes)),
              "report": {(t["id"], t["seats"][0][0]) for t in data["tables"] if t["id"] in set(reports)}}
    lost = sum(1 for kind, key, status in told if status is not None and 200 <= status < 400
               and key not in stored[kind])
    duplicated = (len(confirmations) - len(stored["confirm"])) + (len(votes) - len({(t, v) for t, v, _ in votes})) \
        + (len(reports) - len(set(reports)))
    return lost, duplicated


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return round(values[min(len(values) - 1, int(len(values) * p / 100))], 1)


async def run(args, base: str, data: dict, floor: bool = False) -> dict:
    """One pass: the phones open and poll, the organizer publishes and starts round 1 over HTTP, then (not on
    the floor) the result storm."""
    opening, stats = Stats(), Stats()
    published = asyncio.Event()
    updated: dict[str, float] = {}
    committed: list[float] = []
    clients: dict = {}
    codes = data["codes"][:args.clients]
    gc.collect()
    gc.freeze()                     # the clients' own objects: with 2,000 phones' clients alive, Python's
    gc.set_threshold(100_000, 50, 100)  # collector scanning them all again and again would stall the clients' loop
    ramp = ramp_seconds(len(codes))
    quiet = ramp + 3 * POLL_SECONDS                 # check-in: every page open, polling, before the round
    until = time.time() + quiet + args.seconds

    desk: dict = {}
    lags: list[float] = []
    await asyncio.gather(loop_lag(until, published, lags), organizer(base, data, floor, quiet, published, committed, desk),
                         *(phone(base, c, opening, stats, until, clients, published, updated, ramp) for c in codes),
                         *(projector(base, data["event"], stats, until) for _ in range(PROJECTORS)))
    poll_seconds = args.seconds
    poll_latencies = list(stats.latencies)
    steady = [ms for ms, at in zip(stats.latencies, stats.started) if at > until - args.seconds + 2 * POLL_SECONDS]
    storm_stats = Stats()
    storm_started = time.perf_counter()
    told = [] if floor else await storm(data, clients, storm_stats)
    storm_seconds = time.perf_counter() - storm_started
    for c in clients.values():
        await c.aclose()
    return {"stats": stats, "storm": storm_stats, "told": told, "poll_seconds": poll_seconds, "desk": desk,
            "storm_seconds": storm_seconds, "poll_latencies": poll_latencies,
            "steady": steady, "opening": opening, "updated": len(updated),
            "update_seconds_max": round(max(updated.values()) - committed[0], 1) if updated and committed else None,
            "update_seconds_p95": (round(percentile([t - committed[0] for t in updated.values()], 95), 1)
                                   if updated and committed else None),
            "client_lag_p95_ms": percentile(lags, 95), "client_lag_max_ms": round(max(lags, default=0.0), 1)}


async def loop_lag(until: float, published: asyncio.Event, lags: list[float]) -> None:
    """How late the clients' own event loop wakes a 0.1 s sleep after the publish: when it is late by
    seconds, the clients, not the server, are what delays a phone (one process drives every phone)."""
    while time.time() < until:
        began = time.perf_counter()
        await asyncio.sleep(0.1)
        if published.is_set():
            lags.append((time.perf_counter() - began - 0.1) * 1000)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=300)
    p.add_argument("--seconds", type=int, default=60)
    p.add_argument("--database-url", default=None, help="PostgreSQL (needs --reset: the database is wiped)")
    p.add_argument("--reset", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--balancer", action="store_true", help="two app servers behind HAProxy (scripts/cluster), "
                                                           "PostgreSQL and Redis (REDIS_URL, default db 6)")
    p.add_argument("--no-floor", action="store_true", help="skip the floor: the same load on a trivial app first")
    p.add_argument("--floor-only", action="store_true", help="only the floor: what these clients and this server "
                                                               "manage with a trivial app (the harness's own limit)")
    p.add_argument("--swap-storm", action="store_true", help="instead: every client submits a sideboard swap at "
                                                               "the same instant (scripts/bench_storms.py)")
    p.add_argument("--locked-database", action="store_true", help="instead: another program holds SQLite's write "
                                                                    "lock for 15 s while every client submits a swap "
                                                                    "and polls (scripts/bench_storms.py)")
    args = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-load-")
    url = args.database_url or f"sqlite:///{tmp}/load.sqlite"
    if args.database_url and not args.reset:
        p.error("--database-url wipes that database: add --reset to confirm")
    if args.swap_storm or args.locked_database:
        return swap_storm_main(args, url, tmp)
    if args.balancer and not url.startswith("postgres"):
        p.error("--balancer runs two app servers on one database: give a PostgreSQL --database-url with --reset")
    data = prepare(url, tmp, args.clients, args.reset)
    cost = poll_cost_ms()
    floor = None if args.no_floor else serve_and_run(args, tmp, url, data, floor=True)
    if args.floor_only:
        print(json.dumps({k: v for k, v in figures(args, url, floor[0], cost, floor[1], 0, 0).items()
                          if k in FLOOR_FIGURES + ("clients", "requests")}))
        return 0
    result, alive = serve_and_run(args, tmp, url, data)
    lost, duplicated = verify(url, data, result["told"])
    out = figures(args, url, result, cost, alive, lost, duplicated)
    if floor is not None:
        out["floor"] = {k: v for k, v in figures(args, url, floor[0], cost, floor[1], 0, 0).items()
                        if k in FLOOR_FIGURES}
        out["ratios"] = {k: round(out[k] / out["floor"][k], 2) if out["floor"].get(k) else None
                         for k in FLOOR_FIGURES if isinstance(out.get(k), (int, float))}
    if args.json:
        out["error_samples"] = sorted({re.sub(r"/p/\w+", "/p/<code>", e) for e in result["errors"]})[:5]
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:22} {v}")
        for e in result["errors"][:10]:
            print("error:", e)
    return 0 if out["errors"] == 0 and lost == 0 and duplicated == 0 and alive else 1


FLOOR_FIGURES = ("p50_ms", "p95_ms", "p99_ms", "steady_p95_ms", "opening_p95_ms", "update_seconds_max",
                 "update_seconds_p95", "client_lag_p95_ms", "client_lag_max_ms",
                 "publish_and_start_ms", "round_page_ms", "dashboard_ms", "errors", "phones_updated")


def serve_and_run(args, tmp: str, url: str, data: dict, floor: bool = False) -> tuple[dict, bool]:
    """Start the server (the app, the app behind the balancer, or the floor on the same server), run one pass,
    stop it; (what the pass measured, whether the server was still running at its end)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "INSTANCE_PATH": tmp, "SECRET_KEY": "bench-load",
           "PUBLIC_URL": f"http://127.0.0.1:{port}"}
    if args.balancer:
        env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/6")
    if floor:
        command = floor_command(tmp, port)
    elif args.balancer:
        command = balancer_command(port)
    else:
        command = [sys.executable, "-m", "tournament.serve", "--port", str(port)]
    log = open(Path(tmp) / ("floor.log" if floor else "server.log"), "wb")
    server = subprocess.Popen(command, env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, server)
        result = asyncio.run(run(args, base, data, floor=floor))
        alive = server.poll() is None
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    result["errors"] = result["stats"].errors + result["storm"].errors + result["opening"].errors
    return result, alive


def figures(args, url: str, result: dict, cost: float, alive: bool, lost: int, duplicated: int) -> dict:
    stats, storm_stats, polls = result["stats"], result["storm"], result["poll_latencies"]
    return {"clients": args.clients, "requests": len(polls), "rps": round(len(polls) / result["poll_seconds"], 1),
            "p50_ms": percentile(polls, 50), "p95_ms": percentile(polls, 95), "p99_ms": percentile(polls, 99),
            "steady_p95_ms": percentile(result["steady"], 95), "steady_requests": len(result["steady"]),
            "opening_p95_ms": percentile(result["opening"].latencies, 95),
            "opening_requests": len(result["opening"].latencies),
            "phones_updated": result["updated"], "update_seconds_max": result["update_seconds_max"],
            "update_seconds_p95": result["update_seconds_p95"], "client_lag_p95_ms": result["client_lag_p95_ms"],
            "client_lag_max_ms": result["client_lag_max_ms"],
            **result["desk"],
            "errors": len(result["errors"]), "lost_writes": lost, "duplicate_writes": duplicated,
            "storm_requests": len(storm_stats.latencies), "storm_seconds": round(result["storm_seconds"], 2),
            "storm_p50_ms": percentile(storm_stats.latencies, 50),
            "storm_p95_ms": percentile(storm_stats.latencies, 95), "storm_statuses": storm_stats.statuses,
            "storm_busy_resent": storm_stats.busy, "storm_dropped_resent": storm_stats.dropped,
            "poll_statuses": stats.statuses, "poll_304_cpu_ms": round(cost, 3), "server_alive": alive,
            "balancer": bool(args.balancer), "database": "postgresql" if url.startswith("postgres") else "sqlite"}


def swap_storm_main(args, url: str, tmp: str) -> int:
    from bench_storms import locked_database, swap_storm
    if args.locked_database:
        if url.startswith("postgres"):
            sys.exit("--locked-database holds SQLite's write lock: run it on SQLite")
        out = locked_database(url, tmp, free_port(), args.clients)
        ok = out["lost_or_duplicated"] == 0 and out["server_alive"] and out["read_statuses"].keys() <= {"200", "304"}
    else:
        if args.reset and url.startswith("postgres"):
            prepare_reset(url)
        out = swap_storm(url, tmp, free_port(), args.clients)
        ok = out["timeouts"] == 0 and out["lost_or_duplicated"] == 0 and out["server_alive"]
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:30} {v}")
    return 0 if ok else 1


def prepare_reset(url: str) -> None:
    import sqlalchemy as sa
    from tournament.config import database_url_from_env
    engine = sa.create_engine(database_url_from_env(url))
    with engine.begin() as conn:
        conn.execute(sa.text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(sa.text("CREATE SCHEMA public"))
    engine.dispose()


if __name__ == "__main__":
    sys.exit(main())
