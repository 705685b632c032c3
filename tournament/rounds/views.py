"""Web pages for rounds: the organizer's round page, standings, the projector, and the player's round.

Views are thin, like tournament.events.views: a form checks the input's
shape, one operation decides and changes (tournament.rounds.operations), the
request commits once, then POST/redirect/GET. A refusal is shown on the page
(next to its form) with the operation's 4xx status and nothing is stored.
"""
from __future__ import annotations

from flask import Blueprint, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _, lazy_gettext as _l

from ..errors import NotFound, Refused
from ..events import operations as event_ops
from ..events.views import _player_page
from ..lifecycle import state_version
from ..web import (EXPIRED, OUT_OF_DATE, form_failed, polled, refusal, refuse_into, required_number,
                   staff_event, staff_required, start_over, whole_number)
from . import operations as ops
from .presenting import (column_name, name_key, prize_rows, record_text, result_view, round_title, stage_text,
                         table_view, timer_info, tiebreaker_words)
from .forms import (ConfirmForm, PlayerDuelResultForm, PlayerPodResultForm, RoundActionForm, SwapForm,
                    TableRefForm, VoteForm, duel_result_form, pod_result_form)

bp = Blueprint("rounds", __name__)

REFRESH_SECONDS = 3          # open pages ask every 3 s (a change shows within 5 s); unchanged: a 304


@bp.app_context_processor
def _poll_interval():
    return {"poll_seconds": REFRESH_SECONDS, "of_planned": of_planned, "round_title": round_title,
            "stage_text": stage_text, "record_text": record_text, "column_name": column_name}


def of_planned(event) -> str:
    """" of 5" after a round's number when the event planned its rounds; nothing otherwise."""
    return f" of {event.planned_rounds}" if event is not None and event.planned_rounds else ""


# ----------------------------------------------------------------- helpers

def _names(event) -> dict[int, str]:
    return {r.id: r.name for r in event.registrations}


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
        can_top_cut=bool(event.top_cut) or any(r.stage.startswith("top") for r in rounds),
        players_to_seat=len(ops.players_to_seat(event)), unready=ops.unready_decks(event)), status


@bp.get("/events/<int:event_id>/rounds")
@staff_required
def rounds_page(event_id):
    return _rounds_page(staff_event(event_id))


def _pair(event_id: int, pair, with_stage: bool):
    """Pair a draft with `pair(event, user)`; a refusal shows on the rounds page with its status."""
    event = staff_event(event_id)
    form = RoundActionForm()
    if not form.validate_on_submit():
        return _rounds_page(event, status=400, error=EXPIRED)
    try:
        rnd = pair(event, g.user, form)
    except Refused as e:
        message, status = refusal(e)
        return _rounds_page(event, status=status, error=message)
    if with_stage:
        flash(_("Round %(number)s (%(stage)s) is paired as a draft: review it, then publish it.", number=rnd.number,
                stage=stage_text(rnd.stage)))
    else:
        flash(_("Round %(number)s is paired as a draft: review it, then publish it.", number=rnd.number))
    return _redirect_round(event, rnd)


@bp.post("/events/<int:event_id>/rounds")
@staff_required
def pair_round(event_id):
    return _pair(event_id, lambda event, user, form: ops.pair_next_round(
        event, user, override_decks=bool(form.override_decks.data)), False)


@bp.post("/events/<int:event_id>/finish")
@staff_required
def finish_event(event_id):
    event = staff_event(event_id)
    form = RoundActionForm()
    if not form.validate_on_submit():
        return _rounds_page(event, status=400, error=EXPIRED)
    try:
        ops.finish_event(event, g.user)
    except Refused as e:
        message, status = refusal(e)
        return _rounds_page(event, status=status, error=message)
    flash(_("The event has finished: the results are final and these are the final standings."))
    return redirect(url_for("rounds.standings_page", event_id=event.id))


@bp.post("/events/<int:event_id>/rounds/top-cut")
@staff_required
def pair_top_cut(event_id):
    return _pair(event_id, lambda event, user, form: ops.pair_top_cut_round(event, user), True)


