"""The parts of scripts/bench_load.py that make a hall: the organizer over HTTP during the burst, the floor (a
trivial app that answers the phones' requests on the same server, in the same run) and the balancer set-up.

The floor speaks the phones' protocol with nothing behind it: a page and a round box with a version ETag
(304 while nothing changed), a projector, the static files, and a "publish" that changes the version for
every worker (a file's mtime). It runs on the very server tournament.serve starts (the same supervisor,
workers, threads, dispatcher and connection limits: only create_app is swapped), so the ratio of a figure
to the floor's is the app's own cost.
"""
from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

CSRF = re.compile(r'<input[^>]*name="csrf_token"[^>]*value="([^"]+)"')
PASSWORD = "correct horse battery"          # bench_load.prepare's organizer, "Olga Bench"

FLOOR_APP = '''
import os
from flask import Flask, make_response, request

VERSION_FILE = {version_file!r}
app = Flask("floor")


def version() -> int:
    try:
        return os.stat(VERSION_FILE).st_mtime_ns
    except FileNotFoundError:
        return 0


def page(text):
    tag = f'W/"v{{version()}}"'
    if request.headers.get("If-None-Match") == tag:
        return make_response("", 304)
    response = make_response(text)
    response.headers["ETag"] = tag
    return response


@app.get("/healthz")
def healthz():
    return {{"status": "ok"}}


@app.get("/p/<code>")
@app.get("/p/<code>/round")
def player(code):
    return page(f"<p>{{code}}</p><p>Your round: round {{1 if version() else 0}}</p>")


@app.get("/events/<int:event_id>/projector")
def projector(event_id):
    return page("<p>projector</p>")


@app.get("/static/<path:name>")
def static_file(name):
    return "/* floor */"


@app.get("/events/<int:event_id>")
@app.get("/events/<int:event_id>/rounds/<int:number>")
def staff_page(event_id, number=0):
    return "<p>staff</p>"


@app.post("/publish")
def publish():
    with open(VERSION_FILE, "w") as f:
        f.write("1")
    return "", 204
'''

FLOOR_SERVER = '''
import sys
sys.path.insert(0, {folder!r})
import tournament
import tournament.backups
from floor_app import app
tournament.create_app = lambda *a, **k: app          # the same server, a trivial app
tournament.backups.resume_wanted = lambda app: None
from tournament.serve import main
sys.exit(main(["--port", "{port}"]))
'''


def floor_command(folder: str, port: int) -> list[str]:
    """The command that serves the floor app on tournament.serve's own server."""
    Path(folder, "floor_app.py").write_text(FLOOR_APP.format(version_file=str(Path(folder, "floor.version"))),
                                            encoding="utf-8")
    return [sys.executable, "-c", FLOOR_SERVER.format(folder=folder, port=port)]


def balancer_command(port: int) -> list[str]:
    """scripts/cluster: two app servers behind HAProxy (needs PostgreSQL and REDIS_URL in the environment)."""
    return [sys.executable, str(Path(__file__).with_name("cluster.py")), "--port", str(port)]


def wait_until_up(base: str, server: subprocess.Popen, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if server.poll() is not None:
            raise SystemExit(f"the server stopped before answering (exit {server.returncode})")
        time.sleep(0.2)
    raise SystemExit(f"{base} did not answer within {seconds:.0f} s")


async def timed_ms(client: httpx.AsyncClient, method: str, url: str, **kw) -> tuple[float, int | None]:
    began = time.perf_counter()
    try:
        status = (await client.request(method, url, **kw)).status_code
    except httpx.HTTPError:
        status = None
    return round((time.perf_counter() - began) * 1000, 1), status


async def organizer(base: str, data: dict, floor: bool, wait: float, published: asyncio.Event,
                    committed: list[float], figures: dict) -> None:
    """Logs in during check-in, then at `wait` presses "Publish and start" while every phone polls; during the
    burst that follows opens the round page and the dashboard. Each request's time goes in `figures`."""
    round_url = f"/events/{data['event']}/rounds/1"
    async with httpx.AsyncClient(base_url=base, timeout=120) as desk:
        token = ""
        began = time.monotonic()
        if not floor:
            token = CSRF.search((await desk.get("/auth/login")).text).group(1)
            await desk.post("/auth/login", data={"csrf_token": token, "name": "Olga Bench", "password": PASSWORD})
            token = CSRF.search((await desk.get(round_url)).text).group(1)
        await asyncio.sleep(max(0.0, wait - (time.monotonic() - began)))
        published.set()                  # from here on every request counts: the round start is measured
        committed.append(time.time())    # sent now: the commit is no earlier than this
        ms, status = await (timed_ms(desk, "POST", "/publish") if floor else
                            timed_ms(desk, "POST", round_url + "/publish", data={"csrf_token": token, "and_start": "1"}))
        figures["publish_and_start_ms"], figures["publish_status"] = ms, status
        await asyncio.sleep(0.5)
        figures["round_page_ms"], _ = await timed_ms(desk, "GET", round_url)
        await asyncio.sleep(0.5)
        figures["dashboard_ms"], _ = await timed_ms(desk, "GET", f"/events/{data['event']}")


def bench_round(url: str, instance: str, players: int, name: str, extract, deck: str | None = None,
                started: bool = False, secret: str = "bench-load"):
    """What every load benchmark starts from: the schema and starter cards (`flask db upgrade`, `flask cards
    starter`), the organizer "Olga Bench", a pods event of `players` with decklists, all checked in, and round 1
    paired (published and started when `started`). Returns extract(event, round, registrations), computed
    while the rows are loaded."""
    import os
    env = {**os.environ, "DATABASE_URL": url, "INSTANCE_PATH": instance, "SECRET_KEY": secret}
    os.environ.update(env)
    repo = Path(__file__).resolve().parents[1]
    flask = [sys.executable, "-m", "flask", "--app", "wsgi"]
    for args in (["db", "upgrade"], ["cards", "starter"]):
        subprocess.run(flask + args, env=env, cwd=repo, check=True, capture_output=True)
    from tournament import create_app
    from tournament.auth.operations import create_user
    from tournament.events import operations as events
    from tournament.extensions import db
    from tournament.rounds import operations as rounds
    deck = deck or (repo / "tournament" / "data" / "demo_decks" / "kenrith.txt").read_text(encoding="utf-8")
    app = create_app()
    with app.app_context():
        olga = create_user("Olga Bench", PASSWORD, "organizer")
        event = events.create_event(olga, {"name": name, "ruleset": "edh-2010", "pod_size": 4})
        regs = [events.register_player(event, {"name": f"Player {i:03d}", "decklist": deck}, user=olga)
                for i in range(players)]
        for reg in regs:
            events.check_in(reg, olga)
        rnd = rounds.pair_next_round(event, olga, seed=2026)
        if started:
            rounds.publish_and_start(rnd, olga)
        db.session.commit()
        out = extract(event, rnd, regs)
        db.session.remove()
        db.engine.dispose()
    return out
