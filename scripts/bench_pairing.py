"""Pairing benchmark: whole simulated events through the pure pairing functions.

    .venv/bin/python scripts/bench_pairing.py [--players 2048] [--rounds 6] [--runs 5] [--pod-size 4]
    .venv/bin/python scripts/bench_pairing.py --swisspair     # 1v1 Swiss against swisspair (requirements-dev.txt)

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

With --swisspair, 1v1 Swiss only, against swisspair (PyPI; min-cost perfect matching in C++): per seed,
one simulated event of 64 players x 10 rounds paired by us, and each round swisspair pairs the very same
field (same standings, same history, same results): the sum of |point gap| over all matches and the
rematches of both (and, as a second view, each driving its own event from the same seed); then our
pairing seconds and swisspair's on the same fields at 2,048 and 16,384 players and the growth exponent.
Exit status 1 when ours is looser than swisspair's or grows faster than players^1.3.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament.rounds.pairing.domain import Match, SwissPairing  # noqa: E402
from tournament.rounds.pairing.simulate import simulate  # noqa: E402
from tournament.rounds.pairing.swiss import pair_swiss  # noqa: E402


# ----------------------------------------------------------------- 1v1 Swiss against swisspair

def swisspair_pairing(entrants, *, seed=0, round_number=1) -> SwissPairing:
    """swisspair (PyPI, min-cost perfect matching in C++) on our entrants: ranked by the standings, points as
    integers, every earlier opponent forbidden, a bye only for a player who had none. Same signature as
    `pair_swiss`, so it can drive a simulated event too."""
    import swisspair
    ranked = sorted(entrants, key=lambda e: (-e.points, e.rank, e.id))
    ids = {e.id for e in ranked}
    players = [swisspair.Player(id=str(e.id), points=int(e.points), rank=r + 1, can_get_bye=not e.byes,
                                cannot_be_paired_against_ids={str(o) for o, c in e.opponents.items()
                                                              if c > 0 and o in ids and o != e.id})
               for r, e in enumerate(ranked)]
    matches, bye = [], None
    for m in swisspair.create_matches(players):
        if m.is_bye:
            bye = int(m.p1.id)
        else:
            matches.append(Match(table=len(matches) + 1, players=(int(m.p1.id), int(m.p2.id))))
    return SwissPairing(matches=tuple(matches), bye=bye)


def point_gap(pairing: SwissPairing, entrants) -> tuple[float, int]:
    """Sum over the round's matches of |points difference|, and how many matches were rematches."""
    by_id = {e.id: e for e in entrants}
    gap = rematches = 0
    for m in pairing.matches:
        a, b = (by_id[i] for i in m.players)
        gap += abs(a.points - b.points)
        rematches += a.opponents.get(b.id, 0) > 0
    return gap, rematches


def compare_swisspair(players: int, rounds: int, runs: int) -> tuple[float, float]:
    """Per seed, one simulated event paired by us; each round, swisspair pairs the very same field (same
    standings, same history: the results are those of our event). Prints both sums of |point gap| and the
    rematches; then, as a second view, an event driven by swisspair from the same seed. Returns the totals."""
    ours_total = ref_total = 0.0
    for seed in range(1, runs + 1):
        seen = {"ours": [0.0, 0], "ref": [0.0, 0]}

        def observe(rnd, field_, seed=seed, seen=seen):
            for key, fn in (("ours", pair_swiss), ("ref", swisspair_pairing)):
                gap, rem = point_gap(fn(field_, seed=seed * 1000 + rnd, round_number=rnd), field_)
                seen[key][0] += gap
                seen[key][1] += rem

        simulate(players, rounds, mode="duel", seed=seed, observe=observe)
        own = {}
        for key, fn in (("ours", pair_swiss), ("ref", swisspair_pairing)):
            own[key] = [0.0, 0]

            def tally(rnd, field_, key=key, fn=fn, seed=seed):
                gap, rem = point_gap(fn(field_, seed=seed * 1000 + rnd, round_number=rnd), field_)
                own[key][0] += gap
                own[key][1] += rem

            simulate(players, rounds, mode="duel", seed=seed, swiss=fn, observe=tally)
        ours_total += seen["ours"][0]
        ref_total += seen["ref"][0]
        print(f"  duel Swiss seed {seed}, {players} x {rounds}: same fields: ours {seen['ours'][0]:g} "
              f"({seen['ours'][1]} rematches), swisspair {seen['ref'][0]:g} ({seen['ref'][1]} rematches); "
              f"each its own event: ours {own['ours'][0]:g} ({own['ours'][1]}), swisspair {own['ref'][0]:g} "
              f"({own['ref'][1]})", flush=True)
    print(f"duel Swiss point gap, {players} players x {rounds} rounds, {runs} events (sum of |point gap| over "
          f"all matches, same fields): ours {ours_total:g}, swisspair {ref_total:g} "
          f"({(ours_total / ref_total - 1) * 100 if ref_total else 0:+.1f} %)", flush=True)
    return ours_total, ref_total


