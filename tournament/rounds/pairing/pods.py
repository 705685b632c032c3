"""Multiplayer pod pairing: who sits at which table, in which seat, and why.

`pair_pods` is a pure function of the entrants' state after the previous
rounds, the event's pod size and leftover policy, a seed and the round number.
Randomness comes only from ``random.Random(seed)``; ties are broken by the
seeded shuffle of the entrants sorted by id, so the caller's list order does
not matter and a stored seed replays the round exactly.

Algorithm (later rounds):

1. **Standing order.** Entrants sorted by points (high first), then by the
   standings rank (1 = best; 0 = unranked, after the ranked), ties in seeded
   random order.
2. **Byes** (policy ``"byes"``, or a single player): to the lowest-ranked
   players without a bye; when everybody has had one, to those with the fewest.
3. **Pods by points.** The standing order is cut into tables of the planned
   sizes (`plan_pod_sizes`): full pods at the top, the smaller or larger
   tables at the bottom. Neighbours in the standings share a pod, and a player
   who cannot stay in their points group is in effect paired down, as in Swiss.
4. **Repeat repair.** The cost of a pod is the sum over its pairs of
   ``REPEAT_WEIGHT * ((m + 1) ** 2 - 1) + (points_a - points_b) ** 2`` where `m`
   is how often the two already met: 0 for a first meeting, then 3, 8, 15, ...,
   so a third meeting costs far more than two second meetings, and any repeat
   costs more than any points spread. For every pod with a repeat, one of the two
   players is swapped with a player of another pod: the candidates are searched in
   windows of pods around it that widen (1, 2, 4, 8, ... pods up and down, up to the
   whole field) until a swap lowers the repeat cost; among the swaps found in the
   window the one with the lowest total cost (so the closest in points) is taken.
   Passes repeat until no swap helps.
4b. **Odd pods go round.** A pod of another size than the event's (the 3s
   among pods of 4, or the 5s) costs, per player who sat at one t times
   before, `odd_cost(t)`: 0, then 10 for a second time, 6 for a third, then
   doubling (20, 40, ...), so as few players as possible sit at one twice and
   nobody round after round; going over the fair share (the field's odd seats
   after this round over its players, rounded up) costs three times the
   dearest seat within it, so nobody sits at one more often than the seats
   force; its players who already had one are swapped,
   without adding a repeat, for players of regular pods who had fewer,
   nearest first. This cost ranks after repeats and before seat-1 pressure
   and points, and the later steps never raise it.
5. **Seat-1 balance across pods.** A pod whose players have all been seat 1
   at least `cap` times (the most anybody has had it, or the fair share after
   this round, whichever is larger) would push one of them over it; such a pod
   takes a player below the cap from the nearest pod that has two of them, by
   a swap that adds no repeat.
6. **Tabu search**, only when repeats or seat-1 pressure are left: the best
   swap of a player concerned with anyone, even a worsening one, with recently
   moved players barred from moving back for a few steps; the objective is
   (repeat cost, pressure pods, points spread) in that order; the best seating
   seen is kept. Its budget is a number of swap evaluations (1,000 per player,
   at most 100,000), never a time, so the result is the same on every machine.
   Repeats still left are unavoidable as far as the search can tell and each
   is reported in `why` ("A and B meet for the 2nd time: no pairing without a
   repeat was found within N points", N being the points range of the field).
7. **Polish**: swaps between neighbouring pods whose points ranges overlap that
   narrow the spread without adding a repeat or seat-1 pressure.
8. **Tables** 1..k from the highest average points; **seats** within a pod: of
   all seat orders, the one where seat 1 goes to the player who has had seat 1
   least, then the fewest times anybody gets a seat they had before (most-often
   first, then the sum of squares), ties in seeded random order.

Round 1 (or everybody on equal points with no history): random pods from the
seed, with the same seat rules.
"""
from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
import math
import random
from typing import Iterable, Sequence

from ...decks.domain import N_, Text
from .domain import Entrant, Pod, PodPairing
from .sizes import plan_pod_sizes

REPEAT_WEIGHT = 1_000_000_000   # one unit of repeat cost outweighs any points spread (odd pods and seat-1
                                # pressure are compared as tuples, in the objective's order)
TABU_BUDGET = 100_000           # most swap evaluations in the tabu phase (a count: same result on every machine)
TABU_EVALS_PER_PLAYER = 1_000
MAX_PERMUTED_POD = 6            # larger pods get their seats greedily, seat by seat


