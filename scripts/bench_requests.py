#!/usr/bin/env python3
"""Server CPU per request of the pages phones hit, as a ratio to a trivial Flask app on the same server.

    .venv/bin/python scripts/bench_requests.py [--players 200] [--runs 5] [--requests 40] [--json]

1. Builds a fresh SQLite database: a pods event of `--players` players with decklists, round 1 published
   and started (as bench_load.py does).
2. Starts the production server the project uses (`python -m tournament.serve --workers 1`: waitress, one
   worker process) and, beside it, a trivial Flask app (one route answering "ok") on waitress with the same
   options: the floor, measured in the same run.
3. Sends requests one at a time (keep-alive, each phone with its own cookies and connection, opened once
   before; the trivial app gets as many open connections, since waitress's loop pays for each) and reads
   the server process's CPU time (user + system, every thread: /proc/<pid>/task/*/schedstat) before and
   after each batch. Per kind: `--runs` batches of `--requests` requests, the median batch's CPU per request.

Kinds: trivial (the floor); poll_304 (the round box with its ETag, nothing changed); round_box (the round box
of a different phone each time, same state version: a round start); player_page (/p/<code> of a different
phone each time); projector (the shared round page, no cookie); result_post (the first report at a different
table each time; only the POST itself is measured).

Linux only (reads /proc). Prints a table, or with --json
{"trivial_ms", "poll_304_ms", "round_box_ms", "player_page_ms", "projector_ms", "result_post_ms", "ratios": {...}}.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import socket
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
from bench_hall import bench_round  # noqa: E402

GOALS = {"poll_304": 1.3, "round_box": 4.0, "player_page": 8.0, "result_post": 10.0}
KINDS = ("trivial", "poll_304", "round_box", "player_page", "projector", "result_post")
HIDDEN = re.compile(r'<input name="([^"]+)" type="hidden" value="([^"]*)"')
REPORT_FORM = re.compile(r'<form[^>]*id="report-form".*?</form>', re.S)
SURVIVOR = re.compile(r'name="(r-survivors)" value="(\d+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_cpu_seconds(pid: int) -> float:
    """CPU time of every thread of the process, in seconds (nanosecond precision)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total / 1e9


def prepare(url: str, instance: str, players: int) -> dict:
    """Schema, cards, an organizer, a pods event of `players` with decklists, round 1 published and started."""
    def extract(event, rnd, regs):
        tables = [[s.registration.access_code for s in t.seats] for t in rnd.tables if t.kind == "pod"]
        return {"event": event.id, "round": rnd.number, "codes": [r.access_code for r in regs], "tables": tables}
    return bench_round(url, instance, players, "Request bench", extract, started=True, secret="bench-requests")


TRIVIAL = """
from flask import Flask
from waitress import serve
from tournament.serve import listening_socket
app = Flask("trivial")
@app.get("/")
def index():
    return "ok"
# the options tournament.serve.run_worker gives waitress
serve(app, sockets=[listening_socket("127.0.0.1", {port})], threads=8, ident="trivial", channel_timeout=30,
      connection_limit=1000, cleanup_interval=10, asyncore_use_poll=True)
"""


def start(cmd: list[str], env: dict, log) -> subprocess.Popen:
    return subprocess.Popen(cmd, env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT)


