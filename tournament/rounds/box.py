"""The "Your round" box, rendered once per pod and shared by the phones at it.

At a round start every phone asks for its box within one poll. The boxes of one pod differ only in who
"you" are: your seat line, the "(you)" in the seat list, your confirm button and your vote. So the box is
rendered once per pod, state version, language and whether time is up, with stand-ins for those parts, for
the clock's text, the phone's access code and its form token; each phone then renders only its own parts,
from plain facts kept with the copy. The table each player sits at and its clock come from one query per
round and state version, so a phone whose pod has its copy does no query beyond its own registration.

Only the common case is shared: a pod table, a player who has not dropped, no staff login (staff see more),
and no refused form in this request. Everything else renders the whole box as before (player.player_round).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace
from typing import NamedTuple

import sqlalchemy as sa
from flask import current_app, g, render_template
from flask_babel import get_locale
from markupsafe import Markup

from ..extensions import db
from ..timezones import as_utc
from ..web import page_cache, refresh_server_now
from ..web.lifecycle import state_version
from . import operations as ops
from .models import GameTable, Round, Seat
from .player import CODE_MARK, TOKEN_MARK, for_phone, phone_forms, player_round, stand_in
from .presenting import clock_text, seconds_left

PARTS = ("place", "seat", "seats", "confirm", "vote")
_MARKS = {name: f"<!--{name}-{secrets.token_hex(8)}-->" for name in PARTS}
_CLOCK = f"<!--clock-{secrets.token_hex(8)}-->"
_BREAK = "<!--part-" + secrets.token_hex(8) + "-->"


@dataclass(frozen=True)
class SharedBox:
    """A pod's box with stand-ins, and the plain facts each phone's own parts are rendered from."""
    html: str
    round_number: int
    table_number: int
    revision: int
    seats: tuple                # ({"seat", "id", "name", ...}, ...) in seat order
    result_lines: tuple
    can_confirm: frozenset      # registration ids that may confirm the current result
    my_votes: dict              # voter id -> the registration id voted for
    facts: dict                 # the vote section's facts, the same for every phone at the pod
    seat_of: dict               # registration id -> seat number
    over: bool                  # drawn when time was up (the clock's class and note)
    marks: dict = None          # the stand-ins in `html` (name -> mark, "clock" too): the drawing process's own,
                                # random, so no text a player typed can be one; another worker reads them here


class Clock(NamedTuple):
    """A table's round clock as stored: its deadline (with the table's extension) and the pause's start, UTC."""
    ends: datetime | None
    paused: datetime | None

    def left(self) -> int | None:
        return seconds_left(self.ends, self.paused, datetime.now(timezone.utc))


class Box(NamedTuple):
    html: Markup
    playing: bool               # seated in a round still being played (the drop form says: finish it first)


def round_box(reg, place) -> Box:
    """The "Your round" section of this player's page, as HTML."""
    shared, left = _shared_box(reg) if _shareable(reg, place) else (None, None)
    if shared is None:
        yr = player_round(reg)
        html = render_template("rounds/_player_round.html", reg=reg, event=reg.event, yr=yr, place=place)
        return Box(Markup(html), bool(yr and yr["seat"] and yr["round"].status == "published"))
    return Box(Markup(_for_this_phone(shared, reg, place, left)), shared.facts["open_round"])


def _shareable(reg, place) -> bool:
    return (g.get("user") is None and g.get("round_form") is None and g.get("round_error") is None
            and reg.dropped_at is None and place is None)


def _shared_box(reg) -> tuple[SharedBox | None, int | None]:
    """The pod's shared copy for this phone (None: render the whole box) and its clock's seconds left now."""
    version = state_version(reg.event_id)
    found = _seating(reg.event_id).get(reg.id)
    if found is None or found[1] != "pod":
        return None, None
    left = found[2].left()
    key = (found[0], version, str(get_locale()), bool(current_app.config.get("WTF_CSRF_ENABLED", True)), left == 0)
    kept = page_cache.kept("round_boxes", 1024)           # about 10 KB each: 500 pods of a 2,000-player event
    shared = kept.get(key) or _from_other_workers(reg, version, key)
    drawn = shared is None
    if drawn:
        shared = _render_shared(reg)
        if shared is None:
            return None, None
    if shared.over == (left == 0):                  # not when time ran out between the two looks at the clock
        kept.put(key, shared)
        if drawn:
            page_cache.parts().put(*_part_of(reg, version, key), shared)
    return (shared, left) if reg.id in shared.seat_of else (None, None)