def repeat_cost(times_met: int) -> int:
    """Cost of putting two players together who already met `times_met` times: (times + 1)^2 - 1."""
    return (times_met + 1) ** 2 - 1


def display_name(entrant: Entrant) -> str:
    return entrant.name or Text(N_("player %(id)s"), id=entrant.id)


# TRANSLATORS: "the 2nd time" in a pairing note: the number, as the note's sentence wants it ("2", "2.").
_ORDINALS = {"st": N_("%(number)sst"), "nd": N_("%(number)snd"), "rd": N_("%(number)srd"), "th": N_("%(number)sth")}


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th ... (a Text, for the reader's language)."""
    if 10 <= k % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return Text(_ORDINALS[suffix], number=k)


def format_points(points: float) -> str:
    return str(int(points)) if float(points).is_integer() else f"{points:g}"


def standing_key(entrant: Entrant) -> tuple:
    """Best first: more points, then the better standings rank (0 = unranked goes after the ranked)."""
    return (-entrant.points, entrant.rank if entrant.rank > 0 else math.inf)


def odd_cost(times: int, fair: int | None = None) -> int:
    """Cost of seating at a pod of another size than the event's (a 3-pod among 4s) a player who sat at one
    `times` times already. The first is free; the second makes them a player who had it twice, the step
    organizers notice, so it costs most; a third costs less than making someone else's second, and from
    the fourth on the cost doubles, so nobody is left at the small tables round after round.

    `fair`: the fair share of odd seats after this round (the field's odd seats so far and this round's,
    over its players, rounded up). Going over it costs three times the dearest seat within it, so a swap
    always takes a player over it out for one within it: nobody sits at odd pods more often than the seats
    force (5-pods among 26 players: twice, not three times), and within it the fewest sit at one twice."""
    if fair is not None and times >= fair:
        return 3 * max(odd_cost(fair - 1), 10) * 2 ** (times - fair)
    if times <= 0:
        return 0
    if times == 1:
        return 10
    if times == 2:
        return 6
    return 10 * 2 ** (times - 2)


def times_met(a: Entrant, b: Entrant) -> int:
    return max(a.opponents.get(b.id, 0), b.opponents.get(a.id, 0))


def check_entrants(entrants: Sequence[Entrant]) -> None:
    seen: set[int] = set()
    for e in entrants:
        if e.id in seen:
            raise ValueError(f"Entrant {e.id} is listed twice; each player can be paired once per round.")
        seen.add(e.id)


def is_fresh(entrants: Sequence[Entrant]) -> bool:
    """Everybody on equal points and nobody has met anyone or had a bye: pair at random."""
    if not entrants:
        return True
    first = entrants[0].points
    return all(e.points == first and not any(e.opponents.values()) and not e.byes for e in entrants)


def pick_byes(order: list[Entrant], count: int) -> list[Entrant]:
    """The lowest-ranked players without a bye (then with the fewest byes), from the standing order."""
    position = {e.id: i for i, e in enumerate(order)}
    return sorted(order, key=lambda e: (e.byes, -position[e.id]))[:count]


ODD_PODS = ("low", "high")      # where the pods of another size (3-pods among 4s) go: low or high standings


def pair_pods(entrants: Iterable[Entrant], *, pod_size: int = 4, leftover: str = "threes",
              seed: int | str, round_number: int, odd_pods: str = "low") -> PodPairing:
    """Seat one round of multiplayer pods; see the module docstring for the rules. `odd_pods` "high" puts the pods
    of another size (the 3-pods) at the top of the standings instead of the bottom (later rounds)."""
    if odd_pods not in ODD_PODS:
        raise ValueError(f"The smaller or larger pods go at low or high standings, not {odd_pods!r}.")
    players = sorted(entrants, key=lambda e: e.id)
    check_entrants(players)
    rng = random.Random(seed)
    sizes, n_byes, reason = plan_pod_sizes(len(players), pod_size, leftover)
    why = [Text(N_("Round %(round)s: %(reason)s."), round=round_number, reason=reason)]
    fresh = round_number <= 1 or is_fresh(players)
    if odd_pods == "high" and not fresh:
        sizes = _odd_pods_first(sizes, pod_size, why)

    order = players[:]
    rng.shuffle(order)
    if not fresh:
        order.sort(key=standing_key)          # stable: equal standing keeps the seeded random order

    byes: list[Entrant] = []
    if n_byes:
        byes = pick_byes(order, n_byes)
        for e in byes:
            if len(players) == 1:
                why.append(Text(N_("%(name)s gets a bye: the only player to seat."), name=display_name(e)))
                continue
            if fresh:
                because = Text(N_("drawn at random in the first round"))
            elif e.byes == 0:
                because = Text(N_("lowest-ranked without a bye"))
            else:
                because = Text(N_("everybody lower already had a bye; lowest-ranked with the fewest byes "
                                  "(%(byes)s before this round)"), byes=e.byes)
            why.append(Text(N_("%(name)s gets a bye: %(players)s players, byes policy; %(because)s."),
                            name=display_name(e), players=len(players), because=because) if leftover == "byes" else
                       Text(N_("%(name)s gets a bye: %(players)s players, %(policy)s policy; %(because)s."),
                            name=display_name(e), players=len(players), policy=leftover, because=because))
        bye_ids = {e.id for e in byes}
        order = [e for e in order if e.id not in bye_ids]

    if fresh:
        groups = _chunks(order, sizes)
        if groups:
            why.append(Text(N_("Pods drawn at random from the round's seed (no results yet).")))
    else:
        groups, repeats = _pods_by_points(order, sizes, rng, pod_size)
        if groups:
            why.append(Text(N_("Pods by points: neighbours in the standings share a table; repeat opponents avoided "
                               "where possible.")))
        why.extend(repeats)

    if fresh:
        tables = list(range(len(groups)))
    else:
        position = {e.id: i for i, e in enumerate(order)}
        tables = sorted(range(len(groups)), key=lambda k: _table_key(groups[k], position))
    pods = tuple(Pod(table=t + 1, seats=tuple(e.id for e in _assign_seats(groups[k], rng)))
                 for t, k in enumerate(tables))
    return PodPairing(pods=pods, byes=tuple(e.id for e in byes), why=tuple(why))


def _odd_pods_first(sizes: list[int], pod_size: int, why: list) -> list[int]:
    """The pods of another size first (at the top of the standing order), the others in their order."""
    if all(size == pod_size for size in sizes):
        return sizes
    why.append(Text(N_("The pods of another size are seated at the top of the standings (event setting).")))
    return sorted(sizes, key=lambda size: size == pod_size)        # stable


def _chunks(order: list, sizes: list[int]) -> list[list]:
    out, start = [], 0
    for size in sizes:
        out.append(order[start:start + size])
        start += size
    return out


def _table_key(group: list[Entrant], position: dict[int, int]) -> tuple:
    """Highest average points first; then the pod with the best-placed player."""
    return (-sum(e.points for e in group) / len(group), min(position[e.id] for e in group))


# ----------------------------------------------------------------- pods by points

def _pods_by_points(order: list[Entrant], sizes: list[int], rng: random.Random, pod_size: int
                    ) -> tuple[list[list[Entrant]], list[str]]:
    n = len(order)
    pts = [float(e.points) for e in order]
    index = {e.id: i for i, e in enumerate(order)}
    met: list[dict[int, int]] = [{index[oid]: count for oid, count in e.opponents.items()
                                  if count > 0 and oid in index and oid != e.id} for e in order]
    for i, row in enumerate(met):            # as often as either side says (the app's history is symmetric)
        for j, count in row.items():
            other = met[j]
            if other.get(i, 0) < count:
                other[i] = count
    seat1 = [e.seats[0] if e.seats else 0 for e in order]

    pods = _chunks(list(range(n)), sizes)
    odd_seats = sum(size for size in sizes if size != pod_size)
    fair = math.ceil((sum(e.odd_pods for e in order) + odd_seats) / n) if n else 0
    odd = [odd_cost(e.odd_pods, fair) for e in order]
    search = _Search(pods, pts, met, seat1, odd, pod_size)
    search.repair_repeats()
    search.spread_odd_pods()        # never adds a repeat
    search.balance_seat1()          # never adds a repeat or odd-pod cost
    search.tabu(rng, min(TABU_BUDGET, TABU_EVALS_PER_PLAYER * n))   # only when repeats or pressure are left
    search.polish()

    repeats = []
    span = (max(pts) - min(pts)) if pts else 0
    for pod in search.pods:
        for a, b in itertools.combinations(sorted(pod), 2):
            m = met[a].get(b, 0)
            if m:
                repeats.append(Text(N_("%(first)s and %(second)s meet for the %(nth)s time: no pairing without a "
                                       "repeat was found within %(points)s points."), first=display_name(order[a]),
                                    second=display_name(order[b]), nth=ordinal(m + 1), points=format_points(span)))
    return [[order[i] for i in pod] for pod in search.pods], repeats


class _Search:
    """Local search over pods of player indices (0 = best in the standings).

    The objective, compared lexicographically: the repeat cost (sum of (m + 1)^2 - 1 over pairs
    that already met m times), then the odd-pod cost (sum of odd_cost(t) over the players of
    pods of another size than the event's who sat at one t times before), then the number of
    seat-1 "pressure" pods (pods whose players have all been seat 1 at least `cap` times, so one
    of them would go over it), then the points spread (sum of squared points differences over
    the pairs in a pod).
    """

    def __init__(self, pods: list[list[int]], pts: list[float], met: list[dict[int, int]], seat1: list[int],
                 odd: list[int] | None = None, pod_size: int = 0):
        self.pods = pods
        self.pts = pts
        self.met = met
        self.seat1 = seat1
        self.odd = odd or [0] * len(pts)
        self.is_odd = [len(pod) != pod_size for pod in pods]
        self.pod_sum = [sum(pts[i] for i in pod) for pod in pods]
        self.pod_of = [0] * len(pts)
        for k, pod in enumerate(pods):
            for i in pod:
                self.pod_of[i] = k
        n = len(pts)
        # nobody should go over `cap` by sitting first this round: the most anybody has had seat 1 so
        # far, or the fair share of seat-1 places after this round, whichever is larger
        self.cap = max(max(seat1, default=0), math.ceil((sum(seat1) + len(pods)) / n) if n else 0, 1)

    # -- costs
    def swap_delta(self, y: int, p: int, x: int, q: int) -> tuple[int, float]:
        """(repeat cost change, points spread change) when y (in pod p) and x (in pod q) trade places.

        The spread change from the pods' point sums: over the others o of pod p, (px - po)^2 - (py - po)^2 is
        (px - py)(px + py - 2 po), so it sums to (px - py)((k - 1)(px + py) - 2 (sum of p - py)); and so for q."""
        met, pts = self.met, self.pts
        my, mx = met[y], met[x]
        py, px = pts[y], pts[x]
        rd = 0
        pod_p, pod_q = self.pods[p], self.pods[q]
        for o in pod_p:
            if o != y and (o in mx or o in my):
                a = mx.get(o, 0)
                b = my.get(o, 0)
                rd += (a + 1) * (a + 1) - (b + 1) * (b + 1)
        for o in pod_q:
            if o != x and (o in my or o in mx):
                a = my.get(o, 0)
                b = mx.get(o, 0)
                rd += (a + 1) * (a + 1) - (b + 1) * (b + 1)
        diff, both = px - py, px + py
        sums = self.pod_sum
        sd = diff * ((len(pod_p) - 1) * both - 2 * (sums[p] - py)) - diff * ((len(pod_q) - 1) * both - 2 * (sums[q] - px))
        return rd, sd

    def odd_delta(self, y: int, p: int, x: int, q: int) -> int:
        """Odd-pod cost change when y (in pod p) and x (in pod q) trade places."""
        if self.is_odd[p] == self.is_odd[q]:
            return 0
        odd = self.odd
        return odd[x] - odd[y] if self.is_odd[p] else odd[y] - odd[x]

    def odd_floor(self) -> int:
        """The least odd-pod cost possible this round: the cheapest players at all the odd seats."""
        seats = sum(len(pod) for k, pod in enumerate(self.pods) if self.is_odd[k])
        return sum(sorted(self.odd)[:seats])

    def pressure(self, pod: list[int], out: int = -1, into: int = -1) -> int:
        """1 if every player of `pod` (with `out` replaced by `into`) has had seat 1 `cap` times or more."""
        seat1, cap = self.seat1, self.cap
        for o in pod:
            if seat1[into if o == out else o] < cap:
                return 0
        return 1

    def pressure_delta(self, y: int, p: int, x: int, q: int) -> int:
        pods = self.pods
        return (self.pressure(pods[p], y, x) + self.pressure(pods[q], x, y)
                - self.pressure(pods[p]) - self.pressure(pods[q]))

    def swap(self, y: int, p: int, x: int, q: int) -> None:
        pod_p, pod_q = self.pods[p], self.pods[q]
        pod_p[pod_p.index(y)] = x
        pod_q[pod_q.index(x)] = y
        moved = self.pts[x] - self.pts[y]
        self.pod_sum[p] += moved
        self.pod_sum[q] -= moved
        self.pod_of[x] = p
        self.pod_of[y] = q

    def conflicted(self, p: int) -> list[int]:
        """Players of pod p who already met someone else in it, in standing order."""
        pod = self.pods[p]
        out = []
        for y in sorted(pod):
            my = self.met[y]
            if any(my.get(o, 0) for o in pod if o != y):
                out.append(y)
        return out

    def totals(self) -> tuple[int, int, int, float]:
        met, pts = self.met, self.pts
        rep = 0
        spread = 0.0
        for pod in self.pods:
            for a, b in itertools.combinations(pod, 2):
                m = met[a].get(b, 0)
                if m:
                    rep += (m + 1) * (m + 1) - 1
                spread += (pts[a] - pts[b]) ** 2
        odd = sum(self.odd[i] for k, pod in enumerate(self.pods) if self.is_odd[k] for i in pod)
        return rep, odd, sum(self.pressure(pod) for pod in self.pods), spread

    def _rings(self, p: int, among: list[int] | None = None):
        """Pods around p in widening windows (1, 2, 4, ... pods up and down, up to the whole field).

        Yields, per window, only the pods not yielded before, nearest first (of two as near, the one above);
        with `among` (a sorted list of pods), only those.
        """
        n_pods = len(self.pods)
        done, width = 0, 1
        while True:
            if among is None:
                window = []
                for d in range(done + 1, width + 1):
                    if p - d >= 0:
                        window.append(p - d)
                    if p + d < n_pods:
                        window.append(p + d)
            else:
                near = among[bisect_left(among, p - width):bisect_left(among, p - done)] + \
                    among[bisect_right(among, p + done):bisect_right(among, p + width)]
                window = sorted(near, key=lambda q: (abs(q - p), q > p))
            if window:
                yield window
            done = width
            if p - done <= 0 and p + done >= n_pods - 1:
                return
            width *= 2

    # -- step 4: repeats, by improving swaps in widening windows
    def repair_repeats(self, max_passes: int = 8) -> None:
        for _ in range(max_passes):
            improved = False
            for p in range(len(self.pods)):
                while True:
                    movers = self.conflicted(p)
                    if not movers or not self._fix_repeat(p, movers):
                        break
                    improved = True
            if not improved:
                return

    def _swap_nearest(self, p: int, options, among: list[int] | None = None) -> int | None:
        """Make the cheapest swap for pod p that `options(q)` offers (a list of (cost, y in p, x in q)), from
        the nearest window of pods that offers any; the first of equal costs wins. The pod swapped with.
        `among`: the only pods that can offer any (sorted), when the caller knows them."""
        for window in self._rings(p, among):
            best = None
            for q in window:
                for option in options(q):
                    if best is None or option[0] < best[0]:
                        best = (*option, q)
            if best is not None:
                _, y, x, q = best
                self.swap(y, p, x, q)
                return q
        return None

    def _fix_repeat(self, p: int, movers: list[int]) -> bool:
        def options(q):
            out = []
            for x in self.pods[q]:
                for y in movers:
                    rd, sd = self.swap_delta(y, p, x, q)
                    if rd < 0:
                        out.append((rd * REPEAT_WEIGHT + sd, y, x))
            return out
        return self._swap_nearest(p, options) is not None

    # -- step 4b: odd pods (3s among 4s) go to players who had fewest, by swaps that add no repeat
    def spread_odd_pods(self, max_passes: int = 8) -> None:
        for _ in range(max_passes):
            improved = False
            for p in range(len(self.pods)):
                while self.is_odd[p] and any(self.odd[y] for y in self.pods[p]) and self._fix_odd(p):
                    improved = True
            if not improved:
                return

    def _fix_odd(self, p: int) -> bool:
        """Trade a player of odd pod p who sat at one before for a player of a regular pod who sat at fewer."""
        odd = self.odd
        movers = [y for y in self.pods[p] if odd[y]]

        def options(q):
            out = []
            if self.is_odd[q]:
                return out
            for x in self.pods[q]:
                for y in movers:
                    if odd[x] < odd[y]:
                        rd, sd = self.swap_delta(y, p, x, q)
                        if rd <= 0:
                            out.append(((rd, odd[x] - odd[y], sd), y, x))     # in the objective's order
            return out
        return self._swap_nearest(p, options) is not None

    # -- step 5: seat-1 pressure, by swaps that add no repeat
    def balance_seat1(self) -> None:
        seat1, cap = self.seat1, self.cap
        lows = [sum(1 for o in pod if seat1[o] < cap) for pod in self.pods]    # players below the cap per pod
        givers = [q for q, low in enumerate(lows) if low >= 2]                # pods that can give one
        for p in range(len(self.pods)):
            if not lows[p]:
                q = self._fix_seat1(p, lows, givers)
                if q is not None:
                    lows[p] += 1
                    lows[q] -= 1
                    if lows[q] < 2:
                        del givers[bisect_left(givers, q)]

    def _fix_seat1(self, p: int, lows: list[int], givers: list[int] | None = None) -> int | None:
        """Bring into pod p (everybody at the cap) a player below the cap from a pod that has two."""
        seat1, cap = self.seat1, self.cap
        none: list = []

        def options(q):
            if lows[q] < 2:
                return none                   # pod q would be the one under pressure instead
            out = []
            same_size = self.is_odd[p] == self.is_odd[q]          # then a swap cannot change the odd-pod cost
            for x in self.pods[q]:
                if seat1[x] < cap:
                    for y in self.pods[p]:
                        rd, sd = self.swap_delta(y, p, x, q)
                        if rd <= 0 and (same_size or self.odd_delta(y, p, x, q) <= 0):
                            out.append((rd * REPEAT_WEIGHT + sd, y, x))
            return out
        return self._swap_nearest(p, options, givers)

    # -- step 6: points spread between neighbouring pods
    def polish(self, reach: int = 1, max_passes: int = 2) -> None:
        """Swaps between pods up to `reach` apart that narrow the points spread, adding no repeat or pressure."""
        n_pods = len(self.pods)
        pts = self.pts
        for _ in range(max_passes):
            improved = False
            for p in range(n_pods):
                best = None
                lo_p = min(pts[i] for i in self.pods[p])
                hi_p = max(pts[i] for i in self.pods[p])
                for q in range(p + 1, min(n_pods, p + reach + 1)):
                    if lo_p >= max(pts[i] for i in self.pods[q]) or hi_p <= min(pts[i] for i in self.pods[q]):
                        continue              # points ranges apart: no swap can narrow the spread
                    for y in self.pods[p]:
                        for x in self.pods[q]:
                            rd, sd = self.swap_delta(y, p, x, q)
                            if rd > 0 or sd > -1e-9 or (rd == 0 and best is not None and sd >= best[0]):
                                continue
                            if self.pressure_delta(y, p, x, q) > 0 or self.odd_delta(y, p, x, q) > 0:
                                continue
                            total = rd * REPEAT_WEIGHT + sd
                            if best is None or total < best[0]:
                                best = (total, y, x, q)
                if best is not None:
                    _, y, x, q = best
                    self.swap(y, p, x, q)
                    improved = True
            if not improved:
                return

    # -- when stuck: tabu search on the whole objective
    def tabu(self, rng: random.Random, budget: int = TABU_BUDGET) -> None:
        """When improving swaps leave repeats, seat-1 pressure or odd pods for players who had one: tabu search.

        Each step makes the best swap of a player in a pod with a repeat or with seat-1 pressure
        with anybody in another pod, even when it does not improve, and forbids the two players to
        return to the pods they left for a few steps (unless that beats the best found). Stops when
        neither is left or after `budget` swap evaluations (a count, not a time, so the result is
        the same on every machine); keeps the best seating found.
        """
        rep, odd, press, spread = self.totals()
        floor = self.odd_floor()
        if not rep and not press and odd <= floor:
            return
        best = (rep, odd, press, spread)
        best_pods = [pod[:] for pod in self.pods]
        tabu_until: dict[tuple[int, int], int] = {}
        n_pods = len(self.pods)
        evals = 0
        step = 0
        while (rep or press or odd > floor) and evals < budget:
            step += 1
            movers = [y for p in range(n_pods) for y in
                      (self.pods[p] if self.pressure(self.pods[p]) or (odd > floor and self.is_odd[p])
                       else self.conflicted(p))]
            move = None
            for y in movers:
                p = self.pod_of[y]
                for q in range(n_pods):
                    if q == p:
                        continue
                    for x in self.pods[q]:
                        evals += 1
                        rd, sd = self.swap_delta(y, p, x, q)
                        od = self.odd_delta(y, p, x, q)
                        pd = self.pressure_delta(y, p, x, q)
                        if (tabu_until.get((y, q), 0) >= step or tabu_until.get((x, p), 0) >= step) \
                                and (rep + rd, odd + od, press + pd) >= best[:3]:
                            continue
                        total = (rd, od, pd, sd)      # compared in order: no weight can be outgrown
                        if move is None or total < move[0]:
                            move = (total, rd, od, pd, sd, y, p, x, q)
            if move is None:
                break
            _, rd, od, pd, sd, y, p, x, q = move
            self.swap(y, p, x, q)
            tenure = 4 + rng.randrange(6)
            tabu_until[(y, p)] = step + tenure
            tabu_until[(x, q)] = step + tenure
            rep += rd
            odd += od
            press += pd
            spread += sd
            if (rep, odd, press, spread) < (best[0], best[1], best[2], best[3] - 1e-9):
                best = (rep, odd, press, spread)
                best_pods = [pod[:] for pod in self.pods]
        self.pods = best_pods
        self.pod_sum = [sum(self.pts[i] for i in pod) for pod in best_pods]
        for k, pod in enumerate(self.pods):
            for i in pod:
                self.pod_of[i] = k


# ----------------------------------------------------------------- seats

def _seat_count(entrant: Entrant, seat: int) -> int:
    return entrant.seats[seat] if seat < len(entrant.seats) else 0


_BEST_ORDERS: dict[tuple, tuple[int, ...]] = {}     # seat counts of a pod's members (in seating order) -> order
_BEST_ORDERS_MAX = 200_000


def _best_order(counts: list[list[int]], k: int) -> tuple[int, ...]:
    """The best seat order for these seat counts (see _assign_seats). Seat 1 goes to one of those who had it
    least, so only orders starting with them can win; taken in the same order as permutations(range(k)), the
    first best order is the same. A pure function of the counts: a round's many pods with the same counts
    share one search."""
    fewest = min(counts[i][0] for i in range(k))
    best_key, best_perm = None, None
    for first in range(k):
        if counts[first][0] != fewest:
            continue
        rest = [i for i in range(k) if i != first]
        for tail in itertools.permutations(rest):
            perm = (first, *tail)
            c = [counts[i][s] for s, i in enumerate(perm)]
            key = (c[0], max(c), sum((v + 1) * (v + 1) for v in c))
            if best_key is None or key < best_key:
                best_key, best_perm = key, perm
    return best_perm


def _assign_seats(group: list[Entrant], rng: random.Random) -> list[Entrant]:
    """Seat order for one pod: seat 1 to whoever had it least, then spread the other seats.

    Of all seat orders (pods up to MAX_PERMUTED_POD; larger pods seat by seat), the one with the
    fewest earlier seat-1s for seat 1, then the smallest "most times anybody had the seat they get",
    then the smallest sum of squares of those counts; ties go to the first in a seeded shuffle.
    """
    members = sorted(group, key=lambda e: e.id)
    rng.shuffle(members)
    k = len(members)
    counts = [list(e.seats[:k]) + [0] * (k - len(e.seats)) if len(e.seats) < k else list(e.seats[:k])
              for e in members]
    if k <= MAX_PERMUTED_POD:
        key = tuple(map(tuple, counts))
        best_perm = _BEST_ORDERS.get(key)
        if best_perm is None:
            if len(_BEST_ORDERS) > _BEST_ORDERS_MAX:
                _BEST_ORDERS.clear()
            best_perm = _BEST_ORDERS[key] = _best_order(counts, k)
        return [members[i] for i in best_perm]
    seated: list[Entrant] = []
    left = list(range(k))
    for s in range(k):
        pick = min(left, key=lambda i: (counts[i][s], sum(counts[i])))
        left.remove(pick)
        seated.append(members[pick])
    return seated


__all__ = ["pair_pods", "repeat_cost", "REPEAT_WEIGHT"]