def wait_up(base: str, path: str) -> None:
    for _ in range(300):
        try:
            httpx.get(base + path, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit(f"the server at {base} did not answer")


class Bench:
    def __init__(self, base: str, trivial: str, data: dict):
        self.base, self.trivial, self.data = base, trivial, data
        self.phones: dict[str, httpx.Client] = {}
        self.plain = httpx.Client(base_url=base)
        self.floors: dict[str, httpx.Client] = {}
        self.tags: dict[str, str] = {}
        self.forms: list[tuple[str, dict]] = []

    def phone(self, code: str) -> httpx.Client:
        """A phone that has opened its page once (its cookie remembers the code)."""
        if code not in self.phones:
            c = httpx.Client(base_url=self.base)
            assert c.get(f"/p/{code}").status_code == 200
            r = c.get(f"/p/{code}/round")
            assert r.status_code == 200
            self.tags[code] = r.headers["ETag"]
            self.phones[code] = c
        return self.phones[code]

    def warm_up(self) -> None:
        for code in self.data["codes"]:
            self.phone(code)
            self.floors[code] = httpx.Client(base_url=self.trivial)   # as many open connections as the app has
            self.floors[code].get("/")
        for code in self.data["codes"]:        # every open phone has polled before: the polls measured are its next ones
            assert self.phone(code).get(f"/p/{code}/round", headers={"If-None-Match": self.tags[code]}).status_code == 304
        for seats in self.data["tables"]:
            code = seats[0]
            html = self.phone(code).get(f"/p/{code}/round").text
            form = REPORT_FORM.search(html).group(0)
            fields = dict(HIDDEN.findall(form))
            fields["r-survivors"] = SURVIVOR.findall(form)[0][1]
            self.forms.append((code, fields))

    def requests(self, kind: str, n: int, offset: int):
        """n thunks of one kind; each returns the response."""
        codes = self.data["codes"]
        ev, rnd = self.data["event"], self.data["round"]
        out = []
        for i in range(n):
            code = codes[(offset + i) % len(codes)]
            if kind == "trivial":
                out.append(lambda c=code: self.floors[c].get("/"))
            elif kind == "poll_304":
                out.append(lambda c=code: self.phone(c).get(f"/p/{c}/round", headers={"If-None-Match": self.tags[c]}))
            elif kind == "round_box":
                out.append(lambda c=code: self.phone(c).get(f"/p/{c}/round"))
            elif kind == "player_page":
                out.append(lambda c=code: self.phone(c).get(f"/p/{c}"))
            elif kind == "projector":
                out.append(lambda: self.plain.get(f"/events/{ev}/rounds/{rnd}/projector"))
        return out

    def batch(self, kind: str, n: int, offset: int) -> float:
        """Server CPU per request of one batch, in ms."""
        if kind == "result_post":
            return self.posts(n)
        pid = self.trivial_pid if kind == "trivial" else self.app_pid
        expect = 304 if kind == "poll_304" else 200
        thunks = self.requests(kind, n, offset)
        before = server_cpu_seconds(pid)
        for t in thunks:
            r = t()
            assert r.status_code == expect, (kind, r.status_code, r.text[:300])
        return (server_cpu_seconds(pid) - before) * 1000 / n

    def posts(self, n: int) -> float:
        spent = 0.0
        for _ in range(n):
            code, fields = self.forms.pop()
            client = self.phone(code)
            before = server_cpu_seconds(self.app_pid)
            r = client.post(f"/p/{code}/result", data=fields)
            spent += server_cpu_seconds(self.app_pid) - before
            assert r.status_code == 302, (r.status_code, re.findall(r"class=\"error[^>]*>([^<]*)", r.text), fields)
        return spent * 1000 / n


def measure(bench: Bench, runs: int, n: int) -> dict:
    per_kind: dict[str, list[float]] = {k: [] for k in KINDS}
    posts = min(n, len(bench.forms) // runs)
    for run in range(runs):             # the result posts change the state version: they come last
        for kind in KINDS[:-1]:
            per_kind[kind].append(bench.batch(kind, n, run * n))
    for run in range(runs):
        per_kind["result_post"].append(bench.batch("result_post", posts, 0))
    figures = {f"{k}_ms": round(statistics.median(v), 3) for k, v in per_kind.items()}
    floor = figures["trivial_ms"]
    figures["ratios"] = {k: round(figures[f"{k}_ms"] / floor, 2) for k in KINDS if k != "trivial"}
    figures["runs"], figures["requests_per_run"], figures["result_posts_per_run"] = runs, n, posts
    figures["load_average"] = round(os.getloadavg()[0], 2)
    return figures


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--requests", type=int, default=40)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-requests-")
    url = f"sqlite:///{tmp}/requests.sqlite"
    data = prepare(url, tmp, args.players)
    port, trivial_port = free_port(), free_port()
    env = {**os.environ, "DATABASE_URL": url, "INSTANCE_PATH": tmp, "SECRET_KEY": "bench-requests",
           "PUBLIC_URL": f"http://127.0.0.1:{port}"}
    log = open(Path(tmp) / "server.log", "wb")
    server = start([sys.executable, "-m", "tournament.serve", "--port", str(port), "--workers", "1"], env, log)
    trivial = start([sys.executable, "-c", TRIVIAL.format(port=trivial_port)], env, log)
    try:
        base, floor = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{trivial_port}"
        wait_up(base, "/healthz")
        wait_up(floor, "/")
        bench = Bench(base, floor, data)
        bench.app_pid, bench.trivial_pid = server.pid, trivial.pid
        bench.warm_up()
        figures = measure(bench, args.runs, args.requests)
    finally:
        for proc in (server, trivial):
            proc.terminate()
            proc.wait(timeout=20)
        log.close()
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"Server CPU per request (one waitress worker, sequential; median of {args.runs} runs of "
          f"{args.requests}; load average {figures['load_average']})")
    print(f"{'request':14} {'ms':>8} {'× trivial':>10} {'goal':>6}")
    for kind in KINDS:
        ratio = figures["ratios"].get(kind, 1.0)
        goal = f"≤{GOALS[kind]}" if kind in GOALS else ""
        print(f"{kind:14} {figures[f'{kind}_ms']:8.3f} {ratio:10.2f} {goal:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
