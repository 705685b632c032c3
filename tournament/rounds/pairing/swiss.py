"""1v1 Swiss pairing (Magic Tournament Rules) and single-elimination top cuts.

`pair_swiss` is a pure function of the entrants' state, a seed and the round
number; randomness comes only from ``random.Random(seed)`` over the entrants
sorted by id.

- **Round 1** (or everybody on equal points with no history): random pairs.
- **Bye** (odd number of players): to the lowest-ranked player without a bye
  (when everybody has had one, the lowest-ranked with the fewest). Scoring
  treats it as a 2-0 match win.
- **Later rounds**: players are grouped by points and paired within their
  group from the top, in random order (MTR: random pairing among equal
  points). When a group cannot be paired completely (odd size, or the
  remaining players have all met), its lowest-ranked player that cannot be
  paired goes down to the next group (pair-down) and is paired there first.
  Within a group a depth-first search with backtracking finds a pairing with
  no rematch; if the bottom group cannot be paired, it is merged with the
  group above and the search runs again from where that group started, up
  to the whole field.
- **Tight point groups**: the pairing found is then improved by exchanging
  partners among the matches that cross point groups and their neighbours,
  while that lowers the sum of point gaps (then their squares), never making
  a rematch; up to 16 players the cheapest pairing itself (`swiss_gaps`).
- **Rematches** only when no pairing without one is found: then a minimum-cost
  pairing (cost ``REMATCH_WEIGHT * ((m + 1) ** 2 - 1) + points difference ** 2``,
  greedy from the top, improved by exchanging partners between two matches)
  is used and every rematch is reported in `why`.
- **Tables** from the top: the match with the most points is table 1.
"""
from __future__ import annotations

import random
from typing import Iterable, Sequence

from ...decks.domain import N_, Text
from .domain import Entrant, Match, SwissPairing
from .swiss_gaps import tighten
from .pods import check_entrants, display_name, format_points, is_fresh, ordinal, standing_key

REMATCH_WEIGHT = 1_000_000
DFS_BUDGET = 200_000            # candidate checks per search before giving up on a group


def pair_swiss(entrants: Iterable[Entrant], *, seed: int | str, round_number: int) -> SwissPairing:
    """Pair one Swiss round of 1v1 matches; see the module docstring for the rules."""
    players = sorted(entrants, key=lambda e: e.id)
    check_entrants(players)
    rng = random.Random(seed)
    fresh = round_number <= 1 or is_fresh(players)
    order = players[:]
    rng.shuffle(order)
    ranked = sorted(order, key=standing_key)                 # stable: ties in seeded random order
    why: list[str] = [Text(N_("Round %(round)s: %(players)s players, 1v1 Swiss."), round=round_number,
                           players=len(players))]

    bye: Entrant | None = None
    if len(order) % 2:
        position = {e.id: i for i, e in enumerate(ranked)}
        bye = min(order, key=lambda e: (e.byes, -position[e.id]))
        if fresh:
            because = Text(N_("drawn at random in the first round"))
        elif bye.byes == 0:
            because = Text(N_("lowest-ranked player without a bye"))
        else:
            because = Text(N_("everybody lower already had a bye; lowest-ranked with the fewest byes (%(byes)s "
                              "before)"), byes=bye.byes)
        why.append(Text(N_("%(name)s gets the bye (a 2-0 match win): odd number of players; %(because)s."),
                        name=display_name(bye), because=because))
        order = [e for e in order if e.id != bye.id]
        ranked = [e for e in ranked if e.id != bye.id]

    if fresh:
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
        why.append(Text(N_("Pairs drawn at random from the round's seed (no results yet).")))
    else:
        order.sort(key=lambda e: -e.points)                  # point groups from the top, random within
        pairs, notes = _pair_by_points(order, ranked)
        why.extend(notes)

    position = {e.id: i for i, e in enumerate(ranked)}
    pairs = [(a, b) if position[a.id] <= position[b.id] else (b, a) for a, b in pairs]
    pairs.sort(key=lambda ab: (-max(ab[0].points, ab[1].points), -min(ab[0].points, ab[1].points),
                               position[ab[0].id]))
    matches = tuple(Match(table=t + 1, players=(a.id, b.id)) for t, (a, b) in enumerate(pairs))
    return SwissPairing(matches=matches, bye=bye.id if bye else None, why=tuple(why))


# ----------------------------------------------------------------- pairing by points

