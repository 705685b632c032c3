"""Pairing benchmark: whole simulated events through the pure pairing functions.

    .venv/bin/python scripts/bench_pairing.py [--players 2048] [--rounds 6] [--runs 5] [--pod-size 4]

For pods (democratic scoring, random plausible results) and for 1v1 Swiss, runs
the event once per seed 1..runs and prints, per round, the seconds the round
took in two parts, building its inputs (the standings by the app's scoring
functions from every game so far, and the history of who met whom, seats,
byes and odd pods from every table: `pairing.inputs`, as the app builds them)
and pairing, and how many meetings were repeats; then a summary line per mode:

    pods, 2048 players, 6 rounds: inputs max 0.11 s, pairing max 0.05 s, round max 0.14 s (median 0.12 s), ...

"max" is the slowest round of all runs, "median" the median over the runs of
each run's slowest round, "repeat meetings" the median over the runs of the
meetings that were repeats. Exit status 1 when a round (inputs and pairing)
took --limit seconds or more (default 2) or a repeat happened.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament.rounds.pairing.simulate import simulate  # noqa: E402


def bench(mode: str, players: int, rounds: int, runs: int, pod_size: int) -> tuple[float, int]:
    slowest, inputs, pairings, repeats = [], [], [], []
    label = "pods" if mode == "pods" else "duel Swiss"
    for seed in range(1, runs + 1):
        report = simulate(players, rounds, mode=mode, pod_size=pod_size, seed=seed, app_inputs=True)
        cells = "  ".join(f"r{r}: {i:.2f}+{s:.2f} s, {rep} rep" for r, (i, s, rep) in enumerate(
            zip(report.input_seconds, report.pairing_seconds, report.repeats_by_round), start=1))
        extra = f", seat 1 at most {report.seat1_max}x" if mode == "pods" else f", byes {report.byes}"
        print(f"  {label} seed {seed} (inputs+pairing): {cells}{extra}", flush=True)
        slowest.append(max(i + s for i, s in zip(report.input_seconds, report.pairing_seconds)))
        inputs.append(max(report.input_seconds))
        pairings.append(max(report.pairing_seconds))
        repeats.append(sum(report.repeats_by_round))
    print(f"{label}, {players} players, {rounds} rounds: inputs max {max(inputs):.2f} s "
          f"(median {statistics.median(inputs):.2f}), pairing max {max(pairings):.2f} s "
          f"(median {statistics.median(pairings):.2f}), round max {max(slowest):.2f} s "
          f"(median {statistics.median(slowest):.2f}), repeat meetings {statistics.median(repeats):g} "
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
