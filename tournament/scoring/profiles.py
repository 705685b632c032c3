"""Scoring profiles, read from `tournament/data/scoring/` (rules as data, not code).

A profile is one JSON file named after its id. It says, in plain words for
the rules sheet, how games score, and gives the point values and the
tiebreakers in order. Files are read and validated once per process; a bad
file raises `ScoringProfileError` naming the file and what is wrong.

Pod profiles (`mode: "pods"`) score each game with one formula whose unused
terms are 0 (see `tournament.scoring.standings.pod_points`):

    survive            points for being alive at the end of the game (or at time)
    per_vote_received  points per vote received from another player at the table
    win                the only player alive at the end (exactly one survivor)
    draw               every player at a table that ends with 0 or 2+ survivors
    loss               every other player at a table with exactly one survivor
    bye                a pod bye's points (the event may override them)

Duel profiles (`mode: "duel"`) give match points (`match_win`, `match_draw`,
`match_loss`), game points for GW% (`game_win`, `game_draw`, `game_loss`), the
bye's match points (`bye`) and games (`bye_record`, "2-0-0"), and the floor
of the percentages (`percentage_floor`, 0.33 in the MTR).
"""
from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from .draws import DRAW_KINDS

DATA = Path(__file__).resolve().parent.parent / "data" / "scoring"
PRIZE_CONDITIONS_FILE = DATA / "prize_conditions.json"

MODES = ("pods", "duel")
POD_POINTS = ("survive", "per_vote_received", "win", "draw", "loss", "bye")
DUEL_POINTS = ("match_win", "match_draw", "match_loss", "game_win", "game_draw", "game_loss", "bye")
TIEBREAKERS = {
    "pods": ("OPP", "OWR", "OOWR", "votes", "random"),
    "duel": ("OMW%", "GW%", "OGW%", "random"),
}
RECORD_STYLES = {"pods": ("survived", "wins-losses-draws"), "duel": ("wins-losses-draws",)}
PRIZE_KINDS = ("max", "min", "count", "sum")


class UnknownScoringProfile(LookupError):
    """An id that names no scoring profile; the message lists the valid ones."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "Unknown scoring profile."


class ScoringProfileError(ValueError):
    """A scoring profile or prize condition file in tournament/data is malformed."""


@dataclass(frozen=True, eq=False)
class ScoringProfile:
    """One scoring profile an event can choose. Hashed by identity: loaded once, shared."""
    id: str
    name: str
    description: str
    mode: str                               # "pods" or "duel"
    points: Mapping[str, float]             # the point values as written in the file
    tiebreakers: tuple[str, ...]            # after points, in order; always ends with "random"
    uses_votes: bool
    record: str = "survived"                # how StandingRow.record reads: "survived" or "wins-losses-draws"
    source: str = ""
    notes: tuple[str, ...] = ()
    bye_record: tuple[int, int, int] = (2, 0, 0)   # duel: a bye's games won, lost, drawn
    percentage_floor: float = 0.33          # duel: MWP / GW% floor
    own_gw_floor: bool = True               # duel: the floor applies to a player's own GW% too
    draw_kinds: Mapping[str, float] = field(default_factory=dict)   # pods: a drawn game's points by kind
    bye_opponents: int = 0                  # pods: phantom opponents a bye adds to OWR (TopDeck: 3)
    bye_opponent_win_rate: float = 0.0      # pods: each phantom opponent's win rate (TopDeck: 0.2)
    win_rate_floor: float = 0.0             # pods: an opponent's win rate counts at least this much in OWR
    raw: Mapping = field(default_factory=dict, repr=False)

    @property
    def bye_points(self) -> float:
        """A bye's points when the event sets none (pods) / a bye's match points (duel)."""
        return self.points["bye"]

    def exact(self, key: str):
        """A point value as an exact number (int when whole, else Fraction) for sorting without rounding noise."""
        return exact_number(self.points[key])

    def to_json(self) -> dict:
        """The profile as the API and the rules sheet show it."""
        out = {
            "id": self.id, "name": self.name, "source": self.source, "mode": self.mode,
            "description": self.description, "uses_votes": self.uses_votes,
            "points": dict(self.points), "bye_points": self.bye_points,
            "tiebreakers": list(self.tiebreakers), "record": self.record, "notes": list(self.notes),
        }
        if self.draw_kinds:
            out["draw_kinds"] = dict(self.draw_kinds)
        if self.mode == "pods":
            out.update(bye_opponents=self.bye_opponents, bye_opponent_win_rate=self.bye_opponent_win_rate,
                       win_rate_floor=self.win_rate_floor)
        if self.mode == "duel":
            out.update(bye_record="-".join(str(n) for n in self.bye_record),
                       percentage_floor=self.percentage_floor, own_gw_floor=self.own_gw_floor)
        return out


def exact_number(value):
    """`value` as an exact number: an int when whole, else a Fraction of its decimal spelling (0.33 -> 33/100)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else value
    f = Fraction(str(value))
    return f.numerator if f.denominator == 1 else f


