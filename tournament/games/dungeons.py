"""Dungeons as room graphs (tournament/data/dungeons/*.json) and the venture rules (RULES.md, seed 003).

Pure functions over plain dataclasses: venturing with no dungeon chooses one
and puts the marker on its top room; otherwise the marker moves along one
arrow (the player chooses where there are several); reaching the bottom room
completes the dungeon and removes it, and any dungeon, completed or not, may
be chosen the next time. Undercity is entered only by taking the initiative.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..decks.domain import N_, Text, TextList

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "dungeons"


class DungeonError(ValueError):
    """A venture the rules do not allow; the message says what to choose instead (a venture's refusal is a Text,
    for the reader's language)."""


def _either(names: list[str]) -> str:
    """'A or B' ('A or B or C'): the rooms an arrow can lead to."""
    text = names[0]
    for name in names[1:]:
        text = Text(N_("%(first)s or %(second)s"), first=text, second=name)
    return text


@dataclass(frozen=True)
class Room:
    id: str
    name: str
    effect: str
    next: tuple[str, ...]


@dataclass(frozen=True)
class Dungeon:
    id: str
    name: str
    rooms: dict[str, Room]
    top: str
    initiative_only: bool = False

    def is_bottom(self, room_id: str) -> bool:
        return not self.rooms[room_id].next

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "top": self.top, "initiative_only": self.initiative_only,
                "rooms": [{"id": r.id, "name": r.name, "effect": r.effect, "next": list(r.next)}
                          for r in self.rooms.values()]}


def dungeon_from_json(data: dict) -> Dungeon:
    rooms = {r["id"]: Room(r["id"], r["name"], r.get("effect", ""), tuple(r.get("next", ()))) for r in data["rooms"]}
    if not rooms:
        raise DungeonError(f"Dungeon {data.get('id')} has no rooms.")
    for room in rooms.values():
        for n in room.next:
            if n not in rooms:
                raise DungeonError(f"Dungeon {data['id']}: room {room.id} points to unknown room {n}.")
    pointed = {n for r in rooms.values() for n in r.next}
    tops = [r for r in rooms if r not in pointed]
    bottoms = [r for r in rooms.values() if not r.next]
    if len(tops) != 1 or len(bottoms) != 1:
        raise DungeonError(f"Dungeon {data['id']} needs exactly one top room and one bottom room.")
    _check_acyclic(data["id"], rooms, tops[0])
    return Dungeon(id=data["id"], name=data["name"], rooms=rooms, top=tops[0],
                   initiative_only=bool(data.get("initiative_only", False)))


def _check_acyclic(dungeon_id: str, rooms: dict[str, Room], top: str) -> None:
    seen: set[str] = set()
    stack: set[str] = set()

    def visit(r: str) -> None:
        if r in stack:
            raise DungeonError(f"Dungeon {dungeon_id}: the arrows loop back at room {r}.")
        if r in seen:
            return
        stack.add(r)
        for n in rooms[r].next:
            visit(n)
        stack.discard(r)
        seen.add(r)
    visit(top)
    if seen != set(rooms):
        raise DungeonError(f"Dungeon {dungeon_id}: some rooms cannot be reached from the top room.")


@lru_cache(maxsize=1)
def load_dungeons(directory: str | None = None) -> dict[str, Dungeon]:
    folder = Path(directory) if directory else DATA_DIR
    out = {}
    for path in sorted(folder.glob("*.json")):
        d = dungeon_from_json(json.loads(path.read_text(encoding="utf-8")))
        out[d.id] = d
    return out


@dataclass
class Progress:
    """One player's dungeon state: the dungeon in the command zone (if any), the marker, completions."""
    dungeon: str | None = None
    room: str | None = None
    completed: list[str] = field(default_factory=list)
    path: list[str] = field(default_factory=list)       # rooms visited in the current dungeon

    def copy(self) -> "Progress":
        return Progress(self.dungeon, self.room, list(self.completed), list(self.path))


@dataclass(frozen=True)
class VentureResult:
    progress: Progress
    room: Room
    completed: str | None       # the dungeon completed by this venture, if any


def venture(progress: Progress, dungeon: str | None = None, room: str | None = None, *,
            initiative: bool = False, dungeons: dict[str, Dungeon] | None = None) -> VentureResult:
    """Venture into the dungeon once. `dungeon` is the choice when there is none; `room` the arrow to follow."""
    dungeons = dungeons if dungeons is not None else load_dungeons()
    p = progress.copy()
    if p.dungeon is None:
        if initiative:
            choice = [d for d in dungeons.values() if d.initiative_only]
            if not choice:
                raise DungeonError(Text(N_("No dungeon can be entered with the initiative.")))
            if dungeon is not None and dungeon != choice[0].id:
                raise DungeonError(Text(N_("Taking the initiative ventures into %(dungeon)s."), dungeon=choice[0].name))
            d = choice[0]
        else:
            if dungeon is None:
                raise DungeonError(Text(N_("Choose a dungeon to venture into: %(dungeons)s."), dungeons=TextList(
                    [d.name for d in dungeons.values() if not d.initiative_only], "comma")))
            d = dungeons.get(dungeon)
            if d is None:
                raise DungeonError(Text(N_("There is no dungeon %(dungeon)s."), dungeon=repr(str(dungeon)[:60])))
            if d.initiative_only:
                raise DungeonError(Text(N_("%(dungeon)s is entered only by taking the initiative."), dungeon=d.name))
        if room is not None and room != d.top:
            raise DungeonError(Text(N_("The marker starts on %(room)s, the top room."), room=d.rooms[d.top].name))
        p.dungeon, p.room, p.path = d.id, d.top, [d.top]
    else:
        d = dungeons[p.dungeon]
        if dungeon is not None and dungeon != d.id:
            raise DungeonError(Text(N_("You are in %(dungeon)s: finish it before choosing another dungeon."),
                                    dungeon=d.name))
        here = d.rooms[p.room]
        if room is None:
            if len(here.next) > 1:
                raise DungeonError(Text(N_("From %(room)s choose the next room: %(rooms)s."), room=here.name,
                                        rooms=_either([d.rooms[n].name for n in here.next])))
            room = here.next[0]
        if room not in here.next:
            raise DungeonError(Text(N_("From %(room)s the arrows lead to %(rooms)s, not there."), room=here.name,
                                    rooms=_either([d.rooms[n].name for n in here.next])))
        p.room = room
        p.path.append(room)
    entered = d.rooms[p.room]
    completed = None
    if d.is_bottom(p.room):
        # The bottom room's ability resolves, then the dungeon is completed and removed.
        completed = d.id
        p.completed.append(d.id)
        p.dungeon, p.room, p.path = None, None, []
    return VentureResult(p, entered, completed)
