"""Serve the app at the venue with waitress, a production WSGI server in pure Python (Linux, macOS, Windows).

    python -m tournament.serve [--host 0.0.0.0] [--port 5000] [--lan] [--workers 2] [--threads 8]

`--lan` listens on every interface, prints the laptop's LAN addresses and a
QR code of the player URL in the terminal, and uses that URL for every player
link and QR code unless PUBLIC_URL is set or an event's print page sets another. The Flask development server stays
available as `flask run`, for development only.
"""
from __future__ import annotations

import argparse
import os
import socket
import sys

# per worker: a hall of 2,000 phones keeping their connections alive, split unevenly between two workers,
# and during a result storm a few more each (a second tab, a tap sent while the poll is out). At 2,500, the
# 2,000-phone storm (bench_load) reached it: waitress stops accepting, and the connections the kernel has
# queued meanwhile waited 30 s unanswered. (waitress polls its sockets with poll(): no 1,024 select() ceiling)
CONNECTION_LIMIT = 5000
DEFAULT_THREADS = 8       # per worker process: requests waiting on the database or the network
# one worker process per core: Python runs one thread at a time per process
DEFAULT_WORKERS = (os.cpu_count() or 1) if hasattr(os, "fork") else 1


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other players' phones can reach (no loopback)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))           # no packet is sent: this only picks the route
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    return [a for a in dict.fromkeys(found) if not a.startswith("127.")]


def terminal_qr(url: str) -> str:
    import io

    import qrcode
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="scripts/run", description=__doc__.split("\n\n")[0])
    p.add_argument("--host", default=os.environ.get("HOST"), help="address to listen on (default 127.0.0.1; "
                                                                  "0.0.0.0 with --lan)")
    p.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 5000))
    p.add_argument("--lan", action="store_true", default=os.environ.get("LAN") == "1",
                   help="serve players' phones on the local network")
    p.add_argument("--threads", type=int, default=int(os.environ.get("THREADS") or DEFAULT_THREADS))
    p.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS") or DEFAULT_WORKERS),
                   help="worker processes sharing the port (POSIX; Windows serves with one)")
    args = p.parse_args(argv)
    if not hasattr(os, "fork"):
        args.workers = 1
    args.workers = max(1, min(args.workers, 16))
    return args


def public_url_for(args, addresses: list[str]) -> str | None:
    if os.environ.get("PUBLIC_URL"):
        return os.environ["PUBLIC_URL"].rstrip("/")
    if args.lan and addresses:
        return f"http://{addresses[0]}:{args.port}"
    return None


def detected_url(host: str, port: int) -> str:
    """Where this server listens, as a link: the address phones would open when nothing better is known (a
    loopback one is refused on paper, tournament.web.links)."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def main(argv=None) -> int:
    args = parse_args(argv)
    host = args.host or ("0.0.0.0" if args.lan else "127.0.0.1")
    addresses = lan_addresses() if (args.lan or host in ("0.0.0.0", "::")) else []
    public = public_url_for(args, addresses) or detected_url(host, args.port)
    if not os.environ.get("PUBLIC_URL"):
        os.environ["DETECTED_URL"] = public         # an event's print page may set another (PUBLIC_URL: nobody)
    print(f"Serving on http://{host}:{args.port} with waitress ({args.workers} worker"
          f"{'s' if args.workers != 1 else ''} x {args.threads} threads).", flush=True)
    if os.environ.get("PUBLIC_URL"):
        print(f"Players' links and QR codes use {public}", flush=True)
    else:
        print(f"Players' links and QR codes use {public} (found at start; change it on an event's print page "
              "or set PUBLIC_URL)", flush=True)
    if line := proxy_line():
        print(line, flush=True)
    for a in addresses:
        print(f"  on this network: http://{a}:{args.port}", flush=True)
    if args.lan and public:
        print(terminal_qr(public + "/"), flush=True)
    sock = listening_socket(host, args.port)
    if args.workers == 1:
        run_worker(sock, args.threads)
        return 0
    return supervise(sock, args)


def listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.setblocking(False)
    return sock


def run_worker(sock: socket.socket, threads: int) -> None:
    """One process: its own app, database connections and caches (nothing is shared across a fork). Behind
    TRUSTED_PROXIES, waitress applies the proxy's X-Forwarded-* itself (see tournament.web.proxy)."""
    from . import create_app
    from .backups import resume_wanted
    from .web.keep_alive import serve
    from .web.lanes import POLL_SHED_AFTER_SECONDS, StaffFirstDispatcher
    from .web.proxy import waitress_options
    enough_open_files(CONNECTION_LIMIT + 100)
    app = create_app()
    resume_wanted(app)          # a round's backup the last server stopped before making
    # Polls a remembered 304 answers first, then staff and writes, then phones' reads (tournament.web.lanes).
    # waitress's `_dispatcher` is its own pool, which waitress 3 takes as given (requirements.txt pins it).
    quick = app.extensions.get("quick_not_modified")        # (not there in another app on this server)
    dispatcher = StaffFirstDispatcher(quick=quick.answers if quick else None,
                                      poll_seconds=app.config.get("POLL_SHED_SECONDS", POLL_SHED_AFTER_SECONDS))
    dispatcher.set_thread_count(threads)
    serve(app, _dispatcher=dispatcher, sockets=[sock], threads=threads, ident="edh-tournament",
          channel_timeout=30,
          connection_limit=CONNECTION_LIMIT, cleanup_interval=10, asyncore_use_poll=True,
          **waitress_options(app.config))


def enough_open_files(wanted: int) -> None:
    """Raise this process's open-file limit toward `wanted` (many systems start at 1,024): each phone's
    connection is a file. Never above the hard limit; nothing to do on Windows."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def proxy_line() -> str | None:
    """What the terminal says about a reverse proxy in front, from the same settings the workers read."""
    from .config import Config
    from .web.proxy import settings
    config = {k: getattr(Config, k) for k in ("TRUSTED_PROXIES", "TRUSTED_PROXY_ADDRESS")}
    config.update({k: v for k, v in Config.from_env().items() if k in config})
    count, address = settings(config)
    if not count:
        return None
    who = "any address" if address == "*" else address
    return (f"Trusting X-Forwarded-For/-Proto/-Host/-Port from {count} proxy{'s' if count > 1 else ''}, the "
            f"nearest connecting from {who} (TRUSTED_PROXY_ADDRESS).")


def _exit_with_parent(parent: int) -> None:
    """A worker whose supervisor is gone (killed) stops too, instead of serving on alone."""
    import threading
    import time

    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)
    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def supervise(sock: socket.socket, args) -> int:
    """Fork the workers (they share the listening socket) and start a new one if one dies."""
    import signal
    import time
    children: dict[int, int] = {}
    stopping = False

    def spawn(slot: int) -> None:
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            _exit_with_parent(os.getppid())
            try:
                run_worker(sock, args.threads)
            finally:
                os._exit(0)
        children[pid] = slot

    def stop(_signum, _frame):
        nonlocal stopping
        stopping = True
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for slot in range(args.workers):
        spawn(slot)
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        slot = children.pop(pid, None)
        if slot is not None and not stopping:
            print(f"worker {pid} stopped ({status}); starting another", file=sys.stderr, flush=True)
            time.sleep(0.5)
            spawn(slot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
