"""The game tracker as a pure state machine: state = fold(events).

Every change at the table is an event (kind, payload, actor, time). The first
event, "start", carries the whole setup (players in turn order, starting
life, generals, the ruleset's tax kind, general damage and poison limits,
the variant and its scheme decks), so folding the log replays the game
exactly; undo drops the last event and folds again.

A state is also kept as a snapshot (State.to_snapshot(), plain JSON), so a
table's game is read from one row and each action costs the same whether it
is the 5th or the 500th: step() copies only the bounded parts of the state
(players, general damage, the last LOG_KEEP log entries), never the whole log.

State-based checks run after every event (RULES.md "Starting a game" 4-6):
life 0 or less, poison at the ruleset's threshold, or 21 damage from one
general (one's own general included) eliminates; players meeting them at
once are eliminated together.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..decks.domain import N_, Text
from . import archenemy as arch
from .dungeons import Dungeon, DungeonError, Progress, load_dungeons, venture

KINDS = ("start", "life", "general_damage", "cast", "command_zone", "poison", "eliminate", "venture", "scheme",
         "abandon", "end")
MAX_DELTA = 1000
MAX_LIFE = 1_000_000
LOG_KEEP = 30            # log entries a state keeps (and to_json shows): the full log is the stored events
SNAPSHOT_VERSION = 1


class TrackerError(ValueError):
    """An action the game state or the input does not allow; the message says why (a Text: the English
    sentence, worded in the reader's language where it is shown)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass
class Setup:
    players: list[int]                               # turn order: the first takes the first turn
    names: dict[int, str] = field(default_factory=dict)
    generals: dict[int, list[str]] = field(default_factory=dict)
    life: dict[int, int] = field(default_factory=dict)
    tax_kind: str = "per-cast"                       # or "death-counter" (duel-cn)
    tax_amount: int = 2
    general_damage: int = 21
    poison_threshold: int = 10
    variant: str = "normal"                          # normal | archenemy | rumble
    archenemy: int | None = None
    scheme_decks: dict[int, list[dict]] = field(default_factory=dict)   # dealt order, top first
    scheme_sources: dict[int, str] = field(default_factory=dict)       # archenemy.SCHEME_SOURCES, per holder

    def to_json(self) -> dict:
        d = asdict(self)
        for key in ("names", "generals", "life", "scheme_decks", "scheme_sources"):
            d[key] = {str(k): v for k, v in d[key].items()}
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Setup":
        known = set(cls.__dataclass_fields__)
        d = {k: v for k, v in d.items() if k in known}      # extra keys (the seed) are kept in the log only
        for key in ("names", "generals", "life", "scheme_decks", "scheme_sources"):
            d[key] = {int(k): v for k, v in (d.get(key) or {}).items()}
        return cls(**d)


@dataclass
class Event:
    seq: int
    kind: str
    payload: dict
    actor: str = ""
    at: str = ""


@dataclass
class PlayerState:
    id: int
    name: str
    life: int
    poison: int = 0
    alive: bool = True
    out_order: int | None = None
    out_reason: str | None = None
    out_by: list[int] | None = None                  # [owner, general index] for general damage
    generals: list[str] = field(default_factory=list)
    casts: list[int] = field(default_factory=list)
    counters: list[int] = field(default_factory=list)  # duel-cn death counters
    dungeon: Progress = field(default_factory=Progress)
    schemes: arch.SchemeDeck | None = None


@dataclass
class State:
    setup: Setup
    players: dict[int, PlayerState]
    general_damage: dict[tuple[int, int, int], int] = field(default_factory=dict)   # (victim, owner, idx)
    eliminations: list[list[int]] = field(default_factory=list)
    ended: bool = False
    seq: int = 0
    log: list[Event] = field(default_factory=list)   # the last LOG_KEEP events, oldest first

    # ------------------------------------------------------------ snapshot
    def to_snapshot(self) -> dict:
        """The whole state as plain JSON values (State.from_snapshot() rebuilds an equal state)."""
        players = []
        for p in self.players.values():
            d = p.dungeon
            players.append({
                "id": p.id, "name": p.name, "life": p.life, "poison": p.poison, "alive": p.alive,
                "out_order": p.out_order, "out_reason": p.out_reason,
                "out_by": list(p.out_by) if p.out_by is not None else None,
                "generals": list(p.generals), "casts": list(p.casts), "counters": list(p.counters),
                "dungeon": {"dungeon": d.dungeon, "room": d.room, "completed": list(d.completed),
                            "path": list(d.path)},
                "schemes": None if p.schemes is None else {
                    "library": [dict(c) for c in p.schemes.library],
                    "ongoing": [dict(c) for c in p.schemes.ongoing],
                    "last": dict(p.schemes.last) if p.schemes.last is not None else None,
                    "paper": p.schemes.paper},
            })
        return {"v": SNAPSHOT_VERSION, "setup": self.setup.to_json(), "players": players,
                "general_damage": [[v, o, i, n] for (v, o, i), n in self.general_damage.items()],
                "eliminations": [list(g) for g in self.eliminations], "ended": self.ended, "seq": self.seq,
                "log": [{"seq": e.seq, "kind": e.kind, "payload": dict(e.payload), "actor": e.actor, "at": e.at}
                        for e in self.log[-LOG_KEEP:]]}

    @classmethod
    def from_snapshot(cls, d: dict) -> "State":
        """Rebuild a state from to_snapshot(); a snapshot of another version or shape is a TrackerError."""
        try:
            if d.get("v") != SNAPSHOT_VERSION:
                raise TrackerError(f"Unknown tracker snapshot version {d.get('v')!r}.")
            players = {}
            for p in d["players"]:
                dg, sc = p["dungeon"], p["schemes"]
                players[p["id"]] = PlayerState(
                    id=p["id"], name=p["name"], life=p["life"], poison=p["poison"], alive=p["alive"],
                    out_order=p["out_order"], out_reason=p["out_reason"],
                    out_by=list(p["out_by"]) if p["out_by"] is not None else None,
                    generals=list(p["generals"]), casts=list(p["casts"]), counters=list(p["counters"]),
                    dungeon=Progress(dg["dungeon"], dg["room"], list(dg["completed"]), list(dg["path"])),
                    schemes=None if sc is None else arch.SchemeDeck(
                        [dict(c) for c in sc["library"]], [dict(c) for c in sc["ongoing"]],
                        dict(sc["last"]) if sc["last"] is not None else None, bool(sc.get("paper"))))
            return cls(setup=Setup.from_json(d["setup"]), players=players,
                       general_damage={(v, o, i): n for v, o, i, n in d["general_damage"]},
                       eliminations=[list(g) for g in d["eliminations"]], ended=d["ended"], seq=d["seq"],
                       log=[Event(e["seq"], e["kind"], e["payload"], e["actor"], e["at"])
                            for e in d["log"][-LOG_KEEP:]])
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            if isinstance(e, TrackerError):
                raise
            raise TrackerError(f"The tracker snapshot cannot be read ({e.__class__.__name__}).") from None

    def copy(self) -> "State":
        """A copy to change: the players, general damage and eliminations are copied, the setup (never
        changed after the start) and the logged events are shared; the log is cut to LOG_KEEP."""
        return State(setup=self.setup, players={pid: _copy_player(p) for pid, p in self.players.items()},
                     general_damage=dict(self.general_damage), eliminations=[list(g) for g in self.eliminations],
                     ended=self.ended, seq=self.seq, log=self.log[-LOG_KEEP:])

    # ------------------------------------------------------------ questions
    def alive(self) -> list[int]:
        return [p for p in self.setup.players if self.players[p].alive]

    def tax(self, owner: int, idx: int = 0) -> int:
        p = self.players[owner]
        n = p.counters[idx] if self.setup.tax_kind == "death-counter" else p.casts[idx]
        return self.setup.tax_amount * n

    @property
    def over(self) -> bool:
        alive = self.alive()
        if self.setup.variant == "archenemy":
            a = self.setup.archenemy
            return not self.players[a].alive or alive == [a]
        return len(alive) <= 1

    def summary(self) -> dict:
        """Survivors, elimination order, and whether a general-damage elimination decided the game."""
        survivors = self.alive()
        eliminated = [p for group in self.eliminations for p in group]
        general_damage_win = None
        if self.over and self.eliminations:
            for p in self.eliminations[-1]:
                ps = self.players[p]
                if ps.out_reason == "general_damage" and ps.out_by and ps.out_by[0] in survivors:
                    general_damage_win = ps.out_by[0]
                    break
        winner_side = None
        if self.setup.variant == "archenemy" and self.over:
            winner_side = "archenemy" if self.players[self.setup.archenemy].alive else "team"
        return {"survivors": survivors, "eliminated": eliminated, "over": self.over, "ended": self.ended,
                "general_damage_win": general_damage_win, "winner_side": winner_side}

    def to_json(self, dungeons: dict[str, Dungeon] | None = None) -> dict:
        dungeons = dungeons if dungeons is not None else load_dungeons()
        s = self.setup
        players = []
        for pid in s.players:
            p = self.players[pid]
            d = p.dungeon
            room = dungeons[d.dungeon].rooms[d.room] if d.dungeon else None
            players.append({
                "id": p.id, "name": p.name, "life": p.life, "poison": p.poison, "alive": p.alive,
                "out_order": p.out_order, "out_reason": p.out_reason, "out_by": p.out_by,
                "archenemy": s.variant == "rumble" or p.id == s.archenemy,
                "generals": [{"index": i, "name": g, "casts": p.casts[i], "counters": p.counters[i],
                              "tax": self.tax(pid, i)} for i, g in enumerate(p.generals)],
                "dungeon": {"id": d.dungeon, "name": dungeons[d.dungeon].name if d.dungeon else None,
                            "room": d.room, "room_name": room.name if room else None,
                            "effect": room.effect if room else None,
                            "next": [{"id": n, "name": dungeons[d.dungeon].rooms[n].name} for n in room.next]
                            if room else [],
                            "completed": list(d.completed)},
                "schemes": p.schemes.to_json() if p.schemes else None,
                "scheme_source": s.scheme_sources.get(pid),
            })
        damage = [{"victim": v, "owner": o, "general": i, "damage": n}
                  for (v, o, i), n in sorted(self.general_damage.items())]
        return {"variant": s.variant, "archenemy": s.archenemy, "turn_order": list(s.players),
                "tax_kind": s.tax_kind, "general_damage_limit": s.general_damage,
                "poison_threshold": s.poison_threshold, "players": players, "general_damage": damage,
                "summary": self.summary(), "seq": self.seq,
                "dungeons": [{"id": d.id, "name": d.name, "initiative_only": d.initiative_only}
                             for d in dungeons.values()],
                "log": [{"seq": e.seq, "kind": e.kind, "payload": e.payload, "actor": e.actor, "at": e.at}
                        for e in self.log[-LOG_KEEP:]][::-1]}


def _copy_player(p: PlayerState) -> PlayerState:
    return PlayerState(id=p.id, name=p.name, life=p.life, poison=p.poison, alive=p.alive, out_order=p.out_order,
                       out_reason=p.out_reason, out_by=list(p.out_by) if p.out_by is not None else None,
                       generals=list(p.generals), casts=list(p.casts), counters=list(p.counters),
                       dungeon=p.dungeon.copy(), schemes=p.schemes.copy() if p.schemes is not None else None)


# ---------------------------------------------------------------- input checks

def _message(error: Exception) -> str:
    """An error's message as it was raised (a Text stays a Text, for the reader's language)."""
    return error.args[0] if error.args and isinstance(error.args[0], str) else str(error)


def _int(payload: dict, key: str, label: str, lo: int = -MAX_DELTA, hi: int = MAX_DELTA, default=None) -> int:
    value = payload.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise TrackerError(Text(N_("%(label)s must be a whole number."), label=label), field=key)
    if not lo <= value <= hi:
        raise TrackerError(Text(N_("%(label)s must be between %(lo)s and %(hi)s."), label=label, lo=lo, hi=hi),
                           field=key)
    return value


def _player(state: State, payload: dict, key: str = "player", alive: bool = True) -> int:
    pid = payload.get(key)
    if not isinstance(pid, int) or isinstance(pid, bool) or pid not in state.players:
        raise TrackerError(Text(N_("Choose a player at this table (%(key)s)."), key=key), field=key)
    if alive and not state.players[pid].alive:
        raise TrackerError(Text(N_("%(name)s has already left the game."), name=state.players[pid].name), field=key)
    return pid


def _general(state: State, payload: dict, owner: int) -> int:
    idx = _int(payload, "general", Text(N_("The general")), 0, 10, default=0)
    if idx >= len(state.players[owner].generals):
        raise TrackerError(Text(N_("%(name)s has no general number %(number)s."), name=state.players[owner].name,
                                number=idx + 1), field="general")
    return idx


def _optional_str(payload: dict, key: str) -> str | None:
    value = payload.get(key)
    if value is not None and (not isinstance(value, str) or len(value) > 80):
        raise TrackerError(Text(N_("%(key)s must be a short text."), key=key), field=key)
    return value


# ---------------------------------------------------------------- the machine

def new_state(setup: Setup) -> State:
    if len(setup.players) < 2 or len(set(setup.players)) != len(setup.players):
        raise TrackerError(Text(N_("A game needs at least two different players.")))
    if setup.variant not in arch.VARIANTS:
        raise TrackerError(Text(N_("Unknown variant %(variant)s; choose one of %(variants)s."),
                                variant=repr(setup.variant), variants=", ".join(arch.VARIANTS)))
    if setup.variant == "archenemy" and setup.archenemy not in setup.players:
        raise TrackerError(Text(N_("Choose the archenemy from the players at the table.")), field="archenemy")
    if setup.tax_kind not in ("per-cast", "death-counter"):
        raise TrackerError(Text(N_("Unknown general tax kind %(kind)s."), kind=repr(setup.tax_kind)))
    players = {}
    for pid in setup.players:
        generals = list(setup.generals.get(pid) or ["General"])
        deck = setup.scheme_decks.get(pid)
        if setup.scheme_sources.get(pid) == "paper":
            schemes = arch.SchemeDeck(paper=True)
        else:
            schemes = arch.SchemeDeck(library=[dict(c) for c in deck]) if deck else None
        players[pid] = PlayerState(id=pid, name=setup.names.get(pid, f"Player {pid}"), life=setup.life.get(pid, 40),
                                   generals=generals, casts=[0] * len(generals), counters=[0] * len(generals),
                                   schemes=schemes)
    return State(setup=setup, players=players)


def step(state: State, kind: str, payload, *, actor: str = "", at: str = "",
         dungeons: dict[str, Dungeon] | None = None) -> tuple[State, dict]:
    """Apply one action to a copy of the state; returns (new state, the cleaned payload to store).

    The cost does not grow with the game: the copy leaves out all but the last LOG_KEEP log entries."""
    _check_action(state, kind, payload)
    s = state.copy()
    clean = _ACTIONS[kind](s, kind, payload, dungeons)
    _state_based(s)
    s.seq += 1
    s.log.append(Event(s.seq, kind, clean, actor, at))
    del s.log[:-LOG_KEEP]
    return s, clean


def _check_action(state: State, kind, payload) -> None:
    """Refuse an unknown action, details that are not an object, and any change to an ended game or (other
    than ending it) to a game that is over."""
    if kind not in KINDS or kind == "start":
        raise TrackerError(Text(N_("Unknown action %(action)s."), action=repr(str(kind)[:40])), field="action")
    if not isinstance(payload, dict):
        raise TrackerError(Text(N_("An action's details must be an object.")))
    if state.ended:
        raise TrackerError(Text(N_("The game has ended; undo the end first to change it.")))
    if state.over and kind != "end":
        raise TrackerError(Text(N_("The game is over: end it to send the result, or undo the last change.")))


# Each action changes the state copy `s` in place and returns its payload as stored (checked and cleaned).

def _life(s: State, kind: str, payload: dict, dungeons) -> dict:
    """A life change, kept within ±MAX_LIFE."""
    pid = _player(s, payload)
    delta = _int(payload, "delta", Text(N_("The life change")))
    s.players[pid].life = max(-MAX_LIFE, min(MAX_LIFE, s.players[pid].life + delta))
    return {"player": pid, "delta": delta}


def _general_damage(s: State, kind: str, payload: dict, dungeons) -> dict:
    """Damage by one general to one player: counted per (victim, owner, general) and taken from life."""
    victim = _player(s, payload, "victim")
    owner = _player(s, payload, "owner")
    idx = _general(s, payload, owner)
    amount = _int(payload, "amount", Text(N_("General damage")), 1, MAX_DELTA)
    key = (victim, owner, idx)
    s.general_damage[key] = s.general_damage.get(key, 0) + amount
    s.players[victim].life -= amount
    return {"victim": victim, "owner": owner, "general": idx, "amount": amount}


def _general_tax(s: State, kind: str, payload: dict, dungeons) -> dict:
    """A general cast from the command zone ("cast") or put back there ("command_zone"): the tax counters."""
    owner = _player(s, payload, "owner")
    idx = _general(s, payload, owner)
    p = s.players[owner]
    if kind == "cast":
        p.casts[idx] += 1
    else:
        p.counters[idx] += 1
    return {"owner": owner, "general": idx}


def _poison(s: State, kind: str, payload: dict, dungeons) -> dict:
    """Poison counters up or down, never below 0."""
    pid = _player(s, payload)
    delta = _int(payload, "delta", Text(N_("The poison change")), -100, 100)
    if s.players[pid].poison + delta < 0:
        raise TrackerError(Text(N_("%(name)s has only %(poison)s poison counters."), name=s.players[pid].name,
                                poison=s.players[pid].poison), field="delta")
    s.players[pid].poison += delta
    return {"player": pid, "delta": delta}


def _concede(s: State, kind: str, payload: dict, dungeons) -> dict:
    """A player leaves the game by conceding or for another reason (not by the game's own rules)."""
    pid = _player(s, payload)
    reason = payload.get("reason", "conceded")
    if reason not in ("conceded", "other"):
        raise TrackerError(Text(N_("The reason must be 'conceded' or 'other'.")), field="reason")
    _eliminate(s, [(pid, reason, None)])
    return {"player": pid, "reason": reason}


def _venture(s: State, kind: str, payload: dict, dungeons) -> dict:
    """Venture into a dungeon (or take the initiative): the room reached is stored, so a replay agrees."""
    pid = _player(s, payload)
    dungeon = _optional_str(payload, "dungeon")
    room = _optional_str(payload, "room")
    initiative = payload.get("initiative", False)
    if not isinstance(initiative, bool):
        raise TrackerError(Text(N_("initiative must be true or false.")), field="initiative")
    try:
        result = venture(s.players[pid].dungeon, dungeon, room, initiative=initiative, dungeons=dungeons)
    except DungeonError as e:
        raise TrackerError(_message(e), field="room") from None
    s.players[pid].dungeon = result.progress
    return {"player": pid, "dungeon": dungeon, "room": result.room.id, "initiative": initiative,
            "completed": result.completed}


def _scheme(s: State, kind: str, payload: dict, dungeons) -> dict:
    """Set the next scheme in motion ("scheme") or abandon an ongoing one ("abandon")."""
    pid = _player(s, payload)
    deck = s.players[pid].schemes
    if deck is None:
        raise TrackerError(Text(N_("%(name)s has no scheme deck."), name=s.players[pid].name), field="player")
    try:
        if kind == "scheme":
            s.players[pid].schemes = arch.set_in_motion(deck)
            return {"player": pid, "scheme": s.players[pid].schemes.last["name"]}
        name = _optional_str(payload, "scheme")
        s.players[pid].schemes = arch.abandon(deck, name or "")
        return {"player": pid, "scheme": name}
    except ValueError as e:
        raise TrackerError(_message(e), field="scheme") from None


def _end(s: State, kind: str, payload: dict, dungeons) -> dict:
    """The table ends the game (the result is sent from it)."""
    s.ended = True
    return {}


_ACTIONS = {"life": _life, "general_damage": _general_damage, "cast": _general_tax, "command_zone": _general_tax,
            "poison": _poison, "eliminate": _concede, "venture": _venture, "scheme": _scheme, "abandon": _scheme,
            "end": _end}


def _eliminate(s: State, outs: list[tuple[int, str, list[int] | None]]) -> None:
    if not outs:
        return
    order = len(s.eliminations) + 1
    group = []
    for pid, reason, by in outs:
        p = s.players[pid]
        p.alive, p.out_order, p.out_reason, p.out_by = False, order, reason, by
        group.append(pid)
    s.eliminations.append(group)


def _state_based(s: State) -> None:
    """Every player meeting a losing condition now leaves the game at once (one elimination group)."""
    outs = []
    for pid in s.setup.players:
        p = s.players[pid]
        if not p.alive:
            continue
        by = None
        for (victim, owner, idx), n in sorted(s.general_damage.items()):
            if victim == pid and n >= s.setup.general_damage:
                by = [owner, idx]
                break
        if by is not None:
            outs.append((pid, "general_damage", by))
        elif p.life <= 0:
            outs.append((pid, "life", None))
        elif p.poison >= s.setup.poison_threshold:
            outs.append((pid, "poison", None))
    _eliminate(s, outs)


def fold(events: list[Event], dungeons: dict[str, Dungeon] | None = None) -> State:
    """Replay a game's log (the first event is "start" with the setup)."""
    if not events or events[0].kind != "start":
        raise TrackerError(Text(N_("A game's log begins with its start.")))
    state = new_state(Setup.from_json(events[0].payload))
    state.seq = events[0].seq
    state.log.append(events[0])
    for e in events[1:]:
        state, _ = step(state, e.kind, e.payload, actor=e.actor, at=e.at, dungeons=dungeons)
        state.seq = e.seq
        state.log[-1].seq = e.seq
    return state


def undo(events: list[Event], dungeons: dict[str, Dungeon] | None = None) -> tuple[list[Event], State]:
    """Drop the last change (never the start) and recompute the state from what is left."""
    if len(events) <= 1:
        raise TrackerError(Text(N_("There is nothing to undo.")))
    rest = events[:-1]
    return rest, fold(rest, dungeons)
