#!/usr/bin/env python
"""Run a whole event through the real operations on a fresh temporary database.

    .venv/bin/python scripts/simulate_event.py --players 64 --rounds 5 --mode pods [--pod-size 4]
        [--top-cut N] [--leftover threes|fives|byes] [--seed S] [--names FILE] [--database URL] [--json]

Results are random but plausible (seeded): in pods one to three players
survive and everyone votes for another player at the table; in duels games
are won at random, now and then drawn. With --json it prints one object:
players, rounds, pod_sizes, repeat_pairs, max_times_met, seat1_max, byes,
small_pod_max (the most times one player sat at a pod of another size than
the event's), small_pod_repeat_players (players who sat at one twice or more),
pairing_seconds, standings_top; with --top-cut N (pods: 4, 7, 10, 13, 16, 40;
duel: 4, 8) also top_cut: each cut round's stage, the seeds waiting and each
table's players by seed (their place in the standings at the cut), and the
event's winner.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

FIRST = ["Anna", "Ben", "Chloé", "Dávid", "Emil", "Fatima", "Goran", "Hana", "Ivo", "Jana", "Kai", "Lena",
         "Marek", "Nora", "Ola", "Petr", "Quinn", "Rosa", "Šárka", "Tomáš", "Uma", "Vít", "Wen", "Xu", "Yuki",
         "Zoë"]
LAST = ["Novák", "Dvořáková", "Smith", "Müller", "García", "Kowalski", "Ivanov", "Tanaka", "Kim", "Li"]
CJK = ["山田太郎", "王小明", "佐藤花子", "李娜", "김민준", "Иван Петров", "鈴木一郎", "陈静"]


def player_names(n: int, rng: random.Random, names_file: str | None) -> list[str]:
    if names_file:
        try:
            text = Path(names_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise SystemExit(f"Cannot read the names file {names_file}: {e}.")
        names = [line.strip() for line in text.splitlines() if line.strip()]
        if len(names) < n:
            raise SystemExit(f"{names_file} has {len(names)} names; --players asks for {n}.")
        return names[:n]
    pool = [f"{f} {l}" for f in FIRST for l in LAST] + CJK
    rng.shuffle(pool)
    return [pool[i] if i < len(pool) else f"Player {i + 1}" for i in range(n)]


def simulate(args) -> dict:
    import logging

    from flask_migrate import upgrade

    from tournament import create_app
    from tournament.auth.operations import create_user
    from tournament.events import operations as events
    from tournament.extensions import db
    from tournament.rounds import operations as rounds

    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="simulate-")
    url = args.database or f"sqlite:///{os.path.join(tmp, 'event.sqlite')}"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    # Called in-process (the tests), no connection outlives the run, refused or not.
    app.teardown_appcontext(lambda exc: (db.session.remove(), db.engine.dispose()))
    with app.app_context():
        upgrade()
        logging.getLogger("alembic").setLevel(logging.WARNING)
        staff = create_user(f"sim-{rng.randrange(10**9)}", "simulation-password", "organizer")
        settings = {"name": f"Simulated {args.mode} event", "ruleset": "duel-cn" if args.mode == "duel" else "edh-2010",
                    "mode": args.mode, "pod_size": args.pod_size, "top_cut": args.top_cut,
                    "cut_seating": args.cut_seating, "leftover_policy": args.leftover}
        event = events.create_event(staff, settings)
        regs = [events.register_player(event, {"name": n}) for n in player_names(args.players, rng, args.names)]
        for reg in regs:
            events.check_in(reg, staff)
        db.session.commit()

        pairing_seconds, pod_sizes, byes = [], {}, 0
        for number in range(1, args.rounds + 1):
            start = time.perf_counter()
            rnd = rounds.pair_next_round(event, staff, seed=rng.randrange(2**62), override_decks=True)
            pairing_seconds.append(round(time.perf_counter() - start, 4))
            rounds.publish_round(rnd, staff)
            rounds.start_round(rnd, staff)
            sizes = []
            for table in rnd.tables:
                ids = [s.registration_id for s in table.seats]
                if table.kind == "bye":
                    byes += 1
                    continue
                sizes.append(len(ids))
                if table.kind == "pod":
                    survivors = rng.sample(ids, rng.choice([1, 1, 2, 3]) if len(ids) > 2 else 1)
                    eliminated = [i for i in ids if i not in survivors]
                    rng.shuffle(eliminated)
                    rounds.report_pod_result(table, survivors, eliminated, user=staff)
                    for voter in ids:
                        rounds.cast_vote(table, voter, rng.choice([i for i in ids if i != voter]), user=staff)
                else:
                    games, wins = [], Counter()
                    while max(wins.values(), default=0) < 2 and len(games) < 3:
                        w = None if rng.random() < 0.05 else rng.choice(ids)
                        games.append(w)
                        if w is not None:
                            wins[w] += 1
                    rounds.report_duel_games(table, games, user=staff)
            rounds.finish_round(rnd, staff)
            db.session.commit()
            pod_sizes[number] = sizes

        met, seat1, bye_count, odd = Counter(), Counter(), Counter(), Counter()
        for rnd in rounds.rounds_of(event):
            for table in rnd.tables:
                ids = [s.registration_id for s in table.seats]
                if table.kind == "bye":
                    bye_count[ids[0]] += 1
                    continue
                if table.kind == "pod" and len(ids) != args.pod_size:
                    odd.update(ids)
                for a, b in combinations(sorted(ids), 2):
                    met[(a, b)] += 1
                seat1[ids[0]] += 1
        rows = rounds.standings(event)
        names = {r.id: r.name for r in regs}
        result = {
            "players": args.players,
            "rounds": args.rounds,
            "pod_sizes": pod_sizes,
            "repeat_pairs": sum(1 for times in met.values() if times > 1),
            "max_times_met": max(met.values(), default=0),
            "seat1_max": max(seat1.values(), default=0),
            "byes": byes,
            "max_byes_per_player": max(bye_count.values(), default=0),
            "small_pod_max": max(odd.values(), default=0),
            "small_pod_repeat_players": sum(1 for times in odd.values() if times >= 2),
            "pairing_seconds": pairing_seconds,
            "standings_top": [{"name": names[r.player], "points": r.points} for r in rows[:8]],
        }
        if args.top_cut:
            result["top_cut"] = play_top_cut(event, staff, rng, names)
        if getattr(args, "pdf_dir", None):
            result["pdfs"] = write_pdfs(event, args.pdf_dir)
        return result


def play_top_cut(event, staff, rng: random.Random, names: dict[int, str]) -> dict:
    """Pair and play the top cut to its end: pods have one winner (now and then a draw at time, which the best
    seed left wins); duels are won 2-0 or 2-1."""
    from tournament.errors import Refused as Stop
    from tournament.extensions import db
    from tournament.rounds import operations as rounds

    seed_of = {row.player: i + 1 for i, row in enumerate(rounds.standings(event))}
    stages = []
    while True:
        try:
            rnd = rounds.pair_top_cut_round(event, staff)
        except Stop:
            break
        rounds.publish_round(rnd, staff)
        rounds.start_round(rnd, staff)
        stage = {"round": rnd.number, "stage": rnd.stage, "waiting": [], "tables": []}
        for table in rnd.tables:
            ids = [s.registration_id for s in table.seats]
            if table.kind == "bye":
                stage["waiting"].append(seed_of[ids[0]])
                continue
            stage["tables"].append([seed_of[i] for i in ids])
            if table.kind == "pod":
                left = rng.sample(ids, 2) if rng.random() < 0.1 else [rng.choice(ids)]
                out = [i for i in ids if i not in left]
                rng.shuffle(out)
                rounds.report_pod_result(table, left, out, user=staff)
            else:
                winner = rng.choice(ids)
                loser = ids[1] if winner == ids[0] else ids[0]
                rounds.report_duel_games(table, [winner, loser, winner] if rng.random() < 0.4 else [winner, winner],
                                         user=staff)
        rounds.finish_round(rnd, staff)
        db.session.commit()
        stages.append(stage)
    return {"size": event.top_cut, "seating": event.cut_seating, "rounds": stages,
            "winner": _cut_winner(event, names)}


def _cut_winner(event, names: dict[int, str]) -> str | None:
    from tournament.rounds import operations as rounds
    final = rounds.rounds_of(event)[-1]
    tables = [t for t in final.tables if t.kind != "bye"]
    if len(tables) != 1:
        return None
    table = tables[0]
    if table.kind == "pod":
        left = [s.registration_id for s in table.seats if s.survived]
        seeds = {row.player: i for i, row in enumerate(rounds.standings(event))}
        return names[min(left, key=seeds.__getitem__)]
    wins = Counter(g.winner_id for g in table.games)
    return names[wins.most_common(1)[0][0]]


def write_pdfs(event, pdf_dir: str) -> list[str]:
    """Every printable document into pdf_dir: round documents for every round, the rest once."""
    from tournament.printing.documents import DOCUMENTS
    from tournament.printing.operations import build_document
    from tournament.rounds import operations as rounds

    out = Path(pdf_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    numbers = [r.number for r in rounds.rounds_of(event)]
    for slug, cls in DOCUMENTS.items():
        if getattr(cls, "needs_public_url", False):
            continue                     # the QR poster: a simulated event has no address phones could open
        for number in (numbers if cls.needs_round or cls.uses_round else [None]):
            pdf, name = build_document(event, slug, number)
            (out / name).write_bytes(pdf)
            written.append(str(out / name))
    return written


def main(argv: list[str] | None = None) -> None:
    """The command line; argv defaults to sys.argv[1:]. The tests call it in-process with their own argv
    (and --database): a refusal raises SystemExit, as from the command line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--mode", choices=["pods", "duel"], default="pods")
    ap.add_argument("--pod-size", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top-cut", type=int, default=0, help="pods: 4, 7, 10, 13, 16 or 40; duel: 4 or 8")
    ap.add_argument("--cut-seating", choices=["seed", "choice"], default="seed")
    ap.add_argument("--leftover", choices=["threes", "fives", "byes"], default="threes",
                    help="pods that do not divide evenly: 3-pods (the default), 5-pods or byes")
    ap.add_argument("--names", default=None, help="a file with one player name per line")
    ap.add_argument("--pdf-dir", default=None, help="write every printable document here (printing feature)")
    ap.add_argument("--database", default=None, help="database URL (default: a fresh temporary SQLite file)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.players < 2 or args.rounds < 1:
        ap.error("need at least 2 players and 1 round")
    allowed = (4, 8) if args.mode == "duel" else (4, 7, 10, 13, 16, 40)
    if args.top_cut and (args.top_cut not in allowed or args.top_cut > args.players):
        ap.error(f"--top-cut for {args.mode}: one of {', '.join(map(str, allowed))}, at most --players")
    result = simulate(args)
    if args.pdf_dir:
        print(f"wrote {len(result['pdfs'])} PDFs to {args.pdf_dir}", file=sys.stderr)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return
    print(f"{result['players']} players, {result['rounds']} rounds ({args.mode})")
    for number, sizes in result["pod_sizes"].items():
        print(f"  round {number}: tables {'+'.join(map(str, sizes))}, paired in {result['pairing_seconds'][number - 1]:.3f} s")
    print(f"repeat pairs {result['repeat_pairs']}, most meetings {result['max_times_met']}, "
          f"most times in seat 1 {result['seat1_max']}, byes {result['byes']}")
    for i, row in enumerate(result["standings_top"], 1):
        print(f"  {i}. {row['name']}: {row['points']:g}")


if __name__ == "__main__":
    main()
