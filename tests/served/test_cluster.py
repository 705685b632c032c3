"""The store chain's / convention's set-up as scripts/cluster starts it: two app servers behind HAProxy,
sharing PostgreSQL and Redis. What must hold across nodes: a phone's ETag (a 304 from the other node, not a
re-render), a login, the rate limits, and a node dying under the balancer.

Needs HAProxy (scripts/test installs Debian's package), PostgreSQL on 127.0.0.1:5432 and Redis on
127.0.0.1:6379; the test makes its own database. Runs in the SQLite pass (it brings its own PostgreSQL)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import httpx
import pytest
import sqlalchemy as sa

from tests.conftest import PG_URL, REPO
from tests.served.conftest import _prepare, free_port, log_in, stop

HAPROXY = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None)
SERVER = "postgresql://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/7"

pytestmark = pytest.mark.skipif(bool(PG_URL), reason="brings its own PostgreSQL database; runs in the SQLite pass")


def services_missing() -> str | None:
    if not HAPROXY:
        return "HAProxy is not installed (apt-get install haproxy)"
    try:
        engine = sa.create_engine(SERVER + "/postgres", isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
        engine.dispose()
        import redis
        redis.Redis.from_url(REDIS, socket_timeout=1).ping()
    except Exception as e:             # noqa: BLE001 - any reason the services are away
        return f"PostgreSQL or Redis is not reachable: {e}"
    return None


def fresh_database(name: str) -> str:
    engine = sa.create_engine(SERVER + "/postgres", isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return f"{SERVER}/{name}"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    missing = services_missing()
    if missing:
        if os.environ.get("E2E_REQUIRED"):
            pytest.fail(missing)
        pytest.skip(missing)
    import redis
    redis.Redis.from_url(REDIS).flushdb()
    instance = tmp_path_factory.mktemp("cluster") / "instance"
    instance.mkdir()
    port = free_port()
    while any(free_port() == p for p in (port + 1, port + 2)):
        port = free_port()
    url = fresh_database(f"edh_cluster_{os.getpid()}")
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": REDIS, "SECRET_KEY": "cluster",
           "INSTANCE_PATH": str(instance)}
    for key in ("TEST_DATABASE_URL", "HOST", "LAN", "PUBLIC_URL", "RATELIMIT_ENABLED"):
        env.pop(key, None)
    people = _prepare(env, instance)
    proc = subprocess.Popen([sys.executable, "scripts/cluster.py", "--port", str(port)], env=env, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while not node_answers(base):
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail("the cluster did not start: " + stop(proc)[-3000:])
        time.sleep(0.2)
    yield {"url": base, "nodes": [f"http://127.0.0.1:{port + 1}", f"http://127.0.0.1:{port + 2}"],
           "ports": [port + 1, port + 2], "people": people}
    stop(proc)


def test_a_phone_switching_nodes_gets_a_304_not_a_new_page(cluster):
    code = cluster["people"]["codes"][0]
    first = httpx.get(f"{cluster['nodes'][0]}/p/{code}")
    assert first.status_code == 200 and first.headers["ETag"]
    again = httpx.get(f"{cluster['nodes'][1]}/p/{code}", headers={"If-None-Match": first.headers["ETag"]},
                      cookies=first.cookies)
    assert again.status_code == 304


def test_a_login_holds_on_every_node(cluster):
    with httpx.Client(base_url=cluster["url"], timeout=20) as desk:
        assert log_in(desk, "Olga Organizer").status_code == 302
        pages = [desk.get(f"/events/{cluster['people']['event']}").status_code for _ in range(6)]
    assert pages == [200] * 6


def test_wrong_codes_are_counted_across_nodes(cluster):
    """One guesser whose tries the balancer spreads over both nodes is limited at the same count as on one
    node (the limits live in Redis)."""
    elsewhere = httpx.HTTPTransport(local_address="127.0.0.9")          # a phone of its own: its own address
    with httpx.Client(base_url=cluster["url"], timeout=20, headers={"Connection": "close"},
                      transport=elsewhere) as guesser:
        statuses = [guesser.get(f"/p/NOPE{i:03d}").status_code for i in range(21)]
    assert statuses[:20] == [404] * 20 and statuses[20] == 429


def test_a_node_that_dies_costs_no_phone_an_error_and_is_started_again(cluster):
    victim = cluster["ports"][0]
    subprocess.run(["pkill", "-KILL", "-f", f"tournament.serve --port {victim} --workers"], check=False)
    code = cluster["people"]["codes"][1]
    with httpx.Client(base_url=cluster["url"], timeout=20) as phone:
        statuses = [phone.get(f"/p/{code}", headers={"Connection": "close"}).status_code for _ in range(20)]
    assert statuses == [200] * 20
    deadline = time.monotonic() + 60                 # scripts/cluster starts the dead node again
    while not node_answers(f"http://127.0.0.1:{victim}"):
        assert time.monotonic() < deadline, "the killed node was not started again"
        time.sleep(0.3)


def node_answers(url: str) -> bool:
    try:
        return httpx.get(url + "/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False
