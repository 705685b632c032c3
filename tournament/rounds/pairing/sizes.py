"""Pod size planning: how many tables of which size, and how many byes.

Pure and deterministic: the plan depends only on the number of players, the
event's pod size and its leftover policy (`LEFTOVER_POLICIES`).

Policies, for `n` players and pods of `p`:

- ``"threes"`` (default): as many full pods of `p` as possible; the remainder
  is filled with smaller tables (`p - 1`, then `p - 2`, ..., never below 3),
  preferring the larger ones. 13 players, pods of 4: 4+3+3+3; 6: 3+3.
  When `n` cannot be split that way (pods of 4: 5 players; pods of 3: any
  count not divisible by 3) the plan falls back to pods of `p + 1` (5 players,
  pods of 4: one pod of 5), and says so in the reason.
- ``"fives"``: full pods of `p`, the remainder filled with pods of `p + 1`
  (pods are never larger than 5 this way). 13 players, pods of 4: 4+4+5.
  When that is impossible (6 players, pods of 4) the remainder is filled with
  smaller tables as under ``"threes"``.
- ``"byes"``: only full pods of `p`; the remainder get byes (13 players, pods of
  4: three pods and one bye). With fewer than `p` players, one smaller pod.

Always: 1 player gets a bye; 2 players make one pod of 2; a pod of 2 is never
planned otherwise.
"""
from __future__ import annotations

from .domain import LEFTOVER_POLICIES

MIN_POD = 3
MAX_POD = 8
LARGEST_FILL_POD = 5        # "fives" never makes pods larger than this

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen", "twenty")


def count_words(k: int) -> str:
    """'one', 'three', ..., 'twenty', then digits."""
    return _WORDS[k] if 0 <= k < len(_WORDS) else str(k)


def plan_pod_sizes(n_players: int, pod_size: int = 4, leftover: str = "threes") -> tuple[list[int], int, str]:
    """Plan the tables of one round.

    Returns ``(sizes, byes, reason)``: the table sizes in the order they are
    filled from the top of the standings (full pods first, the other sizes
    after them, largest first), the number of byes, and a sentence that says
    why, e.g. "13 players, pods of 4: one pod of 4 and three pods of 3 (the
    remainder is filled with tables of 3)".
    """
    if leftover not in LEFTOVER_POLICIES:
        raise ValueError(f"Unknown leftover policy {leftover!r}: choose one of {', '.join(LEFTOVER_POLICIES)}.")
    if not isinstance(pod_size, int) or not MIN_POD <= pod_size <= MAX_POD:
        raise ValueError(f"Pod size must be a whole number from {MIN_POD} to {MAX_POD}, not {pod_size!r}.")
    if not isinstance(n_players, int) or n_players < 0:
        raise ValueError(f"The number of players must be a whole number of 0 or more, not {n_players!r}.")
    n, p = n_players, pod_size
    head = f"{n} player{'s' if n != 1 else ''}, pods of {p}"
    if n == 0:
        return [], 0, f"{head}: nobody to seat"
    if n == 1:
        return [], 1, f"{head}: a single player cannot form a pod and gets a bye"
    if n == 2:
        return [2], 0, f"{head}: one pod of 2 (only 2 players remain)"
    if n < p:
        sizes = [n]
        return sizes, 0, f"{head}: {_describe(sizes)} (fewer players than a full pod)"

    if leftover == "byes":
        full, rest = divmod(n, p)
        sizes = [p] * full
        note = "byes policy: only full pods are made"
        if rest:
            note += (", the remaining player gets a bye" if rest == 1
                     else f", the remaining {count_words(rest)} get byes")
        return sizes, rest, f"{head}: {_describe(sizes, rest)} ({note})"

    smaller = list(range(p - 1, MIN_POD - 1, -1))          # p-1, ..., 3
    larger = [p + 1] if p + 1 <= LARGEST_FILL_POD else []
    if leftover == "threes":
        sizes = _fill(n, [p] + smaller)
        if sizes is not None:
            return sizes, 0, f"{head}: {_describe(sizes)}{_fill_note(sizes, p, 'smaller')}"
        sizes = _fill(n, [p] + [p + 1] + smaller) or _fill(n, [p] + [p + 1, p + 2] + smaller)
        if sizes is not None:
            return sizes, 0, (f"{head}: {_describe(sizes)} ({n} players cannot be split into "
                              f"{_sizes_words([p] + smaller)}, so larger pods take the remainder)")
    elif larger:  # fives
        sizes = _fill(n, [p] + larger)
        if sizes is not None:
            return sizes, 0, f"{head}: {_describe(sizes)}{_fill_note(sizes, p, 'larger')}"
        sizes = _fill(n, [p] + smaller)
        if sizes is not None:
            return sizes, 0, (f"{head}: {_describe(sizes)} ({n} players cannot be split into "
                              f"{_sizes_words([p] + larger)}, so smaller tables take the remainder)")
    else:  # fives, but pods of p + 1 would be larger than LARGEST_FILL_POD
        sizes = _fill(n, [p] + smaller)
        if sizes is not None:
            note = (f" (pods are never made larger than {LARGEST_FILL_POD}, so smaller tables take the remainder)"
                    if any(s != p for s in sizes) else "")
            return sizes, 0, f"{head}: {_describe(sizes)}{note}"
    sizes = [n]
    return sizes, 0, f"{head}: {_describe(sizes)} ({n} players cannot be split into pods of 3 or more otherwise)"


def _fill(n: int, sizes: list[int]) -> list[int] | None:
    """Split n into the given sizes, with as many of the first size as possible, then of the second, ...

    Returns the table sizes (first size first, then in the given order) or None.
    """
    counts = _fill_counts(n, tuple(sizes))
    if counts is None:
        return None
    out: list[int] = []
    for size, k in zip(sizes, counts):
        out.extend([size] * k)
    return out


def _fill_counts(n: int, sizes: tuple[int, ...]) -> list[int] | None:
    if n == 0:
        return [0] * len(sizes)
    if not sizes:
        return None
    first, rest = sizes[0], sizes[1:]
    for k in range(n // first, -1, -1):
        tail = _fill_counts(n - k * first, rest)
        if tail is not None:
            return [k] + tail
    return None


def _fill_note(sizes: list[int], p: int, kind: str) -> str:
    others = sorted({s for s in sizes if s != p}, reverse=True)
    if not others:
        return ""
    if p not in sizes:
        if kind == "smaller":
            return f" (with a pod of {p} the others could not all sit at tables of {MIN_POD} or more)"
        return f" (with a pod of {p} the others could not all sit at tables of {p} and {p + 1})"
    return f" (the remainder is filled with tables of {_or_words(others)})"


def _sizes_words(sizes: list[int]) -> str:
    return "tables of " + _or_words(sorted(set(sizes), reverse=True), "and")


def _or_words(values: list[int], joiner: str = "and") -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {joiner} " + words[-1]


def _describe(sizes: list[int], byes: int = 0) -> str:
    """'one pod of 4 and three pods of 3'; sizes largest first; byes last."""
    parts = []
    for size in sorted(set(sizes), reverse=True):
        k = sizes.count(size)
        parts.append(f"{count_words(k)} pod{'s' if k != 1 else ''} of {size}")
    if byes:
        parts.append(f"{count_words(byes)} bye{'s' if byes != 1 else ''}")
    if not parts:
        return "no pods"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
