"""The swap storm through the real server (`scripts/bench_load.py --swap-storm`): every phone of a started round
submits a sideboard swap at the same instant, the way swap.js posts it (`POST /api/v1/players/<code>/swaps`).

Prints the latency of the submits (p50, p95, max), how many timed out (60 s, as a phone's browser gives up),
the statuses, and checks the database against what every phone was told: an acknowledged swap (200) is stored
exactly once, a refused or unanswered one (503 "busy, retrying", a timeout) is not stored at all.
"""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import httpx

from bench_hall import bench_round

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 60.0
SIDEBOARD = ["Lightning Bolt", "Goblin Piker", "Riftsweeper", "Grindstone", "Boros Guildmage"]


def _deck() -> tuple[str, str]:
    """The demo Kenrith list with a sideboard, and a main-deck card each phone swaps out."""
    text = (REPO / "tournament" / "data" / "demo_decks" / "kenrith.txt").read_text(encoding="utf-8").rstrip()
    lines = text.split("Deck", 1)[1].splitlines()
    names = [line.split(" ", 1)[1].strip() for line in lines if line[:1].isdigit()]
    out = next(n for n in names if n not in ("Plains", "Island", "Swamp", "Mountain", "Forest"))
    return text + "\n\nSideboard\n" + "\n".join(f"1 {n}" for n in SIDEBOARD) + "\n", out


def prepare(url: str, instance: str, players: int) -> dict:
    """A started pods round of `players` with sideboards: every swap window is open."""
    deck, out = _deck()

    def extract(event, rnd, regs):
        seated = [(s.registration_id, s.registration.access_code) for t in rnd.tables if t.kind == "pod"
                  for s in t.seats]
        return {"seated": seated, "out": out}
    return bench_round(url, instance, players, "Swap storm", extract, deck=deck, started=True)


@contextmanager
def server(url: str, instance: str, port: int, workers: int | None = None):
    """`python -m tournament.serve` as scripts/run starts it (its real workers and threads)."""
    env = {**os.environ, "DATABASE_URL": url, "INSTANCE_PATH": instance, "SECRET_KEY": "bench-load",
           "PUBLIC_URL": f"http://127.0.0.1:{port}"}
    if workers:
        env["WORKERS"] = str(workers)
    log = open(Path(instance) / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "tournament.serve", "--port", str(port)], env=env, cwd=REPO,
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(base + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield base, proc
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


async def _storm(base: str, data: dict) -> list[tuple[int, int | None, float]]:
    """Every phone's submit at the same instant: [(registration id, status or None, seconds)]."""
    limits = httpx.Limits(max_connections=len(data["seated"]) + 10)
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT, limits=limits) as client:
        go = asyncio.Event()

        async def submit(reg_id: int, code: str):
            await go.wait()
            start = time.perf_counter()
            try:
                r = await client.post(f"/api/v1/players/{code}/swaps", headers={"Accept": "application/json"},
                                      json={"pairs": [{"out": data["out"], "in": SIDEBOARD[0]}]})
                status = r.status_code
            except httpx.HTTPError:
                status = None
            return reg_id, status, time.perf_counter() - start
        tasks = [asyncio.create_task(submit(reg_id, code)) for reg_id, code in data["seated"]]
        await asyncio.sleep(0.2)
        go.set()
        return await asyncio.gather(*tasks)


