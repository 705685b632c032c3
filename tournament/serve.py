"""Serve the app at the venue with waitress, a production WSGI server in pure Python (Linux, macOS, Windows).

    python -m tournament.serve [--host 0.0.0.0] [--port 5000] [--lan] [--threads 16]

`--lan` listens on every interface, prints the laptop's LAN addresses and a
QR code of the player URL in the terminal, and uses that URL for every player
link and QR code unless PUBLIC_URL is set. The Flask development server stays
available as `flask run`, for development only.
"""
from __future__ import annotations

import argparse
import os
import socket
import sys

DEFAULT_THREADS = 16      # the database and page work of a 300-player round start, on two cores


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
    return p.parse_args(argv)


def public_url_for(args, addresses: list[str]) -> str | None:
    if os.environ.get("PUBLIC_URL"):
        return os.environ["PUBLIC_URL"].rstrip("/")
    if args.lan and addresses:
        return f"http://{addresses[0]}:{args.port}"
    return None


def main(argv=None) -> int:
    args = parse_args(argv)
    host = args.host or ("0.0.0.0" if args.lan else "127.0.0.1")
    addresses = lan_addresses() if (args.lan or host in ("0.0.0.0", "::")) else []
    public = public_url_for(args, addresses)
    if public:
        os.environ["PUBLIC_URL"] = public
    from waitress import serve

    from . import create_app
    app = create_app()
    print(f"Serving on http://{host}:{args.port} with waitress ({args.threads} threads).", flush=True)
    if public:
        print(f"Players' links and QR codes use {public}", flush=True)
    for a in addresses:
        print(f"  on this network: http://{a}:{args.port}", flush=True)
    if args.lan and public:
        print(terminal_qr(public + "/"), flush=True)
    serve(app, host=host, port=args.port, threads=args.threads, ident="edh-tournament",
          channel_timeout=30, connection_limit=1000, cleanup_interval=10, asyncore_use_poll=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
