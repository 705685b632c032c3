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

import math
import random
from collections import Counter
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from .domain import Bye, DuelMatch, PodGame, StandingRow, frozen_maker
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
    validate_votes(game)


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
        out[p] = pts
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
    """A pod game in the wins-losses-draws record: the sole survivor (or the winning archenemy side) wins."""
    outcome = archenemy_outcome(g) if g.archenemy is not None else None
    if outcome in ("archenemy", "team"):
        for p in g.players:
            won = (p == g.archenemy) == (outcome == "archenemy")
            (wins if won else losses)[p] += 1
    elif len(g.survivors) == 1:
        for p in g.players:
            (wins if p in g.survivors else losses)[p] += 1
    else:
        for p in g.players:
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
    if bye_points is None:
        bye_value = profile.exact("bye")
    elif isinstance(bye_points, bool) or not isinstance(bye_points, (int, float, Fraction)):
        raise ValueError(f"bye_points must be a number, not {bye_points!r}.")
    else:
        bye_value = exact_number(bye_points)

    values = _pod_values(profile)
    arch = _archenemy_values(archenemy_win_points, team_win_points)
    total: dict[int, object] = dict.fromkeys(players, 0)
    votes = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    survived = dict.fromkeys(players, 0)
    wins = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    draws = dict.fromkeys(players, 0)
    bye_count = dict.fromkeys(players, 0)
    agreed = dict.fromkeys(players, 0)          # intentional draws
    seen: dict[int, set[int]] = {}
    scored = []
    for g in games:
        validate_pod_game(g)
        _seat_once(g.round, g.players, players, seen, g.table)
        for p, v in _pod_points_exact(values, g, arch).items():
            total[p] += v
            played[p] += 1
        for target in g.votes.values():
            votes[target] += 1
        for p in g.survivors:
            survived[p] += 1
        _count_record(g, wins, losses, draws)
        if g.draw == "intentional" and len(g.survivors) != 1 and archenemy_outcome(g) not in ("archenemy", "team"):
            for p in g.players:
                agreed[p] += 1
        scored.append(g.players)
    for b in byes:
        _seat_once(b.round, (b.player,), players, seen, None)
        total[b.player] += bye_value
        bye_count[b.player] += 1

    # OPP: every opponent meeting adds that opponent's total points once; exact integer keys. A pod's
    # total less the player's own is the sum over their opponents there.
    total_num, den = _common(total)
    opp_sum = dict.fromkeys(players, 0)
    opp_count = dict.fromkeys(players, 0)
    for seats in scored:
        at_table = sum(total_num[q] for q in seats)
        others = len(seats) - 1
        for p in seats:
            opp_sum[p] += at_table - total_num[p]
            opp_count[p] += others
    opp_key, opp_shown = _averages_of_sums(opp_sum, opp_count, den, players)

    places = _seed_order(players, seed)
    names = [t for t in profile.tiebreakers if t != "random"]
    sources = [(opp_key, -1) if t == "OPP" else (votes, -1) if t == "votes" else (places, 1)
               for t in profile.tiebreakers]
    keys = {p: (-total_num[p], *(sign * source[p] for source, sign in sources)) for p in players}
    key = keys.__getitem__

    rows = []
    make_row = frozen_maker(StandingRow)       # rank, player, points, tiebreakers, record, votes, games, name, ...
    for rank, p in enumerate(sorted(players, key=key), 1):
        shown = {t: (opp_shown[p] if t == "OPP" else votes[p]) for t in names}
        if profile.record == "survived":
            record = f"survived {survived[p]} of {played[p]}"
        else:
            record = f"{wins[p]}-{losses[p]}-{draws[p]}"
            if agreed[p]:
                record += f" ({agreed[p]} intentional)"
        if bye_count[p]:
            record += f", {_plural(bye_count[p], 'bye')}"
        rows.append(make_row(rank, p, float(total[p]), shown, record, votes[p], played[p], players[p], bye_count[p],
                             places[p]))
    return rows


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
    counted as a match win (the MTR's "3-2-0, including a first-round bye").
    """
    profile = _duel_profile(profile)
    mw, md, ml = profile.exact("match_win"), profile.exact("match_draw"), profile.exact("match_loss")
    gw, gd, gl = profile.exact("game_win"), profile.exact("game_draw"), profile.exact("game_loss")
    floor = exact_number(profile.percentage_floor)
    bw, bl, bd = profile.bye_record
    bye_mp, bye_gp, bye_games = profile.exact("bye"), bw * gw + bl * gl + bd * gd, bw + bl + bd

    seen: dict[int, set[int]] = {}
    mp: dict[int, object] = dict.fromkeys(players, 0)
    gp: dict[int, object] = dict.fromkeys(players, 0)
    games_played = dict.fromkeys(players, 0)       # games, byes included (2 each), for GW%
    rounds = dict.fromkeys(players, 0)             # rounds played, byes included, for MWP
    matches_played = dict.fromkeys(players, 0)
    wins = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    draws = dict.fromkeys(players, 0)
    bye_count = dict.fromkeys(players, 0)
    pairs: list[tuple[int, int]] = []
    for m in matches:
        if len(m.players) != 2 or m.players[0] == m.players[1]:
            raise ValueError(f"A match needs two different players (round {m.round}, table {m.table}).")
        a, b = m.players
        _seat_once(m.round, m.players, players, seen, m.table)
        w, l, d = _game_counts(m.games)
        if w > l:
            mp[a] += mw
            mp[b] += ml
            wins[a] += 1
            losses[b] += 1
        elif l > w:
            mp[a] += ml
            mp[b] += mw
            losses[a] += 1
            wins[b] += 1
        else:
            mp[a] += md
            mp[b] += md
            draws[a] += 1
            draws[b] += 1
        gp[a] += w * gw + l * gl + d * gd
        gp[b] += l * gw + w * gl + d * gd
        n = w + l + d
        games_played[a] += n
        games_played[b] += n
        rounds[a] += 1
        rounds[b] += 1
        matches_played[a] += 1
        matches_played[b] += 1
        pairs.append((a, b))
    for bye in byes:
        p = bye.player
        _seat_once(bye.round, (p,), players, seen, None)
        mp[p] += bye_mp
        gp[p] += bye_gp
        games_played[p] += bye_games
        rounds[p] += 1
        wins[p] += 1
        bye_count[p] += 1

    mwp, gwp, gwp_floored = {}, {}, {}
    ratio: dict[tuple, Fraction] = {}          # most players share a few (points, rounds) pairs
    for p in players:
        if not rounds[p]:
            mwp[p] = gwp[p] = gwp_floored[p] = 0
            continue
        k = ("m", mp[p], rounds[p])
        if k not in ratio:
            ratio[k] = max(Fraction(mp[p]) / (mw * rounds[p]), floor)
        mwp[p] = ratio[k]
        k = ("g", gp[p], games_played[p])
        if k not in ratio:
            raw = Fraction(gp[p]) / (gw * games_played[p]) if games_played[p] else 0
            ratio[k] = (raw, max(raw, floor))
        raw, floored = ratio[k]
        gwp_floored[p] = floored
        gwp[p] = floored if profile.own_gw_floor else raw

    # Exact integer keys over common denominators: equal averages compare equal.
    mwp_num, mwp_den = _common(mwp)
    gwf_num, gwf_den = _common(gwp_floored)
    gw_num, _gw_den = _common(gwp)
    omw_sum, ogw_sum = dict.fromkeys(players, 0), dict.fromkeys(players, 0)
    for a, b in pairs:
        omw_sum[a] += mwp_num[b]
        omw_sum[b] += mwp_num[a]
        ogw_sum[a] += gwf_num[b]
        ogw_sum[b] += gwf_num[a]
    omw_key, omw_shown = _averages_of_sums(omw_sum, matches_played, mwp_den, players)
    ogw_key, ogw_shown = _averages_of_sums(ogw_sum, matches_played, gwf_den, players)
    mp_num, _mp_den = _common(mp)
    keys = {"OMW%": omw_key, "GW%": gw_num, "OGW%": ogw_key}
    shown = {"OMW%": omw_shown, "GW%": {p: _display(v) for p, v in gwp.items()}, "OGW%": ogw_shown}
    places = _seed_order(players, seed)

    sources = [(places, 1) if t == "random" else (keys[t], -1) for t in profile.tiebreakers]
    sort_keys = {p: (-mp_num[p], *(sign * source[p] for source, sign in sources)) for p in players}
    key = sort_keys.__getitem__

    names = [t for t in profile.tiebreakers if t != "random"]
    rows = []
    make_row = frozen_maker(StandingRow)
    for rank, p in enumerate(sorted(players, key=key), 1):
        rows.append(make_row(rank, p, float(mp[p]), {t: shown[t][p] for t in names},
                             f"{wins[p]}-{losses[p]}-{draws[p]}", 0, matches_played[p], players[p], bye_count[p],
                             places[p]))
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
