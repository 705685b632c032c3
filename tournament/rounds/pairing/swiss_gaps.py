"""Tightening a 1v1 Swiss pairing's point gaps by exchanging partners (pure and deterministic).

`pair_swiss` first pairs point groups from the top with a depth-first search (no rematch, the
lowest-ranked player of an odd group goes down). That search fixes who goes down one group at a time,
so a pair-down chosen high up can force longer ones below. `tighten` then improves the whole pairing
by local search over the matches that cross point groups (the "floating" matches):

- **the price of a match** is ``GAP_WEIGHT * |points difference| + points difference ** 2``: the sum
  of point gaps first (the figure organizers and the benchmark compare), then two short pair-downs
  rather than one long one; a rematch is never made;
- **moves**: exchange partners between a floating match and one other match (2 matches, 2 ways),
  then, when none helps, re-pair the 6 players of a floating match and two others (14 ways), and once
  no such move is left, the 8 players of a floating match and three others (104 ways); the best
  strictly cheaper move is taken, so equal-price alternatives never change who was paired down; a
  3- or 4-match search that found nothing is not run again while the same matches stand;
- **candidates**: every match while there are at most ``ALL_MATCHES``; above that, per pair of point
  values at most ``PER_LEVEL`` matches (the first in table order) whose players lie within the floating
  match's points, nearest first, at most ``MAX_CANDIDATES`` in all (``MAX_THREE_WAY`` for the 3-match
  moves, ``MAX_FOUR_WAY`` for the 4-match ones), so a
  round of 16,384 players costs about what one of 2,048 does;
- passes over the floating matches until one changes nothing (at most ``MAX_PASSES``);
- up to ``EXACT_MATCHES`` matches (16 players), no search: the cheapest pairing itself, by dynamic
  programming over who is left (the given one unless another is strictly cheaper).
"""
from __future__ import annotations

from itertools import combinations

GAP_WEIGHT = 1000
ALL_MATCHES = 64
PER_LEVEL = 8
MAX_CANDIDATES = 48
MAX_THREE_WAY = 24
MAX_FOUR_WAY = 9
MAX_PASSES = 40
EXACT_MATCHES = 8               # up to 16 players: the cheapest pairing itself, by dynamic programming


