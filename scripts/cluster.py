#!/usr/bin/env python3
"""A store chain's or a convention's set-up, on one machine: app servers behind HAProxy, sharing PostgreSQL and
Redis (started by scripts/cluster, which installs HAProxy from Debian's packages when missing).

    DATABASE_URL=postgresql://... REDIS_URL=redis://... scripts/cluster [--port 5000] [--nodes 2] [--workers 1]

Each node is `python -m tournament.serve` on its own port (the next ports after --port), with the same
instance folder (one secret key: a session cookie from one node is good on the other), the same database
and the same Redis (page copies and rate limits count across nodes), and trusting HAProxy's X-Forwarded-For
(each phone keeps its own address for the limits). HAProxy balances round robin, checks each node's /healthz
every 2 s and stops sending to one that does not answer; a node that dies is started again. Ctrl-C (or
SIGTERM) stops everything.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]

HAPROXY_CONFIG = """\
global
    maxconn {maxconn}
defaults
    mode http
    option http-keep-alive
    option forwardfor
    option redispatch
    retries 2
    retry-on conn-failure empty-response response-timeout
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-keep-alive 30s
    timeout queue 30s
frontend edh
    bind {host}:{port}
    http-request set-header X-Forwarded-Proto http
    # a read a dying node dropped is sent to another; a write is never sent twice by the balancer
    http-request disable-l7-retry unless METH_GET || METH_HEAD
    default_backend nodes
backend nodes
    balance roundrobin
    option httpchk GET /healthz
    default-server inter 2s fall 2 rise 1
{servers}
"""


def haproxy_config(host: str, port: int, node_ports: list[int], maxconn: int = 8000) -> str:
    """HAProxy's configuration: one front on host:port, the nodes on 127.0.0.1 behind it."""
    servers = "\n".join(f"    server node{i} 127.0.0.1:{p} check" for i, p in enumerate(node_ports, 1))
    return HAPROXY_CONFIG.format(maxconn=maxconn, host=host, port=port, servers=servers)


def node_environment(base: dict, host: str, port: int) -> dict:
    """What every node reads: trust exactly one proxy, on this machine; players' links and QR codes point at
    HAProxy (PUBLIC_URL, unless set already), never at a node's own port."""
    env = {**base, "TRUSTED_PROXIES": "1", "TRUSTED_PROXY_ADDRESS": "127.0.0.1"}
    if not env.get("PUBLIC_URL"):
        sys.path.insert(0, str(REPO))
        from tournament.serve import detected_url, lan_addresses
        lan = lan_addresses() if host in ("0.0.0.0", "::") else []
        env["PUBLIC_URL"] = f"http://{lan[0]}:{port}" if lan else detected_url(host, port)
    return env


def wait_healthy(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"{url} did not answer within {seconds:.0f} s")


def start(args, procs: list[subprocess.Popen]) -> None:
    """The nodes, then HAProxy in front once every node answers (each started one added to `procs`)."""
    env = node_environment(dict(os.environ), args.host, args.port)
    node_ports = [args.port + i for i in range(1, args.nodes + 1)]
    for p in node_ports:
        procs.append(start_node(args, env, p))
    for p in node_ports:
        wait_healthy(f"http://127.0.0.1:{p}")
    folder = Path(tempfile.mkdtemp(prefix="edh-cluster-"))
    config = folder / "haproxy.cfg"
    config.write_text(haproxy_config(args.host, args.port, node_ports), encoding="utf-8")
    procs.append(subprocess.Popen([args.haproxy, "-db", "-f", str(config)]))
    wait_healthy(f"http://127.0.0.1:{args.port}")


def start_node(args, env: dict, port: int) -> subprocess.Popen:
    node = subprocess.Popen([sys.executable, "-m", "tournament.serve", "--port", str(port),
                             "--workers", str(args.workers)], env=env, cwd=REPO)
    node.edh_port = port
    return node


def keep_running(args, procs: list[subprocess.Popen], stopping: list[int]) -> None:
    """A node that dies is started again (HAProxy sends its share to the others meanwhile); HAProxy dying
    ends the cluster."""
    env = node_environment(dict(os.environ), args.host, args.port)
    while not stopping and procs[-1].poll() is None:
        for i, node in enumerate(procs[:-1]):
            if node.poll() is not None:
                print(f"node on port {node.edh_port} stopped ({node.returncode}); starting it again",
                      file=sys.stderr, flush=True)
                procs[i] = start_node(args, env, node.edh_port)
        time.sleep(0.5)


def stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="scripts/cluster", description=__doc__.split("\n\n")[0])
    p.add_argument("--host", default="127.0.0.1", help="where HAProxy listens (0.0.0.0 for the venue network)")
    p.add_argument("--port", type=int, default=5000, help="HAProxy's port; the nodes take the next ones")
    p.add_argument("--nodes", type=int, default=2)
    p.add_argument("--workers", type=int, default=1, help="worker processes per node")
    p.add_argument("--haproxy", default=shutil.which("haproxy") or "/usr/sbin/haproxy")
    args = p.parse_args(argv)
    missing = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name, "").strip()]
    if missing or not os.environ["DATABASE_URL"].startswith("postgres"):
        p.error("set DATABASE_URL (PostgreSQL: every node writes to it) and REDIS_URL (shared page copies and "
                "limits); missing: " + (", ".join(missing) or "a PostgreSQL DATABASE_URL"))
    if not Path(args.haproxy).exists():
        p.error(f"HAProxy not found at {args.haproxy} (Debian: apt-get install haproxy)")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    procs: list[subprocess.Popen] = []
    stopping: list[int] = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    try:
        start(args, procs)
        print(f"Serving on http://{args.host}:{args.port} through HAProxy: {args.nodes} nodes on ports "
              f"{args.port + 1}-{args.port + args.nodes}, sharing the database and Redis. Ctrl-C stops.",
              flush=True)
        keep_running(args, procs, stopping)
    except KeyboardInterrupt:
        stopping.append(1)
    finally:
        stop(procs)
    return 0 if stopping else 1

if __name__ == "__main__":
    sys.exit(main())
