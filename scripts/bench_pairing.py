"""Pairing benchmark: whole simulated events through the pure pairing functions.

    .venv/bin/python scripts/bench_pairing.py [--players 2048] [--rounds 6] [--runs 5] [--pod-size 4]

For pods (democratic scoring, random plausible results) and for 1v1 Swiss, runs
the event once per seed 1..runs and prints, per round, the seconds the pairing
took and how many meetings were repeats; then a summary line per mode:

    pods, 2048 players, 6 rounds: max pairing 0.84 s, median 0.61 s, repeat meetings 0 (median of 5 runs)

"max pairing" is the slowest single pairing of all runs, "median" the median
over the runs of each run's slowest pairing, "repeat meetings" the median over
the runs of the meetings that were repeats. Exit status 1 when a pairing took
--limit seconds or more (default 2) or a repeat happened.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament.rounds.pairing.simulate import simulate  # noqa: E402


def bench(mode: str, players: int, rounds: int, runs: int, pod_size: int) -> tuple[float, int]:
    slowest, repeats = [], []
    label = "pods" if mode == "pods" else "duel Swiss"
    for seed in range(1, runs + 1):
        report = simulate(players, rounds, mode=mode, pod_size=pod_size, seed=seed)
        cells = "  ".join(f"r{r}: {s:.2f} s, {rep} rep" for r, (s, rep)
                          in enumerate(zip(report.pairing_seconds, report.repeats_by_round), start=1))
        extra = f", seat 1 at most {report.seat1_max}x" if mode == "pods" else f", byes {report.byes}"
        print(f"  {label} seed {seed}: {cells}{extra}", flush=True)
        slowest.append(max(report.pairing_seconds))
        repeats.append(sum(report.repeats_by_round))
    print(f"{label}, {players} players, {rounds} rounds: max pairing {max(slowest):.2f} s, "
          f"median {statistics.median(slowest):.2f} s, repeat meetings {statistics.median(repeats):g} "
          f"(median of {runs} runs; most in one run: {max(repeats)})", flush=True)
    return max(slowest), max(repeats)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pod-size", type=int, default=4)
    parser.add_argument("--limit", type=float, default=2.0, help="seconds a single pairing may take")
    parser.add_argument("--mode", choices=("both", "pods", "duel"), default="both")
    args = parser.parse_args(argv)
    ok = True
    for mode in (("pods", "duel") if args.mode == "both" else (args.mode,)):
        worst, repeats = bench(mode, args.players, args.rounds, args.runs, args.pod_size)
        ok = ok and worst < args.limit and repeats == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
