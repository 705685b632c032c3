"""Top cuts for pods, as cEDH events run them: the best seeds wait, the others play down to a final pod of 4.

A cut of N players (4, 7, 10, 13, 16, 40, or any N of the form 3k + 1 from 4) is played in stages. Each
stage seats the lower seeds in pods of 4 and lets the top seeds wait; each pod's winner joins them, and the
next stage is again of the form 3k + 1, until 4 meet in the final:

* top 4: the final;
* top 7: seeds 1-3 wait, 4-7 play one pod;       top 10: seeds 1-2 wait, 3-10 play two pods;
* top 13: seed 1 waits, 2-13 play three pods;    top 16: four pods, nobody waits;
* top 40: ten pods, then the ten winners as a top 10; or, per event (`cut_top40` "sixteen_wait"), seeds 1-16
  wait while seeds 17-40 play six pods, and the six winners join the 16 for a top 22 (seeds 1-2 wait, five
  pods), then a top 7 and the final. That first stage is EDH_matchmaker's (its `PairingTop40`: 16 byes, the
  other 24 in six pods dealt in a snake). EDH_matchmaker then plays a "top 16" by cutting the standings after
  that stage at 16, and as it lists those who waited before the pod winners, the six winners are the ones cut;
  16 + 6 = 22 players cannot all fit a top 16, so here they all go on, to the next stage of the 3k + 1 ladder.

Pods are filled by seed in a snake (pod 1 gets the best and the worst of those playing), so each pod has
one of each quarter of the seeds; or, per event (`cut_deal`), straight (top 16: 1-5-9-13). A drawn cut pod
(`cut_draw`) sends on the highest-ranked player at the table (the addendum; default) or the best surviving
seed. Seats are assigned by seed (the best seed in seat 1) or chosen in seed
order (the best seed chooses first): then the pairing lists the players in choosing order and staff set
the seats they chose. Pure: seeds in, pods out.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...decks.domain import N_, Text, _n
from .domain import Pod

POD_CUTS = (4, 7, 10, 13, 16, 40)
CUT_SEATING = ("seed", "choice")
CUT_DRAW = ("table", "survivor")     # a drawn cut pod: the highest-ranked player at the table goes on (the
                                     # multiplayer addendum), or the best seed among those left alive
CUT_DEAL = ("snake", "straight")     # top 16: pod 1 gets seeds 1-8-9-16 (snake) or 1-5-9-13 (straight)
CUT_TOP40 = ("ten_pods", "sixteen_wait")   # top 40: ten pods -> top 10, or seeds 1-16 wait + six pods -> top 22
SIXTEEN_WAIT = (16, 6)                     # (waiting, pods) of a top 40's first stage under "sixteen_wait"
FINAL_SIZE = 4


@dataclass(frozen=True)
class CutStage:
    pods: tuple[Pod, ...]
    waiting: tuple[int, ...]        # the top seeds who go straight to the next stage
    why: tuple[str, ...]

    @property
    def final(self) -> bool:
        return not self.waiting and len(self.pods) == 1


def valid_cut(size: int) -> bool:
    return isinstance(size, int) and not isinstance(size, bool) and size >= FINAL_SIZE and size % 3 == 1


def stage_shape(players: int, top40: str = "ten_pods") -> tuple[int, int]:
    """(waiting, pods) for a stage of `players`: the fewest pods whose winners and the waiting seeds make the
    smallest valid next stage; a stage of 40 under `top40` "sixteen_wait": 16 wait, six pods."""
    if not valid_cut(players):
        raise ValueError(f"A pod top cut needs 4, 7, 10, 13, 16, 40 ... players (3k + 1), not {players}.")
    if top40 not in CUT_TOP40:
        raise ValueError(f"A top 40 is played as ten pods or with sixteen seeds waiting, not {top40!r}.")
    if players == 40 and top40 == "sixteen_wait":
        return SIXTEEN_WAIT
    if players == FINAL_SIZE:
        return 0, 1
    nxt = FINAL_SIZE
    while True:
        pods = (players - nxt) // 3
        waiting = nxt - pods
        if waiting >= 0:
            return waiting, pods
        nxt += 3


def stages(size: int, top40: str = "ten_pods") -> list[tuple[int, int, int]]:
    """Every stage of a top `size`: (players, waiting, pods), the final last."""
    out = []
    players = size
    while True:
        waiting, pods = stage_shape(players, top40)
        out.append((players, waiting, pods))
        if players == FINAL_SIZE:
            return out
        players = waiting + pods


def snake(players: Sequence[int], pods: int) -> list[list[int]]:
    """Deal seeds (best first) into pods back and forth: 1 2 3 | 6 5 4 | 7 8 9 ..."""
    out: list[list[int]] = [[] for _ in range(pods)]
    for i, player in enumerate(players):
        lap, at = divmod(i, pods)
        out[at if lap % 2 == 0 else pods - 1 - at].append(player)
    return out


def straight(players: Sequence[int], pods: int) -> list[list[int]]:
    """Deal seeds (best first) into pods in the same direction every lap: 1 2 3 4 | 5 6 7 8 ... (top 16: pod 1
    gets seeds 1, 5, 9 and 13)."""
    out: list[list[int]] = [[] for _ in range(pods)]
    for i, player in enumerate(players):
        out[i % pods].append(player)
    return out


def cut_stage(seeded: Sequence[int], seating: str = "seed", label: str = "", deal: str = "snake",
              top40: str = "ten_pods") -> CutStage:
    """One stage of a pod top cut from its players, best seed first; pods dealt as a snake or straight; a stage
    of 40 shaped by `top40` (CUT_TOP40)."""
    if seating not in CUT_SEATING:
        raise ValueError(f"Seats in a top cut are assigned by seed or chosen by seed, not {seating!r}.")
    if deal not in CUT_DEAL:
        raise ValueError(f"Top cut pods are dealt as a snake or straight, not {deal!r}.")
    seeded = list(seeded)
    if len(set(seeded)) != len(seeded):
        raise ValueError("A player is seeded twice in the top cut.")
    waiting, pods = stage_shape(len(seeded), top40)
    playing = seeded[waiting:]
    tables = tuple(Pod(table=t + 1, seats=tuple(sorted(pod, key=seeded.index)))
                   for t, pod in enumerate((snake if deal == "snake" else straight)(playing, pods)))
    why = [_stage_words(len(seeded), waiting, pods, label)]
    if deal == "straight" and pods > 1:
        why.append(Text(N_("Pods are dealt straight rather than in a snake: pod 1 gets the 1st, 5th, 9th and 13th "
                           "of the seeds playing in a top 16, pod 2 the 2nd, 6th, 10th and 14th, and so on.")))
    if seating == "choice":
        why.append(Text(N_("Seats are chosen in seed order: at each table the best seed picks a seat first; the list "
                           "shows the choosing order until staff set the seats chosen.")))
    else:
        why.append(Text(N_("Seats by seed: at each table the best seed sits in seat 1, the next in seat 2, and so "
                           "on.")))
    return CutStage(pods=tables, waiting=tuple(seeded[:waiting]), why=tuple(why))


def _stage_words(players: int, waiting: int, pods: int, label: str) -> str:
    """The stage in a sentence: a Text, for the reader's language (with a `label` of the caller's, English only)."""
    if label:
        if players == FINAL_SIZE:
            return f"The final ({label}): the last four play one pod; its winner wins the event."
        wait = ("nobody waits" if not waiting else
                "seed 1 waits for the next stage" if waiting == 1 else f"seeds 1-{waiting} wait for the next stage")
        return (f"{label.capitalize()}: {wait}; seeds {waiting + 1}-{players} play {pods} "
                f"pod{'s' if pods != 1 else ''} (dealt by seed in a snake), whose winners join them: "
                f"{waiting + pods} go on.")
    if players == FINAL_SIZE:
        return Text(N_("The final (top %(players)s): the last four play one pod; its winner wins the event."),
                    players=players)
    values = dict(num=pods, players=players, waiting=waiting, first=waiting + 1, next=waiting + pods)
    if not waiting:
        return Text(_n("Top %(players)s: nobody waits; seeds %(first)s-%(players)s play %(num)d pod (dealt by seed in "
                       "a snake), whose winners join them: %(next)s go on.",
                       "Top %(players)s: nobody waits; seeds %(first)s-%(players)s play %(num)d pods (dealt by seed "
                       "in a snake), whose winners join them: %(next)s go on."), **values)
    if waiting == 1:
        return Text(_n("Top %(players)s: seed 1 waits for the next stage; seeds %(first)s-%(players)s play %(num)d "
                       "pod (dealt by seed in a snake), whose winners join them: %(next)s go on.",
                       "Top %(players)s: seed 1 waits for the next stage; seeds %(first)s-%(players)s play %(num)d "
                       "pods (dealt by seed in a snake), whose winners join them: %(next)s go on."), **values)
    return Text(_n("Top %(players)s: seeds 1-%(waiting)s wait for the next stage; seeds %(first)s-%(players)s play "
                   "%(num)d pod (dealt by seed in a snake), whose winners join them: %(next)s go on.",
                   "Top %(players)s: seeds 1-%(waiting)s wait for the next stage; seeds %(first)s-%(players)s play "
                   "%(num)d pods (dealt by seed in a snake), whose winners join them: %(next)s go on."), **values)


def advancing(winners: Sequence[int], waiting: Sequence[int], seed_of: dict[int, int]) -> list[int]:
    """The next stage's players, best seed first: those who waited and each pod's winner."""
    players = list(dict.fromkeys([*waiting, *winners]))
    return sorted(players, key=lambda p: seed_of[p])


def pod_winner(survivors: Sequence[int], seed_of: dict[int, int], table: Sequence[int] = (),
               rule: str = "survivor") -> tuple[int, bool]:
    """The player who goes on from a cut pod: its one survivor. A drawn pod (time called with several left, or
    nobody left) sends on, by `rule`: "table", the highest-ranked (best seed) player at the table, eliminated or
    not (the multiplayer addendum; `table` is everyone seated); "survivor", the best seed among those left.
    Also whether the seed decided it."""
    if rule not in CUT_DRAW:
        raise ValueError(f"A drawn cut pod is decided at the table or among the survivors, not {rule!r}.")
    if len(survivors) == 1:
        return survivors[0], False
    among = table if rule == "table" and table else survivors
    if not among:
        raise ValueError("A cut pod needs its winner (or the players left when it was drawn).")
    return min(among, key=lambda p: seed_of[p]), True


# ----------------------------------------------------------------- final places

@dataclass(frozen=True)
class StageOutcome:
    """One round of a top cut: everyone in it (waiting seeds too) and who went on from it."""
    players: frozenset[int]
    winners: frozenset[int]
    final: bool = False


def final_places(order: Sequence[int], stages: Sequence[StageOutcome]) -> list[int]:
    """Players from first to last: whoever got furthest in the cut first (the final's winner before the other
    finalists), players out at the same stage in seed order, then everyone else as the standings have them."""
    seed = {p: i for i, p in enumerate(order)}
    depth: dict[int, int] = {}
    for i, stage in enumerate(stages):
        for p in stage.players:
            depth[p] = i
        if stage.final:
            for p in stage.winners:
                depth[p] = i + 1
    extra = [p for p in depth if p not in seed]
    for p in sorted(extra):
        seed[p] = len(seed)
    return sorted(list(order) + extra, key=lambda p: (-depth.get(p, -1), seed[p]))
