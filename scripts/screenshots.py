#!/usr/bin/env python3
"""Screenshots of the pages people use on the day, at phone, laptop and projector sizes, into docs/screenshots/.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]

Starts the server scripts/run uses on a fresh SQLite database in a temporary folder, builds a 64-player pods
event with decklists and sideboards (names in several scripts), pairs and starts round 1, then opens each
page in headless Chromium (Debian's chromium + chromium-driver, as the browser tests) and saves a PNG.
Needs requirements-dev.txt (selenium).
"""
from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PASSWORD = "correct horse battery staple"
SIZES = {"phone": (390, 844), "laptop": (1366, 768), "projector": (1920, 1080)}

SETUP = r'''
import json, sys
import sqlalchemy as sa
from tournament import create_app
from tournament.auth.models import User
from tournament.events import operations as events
from tournament.extensions import db
from tournament.rounds import operations as rounds
deck = open("tournament/data/demo_decks/kenrith.txt", encoding="utf-8").read().rstrip()
deck += "\n\nSideboard\n1 Lightning Bolt\n1 Grindstone\n1 Utter End\n"
first = ["Šárka", "山田", "Olga", "محمد", "Zoë", "Jan", "王", "Léa"]
last = ["Dvořáková", "太郎", "Novak", "الراشد", "Müller", "Svoboda", "小明", "García"]
app = create_app()
with app.app_context():
    olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
    event = events.create_event(olga, {"name": "Saturday EDH", "ruleset": "edh-2010", "venue": "The Game Shop",
                                          "scoring_profile": "democratic"})
    from tournament.auth.operations import create_user
    create_user("Jan Svoboda", "correct horse battery staple", "judge")
    events.add_staff(event, olga, "Jan Svoboda", "judge")
    regs = [events.register_player(event, {"name": f"{first[i % 8]} {last[(i // 8) % 8]}",
                                           "decklist": deck}, user=olga) for i in range(64)]
    for reg in regs[:60]:
        events.check_in(reg, olga)
    rnd = rounds.pair_next_round(event, olga, seed=2026)
    rounds.publish_round(rnd, olga)
    rounds.start_round(rnd, olga)
    table = rnd.tables[0]
    rounds.report_pod_result(table, [table.seats[0].registration_id], user=olga)
    db.session.commit()
    from tournament.series import operations as series_ops
    league = series_ops.create_series(olga, {"name": "Winter league", "points_table": "5, 3, 2, 1",
                                             "attendance_points": 1})
    for night in range(1, 4):
        e = events.create_event(olga, {"name": f"League night {night}", "ruleset": "edh-2010",
                                       "date": f"2026-11-{7 * night:02d}", "scoring_profile": "survival"})
        for i in range(12):
            pid = f"10{i}" if i % 3 else None
            name = f"{first[(i + night * (i % 3 == 1)) % 8]} {last[i % 8]}" if i < 8 else f"Guest {night}-{i}"
            events.check_in(events.register_player(e, {"name": name, **({"player_id": pid} if pid else {})},
                                                   user=olga), olga)
        for r in range(2):
            rr = rounds.pair_next_round(e, olga, seed=night * 10 + r, override_decks=True)
            rounds.publish_round(rr, olga)
            rounds.start_round(rr, olga)
            for t in rr.tables:
                ids = [s.registration_id for s in t.seats]
                rounds.report_pod_result(t, ids[(night + r) % len(ids):][:1], user=olga)
            rounds.finish_round(rr, olga)
        series_ops.add_event(league, olga, e.id)
        rounds.finish_event(e, olga)
    db.session.commit()
    person = series_ops.series_standings(league)["rows"][0].person
    late = events.register_player(event, {"name": "محمد Dvořák", "decklist": deck.replace("Sol Ring", "Sol Rnig")
                                          + "1 Swords to Plowshares\n"}, user=olga)   # a deck check with errors
    db.session.commit()
    projector = {}
    for size in (16, 400):                   # the projector at a small and a big event's first round
        e = events.create_event(olga, {"name": f"Projector {size}", "ruleset": "edh-2010"})
        for i in range(size):
            events.check_in(events.register_player(e, {"name": f"{first[i % 8]} {last[(i // 8) % 8]}"}, user=olga),
                            olga)
        rr = rounds.pair_next_round(e, olga, seed=size, override_decks=True)
        rounds.publish_round(rr, olga)
        rounds.start_round(rr, olga)
        rounds.extend_table(rr.tables[1], olga, 5)      # a table given extra time: its badge on the screen
        db.session.commit()
        projector[size] = e.id
    print(json.dumps({"event": event.id, "code": table.seats[1].registration.access_code, "series": league.id,
                      "person": person, "late": late.access_code, "projector": projector}))
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tmp: Path) -> tuple[subprocess.Popen, str, dict]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'shots.sqlite'}", "SECRET_KEY": "screenshots",
           "INSTANCE_PATH": str(tmp), "FLASK_APP": "wsgi"}
    flask = [sys.executable, "-m", "flask", "--app", "wsgi"]
    for args in (["db", "upgrade"], ["cards", "starter"],
                 ["user", "create", "Olga", "--role", "organizer", "--password", PASSWORD]):
        subprocess.run(flask + args, env=env, cwd=REPO, check=True, capture_output=True)
    done = subprocess.run([sys.executable, "-c", SETUP], env=env, cwd=REPO, check=True, capture_output=True, text=True)
    import json
    data = json.loads(done.stdout.strip().splitlines()[-1])
    port = free_port()
    env["PUBLIC_URL"] = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "tournament.serve", "--port", str(port)], env=env, cwd=REPO,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    return server, base, data


def browser(width: int, height: int, mobile: bool):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    if mobile:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height,
                                                                              "pixelRatio": 1.0}})
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.set_window_size(width, height)
    return driver


def log_in(driver, base: str) -> None:
    from selenium.webdriver.common.by import By
    driver.get(base + "/auth/login")
    driver.find_element(By.NAME, "name").send_keys("Olga")
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    time.sleep(0.5)


ONLY: set[str] = set()          # --only: the pages to shoot (their file names' first part), else all


def shoot(driver, url: str, path: Path) -> None:
    from selenium.webdriver.common.by import By
    if ONLY and not any(path.name.startswith(name + "-") for name in ONLY):
        return
    driver.get(url)
    time.sleep(1.0)                          # the clocks tick, the projector lays out its pages
    start = driver.find_elements(By.ID, "tracker-start")
    if start and start[0].is_displayed():    # the tracker: show a game under way, not its setup
        start[0].click()
        time.sleep(1.0)
        for test in ("life-minus5-", "gd-"):
            buttons = driver.find_elements(By.CSS_SELECTOR, f'[data-test^="{test}"]')
            if buttons:
                buttons[0].click()
                time.sleep(0.5)
    driver.save_screenshot(str(path))
    print(path.relative_to(REPO) if path.is_relative_to(REPO) else path)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(REPO / "docs" / "screenshots"))
    p.add_argument("--only", default="", help="comma-separated pages, e.g. swap,deck-check (default: all)")
    args = p.parse_args()
    ONLY.update(name for name in args.only.split(",") if name)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="screenshots-"))
    server, base, data = start_server(tmp)
    event, code = data["event"], data["code"]
    player_pages = {"player": f"/p/{code}", "deck-check": f"/p/{code}#bracket", "swap": f"/p/{code}/swap",
                    "deck-check-error": f"/p/{data['late']}#check",
                    "tracker": f"/p/{code}/tracker", "home": "/"}
    staff_pages = {"dashboard": f"/events/{event}", "desk": f"/events/{event}/desk", "round": f"/events/{event}/rounds/1",
                   "result-form": f"/events/{event}/rounds/1#table-1",
                   "standings": f"/events/{event}/standings", "staff": f"/events/{event}/staff",
                   "series": f"/series/{data['series']}", "series-player": f"/series/{data['series']}/players/{data['person']}"}
    try:
        for size in ("phone", "laptop"):
            width, height = SIZES[size]
            driver = browser(width, height, mobile=size == "phone")
            try:
                for name, path in player_pages.items():
                    shoot(driver, base + path, out / f"{name}-{size}.png")
                log_in(driver, base)
                for name, path in staff_pages.items():
                    shoot(driver, base + path, out / f"{name}-{size}.png")
            finally:
                driver.quit()
        for size, pages, staff in (("phone", {"player": f"/p/{code}", "deck-check": f"/p/{code}#bracket",
                                               "swap": f"/p/{code}/swap"}, False),
                                   ("laptop", {"desk": f"/events/{event}/desk", "round": f"/events/{event}/rounds/1"},
                                    True)):
            driver = browser(*SIZES[size], mobile=size == "phone")           # the same pages in Japanese
            try:
                if staff:
                    log_in(driver, base)
                driver.get(base + "/auth/login?lang=ja")                      # the switcher: remembered
                for name, path in pages.items():
                    shoot(driver, base + path, out / f"{name}-ja-{size}.png")
            finally:
                driver.quit()
        driver = browser(*SIZES["projector"], mobile=False)
        try:
            shoot(driver, f"{base}/events/{event}/projector", out / "projector-64-players.png")
            for size, projected in data["projector"].items():
                shoot(driver, f"{base}/events/{projected}/projector", out / f"projector-{size}-players.png")
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
