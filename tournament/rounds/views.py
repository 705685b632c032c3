"""Web pages for rounds: the organizer's round page, standings, the projector, and the player's round.

Views are thin, like tournament.events.views: a form checks the input's
shape, one operation decides and changes (tournament.rounds.operations), the
request commits once, then POST/redirect/GET. A refusal is shown on the page
(next to its form) with the operation's 4xx status and nothing is stored.
"""
from __future__ import annotations

import unicodedata
from datetime import datetime, timezone

from flask import Blueprint, flash, g, redirect, render_template, request, url_for

from ..errors import NotFound, Refused
from ..events import operations as event_ops
from ..events.views import _player_page, form_failed, private, refuse_into, staff_required
from ..extensions import db
from . import operations as ops
from .forms import (ConfirmForm, PlayerDuelResultForm, PlayerPodResultForm, RoundActionForm, SwapForm,
                    TableRefForm, VoteForm, duel_result_form, pod_result_form)

bp = Blueprint("rounds", __name__)

REFRESH_SECONDS = 30
EXPIRED = "This form has expired or did not come from this site. Reload the page and try again."


# ----------------------------------------------------------------- helpers

def name_key(name: str) -> str:
    """Alphabetical order by the name as written, for every script (no locale needed)."""
    return unicodedata.normalize("NFKD", name or "").casefold()


def as_utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


def iso_utc(value: datetime | None) -> str:
    """A stored time as ISO 8601 in UTC (what rounds.js reads); SQLite hands back naive UTC times."""
    value = as_utc(value)
    return value.isoformat(timespec="seconds").replace("+00:00", "Z") if value else ""


def timer_info(rnd) -> dict:
    """What the page needs to show the round clock: the stored deadline and the server's time now."""
    now = datetime.now(timezone.utc)
    ends = as_utc(rnd.ends_at) if rnd is not None else None
    remaining = max(0, int((ends - now).total_seconds())) if ends else None
    return {"ends_at": iso_utc(ends), "now": iso_utc(now), "minutes": rnd.event.round_minutes if rnd else 0,
            "started": ends is not None, "finished": rnd is not None and rnd.status == "finished",
            "remaining": remaining,
            "text": clock_text(remaining) if remaining is not None else clock_text(60 * (rnd.event.round_minutes
                                                                                      if rnd else 0))}