def growth(sizes: tuple[int, ...], rounds: int, runs: int, repeats: int = 5) -> float:
    """Pairing seconds of our Swiss and of swisspair on the same fields (rounds 2.. of `runs` simulated events
    per size), summed; the growth exponent between the smallest and the largest size:
    log(t_large / t_small) / log(n_large / n_small). The machine is shared, so the fields of every size are
    built first and then timed `repeats` times, one field of each size in turn, keeping each field's fastest
    time (a busy spell then slows all sizes alike instead of one)."""
    import math
    import time
    from tournament.rounds.pairing.quiet import collection_paused
    fields = {n: [] for n in sizes}
    for n in sizes:
        for seed in range(1, runs + 1):
            simulate(n, rounds, mode="duel", seed=seed,
                     observe=lambda rnd, f, n=n, seed=seed: rnd > 1 and fields[n].append((seed, rnd, f)))
    best = {(key, n, i): math.inf for key in ("ours", "ref") for n in sizes for i in range(len(fields[n]))}
    longest = max(len(f) for f in fields.values())
    for repeat in range(repeats):
        for i, n in ((i, n) for i in range(longest) for n in sizes if i < len(fields[n])):
            seed, rnd, field_ = fields[n][i]
            for key, fn in (("ours", pair_swiss), ("ref", swisspair_pairing)):
                if key == "ref" and repeat:
                    continue                                 # swisspair once (it is the slower one)
                with collection_paused():
                    started = time.perf_counter()
                    fn(field_, seed=seed * 1000 + rnd, round_number=rnd)
                    best[key, n, i] = min(best[key, n, i], time.perf_counter() - started)
    totals = {(key, n): sum(best[key, n, i] for i in range(len(fields[n]))) for key in ("ours", "ref") for n in sizes}
    for n in sizes:
        count = len(fields[n])
        print(f"  duel Swiss pairing, {n} players, rounds 2-{rounds} of {runs} events: ours {totals['ours', n]:.3f} s "
              f"({totals['ours', n] / count:.3f} s a round, fastest of {repeats}), swisspair {totals['ref', n]:.3f} s "
              f"({totals['ref', n] / count:.3f} s a round)", flush=True)
    small, large = min(sizes), max(sizes)
    scale = math.log(large / small)
    exponents = {key: math.log(totals[key, large] / totals[key, small]) / scale for key in ("ours", "ref")}
    print(f"duel Swiss growth {small} -> {large} players: ours players^{exponents['ours']:.2f}, swisspair "
          f"players^{exponents['ref']:.2f}", flush=True)
    return exponents["ours"]


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
    parser.add_argument("--swisspair", action="store_true",
                        help="1v1 Swiss against swisspair (requirements-dev.txt): point gap at --gap-players x "
                             "--gap-rounds over --gap-runs events, and the growth exponent between "
                             "--growth-sizes (our pairing must be at least as tight, 0 rematches, exponent <= 1.3)")
    parser.add_argument("--gap-players", type=int, default=64)
    parser.add_argument("--gap-rounds", type=int, default=10)
    parser.add_argument("--gap-runs", type=int, default=30)
    parser.add_argument("--growth-sizes", default="2048,16384")
    parser.add_argument("--growth-runs", type=int, default=3)
    args = parser.parse_args(argv)
    if args.swisspair:
        try:
            import swisspair  # noqa: F401
        except ImportError:
            print("swisspair is not installed: pip install -r requirements-dev.txt (it pins swisspair)",
                  file=sys.stderr)
            return 2
        ours, ref = compare_swisspair(args.gap_players, args.gap_rounds, args.gap_runs)
        sizes = tuple(int(x) for x in args.growth_sizes.split(","))
        exponent = growth(sizes, args.rounds, args.growth_runs)
        return 0 if ours <= ref and exponent <= 1.3 else 1
    ok = True
    for mode in (("pods", "duel") if args.mode == "both" else (args.mode,)):
        worst, repeats = bench(mode, args.players, args.rounds, args.runs, args.pod_size)
        ok = ok and worst < args.limit and repeats == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