def _result_form(event, table, conditions, votes: bool, posted: bool = False):
    """A table's result form for staff: the stored result (GET), or what was posted."""
    prefix = f"t{table.number}"
    kwargs = {} if posted else {"formdata": None, "fill": True}
    if table.kind == "match":
        return duel_result_form(table, prefix=prefix, **kwargs)
    return pod_result_form(table, conditions, with_votes=votes, prefix=prefix,
                           with_archenemy=event.variant == "archenemy" or table.archenemy_id is not None, **kwargs)


TABLE_FILTERS = {
    "all": lambda t: True,
    "missing": lambda t: t.kind != "bye" and t.result_state is None,
    "disputed": lambda t: t.result_state == "disputed",
    "unconfirmed": lambda t: t.result_state in ("reported", "disputed"),
    "extended": lambda t: bool(t.extra_minutes),
}
FILTER_LABELS = {"all": _l("All tables"), "missing": _l("Missing results"), "unconfirmed": _l("Not confirmed"),
                 "disputed": _l("Disputed"), "extended": _l("With an extension")}


def _round_page(event, rnd, status=200, error=None, table_form=None, table_error=None, swap_form=None):
    ops.with_tables(rnd)            # every table with its seats and results: a fixed number of queries
    names = _names(event)
    votes = ops.event_uses_votes(event)
    conditions = event.prize_conditions or []
    show = request.args.get("show") if request.args.get("show") in TABLE_FILTERS else "all"
    wanted = TABLE_FILTERS[show]
    shown = [t for t in rnd.tables if wanted(t) or (table_error is not None and t.number == table_error)]
    tables = [table_view(t, names) for t in shown]
    forms = {}
    if rnd.status != "draft":
        for t in shown:
            if t.kind == "bye":
                continue
            if table_form is not None and table_error == t.number:
                forms[t.number] = table_form
            else:
                forms[t.number] = _result_form(event, t, conditions, votes)
    seated = sorted(((s.registration_id, _("%(name)s (table %(table)s, seat %(seat)s)",
                                           name=names.get(s.registration_id, "?"), table=t.number, seat=s.seat))
                     for t in rnd.tables for s in t.seats), key=lambda x: name_key(x[1]))
    if swap_form is None:
        swap_form = SwapForm(formdata=None)
    swap_form.fill(seated)
    results = {t.number: result_view(t, names) for t in shown if t.kind != "bye"}
    return render_template(
        "rounds/round.html", event=event, rnd=rnd, tables=tables, forms=forms, error=error, show=show,
        table_count=len(rnd.tables), filters=FILTER_LABELS,
        action_form=RoundActionForm(formdata=None), swap_form=swap_form, results=results,
        missing=ops.missing_results(rnd) if rnd.status == "published" else [],
        unconfirmed=ops.unconfirmed_results(rnd) if rnd.status == "published" else [],
        clock=timer_info(rnd), votes=votes, names=names), status


@bp.get("/events/<int:event_id>/rounds/<int:number>/jump")
@staff_required
def jump_to_table(event_id, number):
    """The "Go to table" box: the round page at that table (works without the page's script)."""
    event = staff_event(event_id)
    rnd = ops.get_round(event, number)
    table = ops.get_table(rnd, required_number("table", _("Enter a table number, like 12.")))
    return redirect(url_for("rounds.round_page", event_id=event.id, number=rnd.number) + f"#table-{table.number}")


@bp.get("/events/<int:event_id>/rounds/<int:number>")
@staff_required
def round_page(event_id, number):
    event = staff_event(event_id)
    return _round_page(event, ops.get_round(event, number))


def _round_action(event_id, number, run, message, back_to_list=False):
    """Run `run(event, rnd)`; on success flash `message(number, new)` (the round's number, the new round's number)."""
    event = staff_event(event_id)
    rnd = ops.get_round(event, number)
    form = RoundActionForm()
    if not form.validate_on_submit():
        return _round_page(event, rnd, status=form_failed(form), error=EXPIRED)
    try:
        result = run(event, rnd)
    except Refused as e:
        message, status = refusal(e)
        return _round_page(event, ops.get_round(event, number), status=status, error=message)
    flash(message(number, getattr(result, "number", number)))
    if back_to_list:
        return redirect(url_for("rounds.rounds_page", event_id=event.id))
    return redirect(url_for("rounds.round_page", event_id=event.id, number=getattr(result, "number", number)))


