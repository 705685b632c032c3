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

from ...decks.domain import N_, Text, TextList, _n
from .domain import LEFTOVER_POLICIES

MIN_POD = 3                 # the pod sizes an event may ask for: its setting's bounds (events.models.POD_SIZES,
MAX_POD = 5                 # the form, the API's schema) are these
LARGEST_FILL_POD = 5        # "fives" never makes pods larger than this

# TRANSLATORS: a count in a pairing note ("three pods of 3"): write it as the digit where the language would.
_WORDS = ("no", N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"), N_("eight"),
          N_("nine"), N_("ten"), N_("eleven"), N_("twelve"), N_("thirteen"), N_("fourteen"), N_("fifteen"),
          N_("sixteen"), N_("seventeen"), N_("eighteen"), N_("nineteen"), N_("twenty"))


def count_words(k: int) -> str:
    """'one', 'three', ..., 'twenty', then digits (a Text, for the reader's language)."""
    return Text(_WORDS[k]) if 0 < k < len(_WORDS) else _WORDS[0] if k == 0 else str(k)


def plan_pod_sizes(n_players: int, pod_size: int = 4, leftover: str = "threes") -> tuple[list[int], int, str]:
    """Plan the tables of one round.

    Returns ``(sizes, byes, reason)``: the table sizes in the order they are
    filled from the top of the standings (full pods first, the other sizes
    after them, largest first), the number of byes, and a sentence that says
    why, e.g. "13 players, pods of 4: one pod of 4 and three pods of 3 (the
    remainder is filled with tables of 3)" (a Text: the English sentence, worded
    again in the reader's language where it is shown).
    """
    if leftover not in LEFTOVER_POLICIES:
        raise ValueError(f"Unknown leftover policy {leftover!r}: choose one of {', '.join(LEFTOVER_POLICIES)}.")
    if not isinstance(pod_size, int) or not MIN_POD <= pod_size <= MAX_POD:
        raise ValueError(f"Pod size must be a whole number from {MIN_POD} to {MAX_POD}, not {pod_size!r}.")
    if not isinstance(n_players, int) or n_players < 0:
        raise ValueError(f"The number of players must be a whole number of 0 or more, not {n_players!r}.")
    n, p = n_players, pod_size
    plan = _plan_small_field(n, p)
    if plan is None:
        plan = _plan_byes(n, p) if leftover == "byes" else _plan_filled(n, p, leftover)
    sizes, byes, why = plan
    return sizes, byes, _reason(n, p, why)


def _reason(n: int, p: int, plan: Text) -> Text:
    """The plan's sentence: "13 players, pods of 4: <plan>"."""
    return Text(_n("%(num)d player, pods of %(size)s: %(plan)s", "%(num)d players, pods of %(size)s: %(plan)s"),
                num=n, size=p, plan=plan)


def _plan_small_field(n: int, p: int) -> tuple[list[int], int, Text] | None:
    """Fewer players than a full pod (whatever the policy): nobody, one bye, a pod of 2 or one smaller pod;
    None when there are enough for a full pod."""
    if n == 0:
        return [], 0, Text(N_("nobody to seat"))
    if n == 1:
        return [], 1, Text(N_("a single player cannot form a pod and gets a bye"))
    if n == 2:
        return [2], 0, Text(N_("one pod of 2 (only 2 players remain)"))
    if n < p:
        sizes = [n]
        return sizes, 0, Text(N_("%(pods)s (fewer players than a full pod)"), pods=_describe(sizes))
    return None


def _plan_byes(n: int, p: int) -> tuple[list[int], int, Text]:
    """The "byes" policy: only full pods; the remaining players get byes."""
    full, rest = divmod(n, p)
    sizes = [p] * full
    pods = _describe(sizes, rest)
    if not rest:
        plan = Text(N_("%(pods)s (byes policy: only full pods are made)"), pods=pods)
    elif rest == 1:
        plan = Text(N_("%(pods)s (byes policy: only full pods are made, the remaining player gets a bye)"),
                    pods=pods)
    else:
        plan = Text(N_("%(pods)s (byes policy: only full pods are made, the remaining %(count)s get byes)"),
                    pods=pods, count=count_words(rest))
    return sizes, rest, plan


