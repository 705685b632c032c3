"""Benchmark: decklists parsed and checked per second, on the full card pool.

    .venv/bin/python scripts/bench_decks.py [CARD_FILE] [--decks N] [--runs 5] [--seed 1]
                                            [--ruleset edh-2010] [--database URL]

Builds a MemoryCardPool from MTGJSON AtomicCards (default
../shared/cards/AtomicCards.json.gz next to the repository), generates N
realistic 100-card decklists from real cards (seeded: a real legendary
creature general, 99 cards within its colour identity including basics, a
sideboard; half of them made illegal with an off-colour card, a banned card,
a duplicate, a wrong count or a misspelt name), then times
`check_deck(parse_decklist(text), pool, ruleset)` over all of them and
prints the median of several runs (decks/s and ms per deck, parsing alone
too). With --database, the same decks are checked with DbCardPool against
that database (cards must already be imported there with `flask cards
import`), and the command line is timed as a player's organizer runs it:

* start-up: `python -m tournament.decks check ONE_FILE` (no app start), wall
  time, the median of --cli-runs runs, and with --flask the same through
  `flask --app wsgi deck check` (which starts the app) for comparison;
* batch: one `python -m tournament.decks check` of --batch files, decks/s.

    .venv/bin/python scripts/bench_decks.py --database sqlite:///instance/tournament.sqlite --flask
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tournament.cards.importers import read_cards  # noqa: E402
from tournament.cards.pool import MemoryCardPool  # noqa: E402
from tournament.decks.checks import check_deck  # noqa: E402
from tournament.decks.parser import parse_decklist  # noqa: E402
from tournament.decks.rulesets import card_key, get_ruleset  # noqa: E402

DEFAULT_CARDS = REPO.parent / "shared" / "cards" / "AtomicCards.json.gz"
BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
NOT_DECK_TYPES = {"Scheme", "Plane", "Phenomenon", "Vanguard", "Conspiracy", "Dungeon", "Hero"}


class DeckFactory:
    """Realistic decklists from the real card pool, legal under a ruleset unless spoiled."""

    def __init__(self, cards, ruleset, seed: int):
        self.rng = random.Random(seed)
        self.ruleset = ruleset
        banned = {card_key(n) for n in ruleset.banlist}
        not_general = {card_key(n) for n in ruleset.banned_as_general}
        fmt, allow = ruleset.pool.format, ruleset.pool.allow
        self.banned = [c.name for c in cards if card_key(c.name) in banned]
        # Names that normalise to the same key ("Wasteland" / "Waste Land") are left out, so a
        # generated legal deck never depends on which of the two the pool picks.
        keys = Counter(card_key(c.name) for c in cards)

        def usable(c):
            return (c.legalities.get(fmt) in allow and not c.is_funny and not c.is_rebalanced
                    and card_key(c.name) not in banned and keys[card_key(c.name)] == 1 and not NOT_DECK_TYPES & set(c.types)
                    and (ruleset.banlist_from_card_data is None
                         or c.legalities.get(ruleset.banlist_from_card_data) != "Banned"))

        self.cards = [c for c in cards if usable(c) and "Basic" not in c.supertypes and c.copy_limit == 1]
        self.generals = [c for c in self.cards if card_key(c.name) not in not_general
                         and "Legendary" in c.front.supertypes and "Creature" in c.front.types]
        self._by_identity: dict[frozenset, list] = {}

    def within(self, identity: frozenset) -> list:
        got = self._by_identity.get(identity)
        if got is None:
            got = self._by_identity[identity] = [c for c in self.cards if identity.issuperset(c.color_identity)]
        return got

    def deck(self, spoil: bool) -> tuple[str, bool]:
        rng = self.rng
        general = rng.choice(self.generals)
        identity = frozenset(general.color_identity)
        candidates = [c for c in self.within(identity) if c.name != general.name]
        spells = rng.sample(candidates, 62 + 10)
        most = self.ruleset.sideboard_max
        main, side = spells[:62], spells[62:62 + rng.choice((0, most // 2, most))]
        lands = [BASICS[c] for c in "WUBRG" if c in identity] or ["Wastes"]
        counts = {land: 37 // len(lands) for land in lands}
        counts[lands[0]] += 37 - sum(counts.values())
        names = [c.name for c in main]
        side_names = [c.name for c in side]
        if spoil:
            kind = rng.choice(("colour", "banned", "duplicate", "size", "typo", "colour"))
            if kind == "colour" and len(identity) < 5:
                off = [c for c in self.cards if not identity.issuperset(c.color_identity)]
                names[rng.randrange(len(names))] = rng.choice(off).name
            elif kind == "banned" and self.banned:
                names[rng.randrange(len(names))] = rng.choice(self.banned)
            elif kind == "duplicate":
                names[0] = names[1]
            elif kind == "typo":
                i = rng.randrange(len(names))
                n = names[i]
                letters = [j for j, ch in enumerate(n) if ch.isalpha()]
                j = rng.choice(letters)
                names[i] = n[:j] + n[j] + n[j:]         # "Sol Rinng"
            else:
                counts[lands[0]] += 1
        style = rng.randrange(3)
        if style == 0:      # Arena
            out = ["Commander", f"1 {general.name}", "", "Deck", *(f"1 {n}" for n in names),
                   *(f"{k} {land}" for land, k in counts.items())]
            if side_names:
                out += ["", "Sideboard", *(f"1 {n}" for n in side_names)]
        elif style == 1:    # Moxfield
            out = [f"1x {general.name} *CMDR*", *(f"1x {n}" for n in names),
                   *(f"{k}x {land}" for land, k in counts.items())]
            if side_names:
                out += ["", "SIDEBOARD:", *(f"1x {n}" for n in side_names)]
        else:               # comments and SB: lines
            out = ["// Commander", f"1 {general.name}", "// Main", *(f"1 {n}" for n in names),
                   *(f"{k} {land}" for land, k in counts.items()), *(f"SB: 1 {n}" for n in side_names)]
        return "\n".join(out) + "\n", spoil


def timed_runs(texts, pool, ruleset, runs: int) -> list[float]:
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        for text in texts:
            check_deck(parse_decklist(text), pool, ruleset)
        rates.append(len(texts) / (time.perf_counter() - start))
    return rates


def parse_rate(texts, runs: int) -> float:
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        for text in texts:
            parse_decklist(text)
        rates.append(len(texts) / (time.perf_counter() - start))
    return statistics.median(rates)


def wall(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command[:6])} … exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return elapsed


def cli_figures(texts, database: str, runs: int, batch: int, ruleset: str, with_flask: bool) -> None:
    """Start-up of a one-file check and a batch's throughput, through the command line."""
    env = {**os.environ, "DATABASE_URL": database}
    python = sys.executable
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for i, text in enumerate(texts[:batch]):
            path = Path(folder) / f"deck{i:04d}.txt"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        light = [python, "-m", "tournament.decks", "check", "--ruleset", ruleset, "--database", database]
        times = [wall(light + [paths[i % len(paths)]], env) for i in range(runs)]
        print(f"start-up, one file (python -m tournament.decks check): {statistics.median(times):.2f} s wall "
              f"(median of {runs}; min {min(times):.2f}, max {max(times):.2f})")
        if with_flask:
            flask = [python, "-m", "flask", "--app", "wsgi", "deck", "check", "--ruleset", ruleset]
            times = [wall(flask + [paths[i % len(paths)]], env) for i in range(runs)]
            print(f"start-up, one file (flask deck check, starts the app): {statistics.median(times):.2f} s wall "
                  f"(median of {runs})")
        elapsed = wall(light + ["--json"] + paths, env)
        print(f"batch, {len(paths)} files in one command: {elapsed:.2f} s wall, {len(paths) / elapsed:.0f} decks/s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cards", nargs="?", default=str(DEFAULT_CARDS), help="MTGJSON AtomicCards file")
    ap.add_argument("--decks", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="edh-2010")
    ap.add_argument("--illegal-share", type=float, default=0.5, help="share of decks made illegal")
    ap.add_argument("--database", help="also measure DbCardPool and the command line against this database URL")
    ap.add_argument("--cli-runs", type=int, default=7, help="one-file command-line runs for the start-up median")
    ap.add_argument("--batch", type=int, default=200, help="files in the command-line batch")
    ap.add_argument("--flask", action="store_true", help="also time `flask deck check` (starts the app)")
    args = ap.parse_args(argv)

    ruleset = get_ruleset(args.ruleset)
    t = time.perf_counter()
    cards = list(read_cards(args.cards))
    pool = MemoryCardPool(cards)
    print(f"{len(cards)} cards loaded in {time.perf_counter() - t:.1f} s", file=sys.stderr)

    factory = DeckFactory(cards, ruleset, args.seed)
    spoil_rng = random.Random(args.seed + 1)
    decks = [factory.deck(spoil_rng.random() < args.illegal_share) for _ in range(args.decks)]
    texts = [text for text, _ in decks]

    # Sanity: the generated legal decks are legal, the spoiled ones are not (a warm-up pass too).
    wrong = 0
    for text, spoiled in decks:
        result = check_deck(parse_decklist(text), pool, ruleset)
        wrong += result.legal == spoiled
    illegal = sum(s for _, s in decks)
    print(f"{len(decks)} decks ({illegal} illegal), verdicts as generated: {len(decks) - wrong}/{len(decks)}",
          file=sys.stderr)

    rates = timed_runs(texts, pool, ruleset, args.runs)
    rate = statistics.median(rates)
    print(f"decks/s (memory pool, parse+check): {rate:.0f}, {1000 / rate:.1f} ms per deck (median of {args.runs})")
    parsed = parse_rate(texts, args.runs)
    print(f"decks/s (parsing alone): {parsed:.0f}, {1000 / parsed:.2f} ms per deck")

    if args.database:
        from tournament import create_app
        from tournament.cards.repository import DbCardPool
        app = create_app({"SQLALCHEMY_DATABASE_URI": args.database})
        with app.app_context():
            db_pool = DbCardPool()
            for text in texts[:20]:         # warm-up, builds the suggestion index
                check_deck(parse_decklist(text), db_pool, ruleset)
            rates = timed_runs(texts, db_pool, ruleset, args.runs)
        print(f"decks/s (database pool, parse+check): {statistics.median(rates):.0f} (median of {args.runs})")
        cli_figures(texts, args.database, args.cli_runs, args.batch, args.ruleset, args.flask)
    return 0


if __name__ == "__main__":
    sys.exit(main())