@bp.post("/events/<int:event_id>/rounds/<int:number>/publish")
@staff_required
def publish(event_id, number):
    return _round_action(event_id, number, lambda e, r: ops.publish_round(r, g.user),
                         lambda n, new: _("Round %(number)s is published: players see their tables now.", number=n))


def _whole_minutes():
    """The minutes field as a number for the operation, which says what is allowed (so 1000000 or -5 are told
    the range); what is not a number at all is a refusal here."""
    raw = (request.form.get("minutes") or "").strip()
    value = whole_number(raw.removeprefix("-"), digits=12)
    if value is None:
        raise Refused(_("Enter the minutes as a whole number, like 5."), field="minutes")
    return -value if raw.startswith("-") else value


CLOCK_ACTIONS = {
    "pause": (lambda r: ops.pause_round(r, g.user),
              lambda n, new: _("Round %(number)s: the clock is paused.", number=n)),
    "resume": (lambda r: ops.resume_round(r, g.user),
               lambda n, new: _("Round %(number)s: the clock runs again.", number=n)),
    "extend": (lambda r: ops.extend_round(r, g.user, _whole_minutes()),
               lambda n, new: _("Round %(number)s: time added.", number=n)),
}


@bp.post("/events/<int:event_id>/rounds/<int:number>/clock")
@staff_required
def clock(event_id, number):
    """Pause, resume, or add minutes to the whole round: the deadline on the server moves, every clock follows."""
    run, message = CLOCK_ACTIONS.get(request.form.get("action"), (None, None))
    if run is None:
        return _round_action(event_id, number, _unknown_clock_action, lambda n, new: "")
    return _round_action(event_id, number, lambda e, r: run(r), message)


def _unknown_clock_action(event, rnd):
    raise Refused(_("Choose pause, resume or add time."))


@bp.post("/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/extension")
@staff_required
def extend_table(event_id, number, table_number):
    return _round_action(event_id, number,
                         lambda e, r: ops.extend_table(ops.get_table(r, table_number), g.user, _whole_minutes()),
                         lambda n, new: _("Table %(number)s: its extension is set.", number=table_number))


@bp.post("/events/<int:event_id>/rounds/<int:number>/start")
@staff_required
def start(event_id, number):
    return _round_action(event_id, number, lambda e, r: ops.start_round(r, g.user),
                         lambda n, new: _("Round %(number)s has started: the clock is running.", number=n))


@bp.post("/events/<int:event_id>/rounds/<int:number>/finish")
@staff_required
def finish(event_id, number):
    accept = request.form.get("accept_unconfirmed") == "1"
    return _round_action(event_id, number, lambda e, r: ops.finish_round(r, g.user, accept_unconfirmed=accept),
                         lambda n, new: _("Round %(number)s is finished.", number=n))


@bp.post("/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/accept/<int:revision>")
@staff_required
def accept_version(event_id, number, table_number, revision):
    """Settle a dispute: staff accept one of the reported versions as the table's result."""
    def settle(event, rnd):
        return ops.settle_dispute(ops.get_table(rnd, table_number), revision, g.user,
                                  seen=whole_number(request.form.get("seen"), digits=9))
    return _round_action(event_id, number, settle,
                         lambda n, new: _("Table %(number)s: version %(revision)s is the result now.",
                                          number=table_number, revision=revision))


@bp.post("/events/<int:event_id>/rounds/<int:number>/delete")
@staff_required
def delete(event_id, number):
    return _round_action(event_id, number, lambda e, r: ops.delete_draft(r, g.user),
                         lambda n, new: _("The draft of round %(number)s is deleted.", number=n), back_to_list=True)


def _repair(event, rnd):
    """A new seed for a draft staff already reviewed, players without a legal deck included (logged again)."""
    ops.delete_draft(rnd, g.user)
    return ops.pair_next_round(event, g.user, override_decks=True)


@bp.post("/events/<int:event_id>/rounds/<int:number>/repair")
@staff_required
def repair(event_id, number):
    return _round_action(event_id, number, _repair,
                         lambda n, new: _("Round %(number)s is paired again (a new seed): review the draft.",
                                          number=new))