def _stored(url: str) -> dict[int, int]:
    """Swaps stored per registration."""
    import sqlalchemy as sa
    from tournament import create_app
    from tournament.extensions import db
    from tournament.swaps.models import Swap
    app = create_app()
    with app.app_context():
        rows = db.session.execute(sa.select(Swap.registration_id, sa.func.count()).group_by(Swap.registration_id))
        out = {reg: n for reg, n in rows}
        db.session.remove()
        db.engine.dispose()
    return out


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of the server and its workers so far (Linux /proc; 0 elsewhere)."""
    total = 0.0
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    for p in [str(pid), *children]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def swap_storm(url: str, instance: str, port: int, players: int) -> dict:
    data = prepare(url, instance, players)
    with server(url, instance, port) as (base, proc):
        cpu_before, load_before = _cpu_seconds(proc.pid), os.getloadavg()[0]
        started = time.perf_counter()
        told = asyncio.run(_storm(base, data))
        seconds = time.perf_counter() - started
        cpu = _cpu_seconds(proc.pid) - cpu_before
        alive = proc.poll() is None
    stored = _stored(url)
    acknowledged = {reg for reg, status, _s in told if status == 200}
    lost = sum(1 for reg in acknowledged if stored.get(reg, 0) != 1)
    unacknowledged_stored = sum(1 for reg, status, _s in told if status != 200 and stored.get(reg, 0))
    statuses: dict[str, int] = {}
    for _reg, status, _s in told:
        statuses[str(status or "timeout")] = statuses.get(str(status or "timeout"), 0) + 1
    ms = [s * 1000 for _r, status, s in told if status is not None]
    return {"mode": "swap-storm", "submits": len(told), "acknowledged": len(acknowledged),
            "statuses": statuses, "timeouts": statuses.get("timeout", 0),
            "p50_ms": round(percentile(ms, 50), 1), "p95_ms": round(percentile(ms, 95), 1),
            "max_ms": round(max(ms, default=0.0), 1), "storm_seconds": round(seconds, 2),
            "server_cpu_seconds": round(cpu, 2), "lost_or_duplicated": lost,
            "stored_without_acknowledgement": unacknowledged_stored, "server_alive": alive,
            "load_average_before": round(load_before, 2), "load_average_after": round(os.getloadavg()[0], 2),
            "database": "postgresql" if url.startswith("postgres") else "sqlite"}


async def _locked(base: str, data: dict, path: str, hold: float) -> dict:
    """Another program holds SQLite's write lock for `hold` seconds; meanwhile every phone submits its swap (and
    sends it again after Retry-After, as swap.js does) and reads its round box every second."""
    import sqlite3
    seated = data["seated"]
    limits = httpx.Limits(max_connections=2 * len(seated) + 10)
    writes: list[tuple[int, int | None, float, int]] = []        # (reg, status, seconds, attempt)
    reads: list[tuple[int | None, float]] = []
    other = sqlite3.connect(path, isolation_level=None, timeout=0, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    held_until = time.monotonic() + hold
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT, limits=limits) as client:
        async def submit(reg_id: int, code: str):
            for attempt in range(10):
                start = time.perf_counter()
                try:
                    r = await client.post(f"/api/v1/players/{code}/swaps", headers={"Accept": "application/json"},
                                          json={"pairs": [{"out": data["out"], "in": SIDEBOARD[0]}]})
                    status, wait = r.status_code, int(r.headers.get("Retry-After") or 2)
                except httpx.HTTPError:
                    status, wait = None, 2
                writes.append((reg_id, status, time.perf_counter() - start, attempt))
                if status != 503:
                    return
                await asyncio.sleep(wait)

        async def poll(code: str):
            while time.monotonic() < held_until:
                start = time.perf_counter()
                try:
                    status = (await client.get(f"/p/{code}/round")).status_code
                except httpx.HTTPError:
                    status = None
                reads.append((status, time.perf_counter() - start))
                await asyncio.sleep(1.0)

        async def release():
            await asyncio.sleep(hold)
            other.rollback()
            other.close()
        await asyncio.gather(release(), *(submit(r, c) for r, c in seated), *(poll(c) for _r, c in seated))
    return {"writes": writes, "reads": reads}


def locked_database(url: str, instance: str, port: int, players: int, hold: float = 15.0) -> dict:
    """scripts/bench_load.py --locked-database: what phones see while another program holds the database."""
    data = prepare(url, instance, players)
    path = url.removeprefix("sqlite:///")
    with server(url, instance, port) as (base, proc):
        load_before = os.getloadavg()[0]
        seen = asyncio.run(_locked(base, data, path, hold))
        alive = proc.poll() is None
    writes, reads = seen["writes"], seen["reads"]
    stored = _stored(url)
    final = {reg: status for reg, status, _s, _a in writes}
    first = [s * 1000 for _r, status, s, attempt in writes if attempt == 0]
    busy = [s * 1000 for _r, status, s, _a in writes if status == 503]
    read_ms = [s * 1000 for status, s in reads if status is not None]
    return {"mode": "locked-database", "held_seconds": hold, "phones": len(data["seated"]),
            "first_answer_statuses": _count(status for _r, status, _s, attempt in writes if attempt == 0),
            "busy_answer_p50_ms": round(percentile(busy, 50), 1), "busy_answer_max_ms": round(max(busy, default=0), 1),
            "first_answer_max_ms": round(max(first, default=0), 1),
            "reads": len(reads), "read_statuses": _count(status for status, _s in reads),
            "read_p50_ms": round(percentile(read_ms, 50), 1), "read_p95_ms": round(percentile(read_ms, 95), 1),
            "read_max_ms": round(max(read_ms, default=0), 1),
            "stored_after_retries": sum(1 for reg in final if final[reg] == 200 and stored.get(reg) == 1),
            "lost_or_duplicated": sum(1 for reg, status in final.items() if (status == 200) != (stored.get(reg) == 1)),
            "server_alive": alive, "load_average_before": round(load_before, 2),
            "load_average_after": round(os.getloadavg()[0], 2)}


def _count(values) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[str(v or "timeout")] = out.get(str(v or "timeout"), 0) + 1
    return out