# ---------------------------------------------------------------- validation

def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _req(d: Mapping, key: str, where: str):
    if key not in d:
        raise ScoringProfileError(f"{where}: missing {key!r}.")
    return d[key]


def _parse_record(text, where: str) -> tuple[int, int, int]:
    parts = str(text).split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise ScoringProfileError(f"{where}: bye_record must read wins-losses-draws like \"2-0-0\", not {text!r}.")
    return int(parts[0]), int(parts[1]), int(parts[2])


def profile_from_dict(d: Mapping, where: str = "<scoring profile>") -> ScoringProfile:
    """Build and validate one profile; `where` names the file in error messages."""
    if not isinstance(d, Mapping):
        raise ScoringProfileError(f"{where}: a scoring profile must be a JSON object.")
    pid, name, description, mode, uses_votes = _profile_identity(d, where)
    points = _profile_points(d, where, mode, uses_votes)
    tiebreakers = _profile_tiebreakers(d, where, mode)
    record = d.get("record", RECORD_STYLES[mode][0])
    if record not in RECORD_STYLES[mode]:
        raise ScoringProfileError(f"{where}: record must be one of {', '.join(RECORD_STYLES[mode])}, "
                                  f"not {record!r}.")
    notes = d.get("notes") or []
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise ScoringProfileError(f"{where}: notes must be a list of texts.")
    extra = _profile_extra(d, where, mode, points)
    return ScoringProfile(id=pid, name=name.strip(), description=" ".join(description.split()), mode=mode,
                          points=dict(points), tiebreakers=tuple(tiebreakers), uses_votes=uses_votes,
                          record=record, source=str(d.get("source", "")), notes=tuple(notes), raw=dict(d),
                          **extra)


def _profile_identity(d: Mapping, where: str) -> tuple[str, str, str, str, bool]:
    """(id, name, description, mode, uses_votes), each required and of the right kind."""
    pid, name, description = _req(d, "id", where), _req(d, "name", where), _req(d, "description", where)
    for key, value in (("id", pid), ("name", name), ("description", description)):
        if not isinstance(value, str) or not value.strip():
            raise ScoringProfileError(f"{where}: {key!r} must be a non-empty text.")
    mode = _req(d, "mode", where)
    if mode not in MODES:
        raise ScoringProfileError(f"{where}: mode must be one of {', '.join(MODES)}, not {mode!r}.")
    uses_votes = _req(d, "uses_votes", where)
    if not isinstance(uses_votes, bool):
        raise ScoringProfileError(f"{where}: uses_votes must be true or false.")
    return pid, name, description, mode, uses_votes