@bp.post("/events/<int:event_id>/rounds/<int:number>/swap")
@staff_required
def swap(event_id, number):
    event = staff_event(event_id)
    rnd = ops.get_round(event, number)
    form = SwapForm()
    if not form.validate_on_submit():
        return _round_page(event, rnd, status=form_failed(form), swap_form=form)
    try:
        ops.swap_seats(rnd, g.user, form.first.data, form.second.data)
    except Refused as e:
        status = refuse_into(form, e)
        rnd = ops.get_round(event, number)
        # the swap form is only on drafts: say it at the top when the round is no longer one
        return _round_page(event, rnd, status=status, swap_form=form,
                           error=e.message if rnd.status != "draft" else None)
    names = _names(event)
    flash(_("Swapped %(first)s and %(second)s.", first=names.get(form.first.data, "?"),
            second=names.get(form.second.data, "?")))
    return _redirect_round(event, rnd, "#swap")


def enter_result(table, form, *, reg=None, user=None, votes_from=None) -> None:
    """Store a pod or duel result from a validated form (staff: also every player's vote)."""
    seen = form.revision.data if "revision" in form._fields else None
    if table.kind == "match":
        ops.report_duel_games(table, form.winners(), reg=reg, user=user, revision=seen)
        return
    ops.report_pod_result(table, form.survivors.data, form.eliminated(), form.prizes(), reg=reg, user=user,
                          archenemy=form.archenemy_choice(), revision=seen, draw=form.draw.data or None)
    for voter, votee in (votes_from or {}).items():
        ops.cast_vote(table, voter, votee, reg=reg, user=user)


@bp.post("/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/result")
@staff_required
def table_result(event_id, number, table_number):
    event = staff_event(event_id)
    rnd = ops.get_round(event, number)
    table = ops.get_table(rnd, table_number)
    if table.kind == "bye":
        raise Refused(_("A bye has no result to enter."), status=409)
    if rnd.status == "draft":
        raise Refused(_("Publish the round before entering results."), status=409)
    form = _result_form(event, table, event.prize_conditions or [], ops.event_uses_votes(event), posted=True)
    if not form.validate_on_submit():
        status = form_failed(form)
        return _round_page(event, rnd, status=status, table_form=form, table_error=table.number)
    try:
        votes = form.votes() if table.kind == "pod" else {}
        enter_result(table, form, user=g.user, votes_from=votes)
    except Refused as e:
        status = refuse_into(form, e)
        rnd = ops.get_round(event, number)
        if status == 409:           # the table changed under the form: show what it holds now, and why
            return _round_page(event, rnd, status=status, error=e.message)
        return _round_page(event, rnd, status=status, table_form=form, table_error=table_number)
    flash(_("Table %(number)s: result saved.", number=table_number))
    return _redirect_round(event, rnd, f"#table-{table_number}")


# ----------------------------------------------------------------- standings and the projector

def _event_version(event_id, **_kw):
    return state_version(event_id)


@bp.get("/events/<int:event_id>/standings")
@polled(_event_version, shared=True)
def standings_page(event_id):
    event = event_ops.get_event(event_id)
    staff = event_ops.staff_for(g.get("user"), event)
    rounds = ops.rounds_of(event)
    published = [r for r in rounds if r.status != "draft"]
    if staff is None and not published:
        raise NotFound(_("The standings are shown once the first round is published."))
    names = _names(event)
    tables = ops.scored_tables(event)       # once, for the standings and the prize leaders
    rows, unplayed = ops.shown_standings(event, tables)
    every = rows or unplayed
    columns = list(every[0].tiebreakers.keys()) if every else []
    return render_template("rounds/standings.html", event=event, names=names, columns=columns,
                           rows=rows, unplayed=unplayed,
                           dropped={r.id for r in event.registrations if r.dropped_at is not None},
                           tiebreakers={c: tiebreaker_words().get(c, "") for c in columns},
                           votes=ops.event_uses_votes(event) and "votes" not in columns,
                           prizes=prize_rows(event, names, tables), staff=staff, rounds=published,
                           duel=event.mode == "duel", cut=ops.cut_results(event, published, rows))


@bp.get("/events/<int:event_id>/stats")
def stats_page(event_id):
    """The event's numbers with charts: staff at any time; everyone once the event has finished and published its
    decklists (the commanders and who reached the cut can point at one player's list)."""
    event = event_ops.get_event(event_id)
    staff = event_ops.staff_for(g.get("user"), event)
    if staff is None and not (event.status == "finished" and event.publish_decklists):
        raise NotFound(_("The event's statistics are public once it has finished and published its decklists."))
    return render_template("rounds/stats.html", event=event, stats=ops.event_stats(event), staff=staff)


