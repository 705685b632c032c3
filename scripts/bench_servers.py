#!/usr/bin/env python3
"""Which WSGI server: waitress, gunicorn and granian under the same load, the same app, the same database.

    .venv/bin/python scripts/bench_servers.py [--clients 64] [--seconds 10] [--runs 3] [--json]

Each server runs one process with 8 threads (waitress: threads; gunicorn: the gthread worker; granian: its
blocking threads) on 127.0.0.1, in turn, serving first a trivial Flask app (the floor: one short text
response) and then the app itself on a SQLite event of 300 players whose round 1 is published. For each,
`--clients` concurrent clients (one asyncio process on the same 2 cores) send for `--seconds`:

- floor: GET / of the trivial app;
- poll: a phone's round-box poll with its ETag (a 304: nothing changed);
- box: a phone's round box without an ETag (rendered, the round-start case).

Prints requests/s and p95 per server and load (medians of `--runs`), and each figure of the app as a ratio
to the same server's floor. Platforms: waitress is pure Python (Linux, macOS, Windows); gunicorn needs
fork (Linux, macOS; not Windows); granian ships wheels for Linux, macOS and Windows (Rust, x86-64 and ARM).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
from bench_load import free_port, percentile, prepare, publish  # noqa: E402

THREADS = 8
FLOOR_APP = """
from flask import Flask
app = Flask(__name__)

@app.get("/")
def ok():
    return "ok"
"""


# waitress as tournament.serve runs it: connections stay open after a 304 (tournament.web.keep_alive)
WAITRESS = """
import importlib
from tournament.web.keep_alive import serve
module, name = "{target}".split(":")
serve(getattr(importlib.import_module(module), name), threads={threads}, listen="127.0.0.1:{port}")
"""


def commands(server: str, target: str, port: int) -> list[str]:
    """How each server is started for `target` (module:attribute), one process with THREADS threads."""
    py = sys.executable
    return {
        "waitress": [py, "-c", WAITRESS.format(target=target, threads=THREADS, port=port)],
        "gunicorn": [py, "-m", "gunicorn", "-w", "1", "-k", "gthread", "--threads", str(THREADS), "-b",
                     f"127.0.0.1:{port}", target],
        "granian": [py, "-m", "granian", "--interface", "wsgi", "--workers", "1", "--blocking-threads",
                    str(THREADS), "--host", "127.0.0.1", "--port", str(port), target],
    }[server]


def start(server: str, target: str, env: dict) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(commands(server, target, port), env=env, cwd=env["BENCH_CWD"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(base + "/", timeout=1)
            return proc, base
        except httpx.HTTPError:
            if proc.poll() is not None:
                raise SystemExit(f"{server} did not start for {target}")
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{server} did not answer for {target}")


async def load(base: str, paths: list[tuple[str, dict]], clients: int, seconds: float) -> dict:
    """`clients` loops, each sending its own path again and again; requests/s, p95 ms, errors."""
    latencies: list[float] = []
    errors = 0
    until = time.perf_counter() + seconds

    async def client(path: str, headers: dict) -> None:
        nonlocal errors
        async with httpx.AsyncClient(base_url=base, timeout=30) as c:
            while time.perf_counter() < until:
                began = time.perf_counter()
                try:
                    r = await c.get(path, headers=headers)
                    errors += r.status_code >= 500
                except httpx.HTTPError:
                    errors += 1
                latencies.append((time.perf_counter() - began) * 1000)
    await asyncio.gather(*(client(*paths[i % len(paths)]) for i in range(clients)))
    return {"rps": round(len(latencies) / seconds, 1), "p95_ms": percentile(latencies, 95), "errors": errors}


def measure(server: str, env: dict, data: dict, args) -> dict:
    """The floor, the poll and the box on one server, `args.runs` times each; medians."""
    codes = data["codes"][:args.clients]
    out = {}
    proc, base = start(server, "floor_app:app", env)
    try:
        runs = [asyncio.run(load(base, [("/", {})], args.clients, args.seconds)) for _ in range(args.runs)]
    finally:
        proc.terminate()
        proc.wait(10)
    out["floor"] = median_of(runs)
    proc, base = start(server, "wsgi:app", env)
    try:
        tags = {c: httpx.get(f"{base}/p/{c}/round").headers.get("ETag", "") for c in codes}
        polls = [(f"/p/{c}/round", {"If-None-Match": tags[c]}) for c in codes]
        boxes = [(f"/p/{c}/round", {}) for c in codes]
        out["poll"] = median_of([asyncio.run(load(base, polls, args.clients, args.seconds))
                                 for _ in range(args.runs)])
        out["box"] = median_of([asyncio.run(load(base, boxes, args.clients, args.seconds))
                                for _ in range(args.runs)])
    finally:
        proc.terminate()
        proc.wait(10)
    for kind in ("poll", "box"):
        out[kind]["rps_ratio_to_floor"] = round(out[kind]["rps"] / out["floor"]["rps"], 3)
    return out


def median_of(runs: list[dict]) -> dict:
    return {"rps": statistics.median(r["rps"] for r in runs), "p95_ms": statistics.median(r["p95_ms"] for r in runs),
            "errors": sum(r["errors"] for r in runs)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=64)
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--servers", default="waitress,gunicorn,granian")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-servers-")
    url = f"sqlite:///{tmp}/servers.sqlite"
    data = prepare(url, tmp, 300, False)
    publish(data["round"])
    Path(tmp, "floor_app.py").write_text(FLOOR_APP, encoding="utf-8")
    env = {**os.environ, "DATABASE_URL": url, "INSTANCE_PATH": tmp, "SECRET_KEY": "bench-servers",
           "PYTHONPATH": os.pathsep.join([tmp, str(REPO)]), "BENCH_CWD": str(REPO), "RATELIMIT_ENABLED": "0"}
    results = {s: measure(s, env, data, args) for s in args.servers.split(",")}
    if args.json:
        print(json.dumps({"clients": args.clients, "seconds": args.seconds, "runs": args.runs, "servers": results}))
        return 0
    print(f"{'server':10} {'load':6} {'req/s':>8} {'p95 ms':>8} {'x floor':>8} {'errors':>7}")
    for server, r in results.items():
        for kind in ("floor", "poll", "box"):
            ratio = r[kind].get("rps_ratio_to_floor", 1.0)
            print(f"{server:10} {kind:6} {r[kind]['rps']:8.1f} {r[kind]['p95_ms']:8.1f} {ratio:8.3f} "
                  f"{r[kind]['errors']:7d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
