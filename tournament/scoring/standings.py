"""Points, standings, tiebreakers and prize leaders: pure, deterministic functions.

No Flask, no database: the inputs are the plain dataclasses of
`tournament.scoring.domain`, the outputs are `StandingRow`s and dicts.

Exactness: points and tiebreakers are summed as exact numbers (ints, or
Fractions when a profile has non-whole values), so two players whose
averages are equal compare equal and the next tiebreaker decides, never
floating-point noise. The rows carry floats; tiebreaker percentages and OPP
are rounded to 4 decimals for display only.

Pods (`pod_standings`), in the profile's order (all seed profiles):
  1. points;
  2. OPP: the average of the opponents' total points, over every opponent
     meeting (an opponent met twice counts twice; a bye adds no opponent;
     a player with no games has OPP 0);
  3. votes received (profiles that list "votes");
  OWR / OOWR (profiles that list them; cedh: points, OWR, OOWR, OPP): opponents' win rate with byes as the
     profile's phantom opponents, and opponents' opponents' win rate (see `opponent_win_rates`);
  4. the event's random order: `random.Random(seed).shuffle` of the sorted
     player ids, so every tie is broken and ranks run 1..n.
  An Archenemy game (PodGame.archenemy set) scores archenemy win / team win
  points instead of survival (see `pod_points`).
  A pod bye scores the event's `bye_points` (default: the profile's, which
  is the survive points for democratic/survival and a win for cedh), is not a
  game (not in "survived x of y"; listed as ", 1 bye") and adds no votes.

Duel (`mtr_standings`), Magic Tournament Rules Appendix C:
  1. match points: win 3, draw 1, loss 0; a bye is a match win 2-0
     (3 match points, 6 game points, 2 games);
  2. OMW%: the average of the opponents' MWP, once per match played (byes add
     no opponent). MWP = match points / (3 x rounds played), rounds played
     including byes (the MTR's own example: "3-2-0 including a first-round
     bye ... 9/(5*3) = 0.60"), and at least 0.33;
  3. GW%: game points / (3 x games played), byes counting as two games won.
     The current MTR says "Again, use 0.33 if the actual game-win percentage
     is lower than that", so the player's own GW% is floored at 0.33 as well
     (profile flag `own_gw_floor`; older texts left it unfloored);
  4. OGW%: the average of the opponents' GW%, each at least 0.33, once per
     match played (byes add no opponent);
  5. the event's random order, as for pods.
  The floor is exactly 0.33 as printed in the MTR (not 1/3): a 1-2 player's
  MWP 0.3333 stays above a 0-3 player's 0.33. A player who played no round has
  0 everywhere; one whose matches had no games (0-0 draws) has GW% 0.33.
"""
from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from .domain import Bye, DuelMatch, PodGame, StandingRow, Tally, frozen_maker
from .profiles import ScoringProfile, exact_number, get_profile, validate_prize_conditions


# ----------------------------------------------------------------- validation

def validate_votes(game: PodGame) -> None:
    """Refuse self-votes and votes by or for players not at the table (ValueError naming them)."""
    at_table = set(game.players)
    where = f"round {game.round}, table {game.table}"
    for voter, target in game.votes.items():
        if voter not in at_table:
            raise ValueError(f"Player {voter} voted at {where} but does not play at that table.")
        if target == voter:
            raise ValueError(f"Player {voter} voted for themselves at {where}: vote for another player "
                             f"at the table.")
        if target not in at_table:
            raise ValueError(f"Player {voter} voted for player {target}, who does not play at {where}: "
                             f"vote for another player at the table.")


def validate_pod_game(game: PodGame) -> None:
    """A pod's seats are distinct, its survivors sit at it, and its votes are valid."""
    where = f"round {game.round}, table {game.table}"
    if len(set(game.players)) != len(game.players):
        raise ValueError(f"A player is seated twice at {where}.")
    strangers = set(game.survivors) - set(game.players)
    if strangers:
        raise ValueError(f"Survivor(s) {', '.join(map(str, sorted(strangers)))} do not play at {where}.")
    if game.archenemy is not None and game.archenemy not in game.players:
        raise ValueError(f"The archenemy {game.archenemy} does not play at {where}.")
    if not game.forfeited <= set(game.players):
        raise ValueError(f"A player with a game loss does not play at {where}.")
    validate_votes(game)