def _part_of(reg, version, key) -> tuple[str, int, str]:
    """Where the other workers find this pod's copy: the event (with when it was made: another database's
    event of the same number is another event), its state version, and the copy's key."""
    table_id, _version, locale, csrf, over = key
    made = int(reg.event.created_at.timestamp() * 1_000_000)
    return f"{reg.event_id}-{made}", version, f"{table_id}-{locale}-{int(csrf)}-{int(over)}"


def _from_other_workers(reg, version, key) -> SharedBox | None:
    found = page_cache.parts().get(*_part_of(reg, version, key))
    return found if isinstance(found, SharedBox) and found.marks else None      # (an older server's: draw it)


def _seating(event_id: int) -> dict:
    """{registration id: (table id, table kind, Clock)} of the event's current round, read once per state
    version (a deadline, an extension or a pause is a change of state)."""
    return page_cache.per_version("round_seating", event_id, lambda: _read_seating(event_id))


def _read_seating(event_id: int) -> dict:
    rows = db.session.execute(
        sa.select(Seat.registration_id, Seat.table_id, GameTable.kind, Round.ends_at, Round.paused_at,
                  GameTable.extra_minutes)
        .join(GameTable, GameTable.id == Seat.table_id).join(Round, Round.id == Seat.round_id)
        .where(Seat.round_id == ops.queries.latest_round_id(event_id)))
    return {reg_id: (table_id, kind, _clock(ends, paused, extra))
            for reg_id, table_id, kind, ends, paused, extra in rows}


def _clock(ends, paused, extra) -> Clock:
    ends = as_utc(ends)
    return Clock(ends + timedelta(minutes=extra) if ends is not None and extra else ends, as_utc(paused))


def _render_shared(reg) -> SharedBox | None:
    yr = player_round(reg, marked=True)
    if yr is None or yr.get("table") is None or yr["table"].kind != "pod" or yr.get("dropped"):
        return None
    table, rnd = yr["table"], yr["round"]
    confirmed = ops.confirmers(table) if table.result_state else set()
    may_confirm = frozenset(
        s.registration_id for s in table.seats
        if rnd.status == "published" and table.result_state == "reported" and s.registration_id not in confirmed
        and ops.why_not_confirm(table, s.registration_id, False) is None)
    my_votes = {v.voter_id: v.votee_id for v in table.votes} if yr["votes"] else {}
    if yr["timer"]["started"] and not yr["timer"]["finished"]:
        yr["timer"] = {**yr["timer"], "text": Markup(_CLOCK)}      # each phone's own "now"
    html = render_template("rounds/_player_round.html", reg=stand_in(reg.event), event=reg.event, yr=yr, place=None,
                           box_marks={name: Markup(mark) for name, mark in _MARKS.items()})
    marks = {**_MARKS, "clock": _CLOCK, "code": CODE_MARK, "token": TOKEN_MARK}
    facts = {k: yr[k] for k in ("votes", "can_vote", "votes_visible", "vote_list", "voted", "seated", "open_round")}
    return SharedBox(html=html, round_number=rnd.number, table_number=table.number, revision=table.result_revision,
                     seats=tuple(yr["view"]["seats"]), result_lines=tuple(yr["result_lines"]), can_confirm=may_confirm,
                     my_votes=my_votes, facts=facts, seat_of={s["id"]: s["seat"] for s in yr["view"]["seats"]},
                     over=yr["timer"]["remaining"] == 0, marks=marks)


def _for_this_phone(shared: SharedBox, reg, place, left: int | None) -> str:
    """The shared copy with this phone's own parts, code and form token, the clock's text and the server's time
    now."""
    names = {s["id"]: s["name"] for s in shared.seats}
    mine = shared.my_votes.get(reg.id)
    facts = {**shared.facts, "can_confirm": reg.id in shared.can_confirm,
             "opponents": [s for s in shared.seats if s["id"] != reg.id]}
    rnd = SimpleNamespace(number=shared.round_number)
    table = SimpleNamespace(number=shared.table_number, result_revision=shared.revision, kind="pod")
    yr = {**facts, "seat": SimpleNamespace(seat=shared.seat_of[reg.id]), "table": table, "view": {"seats": shared.seats},
          "result_lines": shared.result_lines, "my_vote": names.get(mine) if mine else None}
    yr.update(phone_forms(rnd, table, facts, (None, None), mine))
    parts = render_template("rounds/_box_parts.html", yr=yr, reg=reg, event=reg.event, place=place,
                            part_break=Markup(_BREAK)).split(_BREAK)
    html = shared.html
    for name, part in zip(PARTS, parts):
        html = html.replace(shared.marks[name], part)
    html = html.replace(shared.marks["clock"], clock_text(left) if left is not None else "")
    return refresh_server_now(for_phone(html, reg.access_code, shared.marks["code"], shared.marks["token"]))