def _plan_filled(n: int, p: int, leftover: str) -> tuple[list[int], int, Text]:
    """The "threes" and "fives" policies: full pods, the remainder at other sizes; one table of everyone
    when no split into tables of 3 or more works."""
    smaller = list(range(p - 1, MIN_POD - 1, -1))          # p-1, ..., 3
    larger = [p + 1] if p + 1 <= LARGEST_FILL_POD else []
    if leftover == "threes":
        plan = _plan_threes(n, p, smaller)
    elif larger:
        plan = _plan_fives(n, p, smaller, larger)
    else:
        plan = _plan_fives_capped(n, p, smaller)
    if plan is not None:
        return plan
    sizes = [n]
    return sizes, 0, Text(N_("%(pods)s (%(players)s players cannot be split into pods of 3 or more otherwise)"),
                          pods=_describe(sizes), players=n)


def _plan_threes(n: int, p: int, smaller: list[int]) -> tuple[list[int], int, Text] | None:
    """"threes": the remainder at smaller tables, else (5 players, pods of 4) at larger pods."""
    sizes = _fill(n, [p] + smaller)
    if sizes is not None:
        return sizes, 0, _fill_note(sizes, p, "smaller")
    sizes = _fill(n, [p] + [p + 1] + smaller) or _fill(n, [p] + [p + 1, p + 2] + smaller)
    if sizes is None:
        return None
    return sizes, 0, Text(N_("%(pods)s (%(players)s players cannot be split into tables of %(sizes)s, so larger "
                             "pods take the remainder)"), pods=_describe(sizes), players=n,
                          sizes=_and_words([p] + smaller))


def _plan_fives(n: int, p: int, smaller: list[int], larger: list[int]) -> tuple[list[int], int, Text] | None:
    """"fives": the remainder at pods of p + 1, else (6 players, pods of 4) at smaller tables."""
    sizes = _fill(n, [p] + larger)
    if sizes is not None:
        return sizes, 0, _fill_note(sizes, p, "larger")
    sizes = _fill(n, [p] + smaller)
    if sizes is None:
        return None
    return sizes, 0, Text(N_("%(pods)s (%(players)s players cannot be split into tables of %(sizes)s, so smaller "
                             "tables take the remainder)"), pods=_describe(sizes), players=n,
                          sizes=_and_words([p] + larger))


def _plan_fives_capped(n: int, p: int, smaller: list[int]) -> tuple[list[int], int, Text] | None:
    """"fives" when pods of p + 1 would be larger than LARGEST_FILL_POD: the remainder at smaller tables."""
    sizes = _fill(n, [p] + smaller)
    if sizes is None:
        return None
    if not any(s != p for s in sizes):
        return sizes, 0, _describe(sizes)
    return sizes, 0, Text(N_("%(pods)s (pods are never made larger than %(largest)s, so smaller tables take the "
                             "remainder)"), pods=_describe(sizes), largest=LARGEST_FILL_POD)


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
    """The pods, with why the remainder sits where it does when not every pod is of the event's size."""
    pods = _describe(sizes)
    others = sorted({s for s in sizes if s != p}, reverse=True)
    if not others:
        return pods
    if p not in sizes:
        if kind == "smaller":
            return Text(N_("%(pods)s (with a pod of %(size)s the others could not all sit at tables of %(min)s or "
                           "more)"), pods=pods, size=p, min=MIN_POD)
        return Text(N_("%(pods)s (with a pod of %(size)s the others could not all sit at tables of %(size)s and "
                       "%(larger)s)"), pods=pods, size=p, larger=p + 1)
    return Text(N_("%(pods)s (the remainder is filled with tables of %(sizes)s)"), pods=pods, sizes=_and_words(others))


def _and_words(values: list[int]) -> str:
    """'5, 4 and 3': table sizes, largest first."""
    return TextList(sorted(set(values), reverse=True), "and")


def _describe(sizes: list[int], byes: int = 0) -> str:
    """'one pod of 4 and three pods of 3'; sizes largest first; byes last."""
    parts = []
    for size in sorted(set(sizes), reverse=True):
        k = sizes.count(size)
        parts.append(Text(_n("%(count)s pod of %(size)s", "%(count)s pods of %(size)s"), num=k, count=count_words(k),
                          size=size))
    if byes:
        parts.append(Text(_n("%(count)s bye", "%(count)s byes"), num=byes, count=count_words(byes)))
    if not parts:
        return Text(N_("no pods"))
    return parts[0] if len(parts) == 1 else TextList(parts, "and")