def _projector(event, rnd):
    if rnd is None:
        return render_template("rounds/projector.html", event=event, rnd=None)
    ops.with_tables(ops.require_visible(rnd, g.get("user")), results=False)
    names = {s.registration_id: s.registration.name for t in rnd.tables for s in t.seats}
    tables = [table_view(t, names) for t in rnd.tables]
    by_name = sorted(({"name": s["name"], "table": t["number"], "seat": s["seat"], "kind": t["kind"]}
                      for t in tables for s in t["seats"]), key=lambda r: (name_key(r["name"]), r["table"]))
    return render_template("rounds/projector.html", event=event, rnd=rnd, tables=tables, by_name=by_name,
                           timer=timer_info(rnd))


@bp.get("/events/<int:event_id>/rounds/<int:number>/projector")
@polled(_event_version, shared=True)
def projector(event_id, number):
    event = event_ops.get_event(event_id)
    return _projector(event, ops.get_round(event, number))


@bp.get("/events/<int:event_id>/projector")
@polled(_event_version, shared=True)
def current_projector(event_id):
    """The latest round the viewer may see: leave the projector on this address for the whole event;
    it moves on to the next round by itself when that is published, and waits for the first one."""
    event = event_ops.get_event(event_id)
    rounds = [r for r in ops.rounds_of(event) if ops.round_visible(r, g.get("user"))]
    return _projector(event, rounds[-1] if rounds else None)


# ----------------------------------------------------------------- the player's round (on /p/<code>)

@bp.before_app_request
def _no_refusal_yet():
    """A refused player form is handed to the page through g; start every request without one."""
    for key in ("round_error", "round_form", "round_form_kind", "round_form_for"):
        g.pop(key, None)


def _player_table(reg, form):
    """The round and table a player's form names; nonsense there is a 400, an unknown round or table a 404."""
    rnd = ops.require_visible(ops.get_round(reg.event, form.round.data), None)
    return rnd, ops.get_table(rnd, form.table.data)


def _player_refused(reg, status, message=None, form=None, kind=None, table=None):
    """Show the player page again with the refusal in "Your round" (next to the form it is about)."""
    start_over()
    g.round_error = message
    g.round_form = form
    g.round_form_kind = kind
    g.round_form_for = table.id if table is not None else None
    return _player_page(reg, status=status)


def _player_done(reg, message):
    flash(message)
    return redirect(url_for("events.player_page", code=reg.access_code) + "#round")


def _ref_or_refuse(reg, prefix: str = ""):
    """The posted round and table, or a refusal (stale or forged form)."""
    ref = TableRefForm(meta={"csrf": False}, prefix=prefix)
    if not ref.validate():
        raise Refused(OUT_OF_DATE)
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
        return _player_refused(reg, 409, _("A bye has no result to report."))
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
    except Refused as e:
        if e.status == 409:         # the table moved on (confirmed, disputed): the page as it is now, and why
            return _player_refused(reg, 409, e.message)
        status = refuse_into(form, e)
        return _player_refused(reg, status, None, form, "result", table)
    return _player_done(reg, _("Result reported. The others at your table confirm it on their pages."))


@bp.post("/p/<code>/confirm")
def player_confirm(code):
    reg = event_ops.registration_by_code(code)
    form = ConfirmForm()
    if not form.validate_on_submit():
        form_failed(form)
        message = EXPIRED if "csrf_token" in form.errors else OUT_OF_DATE
        return _player_refused(reg, 400, message)
    try:
        _rnd, table = _player_table(reg, form)
        ops.confirm_result(table, reg, revision=form.revision.data)
    except Refused as e:
        return _player_refused(reg, e.status, e.message)
    return _player_done(reg, _("Thank you: you confirmed the result."))


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
            return _player_refused(reg, 400, OUT_OF_DATE)
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
    except Refused as e:
        status = refuse_into(form, e)
        return _player_refused(reg, status, None, form, "vote", table)
    return _player_done(reg, _("Your vote is in."))