def _profile_points(d: Mapping, where: str, mode: str, uses_votes: bool) -> Mapping:
    """The point values: every one the mode needs, all numbers; no points per vote without votes."""
    points = _req(d, "points", where)
    if not isinstance(points, Mapping):
        raise ScoringProfileError(f"{where}: points must be an object of point values.")
    needed = POD_POINTS if mode == "pods" else DUEL_POINTS
    missing = [k for k in needed if k not in points]
    if missing:
        raise ScoringProfileError(f"{where}: points is missing {', '.join(missing)} (a {mode} profile needs "
                                  f"{', '.join(needed)}).")
    for k, v in points.items():
        if not _is_number(v):
            raise ScoringProfileError(f"{where}: points.{k} must be a number, not {v!r}.")
    if mode == "pods" and not uses_votes and points["per_vote_received"] != 0:
        raise ScoringProfileError(f"{where}: per_vote_received must be 0 when uses_votes is false.")
    return points


def _profile_tiebreakers(d: Mapping, where: str, mode: str) -> list[str]:
    """The tiebreakers: known to the mode, each once, ending with "random" so that every tie is broken."""
    tiebreakers = _req(d, "tiebreakers", where)
    known = TIEBREAKERS[mode]
    if not isinstance(tiebreakers, list) or not all(isinstance(t, str) for t in tiebreakers):
        raise ScoringProfileError(f"{where}: tiebreakers must be a list of names.")
    unknown = [t for t in tiebreakers if t not in known]
    if unknown:
        raise ScoringProfileError(f"{where}: unknown tiebreaker {unknown[0]!r}; a {mode} profile can use "
                                  f"{', '.join(known)}.")
    if len(set(tiebreakers)) != len(tiebreakers):
        raise ScoringProfileError(f"{where}: a tiebreaker is listed twice.")
    if not tiebreakers or tiebreakers[-1] != "random":
        raise ScoringProfileError(f"{where}: tiebreakers must end with \"random\" so that every tie is broken.")
    return tiebreakers


def _profile_extra(d: Mapping, where: str, mode: str, points: Mapping) -> dict:
    """The optional fields: draw kinds' points; for duel, the bye record and the percentage floors (match_win
    and game_win above 0: they are the denominators of MWP and GW%)."""
    extra = {}
    draws = d.get("draw_kinds") or {}
    if not isinstance(draws, Mapping) or not all(k in DRAW_KINDS and _is_number(v) for k, v in draws.items()):
        raise ScoringProfileError(f"{where}: draw_kinds must map {', '.join(DRAW_KINDS)} to points.")
    if draws:
        extra["draw_kinds"] = dict(draws)
    if mode != "duel":
        return {**extra, **_pod_win_rate_settings(d, where)}
    floor = d.get("percentage_floor", 0.33)
    if not _is_number(floor) or not 0 <= floor <= 1:
        raise ScoringProfileError(f"{where}: percentage_floor must be a number from 0 to 1.")
    own = d.get("own_gw_floor", True)
    if not isinstance(own, bool):
        raise ScoringProfileError(f"{where}: own_gw_floor must be true or false.")
    extra.update(bye_record=_parse_record(d.get("bye_record", "2-0-0"), where),
                 percentage_floor=floor, own_gw_floor=own)
    if points["match_win"] <= 0 or points["game_win"] <= 0:
        raise ScoringProfileError(f"{where}: match_win and game_win must be above 0 (they are the "
                                  f"denominators of MWP and GW%).")
    return extra


def _pod_win_rate_settings(d: Mapping, where: str) -> dict:
    """OWR's settings: how many phantom opponents a bye adds and at what win rate, and the floor of an
    opponent's win rate (all optional; 0 by default: a bye adds no opponent, no floor)."""
    count = d.get("bye_opponents", 0)
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 10:
        raise ScoringProfileError(f"{where}: bye_opponents must be a whole number from 0 to 10.")
    out = {"bye_opponents": count}
    for key in ("bye_opponent_win_rate", "win_rate_floor"):
        v = d.get(key, 0)
        if not _is_number(v) or not 0 <= v <= 1:
            raise ScoringProfileError(f"{where}: {key} must be a number from 0 to 1.")
        out[key] = v
    return out


# ---------------------------------------------------------------- loading