def _pair_by_points(order: list[Entrant], ranked: list[Entrant]) -> tuple[list[tuple[Entrant, Entrant]], list[str]]:
    """order: by points, random within equal points; ranked: standing order (for who pairs down)."""
    n = len(order)
    index = {e.id: i for i, e in enumerate(order)}
    rank_pos = [0] * n
    for r, e in enumerate(ranked):
        rank_pos[index[e.id]] = r
    met: list[dict[int, int]] = [{} for _ in range(n)]
    for i, e in enumerate(order):
        for oid, count in e.opponents.items():
            j = index.get(oid)
            if j is None or j == i or count <= 0:
                continue
            if met[i].get(j, 0) < count:
                met[i][j] = count
                met[j][i] = count

    groups: list[list[int]] = []
    for i, e in enumerate(order):
        if groups and order[groups[-1][0]].points == e.points:
            groups[-1].append(i)
        else:
            groups.append([i])

    notes: list[str] = []
    pairs: list[tuple[int, int]] | None = _pair_groups(groups, met, rank_pos)
    if pairs is not None:
        pairs = tighten(pairs, met, [float(e.points) for e in order])      # shorter pair-downs (swiss_gaps)
        pairs.sort(key=lambda ab: min(rank_pos[ab[0]], rank_pos[ab[1]]))
    else:
        # the whole field as one group failed; search once more only to know whether it was proven
        proved = _dfs(list(range(n)), met, 0, DFS_BUDGET) is not None
        pairs = _min_rematch_pairs(list(range(n)), met, [float(e.points) for e in order])
        pairs.sort(key=lambda ab: min(rank_pos[ab[0]], rank_pos[ab[1]]))
        for a, b in pairs:
            m = met[a].get(b, 0)
            if m:
                lo, hi = sorted((a, b), key=lambda i: rank_pos[i])
                names = dict(first=display_name(order[lo]), second=display_name(order[hi]), nth=ordinal(m + 1))
                notes.append(Text(N_("%(first)s and %(second)s meet for the %(nth)s time: no pairing without a "
                                     "rematch exists."), **names) if proved else
                             Text(N_("%(first)s and %(second)s meet for the %(nth)s time: no pairing without a "
                                     "rematch was found."), **names))

    for a, b in pairs:
        pa, pb = order[a].points, order[b].points
        if pa != pb:
            hi, lo = (a, b) if pa > pb else (b, a)
            notes.append(Text(N_("%(high)s (%(high_points)s points) is paired down to play %(low)s (%(low_points)s "
                                 "points)."), high=display_name(order[hi]), high_points=format_points(order[hi].points),
                              low=display_name(order[lo]), low_points=format_points(order[lo].points)))
    return [(order[a], order[b]) for a, b in pairs], notes


def _pair_groups(groups: list[list[int]], met: list[dict[int, int]], rank_pos: list[int]) -> list[tuple[int, int]] | None:
    """Pair group by group from the top, carrying the unpaired down. While the bottom group cannot be paired,
    it is merged with the group above, paired again from where that group started (the groups above keep
    their pairs). None when the whole field as one group cannot be paired."""
    groups = [list(g) for g in groups]
    pairs: list[tuple[int, int]] = []
    starts: list[tuple[int, list[int]]] = []               # per group: (pairs made before it, its carry)
    carry: list[int] = []
    g = 0
    while g < len(groups):
        starts.append((len(pairs), carry))
        result = _pair_group(groups[g], carry, met, rank_pos, last=g == len(groups) - 1)
        if result is not None:
            pairs.extend(result[0])
            carry = result[1]
            g += 1
            continue
        if g == 0:
            return None
        groups[g - 1:g + 1] = [groups[g - 1] + groups[g]]
        starts.pop()
        made, carry = starts.pop()
        del pairs[made:]
        g -= 1
    return pairs if not carry else None


def _pair_group(group: list[int], carry: list[int], met: list[dict[int, int]], rank_pos: list[int], last: bool
                ) -> tuple[list[tuple[int, int]], list[int]] | None:
    """Pair the carried players first, then the group; the fewest possible go down (1, 3, 5 or all of them),
    the group's lowest-ranked ones. The bottom group must pair everyone. None when it cannot."""
    size = len(carry) + len(group)
    first_left = size % 2
    tries = [first_left] if last else sorted({first_left, first_left + 2, first_left + 4, size})
    for left in tries:
        if left > size:
            continue
        # the lowest-ranked `left` players of the group go last, so they are the ones left over
        bottom = sorted(group, key=lambda i: rank_pos[i])[len(group) - left:] if left else []
        bottom_set = set(bottom)
        body = [i for i in group if i not in bottom_set]
        result = _dfs(carry + body + bottom, met, left, DFS_BUDGET)
        if result is not None and result[0] is not None:
            return result[0], result[1]
    return None


def _dfs(players: list[int], met: list[dict[int, int]], leave: int, budget: int
         ) -> tuple[list[tuple[int, int]] | None, list[int], bool] | None:
    """Pair `players` (in preference order) with no rematch, leaving exactly `leave` unpaired.

    Each player, first unpaired first, takes the earliest possible partner after it in the list;
    a player may be left unpaired only when no partner works. Depth-first with backtracking.
    Returns (pairs, left over, True), (None, [], True) when proven impossible, or None when the
    budget ran out.
    """
    n = len(players)
    if leave > n or (n - leave) % 2:
        return None, [], True
    if leave == n:
        return [], list(players), True
    return _dfs_search(players, met, leave, budget)


