"""Penalties as the rules apply them: pure functions over the scoring dataclasses (no Flask, no database).

The infractions and their default penalties are data (tournament/data/infractions.json). A penalty changes the
results only through its `loss` (see README "Penalties"):

- pods: a game loss or a match loss (a pod plays one game a round, so they are the same) puts the player out
  of that round's game: they score nothing for it and it counts as a loss; the others score as if the player
  had been eliminated (if one player is left, that one wins);
- 1v1 best of three: a game loss gives the opponent that game (the game's reported result, if any, is
  replaced); both players with a game loss for the same game: neither is awarded it. A match loss loses the
  match 0-2 whatever the games (both players: both lose it).

The stored results are never rewritten: the penalties are laid over them when the standings are counted, so
withdrawing a penalty gives the result back as it was reported.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from ..scoring.domain import DuelMatch, PodGame

DATA = Path(__file__).resolve().parent.parent / "data" / "infractions.json"


@lru_cache(maxsize=1)
def _data() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def infractions() -> dict[str, dict]:
    """id -> {"name", "category", "penalty" (the default)}, in the guide's order."""
    return dict(_data()["infractions"])


PENALTIES = tuple(_data()["penalties"])
INFRACTIONS = tuple(infractions())


def default_penalty(infraction: str) -> str:
    return infractions()[infraction]["penalty"]


@dataclass(frozen=True)
class Loss:
    """What one penalty does to one round's result: `kind` "game" or "match"; `game`: a duel game's number."""
    player: int
    round: int
    kind: str
    game: int | None = None


def loss_of(kind: str, table_kind: str | None, result_final: bool) -> str | None:
    """What a penalty of `kind` given at a table does to that table's result: a game loss "game" (at a pod, the
    pod's one game), a match loss "match", a disqualification "match" while the table's result is not final yet
    (the player leaves the game they are in; results already final are kept), a warning nothing. A bye (or no
    table) has no game to lose."""
    if table_kind not in ("pod", "match"):
        return None
    if kind == "game_loss":
        return "game"
    if kind == "match_loss" or (kind == "disqualification" and not result_final):
        return "match"
    return None


def by_round(losses: Iterable[Loss]) -> dict[int, list[Loss]]:
    out: dict[int, list[Loss]] = {}
    for loss in losses:
        out.setdefault(loss.round, []).append(loss)
    return out


def pod_with_losses(game: PodGame, losses: Sequence[Loss]) -> PodGame:
    """The pod game with its players' game and match losses: they are out of it (PodGame.forfeited)."""
    out = frozenset(l.player for l in losses if l.round == game.round and l.player in game.players)
    return dataclasses.replace(game, forfeited=game.forfeited | out) if out else game


def match_with_losses(match: DuelMatch, losses: Sequence[Loss]) -> DuelMatch:
    """The match with its players' penalties: a match loss makes it lost (DuelMatch.forfeited); a game loss gives
    that game to the opponent (games are numbered 1, 2, 3 in `match.games`' order)."""
    mine = [l for l in losses if l.round == match.round and l.player in match.players]
    if not mine:
        return match
    forfeited = match.forfeited | {l.player for l in mine if l.kind == "match"}
    games = dict(enumerate(match.games, 1))
    lost: dict[int, set[int]] = {}
    for l in mine:
        if l.kind == "game" and l.game is not None:
            lost.setdefault(l.game, set()).add(l.player)
    for number, players in lost.items():
        if len(players) > 1:
            games.pop(number, None)             # both lost it: neither is awarded the game
        else:
            games[number] = "loss" if match.players[0] in players else "win"
    return dataclasses.replace(match, games=tuple(games[n] for n in sorted(games)), forfeited=frozenset(forfeited))


def with_losses(games: Sequence[PodGame], matches: Sequence[DuelMatch], losses: Iterable[Loss]
                ) -> tuple[list[PodGame], list[DuelMatch]]:
    """Every pod game and match with the penalties given in its round laid over its result."""
    rounds = by_round(losses)
    if not rounds:
        return list(games), list(matches)
    return ([pod_with_losses(g, rounds[g.round]) if g.round in rounds else g for g in games],
            [match_with_losses(m, rounds[m.round]) if m.round in rounds else m for m in matches])


def next_game(reported: int) -> int:
    """The duel game a game loss applies to when staff name none: the first one not reported yet (at most 3)."""
    return min(reported + 1, 3)
