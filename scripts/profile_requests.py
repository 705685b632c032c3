#!/usr/bin/env python3
"""Where a request's milliseconds go: cProfile of the pages phones hit, in-process or inside waitress.

    .venv/bin/python scripts/profile_requests.py [--kind round_box|pod_first|player_page|poll_304|result_post]
                                                 [--players 80] [--server] [--top 30]

Builds the database bench_requests.py builds (a pods event, round 1 started), opens every phone's page once
(its cookie remembers its code), then profiles one request per phone (result_post: one per table). Without
--server the requests go through Flask's test client; with it, through waitress with the options
tournament.serve gives it (the app profiled around each request, on the thread that serves it). Prints the
app's own functions and templates by cumulative time, and the SQL statements per request.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import tempfile
import threading

import httpx
import sqlalchemy as sa

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_requests as bench  # noqa: E402


class Profiled:
    """WSGI middleware: the profiler runs while the app answers (the server's own work is not in it)."""

    def __init__(self, app, profile):
        self.app, self.profile, self.on = app, profile, False

    def __call__(self, environ, start_response):
        if not self.on:
            return self.app(environ, start_response)
        self.profile.enable()
        try:
            return list(self.app(environ, start_response))
        finally:
            self.profile.disable()


def clients(app, server: bool, codes):
    if not server:
        return {c: app.test_client() for c in codes}
    from waitress.server import create_server
    from tournament.serve import listening_socket
    port = bench.free_port()
    srv = create_server(app, sockets=[listening_socket("127.0.0.1", port)], threads=8, channel_timeout=30,
                        connection_limit=1000, cleanup_interval=10, asyncore_use_poll=True)
    threading.Thread(target=srv.run, daemon=True).start()
    return {c: httpx.Client(base_url=f"http://127.0.0.1:{port}") for c in codes}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kind", default="round_box", choices=("round_box", "pod_first", "player_page", "poll_304", "result_post"),
                   help="pod_first: the round box of each pod's first phone, its shared copy not yet drawn "
                        "(a round start)")
    p.add_argument("--players", type=int, default=80)
    p.add_argument("--server", action="store_true")
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--statements", action="store_true", help="list the SQL statements with their counts")
    p.add_argument("--own", action="store_true", help="every function by its own time (tottime), libraries too")
    args = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="profile-requests-")
    data = bench.prepare(f"sqlite:///{tmp}/profile.sqlite", tmp, args.players)
    os.environ["PUBLIC_URL"] = "http://127.0.0.1:5000"
    from tournament import create_app
    from tournament.extensions import db
    app = create_app()
    profile = cProfile.Profile()
    app.wsgi_app = wrapped = Profiled(app.wsgi_app, profile)
    codes = data["codes"]
    phones = clients(app, args.server, codes)
    tags, forms = {}, []
    for c in codes:
        phones[c].get(f"/p/{c}")
        tags[c] = phones[c].get(f"/p/{c}/round").headers["ETag"]
    for seats in data["tables"]:
        html = phones[seats[0]].get(f"/p/{seats[0]}/round").text
        form = bench.REPORT_FORM.search(html).group(0)
        forms.append((seats[0], {**dict(bench.HIDDEN.findall(form)), "r-survivors": bench.SURVIVOR.findall(form)[0][1]}))
    statements: list[str] = []
    with app.app_context():
        sa.event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    wrapped.on = True
    if args.kind == "result_post":
        for c, fields in forms:
            assert phones[c].post(f"/p/{c}/result", data=fields).status_code == 302
        n = len(forms)
    elif args.kind == "pod_first":
        app.extensions.pop("round_boxes", None)                  # the pods' shared copies (rounds/box.py)
        for seats in data["tables"]:
            assert phones[seats[0]].get(f"/p/{seats[0]}/round").status_code == 200
        n = len(data["tables"])
    else:
        for c in codes:
            headers = {"If-None-Match": tags[c]} if args.kind == "poll_304" else {}
            path = f"/p/{c}" if args.kind == "player_page" else f"/p/{c}/round"
            assert phones[c].get(path, headers=headers).status_code in (200, 304)
        n = len(codes)
    wrapped.on = False
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    if args.own:
        stats.sort_stats("tottime").print_stats(args.top)
    else:
        stats.sort_stats("cumulative").print_stats(r"tournament|templates|sqlalchemy/orm/session.py.*\(execute\)|"
                                                   r"flask/templating|wtforms/form.py.*__call__", args.top)
    where = "inside waitress" if args.server else "in-process (test client)"
    print(f"{args.kind}, {n} requests {where}: {len(statements) / n:.1f} SQL statements a request")
    if args.statements:
        from collections import Counter
        for text, count in Counter(statements).most_common(40):
            print(f"{count:5d}  {' '.join(text.split())[:160]}")
    print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
