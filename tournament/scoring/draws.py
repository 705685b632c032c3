"""Draws as data: how a pod game can end drawn, and what an event does when time is called.

Read from tournament/data/draws.json. A pod game is drawn when nobody or two or more players are left; the
kind says why (time called, an intentional draw, the board state), a profile may score the kinds apart
(`draw_kinds` in its file), and an event allows or refuses intentional draws and picks its end-of-round
procedure, printed on the rules sheet and shown with the round's clock.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "draws.json"


@lru_cache(maxsize=1)
def _data() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def draw_kinds() -> dict[str, dict]:
    return dict(_data()["kinds"])


def end_of_round_procedures() -> dict[str, dict]:
    return dict(_data()["end_of_round"])


DRAW_KINDS = tuple(draw_kinds())
END_OF_ROUND = tuple(end_of_round_procedures())
DEFAULT_TURNS = _data()["default_turns"]


def default_draw(survivors: int) -> str | None:
    """The kind of a drawn game nobody named: time with players left, the board state with nobody left."""
    if survivors == 1:
        return None
    return "time" if survivors > 1 else "board"


def end_of_round_text(procedure: str | None, turns: int | None) -> str:
    """What the players do when time is called, in the event's procedure."""
    entry = end_of_round_procedures().get(procedure or "finish_turn") or end_of_round_procedures()["finish_turn"]
    return entry["text"].format(turns=turns or DEFAULT_TURNS)


def draw_name(kind: str | None) -> str:
    return draw_kinds().get(kind or "", {}).get("name", "")