def clock_text(seconds: int) -> str:
    h, rest = divmod(max(0, seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def uses_votes(event) -> bool:
    if event.mode != "pods":
        return False
    try:
        from ..scoring import get_profile
        profile = get_profile(event.scoring_profile)
    except Exception:   # an unknown profile id: fall back to the seed's rule
        return event.scoring_profile == "democratic"
    flag = profile.get("uses_votes") if isinstance(profile, dict) else getattr(profile, "uses_votes", None)
    return bool(flag) if flag is not None else event.scoring_profile == "democratic"


def _staff_event(event_id):
    event = event_ops.get_event(event_id)
    event_ops.require_staff(g.user, event)
    return event


def _names(event) -> dict[int, str]:
    return {r.id: r.name for r in event.registrations}


def prize_rows(event, names: dict[int, str]) -> list[dict]:
    """The leaders per alternate prize condition ({condition id: [(player, value)]} from scoring), to print."""
    board = ops.prize_board(event) or {}
    rows = []
    for condition in event.prize_conditions or []:
        leaders = board.get(condition["id"]) or []
        rows.append({"id": condition["id"], "name": condition["name"], "kind": condition.get("kind", "max"),
                     "leaders": [names.get(p, f"#{p}") for p, _v in leaders],
                     "value": leaders[0][1] if leaders else None})
    return rows


def table_view(table, names: dict[int, str]) -> dict:
    return {"number": table.number, "kind": table.kind, "table": table,
            "seats": [{"seat": s.seat, "id": s.registration_id, "name": names.get(s.registration_id, "?"),
                       "survived": s.survived, "out": s.eliminated_order} for s in table.seats]}


def _redirect_round(event, rnd, anchor: str = ""):
    return redirect(url_for("rounds.round_page", event_id=event.id, number=rnd.number) + anchor)


# ----------------------------------------------------------------- the organizer's pages

def _rounds_page(event, status=200, error=None):
    rounds = ops.rounds_of(event)
    names = _names(event)
    return render_template(
        "rounds/list.html", event=event, rounds=rounds, error=error, action_form=RoundActionForm(formdata=None),
        missing={r.id: len(ops.missing_results(r)) for r in rounds if r.status == "published"},
        prizes=prize_rows(event, names) if rounds else [],
        can_top_cut=event.mode == "duel" and (event.top_cut in (4, 8) or any(r.stage.startswith("top")
                                                                            for r in rounds)),
        players_to_seat=len(ops.players_to_seat(event))), status


@bp.get("/events/<int:event_id>/rounds")
@staff_required
def rounds_page(event_id):
    return _rounds_page(_staff_event(event_id))


def _pair(event_id: int, pair, what: str):
    """Pair a draft with `pair(event, user)`; a refusal shows on the rounds page with its status."""
    event = _staff_event(event_id)
    form = RoundActionForm()
    if not form.validate_on_submit():
        return _rounds_page(event, status=400, error=EXPIRED)
    try:
        rnd = pair(event, g.user)
    except Refused as e:
        db.session.rollback()
        return _rounds_page(event, status=e.status, error=e.message)
    db.session.commit()
    flash(f"Round {rnd.number}{what.format(stage=rnd.stage)} is paired as a draft: review it, then publish it.")
    return _redirect_round(event, rnd)


@bp.post("/events/<int:event_id>/rounds")
@staff_required
def pair_round(event_id):
    return _pair(event_id, ops.pair_next_round, "")


@bp.post("/events/<int:event_id>/rounds/top-cut")
@staff_required
def pair_top_cut(event_id):
    return _pair(event_id, ops.pair_top_cut_round, " ({stage})")


def _result_form(event, table, conditions, votes: bool, posted: bool = False):
    """A table's result form for staff: the stored result (GET), or what was posted."""
    prefix = f"t{table.number}"
    kwargs = {} if posted else {"formdata": None, "fill": True}
    if table.kind == "match":
        return duel_result_form(table, prefix=prefix, **kwargs)
    return pod_result_form(table, conditions, with_votes=votes, prefix=prefix,
                           with_archenemy=event.variant == "archenemy" or table.archenemy_id is not None, **kwargs)


def _round_page(event, rnd, status=200, error=None, table_form=None, table_error=None, swap_form=None):
    names = _names(event)
    votes = uses_votes(event)
    conditions = event.prize_conditions or []
    tables = [table_view(t, names) for t in rnd.tables]
    forms = {}
    if rnd.status != "draft":
        for t in rnd.tables:
            if t.kind == "bye":
                continue
            if table_form is not None and table_error == t.number:
                forms[t.number] = table_form
            else:
                forms[t.number] = _result_form(event, t, conditions, votes)
    seated = sorted(((s["id"], f"{s['name']} (table {t['number']}, seat {s['seat']})")
                     for t in tables for s in t["seats"]), key=lambda x: name_key(x[1]))
    if swap_form is None:
        swap_form = SwapForm(formdata=None)
    swap_form.fill(seated)
    return render_template(
        "rounds/round.html", event=event, rnd=rnd, tables=tables, forms=forms, error=error,
        action_form=RoundActionForm(formdata=None), swap_form=swap_form,
        missing=ops.missing_results(rnd) if rnd.status == "published" else [],
        clock=timer_info(rnd), votes=votes, names=names), status


@bp.get("/events/<int:event_id>/rounds/<int:number>")
@staff_required
def round_page(event_id, number):
    event = _staff_event(event_id)
    return _round_page(event, ops.get_round(event, number))


def _round_action(event_id, number, run, message, back_to_list=False):
    event = _staff_event(event_id)
    rnd = ops.get_round(event, number)
    form = RoundActionForm()
    if not form.validate_on_submit():
        return _round_page(event, rnd, status=form_failed(form), error=EXPIRED)
    try:
        result = run(event, rnd)
        db.session.flush()
    except Refused as e:
        db.session.rollback()
        return _round_page(event, ops.get_round(event, number), status=e.status, error=e.message)
    db.session.commit()
    flash(message.format(number=number, new=getattr(result, "number", number)))
    if back_to_list:
        return redirect(url_for("rounds.rounds_page", event_id=event.id))
    return redirect(url_for("rounds.round_page", event_id=event.id, number=getattr(result, "number", number)))


@bp.post("/events/<int:event_id>/rounds/<int:number>/publish")
@staff_required
def publish(event_id, number):
    return _round_action(event_id, number, lambda e, r: ops.publish_round(r, g.user),
                         "Round {number} is published: players see their tables now.")


@bp.post("/events/<int:event_id>/rounds/<int:number>/start")
@staff_required
def start(event_id, number):
    return _round_action(event_id, number, lambda e, r: ops.start_round(r, g.user),
                         "Round {number} has started: the clock is running.")


@bp.post("/events/<int:event_id>/rounds/<int:number>/finish")
@staff_required
def finish(event_id, number):
    return _round_action(event_id, number, lambda e, r: ops.finish_round(r, g.user),
                         "Round {number} is finished.")


@bp.post("/events/<int:event_id>/rounds/<int:number>/delete")
@staff_required
def delete(event_id, number):
    return _round_action(event_id, number, lambda e, r: ops.delete_draft(r, g.user),
                         "The draft of round {number} is deleted.", back_to_list=True)


def _repair(event, rnd):
    ops.delete_draft(rnd, g.user)
    return ops.pair_next_round(event, g.user)


@bp.post("/events/<int:event_id>/rounds/<int:number>/repair")
@staff_required
def repair(event_id, number):
    return _round_action(event_id, number, _repair, "Round {new} is paired again (a new seed): review the draft.")


@bp.post("/events/<int:event_id>/rounds/<int:number>/swap")
@staff_required
def swap(event_id, number):
    event = _staff_event(event_id)
    rnd = ops.get_round(event, number)
    form = SwapForm()
    if not form.validate_on_submit():
        return _round_page(event, rnd, status=form_failed(form), swap_form=form)
    try:
        ops.swap_seats(rnd, g.user, form.first.data, form.second.data)
        db.session.flush()
    except Refused as e:
        status = refuse_into(form, e)
        rnd = ops.get_round(event, number)
        # the swap form is only on drafts: say it at the top when the round is no longer one
        return _round_page(event, rnd, status=status, swap_form=form,
                           error=e.message if rnd.status != "draft" else None)
    db.session.commit()
    names = _names(event)
    flash(f"Swapped {names.get(form.first.data, '?')} and {names.get(form.second.data, '?')}.")
    return _redirect_round(event, rnd, "#swap")


def enter_result(table, form, *, reg=None, user=None, votes_from=None) -> None:
    """Store a pod or duel result from a validated form (staff: also every player's vote)."""
    if table.kind == "match":
        ops.report_duel_games(table, form.winners(), reg=reg, user=user)
        return
    ops.report_pod_result(table, form.survivors.data, form.eliminated(), form.prizes(), reg=reg, user=user,
                          archenemy=form.archenemy_choice())
    for voter, votee in (votes_from or {}).items():
        ops.cast_vote(table, voter, votee, reg=reg, user=user)


@bp.post("/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/result")
@staff_required
def table_result(event_id, number, table_number):
    event = _staff_event(event_id)
    rnd = ops.get_round(event, number)
    table = ops.get_table(rnd, table_number)
    if table.kind == "bye":
        raise Refused("A bye has no result to enter.", status=409)
    if rnd.status == "draft":
        raise Refused("Publish the round before entering results.", status=409)
    form = _result_form(event, table, event.prize_conditions or [], uses_votes(event), posted=True)
    if not form.validate_on_submit():
        status = form_failed(form)
        return _round_page(event, rnd, status=status, table_form=form, table_error=table.number)
    try:
        votes = form.votes() if table.kind == "pod" else {}
        enter_result(table, form, user=g.user, votes_from=votes)
        db.session.flush()
    except Refused as e:
        status = refuse_into(form, e)
        rnd = ops.get_round(event, number)
        return _round_page(event, rnd, status=status, table_form=form, table_error=table_number)
    db.session.commit()
    flash(f"Table {table_number}: result saved.")
    return _redirect_round(event, rnd, f"#table-{table_number}")


# ----------------------------------------------------------------- standings and the projector

def _public_round(event, rnd) -> None:
    """Drafts are for staff only: to everyone else they do not exist."""
    if rnd.status == "draft" and event_ops.staff_for(g.get("user"), event) is None:
        raise NotFound(f"Round {rnd.number} does not exist yet.")


@bp.get("/events/<int:event_id>/standings")
def standings_page(event_id):
    event = event_ops.get_event(event_id)
    staff = event_ops.staff_for(g.get("user"), event)
    rounds = ops.rounds_of(event)
    published = [r for r in rounds if r.status != "draft"]
    if staff is None and not published:
        raise NotFound("The standings are shown once the first round is published.")
    names = _names(event)
    rows = ops.standings(event)
    columns = list(rows[0].tiebreakers.keys()) if rows else []
    return render_template("rounds/standings.html", event=event, rows=rows, names=names, columns=columns,
                           votes=uses_votes(event), prizes=prize_rows(event, names), staff=staff,
                           rounds=published, duel=event.mode == "duel")


def _projector(event, rnd):
    _public_round(event, rnd)
    names = _names(event)
    tables = [table_view(t, names) for t in rnd.tables]
    by_name = sorted(({"name": s["name"], "table": t["number"], "seat": s["seat"], "kind": t["kind"]}
                      for t in tables for s in t["seats"]), key=lambda r: (name_key(r["name"]), r["table"]))
    return render_template("rounds/projector.html", event=event, rnd=rnd, tables=tables, by_name=by_name,
                           timer=timer_info(rnd), refresh=REFRESH_SECONDS)


@bp.get("/events/<int:event_id>/rounds/<int:number>/projector")
def projector(event_id, number):
    event = event_ops.get_event(event_id)
    return _projector(event, ops.get_round(event, number))


@bp.get("/events/<int:event_id>/projector")
def current_projector(event_id):
    """The latest round the viewer may see: leave the projector on this address for the whole event."""
    event = event_ops.get_event(event_id)
    staff = event_ops.staff_for(g.get("user"), event)
    rounds = [r for r in ops.rounds_of(event) if staff is not None or r.status != "draft"]
    if not rounds:
        raise NotFound("No round is published yet.")
    return redirect(url_for("rounds.projector", event_id=event.id, number=rounds[-1].number))


# ----------------------------------------------------------------- the player's round (on /p/<code>)

def current_round_for(event):
    published = [r for r in ops.rounds_of(event) if r.status != "draft"]
    return published[-1] if published else None


def player_round(reg) -> dict | None:
    """The "Your round" section of the player page: the latest published round, as this player sees it."""
    event = reg.event
    rnd = current_round_for(event)
    if rnd is None:
        return None
    names = _names(event)
    seat = ops.seat_of(rnd, reg)
    out = {"round": rnd, "timer": timer_info(rnd), "seat": seat, "error": g.get("round_error"), "names": names}
    if seat is None:
        return out
    table = seat.table
    out.update(table=table, view=table_view(table, names), bye=table.kind == "bye",
               opponents=[s for s in table_view(table, names)["seats"] if s["id"] != reg.id])
    if table.kind == "bye":
        return out
    staff = event_ops.staff_for(g.get("user"), event)
    votes = uses_votes(event) and table.kind == "pod"
    failed = g.get("round_form")
    if failed is not None and g.get("round_form_for") != table.id:
        # a refused form about another table (or round): keep its message, not its fields
        errors = [*failed.form_errors, *(e for errs in failed.errors.values() for e in errs if isinstance(e, str))]
        out["error"] = out["error"] or " ".join(dict.fromkeys(errors)) or None
        failed = None
    open_round = rnd.status == "published"
    can_report = open_round and (table.result_state != "confirmed" or staff is not None)
    if failed is not None and g.get("round_form_kind") == "result":
        result_form = failed
    elif table.kind == "match":
        result_form = duel_result_form(table, prefix="r", fill=True, formdata=None, base=PlayerDuelResultForm)
    else:
        result_form = pod_result_form(table, event.prize_conditions or [], with_votes=False, prefix="r",
                                      fill=True, formdata=None, base=PlayerPodResultForm)
    if failed is None or g.get("round_form_kind") != "result":
        result_form.round.data, result_form.table.data = rnd.number, table.number
    confirm_form = ConfirmForm(formdata=None, data={"round": rnd.number, "table": table.number})
    if failed is not None and g.get("round_form_kind") == "vote":
        vote_form = failed
    else:
        vote_form = VoteForm(formdata=None, data={"round": rnd.number, "table": table.number})
    mine = next((v for v in table.votes if v.voter_id == reg.id), None)
    if mine is not None and vote_form.votee.data is None:
        vote_form.votee.data = mine.votee_id
    vote_form.votee.choices = [("", "Choose a player")] + [(s["id"], s["name"]) for s in out["opponents"]]
    voted = {v.voter_id for v in table.votes}
    out.update(
        result_form=result_form, confirm_form=confirm_form, vote_form=vote_form, can_report=can_report,
        can_confirm=(open_round and table.result_state == "reported"
                     and reg.id not in (table.confirmed_by or [])),
        confirmed_by=[names.get(i, "?") for i in (table.confirmed_by or [])],
        reporter=_reporter_name(table, names), votes=votes, my_vote=names.get(mine.votee_id) if mine else None,
        can_vote=votes and open_round, voted=len(voted), seated=len(table.seats),
        votes_visible=votes and ops.votes_visible(table),
        vote_list=[(names.get(v.voter_id, "?"), names.get(v.votee_id, "?"))
                   for v in sorted(table.votes, key=lambda v: name_key(names.get(v.voter_id, "")))],
        games=[("draw" if game.winner_id is None else names.get(game.winner_id, "?")) for game in table.games],
        open_round=open_round)
    return out


def _reporter_name(table, names) -> str:
    by = table.result_by or ""
    if by.startswith("player:"):
        try:
            return names.get(int(by.split(":", 1)[1]), "a player")
        except ValueError:
            return "a player"
    return "a judge" if by else ""


@bp.before_app_request
def _no_refusal_yet():
    """A refused player form is handed to the page through g; start every request without one."""
    for key in ("round_error", "round_form", "round_form_kind", "round_form_for"):
        g.pop(key, None)


@bp.app_context_processor
def _player_round_helpers():
    return {"player_round": player_round}


def _player_table(reg, form):
    """The round and table a player's form names; nonsense there is a 400, an unknown round or table a 404."""
    rnd = ops.get_round(reg.event, form.round.data)
    if rnd.status == "draft":
        raise NotFound(f"Round {rnd.number} does not exist yet.")
    return rnd, ops.get_table(rnd, form.table.data)


def _player_refused(reg, status, message=None, form=None, kind=None, table=None):
    """Show the player page again with the refusal in "Your round" (next to the form it is about)."""
    db.session.rollback()
    g.round_error = message
    g.round_form = form
    g.round_form_kind = kind
    g.round_form_for = table.id if table is not None else None
    return _player_page(reg, status=status)


def _player_done(reg, message):
    db.session.commit()
    flash(message)
    return private(redirect(url_for("events.player_page", code=reg.access_code) + "#round"))


def _ref_or_refuse(reg, prefix: str = ""):
    """The posted round and table, or a refusal (stale or forged form)."""
    ref = TableRefForm(meta={"csrf": False}, prefix=prefix)
    if not ref.validate():
        raise Refused("This form is out of date: reload the page and try again.")
    return _player_table(reg, ref)


@bp.post("/p/<code>/result")
def player_result(code):
    reg = event_ops.registration_by_code(code)
    staff = event_ops.staff_for(g.get("user"), reg.event)
    try:
        rnd, table = _ref_or_refuse(reg, prefix="r")
    except Refused as e:
        return _player_refused(reg, e.status, e.message)
    if table.kind == "bye":
        return _player_refused(reg, 409, "A bye has no result to report.")
    if table.kind == "match":
        form = duel_result_form(table, prefix="r", base=PlayerDuelResultForm)
    else:
        form = pod_result_form(table, reg.event.prize_conditions or [], with_votes=False, prefix="r",
                               base=PlayerPodResultForm)
    if not form.validate_on_submit():
        status = form_failed(form)
        message = EXPIRED if "csrf_token" in form.errors else None
        return _player_refused(reg, status, message, form, "result", table)
    try:
        enter_result(table, form, reg=reg, user=staff)
        db.session.flush()
    except Refused as e:
        status = refuse_into(form, e)
        return _player_refused(reg, status, None, form, "result", table)
    return _player_done(reg, "Result reported. The others at your table confirm it on their pages.")


@bp.post("/p/<code>/confirm")
def player_confirm(code):
    reg = event_ops.registration_by_code(code)
    form = ConfirmForm()
    if not form.validate_on_submit():
        form_failed(form)
        message = EXPIRED if "csrf_token" in form.errors else "This form is out of date: reload the page and try again."
        return _player_refused(reg, 400, message)
    try:
        _rnd, table = _player_table(reg, form)
        ops.confirm_result(table, reg)
        db.session.flush()
    except Refused as e:
        return _player_refused(reg, e.status, e.message)
    return _player_done(reg, "Thank you: you confirmed the result.")


@bp.post("/p/<code>/vote")
def player_vote(code):
    reg = event_ops.registration_by_code(code)
    staff = event_ops.staff_for(g.get("user"), reg.event)
    form = VoteForm()
    if not form.validate_on_submit():
        form_failed(form)
        if "csrf_token" in form.errors:
            return _player_refused(reg, 400, EXPIRED)
        if "votee" not in form.errors:
            return _player_refused(reg, 400, "This form is out of date: reload the page and try again.")
        try:
            _rnd, table = _player_table(reg, form)
        except Refused as e:
            return _player_refused(reg, e.status, e.message)
        return _player_refused(reg, 400, None, form, "vote", table)
    try:
        _rnd, table = _player_table(reg, form)
    except Refused as e:
        return _player_refused(reg, e.status, e.message)
    try:
        ops.cast_vote(table, reg.id, form.votee.data, reg=reg, user=staff)
        db.session.flush()
    except Refused as e:
        status = refuse_into(form, e)
        return _player_refused(reg, status, None, form, "vote", table)
    return _player_done(reg, "Your vote is in.")