def played_out(game: PodGame) -> PodGame:
    """The game as scored: a player with a game or match loss (`forfeited`) is out of it, as if eliminated; the
    others score as they would then (if only one is left, that one wins)."""
    if not game.forfeited:
        return game
    return dataclasses.replace(game, survivors=game.survivors - game.forfeited)


def _pod_profile(profile) -> ScoringProfile:
    profile = get_profile(profile)
    if profile.mode != "pods":
        raise ValueError(f"Scoring profile {profile.id!r} is for 1v1 matches, not pods; "
                         f"use mtr_standings or a pods profile.")
    return profile


def _duel_profile(profile) -> ScoringProfile:
    profile = get_profile(profile)
    if profile.mode != "duel":
        raise ValueError(f"Scoring profile {profile.id!r} is for pods, not 1v1 matches; "
                         f"use pod_standings or a duel profile.")
    return profile


def _seed_order(ids: Iterable[int], seed) -> dict[int, int]:
    """Each id's place (1 = first) in `random.Random(seed).shuffle(sorted(ids))`."""
    if seed is None or isinstance(seed, bool) or not isinstance(seed, (int, str, bytes)):
        raise ValueError(f"The standings need the event's stored seed (an integer), not {seed!r}.")
    order = sorted(ids)
    random.Random(seed).shuffle(order)
    return {pid: i for i, pid in enumerate(order, 1)}


def seeded_order(ids: Iterable[int], seed) -> list[int]:
    """The event's random order of players: the last tiebreaker, stable for a stored seed."""
    places = _seed_order(ids, seed)
    return sorted(places, key=places.__getitem__)


def _display(value) -> float:
    return round(float(value), 4)


