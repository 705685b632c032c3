"""A real server process and headless Chromium (Debian's chromium + chromium-driver)."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
from tests.conftest import PASSWORD as STAFF_PASSWORD


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer(str):
    """The server's base URL; `.run_script` / `.prepare` let a test prepare data with the app's own operations
    on the server's database, in a subprocess as another program would."""
    database_url: str
    env: dict

    def run_script(self, script: str, *args: str) -> str:
        """Run Python `script` (with argv `args`) against this server's database; what it printed."""
        out = subprocess.run([sys.executable, "-c", script, *args], env=self.env, cwd=REPO, capture_output=True,
                             text=True)
        assert out.returncode == 0, out.stderr[-3000:]
        return out.stdout.strip()

    def prepare(self, script: str, *args: str) -> dict:
        """run_script, whose last line is JSON (the ids and codes the test needs)."""
        return json.loads(self.run_script(script, *args).splitlines()[-1])


# `flask --app wsgi COMMAND...` for each command in turn, in one process: each start of Python and the app
# took 3-5 s, three times per module. An error or a non-zero exit stops it with that status.
_FLASK_COMMANDS = """
import json, sys
from flask.cli import cli
for args in json.loads(sys.argv[1]):
    try:
        cli.main(["--app", "wsgi", *args], prog_name="flask")
    except SystemExit as e:
        if e.code:
            raise
"""


@contextlib.contextmanager
def serve(tmp: Path, **extra_env):
    """The production server scripts/run starts (waitress), on a fresh SQLite database in `tmp` with the
    starter cards and an organizer account (Olga)."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'live.sqlite'}", "SECRET_KEY": "e2e",
           "FLASK_APP": "wsgi", "PYTHONUNBUFFERED": "1",
           "INSTANCE_PATH": str(tmp), **extra_env}
    env.pop("TEST_DATABASE_URL", None)
    commands = [["db", "upgrade"], ["cards", "starter"],
                ["user", "create", "Olga", "--role", "organizer", "--password", STAFF_PASSWORD]]
    out = subprocess.run([sys.executable, "-c", _FLASK_COMMANDS, json.dumps(commands)], env=env, cwd=REPO,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    port = _free_port()
    log = open(tmp / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "tournament.serve", "--port", str(port)],
                            env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/", timeout=1)
            break
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError((tmp / "server.log").read_text())
            time.sleep(0.1)
    server = LiveServer(url)
    server.database_url = env["DATABASE_URL"]
    server.env = env
    try:
        yield server
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


@contextlib.contextmanager
def fresh_database(tmp: Path, prefix: str):
    """A new database's URL for a live server: a SQLite file in `tmp`; with TEST_DATABASE_URL (the PostgreSQL
    pass) a new PostgreSQL database on that server named from `prefix`, dropped afterwards."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        yield f"sqlite:///{tmp / 'live.sqlite'}"
        return
    import psycopg
    from sqlalchemy.engine import make_url
    url = make_url(base.replace("postgres://", "postgresql://", 1))
    name = f"{prefix}_{os.getpid()}_{tmp.name[-12:]}".replace("-", "_").lower()
    admin = url.set(drivername="postgresql", database=url.database or "postgres").render_as_string(
        hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(drivername="postgresql+psycopg", database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def serve_fresh(tmp: Path, prefix: str, **extra_env):
    """`serve` on `fresh_database(tmp, prefix)`: SQLite, or PostgreSQL with TEST_DATABASE_URL."""
    with fresh_database(tmp, prefix) as database, serve(tmp, DATABASE_URL=database, **extra_env) as server:
        yield server


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("live")) as server:
        yield server


@pytest.fixture(scope="module")
def browser_factory():
    if not (CHROMIUM and CHROMEDRIVER):
        if os.environ.get("E2E_REQUIRED"):
            pytest.fail("chromium and chromedriver are required here (E2E_REQUIRED) but missing")
        pytest.skip("chromium and chromedriver are not installed (scripts/test installs them with apt)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    drivers = []

    def make(width=1280, height=900, mobile=False, flags=()):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-quic", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", f"--window-size={width},{height}", *flags):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})   # CSP violations land there
        if mobile:
            options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height,
                                                                                  "pixelRatio": 2.0}})
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        driver.implicitly_wait(0)
        drivers.append(driver)
        return driver
    yield make
    for d in drivers:
        d.quit()


@pytest.fixture
def browser(browser_factory):
    return browser_factory()