def _matchings(players: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    """Every way to pair `players` (an even number of them) into matches."""
    if not players:
        return [()]
    first, rest = players[0], players[1:]
    return [((first, other),) + more for other in rest
            for more in _matchings(tuple(p for p in rest if p != other))]


# the other ways to pair the players of 3 matches (14) and of 4 matches (104); 01 23 45 (67) is the current one
_SIX = tuple(m for m in _matchings(tuple(range(6)))[1:])
_EIGHT = tuple(m for m in _matchings(tuple(range(8)))[1:])

Pair = tuple[int, int]


def tighten(pairs: list[Pair], met: list[dict[int, int]], pts: list[float]) -> list[Pair]:
    """`pairs` of player indices; `met[i]`: who i met (index -> times); `pts[i]`: i's points."""
    pairs = list(pairs)
    if len(pairs) <= EXACT_MATCHES:
        return _exact(pairs, met, pts)
    failed: set = set()
    for _ in range(MAX_PASSES):
        if not _one_pass(pairs, met, pts, False, failed) and not _one_pass(pairs, met, pts, True, failed):
            break
    return pairs


def _exact(pairs: list[Pair], met: list[dict[int, int]], pts: list[float]) -> list[Pair]:
    """The cheapest pairing without a rematch of these players (dynamic programming over who is left: the first
    one left takes each possible partner); the given pairing unless one is strictly cheaper."""
    players = [p for pair in pairs for p in pair]
    memo: dict[int, tuple[float, tuple[Pair, ...]] | None] = {0: (0.0, ())}

    def best(mask: int) -> tuple[float, tuple[Pair, ...]] | None:
        if mask in memo:
            return memo[mask]
        i = (mask & -mask).bit_length() - 1
        a, rest, found = players[i], mask & ~(1 << i), None
        for j in range(i + 1, len(players)):
            b = players[j]
            if rest >> j & 1 and b not in met[a]:
                sub = best(rest & ~(1 << j))
                if sub is not None and (found is None or price(a, b, pts) + sub[0] < found[0] - 1e-9):
                    found = (price(a, b, pts) + sub[0], ((a, b),) + sub[1])
        memo[mask] = found
        return found

    result = best((1 << len(players)) - 1)
    if result is None or result[0] >= sum(price(a, b, pts) for a, b in pairs) - 1e-9:
        return pairs
    return list(result[1])


def price(a: int, b: int, pts: list[float]) -> float:
    gap = abs(pts[a] - pts[b])
    return GAP_WEIGHT * gap + gap * gap


def _one_pass(pairs: list[Pair], met: list[dict[int, int]], pts: list[float], wide: bool, failed: set) -> bool:
    """2- and 3-match moves; `wide`: 4-match moves only (tried once the others change nothing)."""
    changed = False
    levels = _levels(pairs, pts) if len(pairs) > ALL_MATCHES else None
    for i in [i for i, (a, b) in enumerate(pairs) if pts[a] != pts[b]]:
        a, b = pairs[i]
        if pts[a] == pts[b]:
            continue                                      # an earlier move of this pass settled it
        candidates = _candidates(i, pairs, pts, levels)
        if wide:
            moved = _k_way(i, candidates[:MAX_FOUR_WAY], _EIGHT, pairs, met, pts, failed)
        else:
            moved = _two_way(i, candidates, pairs, met, pts) or _k_way(i, candidates[:MAX_THREE_WAY], _SIX, pairs,
                                                                       met, pts, failed)
        if moved:
            changed = True
    return changed


def _levels(pairs: list[Pair], pts: list[float]) -> dict[tuple[float, float], list[int]]:
    """Per (higher, lower) points of a match, the first PER_LEVEL matches in table order."""
    levels: dict[tuple[float, float], list[int]] = {}
    for j, (a, b) in enumerate(pairs):
        key = (max(pts[a], pts[b]), min(pts[a], pts[b]))
        bucket = levels.setdefault(key, [])
        if len(bucket) < PER_LEVEL or key[0] != key[1]:
            bucket.append(j)
    return levels


def _candidates(i: int, pairs: list[Pair], pts: list[float], levels) -> list[int]:
    """The other matches to try with match i, nearest in points first (then in table order)."""
    a, b = pairs[i]
    hi, lo = max(pts[a], pts[b]), min(pts[a], pts[b])

    def distance(j: int) -> float:
        c, d = pairs[j]
        return abs(max(pts[c], pts[d]) - hi) + abs(min(pts[c], pts[d]) - lo)

    if levels is None:
        return sorted((j for j in range(len(pairs)) if j != i), key=lambda j: (distance(j), j))
    near = sorted((distance(j), j) for (top, bottom), bucket in levels.items()
                  if lo <= top <= hi or lo <= bottom <= hi for j in bucket if j != i)
    return [j for _, j in near[:MAX_CANDIDATES]]


def _two_way(i: int, candidates: list[int], pairs: list[Pair], met, pts) -> bool:
    a, b = pairs[i]
    base_i = price(a, b, pts)
    best = None
    for j in candidates:
        c, d = pairs[j]
        base = base_i + price(c, d, pts)
        for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
            if x[1] in met[x[0]] or y[1] in met[y[0]]:
                continue
            gain = base - price(*x, pts) - price(*y, pts)
            if gain > 1e-9 and (best is None or gain > best[0]):
                best = (gain, j, x, y)
    if best is None:
        return False
    _, j, pairs[i], pairs[j] = best
    return True


def _k_way(i: int, others: list[int], ways, pairs: list[Pair], met, pts, failed: set) -> bool:
    """The best re-pairing of the players of match i and len(ways[0]) - 1 of `others` (nearest first). A search
    that found nothing is remembered (`failed`) and not run again while the same matches stand."""
    size = len(ways[0]) - 1
    key = (size, pairs[i], tuple(pairs[j] for j in others))
    if key in failed:
        return False
    best = None
    for group in combinations(others, size):
        slots = (i,) + group
        players = [p for slot in slots for p in pairs[slot]]
        base = sum(price(*pairs[slot], pts) for slot in slots)
        line = sorted(players, key=pts.__getitem__)
        if base - sum(price(line[n], line[n + 1], pts) for n in range(0, len(line), 2)) <= 1e-9:
            continue                                      # already the cheapest these players allow
        cost = [[None if y in met[x] else price(x, y, pts) for y in players] for x in players]
        for way in ways:
            if any(cost[p][q] is None for p, q in way):
                continue
            gain = base - sum(cost[p][q] for p, q in way)
            if gain > 1e-9 and (best is None or gain > best[0]):
                best = (gain, slots, [(players[p], players[q]) for p, q in way])
    if best is None:
        failed.add(key)
        return False
    for slot, pair in zip(best[1], best[2]):
        pairs[slot] = pair
    return True