def _common(values: Mapping[int, object]) -> tuple[dict[int, int], int]:
    """Exact numbers (ints / Fractions) as integer numerators over one common denominator."""
    den = math.lcm(1, *{getattr(v, "denominator", 1) for v in values.values()})
    return {p: v.numerator * (den // v.denominator) if isinstance(v, Fraction) else v * den
            for p, v in values.items()}, den


def _averages_of_sums(sums: Mapping[int, int], counts: Mapping[int, int], den: int,
                      players: Iterable[int]) -> tuple[dict[int, int], dict[int, float]]:
    """Per player, the average of their opponents' values (once per meeting; 0 with no opponents), from the sum
    of those values and the number of meetings. Exact integer sort keys (comparable across players) and the
    values rounded for display."""
    scale = math.lcm(1, *{c for c in counts.values() if c})
    keys, shown = {}, {}
    for p in players:
        c = counts.get(p, 0)
        if c:
            total = sums[p]
            keys[p] = total * (scale // c)
            shown[p] = round(total / (den * c), 4)
        else:
            keys[p] = shown[p] = 0
    return keys, shown


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ----------------------------------------------------------------- pods

ARCHENEMY_WIN_POINTS = 3     # the event's defaults (Event.archenemy_win_points / team_win_points)
TEAM_WIN_POINTS = 1


def _pod_values(profile: ScoringProfile) -> tuple:
    draws = {k: exact_number(v) for k, v in profile.draw_kinds.items()}
    return (*(profile.exact(k) for k in ("survive", "per_vote_received", "win", "draw", "loss")), draws)


def archenemy_outcome(game: PodGame) -> str | None:
    """An Archenemy game's outcome: "archenemy" (the archenemy is alive and every team member is out),
    "team" (the archenemy is out, whoever else is alive: the team won) or "open" (time was called with
    both sides alive); None for a game that is not an Archenemy game."""
    if game.archenemy is None:
        return None
    if game.archenemy not in game.survivors:
        return "team"
    if not any(p in game.survivors for p in game.players if p != game.archenemy):
        return "archenemy"
    return "open"


def _archenemy_values(archenemy_win_points, team_win_points) -> tuple:
    out = []
    for name, v in (("archenemy_win_points", archenemy_win_points), ("team_win_points", team_win_points)):
        if isinstance(v, bool) or not isinstance(v, (int, float, Fraction)):
            raise ValueError(f"{name} must be a number, not {v!r}.")
        out.append(exact_number(v))
    return tuple(out)


def _pod_points_exact(values: tuple, game: PodGame, arch_values: tuple = (ARCHENEMY_WIN_POINTS, TEAM_WIN_POINTS)
                      ) -> dict[int, object]:
    survive, per_vote, win, draw, loss, draws = values
    game = played_out(game)
    if draws and game.draw in draws:
        draw = draws[game.draw]
    received: dict[int, int] = {}
    if per_vote:
        for target in game.votes.values():
            received[target] = received.get(target, 0) + 1
    outcome = archenemy_outcome(game)
    sole = len(game.survivors) == 1
    out = {}
    for p in game.players:
        alive = p in game.survivors
        pts = per_vote * received.get(p, 0) if per_vote else 0
        if outcome == "archenemy":
            pts += arch_values[0] if p == game.archenemy else 0
        elif outcome == "team":
            pts += 0 if p == game.archenemy else arch_values[1]
        else:
            pts += survive if alive else 0
            pts += (win if alive else loss) if sole else draw
        out[p] = 0 if p in game.forfeited else pts      # a game loss scores nothing for that game
    return out


def pod_points(profile, game: PodGame, *, archenemy_win_points=ARCHENEMY_WIN_POINTS,
               team_win_points=TEAM_WIN_POINTS) -> dict[int, float]:
    """Each seated player's points for one pod game under `profile` (an id or a ScoringProfile).

    points = survive (if alive at the end) + per_vote_received x votes received
             + win (the only survivor) / loss (the others, when exactly one survived)
             / draw (everyone at the table, when 0 or 2+ survived; a profile's `draw_kinds` may score
               time, intentional and board-state draws apart).
    An Archenemy game (`game.archenemy` set) scores the sides instead of survival, win, draw and loss:
      - archenemy win (the archenemy is a survivor and no team member is): `archenemy_win_points`
        to the archenemy, 0 to each team member;
      - team win (the archenemy is not a survivor): `team_win_points` to every team member,
        eliminated ones included (the team won), 0 to the archenemy;
      - otherwise (time called with both sides alive): the profile's usual points above.
    Votes received count per the profile in every case.
    A player with a game or match loss (`game.forfeited`) is out of the game and scores 0 for it; the others
    score as if that player had been eliminated.
    Raises ValueError for invalid votes, survivors or archenemy.
    """
    profile = _pod_profile(profile)
    validate_pod_game(game)
    arch = _archenemy_values(archenemy_win_points, team_win_points)
    return {p: float(v) for p, v in _pod_points_exact(_pod_values(profile), game, arch).items()}


def _seat_once(rnd: int, seated, players: Mapping[int, str], seen: dict[int, set[int]], table) -> None:
    """Refuse a player who is not registered, or who plays twice in one round (`seen`: round -> seated)."""
    in_round = seen.get(rnd)
    if in_round is None:
        in_round = seen[rnd] = set()
    for pid in seated:
        if pid not in players or pid in in_round:
            where = f"round {rnd}, table {table}" if table is not None else f"round {rnd} (bye)"
            if pid not in players:
                raise ValueError(f"Player {pid} at {where} is not among the event's players.")
            raise ValueError(f"Player {pid} appears twice in round {rnd} (again at {where}).")
        in_round.add(pid)


def _count_record(g: PodGame, wins: dict, losses: dict, draws: dict) -> None:
    """A pod game in the wins-losses-draws record: the sole survivor (or the winning archenemy side) wins; a
    player with a game or match loss has a loss."""
    g = played_out(g)
    outcome = archenemy_outcome(g) if g.archenemy is not None else None
    for p in g.players:
        if p in g.forfeited:
            losses[p] += 1
        elif outcome in ("archenemy", "team"):
            won = (p == g.archenemy) == (outcome == "archenemy")
            (wins if won else losses)[p] += 1
        elif len(g.survivors) == 1:
            (wins if p in g.survivors else losses)[p] += 1
        else:
            draws[p] += 1


def pod_standings(profile, games: Sequence[PodGame], byes: Sequence[Bye], players: Mapping[int, str],
                  seed, bye_points=None, *, archenemy_win_points=ARCHENEMY_WIN_POINTS,
                  team_win_points=TEAM_WIN_POINTS) -> list[StandingRow]:
    """Pod standings: points, then the profile's tiebreakers (OPP, votes, random), ranks 1..n.

    `players` is every registered player (id -> name), dropped ones included: each gets a row
    (a player with no games has 0 points and OPP 0). `bye_points` overrides the profile's bye
    points for the event. `seed` is the event's stored standings seed. Archenemy games score
    `archenemy_win_points` / `team_win_points` as `pod_points` says; in a wins-losses-draws record
    the winning side's players have a win and the other side a loss (both sides alive: a draw).
    """
    profile = _pod_profile(profile)
    bye_value = _bye_value(profile, bye_points)
    values = _pod_values(profile)
    arch = _archenemy_values(archenemy_win_points, team_win_points)
    counts = _count_pods(values, arch, games, byes, players, bye_value)
    total_num, den = _common(counts.total)
    opp_key, opp_shown = _opp(total_num, den, counts.scored, players)
    owr, oowr = opponent_win_rates(profile, counts.wins, counts.played, counts.byes, counts.scored, players)
    places = _seed_order(players, seed)
    by_name = {"OPP": (opp_key, -1), "OWR": (owr, -1), "OOWR": (oowr, -1), "votes": (counts.votes, -1),
               "random": (places, 1)}
    sources = [by_name[t] for t in profile.tiebreakers]
    keys = {p: (-total_num[p], *(sign * source[p] for source, sign in sources)) for p in players}
    shown = {"OPP": opp_shown, "OWR": {p: _display(v) for p, v in owr.items()},
             "OOWR": {p: _display(v) for p, v in oowr.items()}, "votes": counts.votes}
    return _pod_rows(profile, sorted(players, key=keys.__getitem__), players, counts, shown, places)


def win_rates(wins: Mapping[int, int], played: Mapping[int, int]) -> dict[int, Fraction]:
    """Each player's own win rate: pod wins / pod games played (byes are neither; a draw is not a win;
    a game loss is a game played and lost). 0 for a player who played no game."""
    return {p: Fraction(wins[p], played[p]) if played[p] else Fraction(0) for p in played}


def opponent_win_rates(profile: ScoringProfile, wins: Mapping[int, int], played: Mapping[int, int],
                       byes: Mapping[int, int], scored: Sequence[Sequence[int]], players: Iterable[int]
                       ) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """OWR and OOWR per player, as exact Fractions (the multiplayer addendum's opponents' win rate, as TopDeck
    computes it):

      OWR  = (sum over opponent meetings of max(floor, opponent's win rate) + byes x N x V)
             / (opponent meetings + byes x N)
      OOWR = the average of the opponents' OWR, once per meeting (phantom opponents have none).

    A meeting is one opponent at one of the player's pods (an opponent met twice counts twice). N and V are the
    profile's `bye_opponents` and `bye_opponent_win_rate` (TopDeck: each bye is 3 phantom opponents at 0.2);
    the floor is the profile's `win_rate_floor` and applies to real opponents only. A dropped player's games
    still count, and their win rate stays what it was when they dropped. No meetings and no byes: 0.
    """
    rate = win_rates(wins, played)
    floor = Fraction(str(profile.win_rate_floor))
    n, v = profile.bye_opponents, Fraction(str(profile.bye_opponent_win_rate))
    seen = {p: max(floor, r) for p, r in rate.items()}
    met: dict[int, list[int]] = {p: [] for p in players}
    for seats in scored:
        for p in seats:
            met[p].extend(q for q in seats if q != p)
    owr = {}
    for p, opponents in met.items():
        count = len(opponents) + byes.get(p, 0) * n
        owr[p] = (sum((seen[q] for q in opponents), Fraction(0)) + byes.get(p, 0) * n * v) / count if count \
            else Fraction(0)
    oowr = {p: sum((owr[q] for q in opponents), Fraction(0)) / len(opponents) if opponents else Fraction(0)
            for p, opponents in met.items()}
    return owr, oowr


def _bye_value(profile: ScoringProfile, bye_points):
    """What a pod bye scores: the event's `bye_points` when given (a number), else the profile's."""
    if bye_points is None:
        return profile.exact("bye")
    if isinstance(bye_points, bool) or not isinstance(bye_points, (int, float, Fraction)):
        raise ValueError(f"bye_points must be a number, not {bye_points!r}.")
    return exact_number(bye_points)


@dataclass
class _PodCounts:
    """What pod standings add up per player over the event's games and byes (points exact)."""
    total: dict[int, object]
    votes: dict[int, int]
    played: dict[int, int]
    survived: dict[int, int]
    wins: dict[int, int]
    losses: dict[int, int]
    draws: dict[int, int]
    byes: dict[int, int]
    agreed: dict[int, int]                      # intentional draws
    scored: list[tuple[int, ...]]               # each game's seats, for OPP

    @classmethod
    def zero(cls, players: Mapping[int, str]) -> _PodCounts:
        return cls(*(dict.fromkeys(players, 0) for _ in range(9)), [])


def _count_pods(values: tuple, arch: tuple, games: Sequence[PodGame], byes: Sequence[Bye],
                players: Mapping[int, str], bye_value) -> _PodCounts:
    """Every game and bye counted, each checked first: a refused result (ValueError) counts nothing."""
    counts = _PodCounts.zero(players)
    seen: dict[int, set[int]] = {}
    for g in games:
        validate_pod_game(g)
        _seat_once(g.round, g.players, players, seen, g.table)
        _count_pod_game(counts, g, values, arch)
    for b in byes:
        _seat_once(b.round, (b.player,), players, seen, None)
        counts.total[b.player] += bye_value
        counts.byes[b.player] += 1
    return counts


def _count_pod_game(counts: _PodCounts, g: PodGame, values: tuple, arch: tuple) -> None:
    """One game's points, votes, survivals and record; a drawn game agreed on counts as intentional."""
    for p, v in _pod_points_exact(values, g, arch).items():
        counts.total[p] += v
        counts.played[p] += 1
    for target in g.votes.values():
        counts.votes[target] += 1
    _count_record(g, counts.wins, counts.losses, counts.draws)
    g = played_out(g)
    for p in g.survivors:
        counts.survived[p] += 1
    if g.draw == "intentional" and len(g.survivors) != 1 and archenemy_outcome(g) not in ("archenemy", "team"):
        for p in g.players:
            if p not in g.forfeited:
                counts.agreed[p] += 1
    counts.scored.append(g.players)


def _opp(total_num: Mapping[int, int], den: int, scored: list[tuple[int, ...]],
         players: Mapping[int, str]) -> tuple[dict[int, int], dict[int, float]]:
    """OPP: every opponent meeting adds that opponent's total points once; exact integer keys. A pod's
    total less the player's own is the sum over their opponents there."""
    opp_sum = dict.fromkeys(players, 0)
    opp_count = dict.fromkeys(players, 0)
    for seats in scored:
        at_table = sum(total_num[q] for q in seats)
        others = len(seats) - 1
        for p in seats:
            opp_sum[p] += at_table - total_num[p]
            opp_count[p] += others
    return _averages_of_sums(opp_sum, opp_count, den, players)


def _pod_rows(profile: ScoringProfile, order: list[int], players: Mapping[int, str], counts: _PodCounts,
              shown_by: Mapping[str, Mapping[int, float]], places: Mapping[int, int]) -> list[StandingRow]:
    """The rows in standings order, each with its record as counts (a Tally) and in English."""
    names = [t for t in profile.tiebreakers if t != "random"]
    survived_style = profile.record == "survived"
    rows = []
    make_row = frozen_maker(StandingRow)       # rank, player, points, tiebreakers, record, votes, games, name, ...
    make_tally = frozen_maker(Tally)           # wins, losses, draws, intentional, survived, played, byes
    for rank, p in enumerate(order, 1):
        shown = {t: shown_by[t][p] for t in names}
        if survived_style:
            tally = make_tally(0, 0, 0, 0, counts.survived[p], counts.played[p], counts.byes[p])
        else:
            tally = make_tally(counts.wins[p], counts.losses[p], counts.draws[p], counts.agreed[p], None,
                               counts.played[p], counts.byes[p])
        rows.append(make_row(rank, p, float(counts.total[p]), shown, record_english(tally), counts.votes[p],
                             counts.played[p], players[p], counts.byes[p], places[p], tally))
    return rows


def record_english(tally: Tally) -> str:
    """A record as StandingRow.record has it, in English: "survived 3 of 4, 1 bye", "3-1-0 (1 intentional)"
    (rounds.presenting words the same counts in the reader's language)."""
    if tally.survived is not None:
        record = f"survived {tally.survived} of {tally.played}"
    else:
        record = f"{tally.wins}-{tally.losses}-{tally.draws}"
        if tally.intentional:
            record += f" ({tally.intentional} intentional)"
    if tally.byes:
        record += f", {_plural(tally.byes, 'bye')}"
    return record


# ----------------------------------------------------------------- duel (MTR)

def _game_counts(games: Iterable[str]) -> tuple[int, int, int]:
    w = l = d = 0
    for g in games:
        if g == "win":
            w += 1
        elif g == "loss":
            l += 1
        elif g == "draw":
            d += 1
        else:
            raise ValueError(f"A game result must be 'win', 'loss' or 'draw', not {g!r}.")
    return w, l, d


def match_result(games: Iterable[str]) -> tuple[str, str]:
    """The match result from players[0]'s side, from its games ('win' / 'loss' / 'draw' each).

    More game wins wins the match (2-0, 2-1, 1-0 at time); equal game wins is a draw
    (1-1, 0-0, 1-1-1). Returns ("win" | "loss" | "draw", "wins-losses-draws"), e.g. ("win", "2-1-0").
    """
    w, l, d = _game_counts(games)
    result = "win" if w > l else "loss" if l > w else "draw"
    return result, f"{w}-{l}-{d}"


def mtr_standings(matches: Sequence[DuelMatch], byes: Sequence[Bye], players: Mapping[int, str], seed,
                  profile="mtr") -> list[StandingRow]:
    """1v1 standings in MTR order: match points, OMW%, GW%, OGW%, then the event's random order.

    See the module docstring for the floors and the byes. Tiebreaker values are shown rounded
    to 4 decimals; sorting uses the exact values. `record` is wins-losses-draws with a bye
    counted as a match win (the MTR's "3-2-0, including a first-round bye"); `tally` holds the same counts.
    """
    profile = _duel_profile(profile)
    values = _DuelValues.of(profile)
    counts = _count_matches(matches, byes, players, values)
    mwp, gwp, gwp_floored = _percentages(counts, players, values, profile.own_gw_floor)
    keys, shown = _duel_tiebreakers(counts, players, mwp, gwp, gwp_floored)
    mp_num, _mp_den = _common(counts.mp)
    places = _seed_order(players, seed)
    sources = [(places, 1) if t == "random" else (keys[t], -1) for t in profile.tiebreakers]
    sort_keys = {p: (-mp_num[p], *(sign * source[p] for source, sign in sources)) for p in players}
    return _duel_rows(profile, sorted(players, key=sort_keys.__getitem__), players, counts, shown, places)


@dataclass(frozen=True)
class _DuelValues:
    """A duel profile's points as exact numbers: match and game points, the percentage floor, and what a bye
    is worth (match points, game points and games, from the profile's bye record)."""
    mw: object
    md: object
    ml: object
    gw: object
    gd: object
    gl: object
    floor: object
    bye_mp: object
    bye_gp: object
    bye_games: int

    @classmethod
    def of(cls, profile: ScoringProfile) -> _DuelValues:
        mw, md, ml = profile.exact("match_win"), profile.exact("match_draw"), profile.exact("match_loss")
        gw, gd, gl = profile.exact("game_win"), profile.exact("game_draw"), profile.exact("game_loss")
        floor = exact_number(profile.percentage_floor)
        bw, bl, bd = profile.bye_record
        return cls(mw, md, ml, gw, gd, gl, floor, profile.exact("bye"), bw * gw + bl * gl + bd * gd, bw + bl + bd)


@dataclass
class _DuelCounts:
    """What 1v1 standings add up per player over the event's matches and byes (points exact)."""
    mp: dict[int, object]
    gp: dict[int, object]
    games_played: dict[int, int]                # games, byes included (2 each), for GW%
    rounds: dict[int, int]                      # rounds played, byes included, for MWP
    matches_played: dict[int, int]
    wins: dict[int, int]
    losses: dict[int, int]
    draws: dict[int, int]
    byes: dict[int, int]
    pairs: list[tuple[int, int]]                # who met whom, once per match, for OMW% and OGW%

    @classmethod
    def zero(cls, players: Mapping[int, str]) -> _DuelCounts:
        return cls(*(dict.fromkeys(players, 0) for _ in range(9)), [])


def _count_matches(matches: Sequence[DuelMatch], byes: Sequence[Bye], players: Mapping[int, str],
                   values: _DuelValues) -> _DuelCounts:
    """Every match and bye counted, each checked first; a bye is a match win with the profile's bye record."""
    counts = _DuelCounts.zero(players)
    seen: dict[int, set[int]] = {}
    for m in matches:
        if len(m.players) != 2 or m.players[0] == m.players[1]:
            raise ValueError(f"A match needs two different players (round {m.round}, table {m.table}).")
        _seat_once(m.round, m.players, players, seen, m.table)
        _count_match(counts, m, values)
    for bye in byes:
        p = bye.player
        _seat_once(bye.round, (p,), players, seen, None)
        counts.mp[p] += values.bye_mp
        counts.gp[p] += values.bye_gp
        counts.games_played[p] += values.bye_games
        counts.rounds[p] += 1
        counts.wins[p] += 1
        counts.byes[p] += 1
    return counts


def _count_match(counts: _DuelCounts, m: DuelMatch, v: _DuelValues) -> None:
    """One match: more game wins wins it (equal: a draw); game points and games for both players. A player with a
    match loss (`m.forfeited`) loses it 0-2 whatever the games; both: both lose it 0-2."""
    a, b = m.players
    if m.forfeited:
        _count_forfeit(counts, m, v)
        return
    w, l, d = _game_counts(m.games)
    if w != l:
        winner, loser = (a, b) if w > l else (b, a)
        counts.mp[winner] += v.mw
        counts.mp[loser] += v.ml
        counts.wins[winner] += 1
        counts.losses[loser] += 1
    else:
        counts.mp[a] += v.md
        counts.mp[b] += v.md
        counts.draws[a] += 1
        counts.draws[b] += 1
    counts.gp[a] += w * v.gw + l * v.gl + d * v.gd
    counts.gp[b] += l * v.gw + w * v.gl + d * v.gd
    n = w + l + d
    for p in (a, b):
        counts.games_played[p] += n
        counts.rounds[p] += 1
        counts.matches_played[p] += 1
    counts.pairs.append((a, b))


def _count_forfeit(counts: _DuelCounts, m: DuelMatch, v: _DuelValues) -> None:
    """A match with a match loss: the player with it loses 0-2; the other wins 2-0 (or loses 0-2 too)."""
    if not m.forfeited <= set(m.players):
        raise ValueError(f"A player with a match loss does not play at round {m.round}, table {m.table}.")
    for p in m.players:
        lost = p in m.forfeited
        counts.mp[p] += v.ml if lost else v.mw
        (counts.losses if lost else counts.wins)[p] += 1
        counts.gp[p] += 2 * (v.gl if lost else v.gw)
        counts.games_played[p] += 2
        counts.rounds[p] += 1
        counts.matches_played[p] += 1
    counts.pairs.append(m.players)


def _percentages(counts: _DuelCounts, players: Mapping[int, str], v: _DuelValues,
                 own_gw_floor: bool) -> tuple[dict, dict, dict]:
    """Each player's MWP, own GW% (floored when the profile says so) and floored GW% (what opponents see),
    as exact Fractions; 0 for a player who played no round."""
    mwp, gwp, gwp_floored = {}, {}, {}
    ratio: dict[tuple, Fraction] = {}          # most players share a few (points, rounds) pairs
    mp, gp, rounds, games_played = counts.mp, counts.gp, counts.rounds, counts.games_played
    for p in players:
        if not rounds[p]:
            mwp[p] = gwp[p] = gwp_floored[p] = 0
            continue
        k = ("m", mp[p], rounds[p])
        if k not in ratio:
            ratio[k] = max(Fraction(mp[p]) / (v.mw * rounds[p]), v.floor)
        mwp[p] = ratio[k]
        k = ("g", gp[p], games_played[p])
        if k not in ratio:
            raw = Fraction(gp[p]) / (v.gw * games_played[p]) if games_played[p] else 0
            ratio[k] = (raw, max(raw, v.floor))
        raw, floored = ratio[k]
        gwp_floored[p] = floored
        gwp[p] = floored if own_gw_floor else raw
    return mwp, gwp, gwp_floored


def _duel_tiebreakers(counts: _DuelCounts, players: Mapping[int, str], mwp: dict, gwp: dict,
                      gwp_floored: dict) -> tuple[dict[str, dict], dict[str, dict]]:
    """OMW%, GW% and OGW%: exact integer sort keys over common denominators (equal averages compare equal)
    and the values shown, rounded."""
    mwp_num, mwp_den = _common(mwp)
    gwf_num, gwf_den = _common(gwp_floored)
    gw_num, _gw_den = _common(gwp)
    omw_sum, ogw_sum = dict.fromkeys(players, 0), dict.fromkeys(players, 0)
    for a, b in counts.pairs:
        omw_sum[a] += mwp_num[b]
        omw_sum[b] += mwp_num[a]
        ogw_sum[a] += gwf_num[b]
        ogw_sum[b] += gwf_num[a]
    omw_key, omw_shown = _averages_of_sums(omw_sum, counts.matches_played, mwp_den, players)
    ogw_key, ogw_shown = _averages_of_sums(ogw_sum, counts.matches_played, gwf_den, players)
    keys = {"OMW%": omw_key, "GW%": gw_num, "OGW%": ogw_key}
    shown = {"OMW%": omw_shown, "GW%": {p: _display(v) for p, v in gwp.items()}, "OGW%": ogw_shown}
    return keys, shown


def _duel_rows(profile: ScoringProfile, order: list[int], players: Mapping[int, str], counts: _DuelCounts,
               shown: Mapping[str, Mapping[int, float]], places: Mapping[int, int]) -> list[StandingRow]:
    """The rows in standings order; a record is wins-losses-draws, a bye counted as a win."""
    names = [t for t in profile.tiebreakers if t != "random"]
    rows = []
    make_row = frozen_maker(StandingRow)
    make_tally = frozen_maker(Tally)           # wins, losses, draws, intentional, survived, played, byes
    for rank, p in enumerate(order, 1):
        tally = make_tally(counts.wins[p], counts.losses[p], counts.draws[p], 0, None, counts.matches_played[p], 0)
        rows.append(make_row(rank, p, float(counts.mp[p]), {t: shown[t][p] for t in names}, record_english(tally),
                             0, counts.matches_played[p], players[p], counts.byes[p], places[p], tally))
    return rows


# ----------------------------------------------------------------- alternate prizes

def prize_leaders(games: Sequence[PodGame], conditions: Sequence[Mapping]) -> dict[str, list[tuple[int, float]]]:
    """The leaders of each alternate prize condition over the event: {condition id: [(player, value)]}.

    kind "max": the highest value claimed in one game (ties listed together, a player once);
    "min": the lowest; "sum": the highest total over the event; "count": the most claims
    (value = the number of claims). Players are listed by id; a condition nobody claimed
    has an empty list. Claims for conditions not in `conditions` are ignored; a claim whose
    holder is not at that table raises ValueError.
    """
    conds = validate_prize_conditions(list(conditions))
    kinds = {c["id"]: c["kind"] for c in conds}
    claims: dict[str, list[tuple[int, object]]] = {cid: [] for cid in kinds}
    for g in games:
        for cid, claim in g.prizes.items():
            if cid not in kinds or claim is None:
                continue
            holder, value = claim
            if holder is None:
                continue
            if holder not in g.players:
                raise ValueError(f"Player {holder} claims {cid!r} at round {g.round}, table {g.table} "
                                 f"but does not play there.")
            claims[cid].append((holder, value))

    out: dict[str, list[tuple[int, float]]] = {}
    for cid, kind in kinds.items():
        if kind == "count":
            score = Counter(h for h, _v in claims[cid])
        elif kind == "sum":
            score = Counter()
            for h, v in claims[cid]:
                if v is not None:
                    score[h] += v
        else:
            score = {}
            pick = max if kind == "max" else min
            for h, v in claims[cid]:
                if v is not None:
                    score[h] = pick(score[h], v) if h in score else v
        if not score:
            out[cid] = []
            continue
        best = (min if kind == "min" else max)(score.values())
        out[cid] = sorted((h, v) for h, v in score.items() if v == best)
    return out
