#!/usr/bin/env python
"""Benchmark: pairings by table and by name for 2,000 players (pure documents, generated plain data).

    .venv/bin/python scripts/bench_printing.py [--players 2000] [--runs 5] [--mode pods|duel]

Prints the median of the runs for each document and for both together; the goal is under 3 s together.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

FIRST = ["Anna", "Ben", "Chloé", "Dávid", "Emil", "Fatima", "Goran", "Hana", "Šárka", "Tomáš", "Zoë", "Yuki"]
LAST = ["Novák", "Dvořáková", "Smith", "Müller", "García", "Kowalski", "Ivanov", "Tanaka", "Kim", "Li"]
OTHER = ["山田太郎", "王小明", "佐藤花子", "김민준", "Иван Петров", "<b>Bobby</b> Tables"]


def pairings(players: int, mode: str, seed: int = 1):
    from tournament.printing.data import DocInfo, PairingsData, SeatLine, TableLine
    rng = random.Random(seed)
    names = [f"{rng.choice(FIRST)} {rng.choice(LAST)} {i}" if i % 7 else f"{rng.choice(OTHER)} {i}"
             for i in range(1, players + 1)]
    rng.shuffle(names)
    size = 2 if mode == "duel" else 4
    tables = []
    for n, start in enumerate(range(0, players, size), 1):
        group = names[start:start + size]
        kind = "bye" if len(group) == 1 else ("match" if mode == "duel" else "pod")
        tables.append(TableLine(n, kind, tuple(SeatLine(i, name) for i, name in enumerate(group, 1))))
    return PairingsData(DocInfo("Benchmark Open", "A4", 3), mode, tuple(tables))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mode", choices=["pods", "duel"], default="pods")
    args = ap.parse_args()
    from tournament.printing.documents import PairingsByName, PairingsByTable
    from tournament.printing.fonts import register_fonts
    register_fonts()
    data = pairings(args.players, args.mode)
    times = {"by table": [], "by name": [], "both": []}
    sizes = {}
    for _ in range(args.runs):
        t0 = time.perf_counter()
        sizes["by table"] = len(PairingsByTable(data).render())
        t1 = time.perf_counter()
        sizes["by name"] = len(PairingsByName(data).render())
        t2 = time.perf_counter()
        times["by table"].append(t1 - t0)
        times["by name"].append(t2 - t1)
        times["both"].append(t2 - t0)
    print(f"{args.players} players ({args.mode}), median of {args.runs} runs:")
    for k, v in times.items():
        extra = f", {sizes[k] / 1024:.0f} KiB" if k in sizes else ""
        print(f"  {k:9s} {statistics.median(v):.2f} s{extra}")
    both = statistics.median(times["both"])
    print(f"goal under 3 s for both: {'met' if both < 3 else 'NOT met'} ({both:.2f} s)")


if __name__ == "__main__":
    main()