def _dfs_search(players: list[int], met: list[dict[int, int]], leave: int, budget: int
                ) -> tuple[list[tuple[int, int]] | None, list[int], bool] | None:
    """The search of `_dfs` once the trivial cases are settled: one loop over an explicit stack (no
    recursion, no per-step calls), as this is where pairing a large field spends its time."""
    n = len(players)
    max_pairs = (n - leave) // 2
    used = [False] * n
    stack: list[tuple[int, int]] = []
    n_pairs = 0
    steps = 0

    def advance(i: int) -> int:
        while i < n and used[i]:
            i += 1
        return i

    u = advance(0)
    start = u + 1
    while True:
        if steps > budget:
            return None
        choice = -1
        if u == n:
            pairs = [(players[a], players[b]) for a, b in stack if b < n]
            left = [players[a] for a, b in stack if b == n]
            return pairs, left, True
        if n_pairs < max_pairs:
            mu = met[players[u]]
            v = start
            while v < n:
                if not used[v] and players[v] not in mu:
                    choice = v
                    break
                v += 1
            steps += v - start + 1
        if choice < 0 and len(stack) - n_pairs < leave:
            choice = n                                      # leave u unpaired (its last option)
        if choice >= 0:
            used[u] = True
            if choice < n:
                used[choice] = True
                n_pairs += 1
            stack.append((u, choice))
            u = advance(u + 1)
            start = u + 1
            continue
        while True:                                         # backtrack
            if not stack:
                return None, [], True
            pu, pv = stack.pop()
            used[pu] = False
            if pv < n:
                used[pv] = False
                n_pairs -= 1
                u, start = pu, pv + 1
                break
            # leaving pu unpaired was its last option: keep backtracking


def _min_rematch_pairs(players: list[int], met: list[dict[int, int]], pts: list[float]) -> list[tuple[int, int]]:
    """Fewest and mildest rematches, then the smallest points differences: greedy, then pair exchanges."""
    def cost(a: int, b: int) -> float:
        m = met[a].get(b, 0)
        return REMATCH_WEIGHT * ((m + 1) ** 2 - 1) + (pts[a] - pts[b]) ** 2

    left = list(players)
    pairs: list[tuple[int, int]] = []
    while len(left) > 1:
        a = left[0]
        window = left[1:1 + 256]
        b = min(window, key=lambda x: cost(a, x))
        pairs.append((a, b))
        left.remove(a)
        left.remove(b)
    improved = True
    while improved:
        improved = False
        for i in range(len(pairs)):
            a, b = pairs[i]
            if not met[a].get(b, 0):
                continue
            base_i = cost(a, b)
            best = None
            for j in range(len(pairs)):
                if j == i:
                    continue
                c, d = pairs[j]
                base = base_i + cost(c, d)
                for new in (((a, c), (b, d)), ((a, d), (b, c))):
                    gain = base - cost(*new[0]) - cost(*new[1])
                    if gain > 1e-9 and (best is None or gain > best[0]):
                        best = (gain, j, new)
            if best is not None:
                _, j, new = best
                pairs[i], pairs[j] = new
                improved = True
    return pairs


# ----------------------------------------------------------------- top cut

def pair_top_cut(seeds: Sequence[int], size: int) -> tuple[Match, ...]:
    """Single elimination from the standings: seeds[0] is the 1st seed.

    Bracket order (table 1 first): top 8 is 1v8, 4v5, 2v7, 3v6; top 4 is 1v4, 2v3; so the
    winners of neighbouring tables meet next (`next_elimination_round`).
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"A top cut needs a power of two players (2, 4, 8, ...), not {size}.")
    if len(seeds) < size:
        raise ValueError(f"A top {size} needs {size} players; only {len(seeds)} were given.")
    if len(set(seeds[:size])) != size:
        raise ValueError("A player is seeded twice in the top cut.")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return tuple(Match(table=t + 1, players=(seeds[order[2 * t] - 1], seeds[order[2 * t + 1] - 1]))
                 for t in range(size // 2))


def next_elimination_round(winners_in_bracket_order: Sequence[int]) -> tuple[Match, ...]:
    """The next single-elimination round: winners of tables 1 and 2 meet, 3 and 4, ...; () when one is left."""
    winners = list(winners_in_bracket_order)
    if len(winners) == 1:
        return ()
    if len(winners) < 1 or len(winners) % 2:
        raise ValueError(f"An elimination round needs an even number of winners, not {len(winners)}.")
    return tuple(Match(table=t + 1, players=(winners[2 * t], winners[2 * t + 1])) for t in range(len(winners) // 2))
