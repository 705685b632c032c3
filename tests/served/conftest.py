"""The server as scripts/run starts it: `flask db upgrade`, then `python -m tournament.serve` (waitress, two
worker processes, CSRF and rate limits on), in a subprocess on a free port, driven over HTTP with httpx.
The Flask test client applies ProxyFix and skips waitress, so what only the real server does (the audit's
proxy lock-out) shows only here. The laptop's set-up, SQLite: the modules skip themselves in the PostgreSQL
pass, which covers the same code through the test client."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field

import httpx
import pytest

from tests.conftest import REPO

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Served:
    url: str
    env: dict
    instance: object
    people: dict = field(default_factory=dict)

    def phone(self, address: str | None = None, https: bool = False) -> httpx.Client:
        """A browser behind the proxy: the proxy says which address it came from and over which scheme."""
        headers = {}
        if address:
            headers["X-Forwarded-For"] = address
        if https:
            headers["X-Forwarded-Proto"] = "https"
            headers["Referer"] = self.url.replace("http://", "https://") + "/"   # Flask-WTF checks it on HTTPS
        return httpx.Client(base_url=self.url, headers=headers, timeout=20, follow_redirects=False)

    def flask(self, *args) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], env=self.env, cwd=REPO,
                              capture_output=True, text=True, timeout=120)


def csrf_of(client: httpx.Client, path: str) -> str:
    page = client.get(path)
    assert page.status_code == 200, (path, page.status_code, page.text[:300])
    return CSRF.search(page.text).group(1)


def log_in(client: httpx.Client, name: str, password: str = PASSWORD, next_path: str | None = None):
    path = "/auth/login" + (f"?next={next_path}" if next_path else "")
    token = csrf_of(client, "/auth/login")
    return client.post(path, data={"csrf_token": token, "name": name, "password": password})


def _prepare(env, instance) -> dict:
    """The database as scripts/run leaves it, plus staff and an event with two players (the app's own
    operations, in this process, on the same file)."""
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "db", "upgrade"], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    from tournament import create_app
    from tournament.auth.operations import create_user
    from tournament.config import Config
    from tournament.events import operations as events
    from tournament.extensions import db

    class Prepared(Config):
        SQLALCHEMY_DATABASE_URI = env["DATABASE_URL"]
        INSTANCE_PATH = str(instance)
        SECRET_KEY = env["SECRET_KEY"]
        PASSWORD_HASH_METHOD = "pbkdf2:sha256:1000"
    app = create_app(Prepared)
    with app.app_context():
        olga = create_user("Olga Organizer", PASSWORD, "organizer")
        jan = create_user("Jan Judge", PASSWORD, "judge")
        event = events.create_event(olga, {"name": "Proxy night", "ruleset": "edh-2010"})
        events.add_staff(event, olga, jan.name, "judge")
        regs = [events.register_player(event, {"name": f"Player {i}"}, user=olga) for i in range(2)]
        db.session.commit()
        people = {"event": event.id, "codes": [r.access_code for r in regs], "regs": [r.id for r in regs],
                  "judge": jan.id}
        db.session.remove()
        db.engine.dispose()
    return people


def start(tmp_path, **settings) -> tuple[subprocess.Popen, Served]:
    instance = tmp_path / "instance"
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{instance / 'tournament.sqlite'}", "SECRET_KEY": "served",
           "INSTANCE_PATH": str(instance), "PORT": str(port), **settings}
    for key in ("TEST_DATABASE_URL", "HOST", "LAN", "PUBLIC_URL", "RATELIMIT_ENABLED", "REDIS_URL"):
        if key not in settings:
            env.pop(key, None)
    instance.mkdir(parents=True, exist_ok=True)
    served = Served(f"http://127.0.0.1:{port}", env, instance)
    served.people = _prepare(env, instance)
    proc = subprocess.Popen([sys.executable, "-m", "tournament.serve", "--port", str(port)], env=env, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    for _ in range(200):
        try:
            httpx.get(served.url + "/healthz", timeout=1)
            return proc, served
        except httpx.HTTPError:
            if proc.poll() is not None:
                pytest.fail("the server did not start: " + proc.stdout.read().decode()[-2000:])
            time.sleep(0.1)
    stop(proc)
    pytest.fail("the server did not answer")


def stop(proc: subprocess.Popen) -> str:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        out = proc.communicate(timeout=15)[0]
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out = proc.communicate()[0]
    return out.decode(errors="replace")


@pytest.fixture(scope="module")
def behind_proxy(tmp_path_factory):
    """scripts/run behind Caddy, as the README sets it up: TRUSTED_PROXIES=1, listening on 127.0.0.1."""
    proc, served = start(tmp_path_factory.mktemp("proxied"), TRUSTED_PROXIES="1")
    yield served
    served.output = stop(proc)


@pytest.fixture(scope="module")
def no_proxy(tmp_path_factory):
    """scripts/run with nothing in front: forwarded headers are anybody's claims and are ignored."""
    proc, served = start(tmp_path_factory.mktemp("direct"))
    yield served
    stop(proc)