def _read_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ScoringProfileError(f"{path.name} cannot be read: {e}") from e
    except ValueError as e:
        raise ScoringProfileError(f"{path.name} is not valid JSON: {e}") from e


@lru_cache(maxsize=None)
def _load(directory: Path) -> dict[str, ScoringProfile]:
    out: dict[str, ScoringProfile] = {}
    for path in sorted(directory.glob("*.json")):
        if path.name == PRIZE_CONDITIONS_FILE.name:          # not a profile
            continue
        profile = profile_from_dict(_read_json(path), path.name)
        if profile.id != path.stem:
            raise ScoringProfileError(f"{path.name}: id {profile.id!r} does not match the file name.")
        out[profile.id] = profile
    if not out:
        raise ScoringProfileError(f"No scoring profiles found in {directory}.")
    return out


def load_profiles(directory: Path | str | None = None) -> dict[str, ScoringProfile]:
    """Every scoring profile by id (read once per process and directory)."""
    return _load(Path(directory).resolve() if directory else DATA)


def list_profiles(mode: str | None = None) -> list[ScoringProfile]:
    """The profiles sorted by id; `mode` "pods" or "duel" keeps only that mode ("multiplayer" means "pods")."""
    mode = "pods" if mode == "multiplayer" else mode
    profiles = load_profiles()
    return [profiles[k] for k in sorted(profiles) if mode is None or profiles[k].mode == mode]


def get_profile(profile_id) -> ScoringProfile:
    """The profile with this id; a ScoringProfile passes through unchanged."""
    if isinstance(profile_id, ScoringProfile):
        return profile_id
    profiles = load_profiles()
    try:
        return profiles[profile_id]
    except (KeyError, TypeError):
        raise UnknownScoringProfile(f"Unknown scoring profile {profile_id!r}. Valid scoring profiles: "
                                    f"{', '.join(sorted(profiles))}.") from None


# ---------------------------------------------------------------- alternate prize conditions

def validate_prize_conditions(conditions, where: str = "prize conditions") -> list[dict]:
    """Check organizer prize conditions ({"id", "name", "kind"}); returns clean copies.

    kind: "max" (highest value claimed in one game wins), "min" (lowest), "sum" (highest total over the
    event) or "count" (most claims; values are ignored). A missing kind means "max".
    """
    if not isinstance(conditions, (list, tuple)):
        raise ScoringProfileError(f"{where}: expected a list of conditions.")
    out, seen = [], set()
    for i, c in enumerate(conditions, 1):
        if not isinstance(c, Mapping):
            raise ScoringProfileError(f"{where}: condition {i} must be an object with id, name and kind.")
        cid, name, kind = c.get("id"), c.get("name"), c.get("kind", "max")
        if not isinstance(cid, str) or not cid.strip():
            raise ScoringProfileError(f"{where}: condition {i} needs an id.")
        if not isinstance(name, str) or not name.strip():
            raise ScoringProfileError(f"{where}: condition {cid!r} needs a name.")
        if kind not in PRIZE_KINDS:
            raise ScoringProfileError(f"{where}: condition {cid!r} has kind {kind!r}; use one of "
                                      f"{', '.join(PRIZE_KINDS)}.")
        if cid in seen:
            raise ScoringProfileError(f"{where}: condition id {cid!r} is listed twice.")
        seen.add(cid)
        out.append({**c, "id": cid, "name": name, "kind": kind})
    return out


@lru_cache(maxsize=None)
def _default_prize_conditions(path: Path) -> tuple[dict, ...]:
    data = _read_json(path)
    items = data.get("conditions") if isinstance(data, Mapping) else data
    return tuple(validate_prize_conditions(items, path.name))


def default_prize_conditions() -> list[dict]:
    """Seed 000's four alternate prize conditions (fresh copies: callers may edit them)."""
    return copy.deepcopy(list(_default_prize_conditions(PRIZE_CONDITIONS_FILE)))


DEFAULT_PRIZE_CONDITIONS: tuple[dict, ...] = _default_prize_conditions(PRIZE_CONDITIONS_FILE)
