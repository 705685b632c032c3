"""Web pages for rounds: the organizer's round page, standings, the projector, and the player's round.

Views are thin: each declares through tournament.web.handler what its URL
loads, who may use it, the form it reads and how a refusal renders; its body
runs one operation (tournament.rounds.operations) and redirects (POST/redirect/
GET). A refusal is shown on the same page (next to its form) with the
operation's 4xx status, and nothing is stored.
"""
from __future__ import annotations

from flask import Blueprint, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _, lazy_gettext as _l

from ..errors import NotFound, Refused
from ..events import loading, operations as event_ops
from ..events.views import _player_page
from ..web.lifecycle import state_version
from ..web import EXPIRED, OUT_OF_DATE, polled, required_number, whole_number
from ..auth.access import staff_required
from ..web.handler import FormRefused, handler
from . import operations as ops
from .presenting import (column_name, name_key, on_page, page_number, page_of, prize_rows, record_text,
                         result_view, round_title, stage_text, table_pages, table_view, timer_info, tiebreaker_words)
from .forms import (ConfirmForm, EndAtTimeForm, GameReportForm, LateArrivalForm, MoveForm, PlayerDuelResultForm,
                    PlayerPodResultForm, RemoveForm, RoundActionForm, SwapForm, TableRefForm, UnpublishForm, VoteForm,
                    duel_result_form, pod_result_form)

bp = Blueprint("rounds", __name__)

REFRESH_SECONDS = 3          # open pages ask every 3 s (a change shows within 5 s); unchanged: a 304


@bp.app_context_processor
def _poll_interval():
    return {"poll_seconds": REFRESH_SECONDS, "of_planned": of_planned, "round_title": round_title,
            "stage_text": stage_text, "record_text": record_text, "column_name": column_name}


def of_planned(event) -> str:
    """" of 5" after a round's number when the event planned its rounds; nothing otherwise."""
    return f" of {event.planned_rounds}" if event is not None and event.planned_rounds else ""


# ----------------------------------------------------------------- what the URLs load

def round_(rh) -> None:
    """.../rounds/<number>: rh.round of rh.event."""
    rh.round = ops.get_round(rh.event, rh.url["number"])


def table(rh) -> None:
    """.../tables/<table_number>: rh.table of rh.round."""
    rh.table = ops.get_table(rh.round, rh.url["table_number"])


def result_table(rh) -> None:
    """A table that takes a result: not a bye, in a published round."""
    table(rh)
    if rh.table.kind == "bye":
        raise Refused(_("A bye has no result to enter."), status=409)
    if rh.round.status == "draft":
        raise Refused(_("Publish the round before entering results."), status=409)


EVENT = (loading.event,)
ROUND = (loading.event, round_)
TABLE = (loading.event, round_, table)


def _names(event) -> dict[int, str]:
    return {r.id: r.name for r in event.registrations}


def _to_round(rh, table_number: int | None = None, anchor: str = ""):
    """Back to the round this action was on (at its table, on the page showing it): never a round worked out
    from another number."""
    args = {}
    if table_number is not None:
        anchor = f"#table-{table_number}"
        page = page_of(ops.tables_before(rh.round, table_number))
        args = {"page": page} if page > 1 else {}
    return redirect(url_for("rounds.round_page", event_id=rh.event.id, number=rh.round.number, **args) + anchor)


# ----------------------------------------------------------------- the organizer's pages

def _rounds_page(event, status=200, error=None):
    rounds = ops.rounds_of(event)
    names = _names(event)
    return render_template(
        "rounds/list.html", event=event, rounds=rounds, error=error, action_form=RoundActionForm(formdata=None),
        missing={r.id: len(ops.missing_results(r)) for r in rounds if r.status == "published"},
        prizes=prize_rows(event, names) if rounds else [],
        can_pair=can_pair_next(event, rounds), can_top_cut=can_pair_cut(event, rounds),
        players_to_seat=len(ops.players_to_seat(event)), unready=ops.unready_decks(event)), status


def can_pair_next(event, rounds) -> bool:
    """"Pair next round" is offered only when it can apply: the event runs, no round is open, no top cut began."""
    if event.status == "finished" or (rounds and rounds[-1].status != "finished"):
        return False
    return not (rounds and rounds[-1].stage.startswith("top"))


def can_pair_cut(event, rounds) -> bool:
    """"Pair the top cut": after a finished Swiss or pod round (never before round 1), with a cut in the settings
    or under way, and not after its final (one match, or one pod with nobody waiting)."""
    if event.status == "finished" or not rounds or rounds[-1].status != "finished":
        return False
    last = rounds[-1]
    if not last.stage.startswith("top"):
        return bool(event.top_cut)
    playing = [t for t in last.tables if t.kind in ("match", "pod")]
    waiting = [t for t in last.tables if t.kind == "bye"]
    return len(playing) > 1 or bool(waiting)


def _on_rounds_page(rh, e):
    return _rounds_page(rh.event, status=e.status, error=e.message)


def _action_form(rh):
    return RoundActionForm()


@bp.get("/events/<int:event_id>/rounds")
@staff_required
@handler(load=EVENT, policy=loading.staff)
def rounds_page(rh):
    return _rounds_page(rh.event)


@bp.post("/events/<int:event_id>/rounds")
@staff_required
@handler(load=EVENT, policy=loading.staff, form=_action_form, refused=_on_rounds_page)
def pair_round(rh):
    rnd = ops.pair_next_round(rh.event, rh.user, override_decks=bool(rh.form.override_decks.data))
    flash(_("Round %(number)s is paired as a draft: review it, then publish it.", number=rnd.number))
    return redirect(url_for("rounds.round_page", event_id=rh.event.id, number=rnd.number))


@bp.post("/events/<int:event_id>/finish")
@staff_required
@handler(load=EVENT, policy=loading.staff, form=_action_form, refused=_on_rounds_page)
def finish_event(rh):
    ops.finish_event(rh.event, rh.user)
    flash(_("The event has finished: the results are final and these are the final standings."))
    return redirect(url_for("rounds.standings_page", event_id=rh.event.id))


@bp.post("/events/<int:event_id>/rounds/top-cut")
@staff_required
@handler(load=EVENT, policy=loading.staff, form=_action_form, refused=_on_rounds_page)
def pair_top_cut(rh):
    rnd = ops.pair_top_cut_round(rh.event, rh.user)
    flash(_("Round %(number)s (%(stage)s) is paired as a draft: review it, then publish it.", number=rnd.number,
            stage=stage_text(rnd.stage)))
    return redirect(url_for("rounds.round_page", event_id=rh.event.id, number=rnd.number))


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


def _table_forms(event, shown, table_form=None, table_error=None) -> dict:
    """Every shown table's result form (the refused one as it was posted)."""
    votes = ops.event_uses_votes(event)
    conditions = event.prize_conditions or []
    forms = {}
    for t in shown:
        if t.kind == "bye":
            continue
        if table_form is not None and table_error == t.number:
            forms[t.number] = table_form
        else:
            forms[t.number] = _result_form(event, t, conditions, votes)
    return forms


def _seated_choices(rnd, names) -> list[tuple[int, str]]:
    return sorted(((s.registration_id, _("%(name)s (table %(table)s, seat %(seat)s)",
                                         name=names.get(s.registration_id, "?"), table=t.number, seat=s.seat))
                   for t in rnd.tables for s in t.seats), key=lambda x: name_key(x[1]))


SEATING_FORMS = {"swap": SwapForm, "move": MoveForm, "late": LateArrivalForm, "remove": RemoveForm,
                 "unpublish": UnpublishForm}


def seating_form(key: str, **kwargs):
    """A correction's form; each but the swap (its fields are its own) under its prefix ("move-player"), so the
    forms on one page never share a field id."""
    return SEATING_FORMS[key](prefix="" if key == "swap" else key, **kwargs)


def _unseated_choices(event, rnd) -> list[tuple[int, str]]:
    """Who may arrive late: registered, not dropped, not seated in this round."""
    seated = {s.registration_id for t in rnd.tables for s in t.seats}
    waiting = [r for r in event.registrations if r.dropped_at is None and r.id not in seated]
    return sorted(((r.id, r.name if r.checked_in_at else _("%(name)s (not checked in yet)", name=r.name))
                   for r in waiting), key=lambda x: name_key(x[1]))


def _seating_forms(event, rnd, names, refused: tuple[str, object] | None = None) -> dict:
    """The round's seating corrections, each drawn with the seating revision the page shows (a refused one as
    it was posted, so its errors show next to its fields)."""
    if rnd.status == "finished":
        return {}
    seated = _seated_choices(rnd, names)
    forms = {}
    for key in SEATING_FORMS:
        form = refused[1] if refused is not None and refused[0] == key else seating_form(key, formdata=None)
        if key == "late":
            form.fill(_unseated_choices(event, rnd))
        elif key != "unpublish":
            form.fill(seated)
        form.revision.data, form.revision.raw_data = rnd.seating_revision, [str(rnd.seating_revision)]
        forms[key] = form
    return forms


def _round_page(event, rnd, status=200, error=None, table_form=None, table_error=None, seating=None):
    ops.with_tables(rnd, results=False)     # every table with its seats, the shown ones with their results:
    names = _names(event)
    show = request.args.get("show") if request.args.get("show") in TABLE_FILTERS else "all"
    wanted = TABLE_FILTERS[show]
    listed = [t for t in rnd.tables if wanted(t) or (table_error is not None and t.number == table_error)]
    pages = table_pages(listed)
    page = page_number(request.args.get("page"), len(pages))
    if table_error is not None:             # the refused table's form with its errors: on the page showing it
        page = page_of(next(i for i, t in enumerate(listed) if t.number == table_error))
    shown = ops.with_results(on_page(listed, page))       # a fixed number of queries at any size
    forms = _table_forms(event, shown, table_form, table_error) if rnd.status != "draft" else {}
    seating_forms = _seating_forms(event, rnd, names, seating)
    published = rnd.status == "published"
    return render_template(
        "rounds/round.html", event=event, rnd=rnd, tables=[table_view(t, names) for t in shown], forms=forms,
        error=error, show=show, table_count=len(rnd.tables), listed_count=len(listed), filters=FILTER_LABELS,
        page=page, pages=pages, page_at={t.number: page_of(i) for i, t in enumerate(rnd.tables)},
        on_page={t.number for t in shown},      # under a filter, a page shows tables of other unfiltered pages
        action_form=RoundActionForm(formdata=None), seating=seating_forms, swap_form=seating_forms.get("swap"),
        top_cut=rnd.stage.startswith("top"),
        results={t.number: result_view(t, names) for t in shown if t.kind != "bye"},
        missing=ops.missing_results(rnd) if published else [],
        unconfirmed=ops.unconfirmed_results(rnd) if published else [],
        clock=timer_info(rnd), votes=ops.event_uses_votes(event), names=names), status


def _on_round_page(rh, e):
    return _round_page(rh.event, rh.round, status=e.status, error=e.message)


@bp.get("/events/<int:event_id>/rounds/<int:number>/jump")
@staff_required
@handler(load=ROUND, policy=loading.staff)
def jump_to_table(rh):
    """The "Go to table" box: the round page at that table (works without the page's script)."""
    table = ops.get_table(rh.round, required_number("table", _("Enter a table number, like 12.")))
    return _to_round(rh, table.number)


@bp.get("/events/<int:event_id>/rounds/<int:number>")
@staff_required
@handler(load=ROUND, policy=loading.staff)
def round_page(rh):
    return _round_page(rh.event, rh.round)


def round_action(load=ROUND):
    """A staff button on a round's page: the action form (CSRF), a refusal shown on that round's page."""
    return handler(load=load, policy=loading.staff, form=_action_form, refused=_on_round_page)


@bp.post("/events/<int:event_id>/rounds/<int:number>/publish")
@staff_required
@round_action()
def publish(rh):
    """Publish, or publish and start the clock at once: one commit, one change every phone fetches (two separate
    buttons make the phones fetch their round box twice, once for the tables and once for the clock)."""
    if request.form.get("and_start") == "1":
        ops.publish_and_start(rh.round, rh.user)
        flash(_("Round %(number)s is published and has started: players see their tables and the clock runs.",
                number=rh.round.number))
    else:
        ops.publish_round(rh.round, rh.user)
        flash(_("Round %(number)s is published: players see their tables now.", number=rh.round.number))
    return _to_round(rh)


def _whole_minutes():
    """The minutes field as a number for the operation, which says what is allowed (so 1000000 or -5 are told
    the range); what is not a number at all is a refusal here."""
    raw = (request.form.get("minutes") or "").strip()
    value = whole_number(raw.removeprefix("-"), digits=12)
    if value is None:
        raise Refused(_("Enter the minutes as a whole number, like 5."), field="minutes")
    return -value if raw.startswith("-") else value


CLOCK_ACTIONS = {
    "pause": (lambda rh: ops.pause_round(rh.round, rh.user),
              lambda n: _("Round %(number)s: the clock is paused.", number=n)),
    "resume": (lambda rh: ops.resume_round(rh.round, rh.user),
               lambda n: _("Round %(number)s: the clock runs again.", number=n)),
    "extend": (lambda rh: ops.extend_round(rh.round, rh.user, _whole_minutes()),
               lambda n: _("Round %(number)s: time added.", number=n)),
}


@bp.post("/events/<int:event_id>/rounds/<int:number>/clock")
@staff_required
@round_action()
def clock(rh):
    """Pause, resume, or add minutes to the whole round: the deadline on the server moves, every clock follows."""
    run, message = CLOCK_ACTIONS.get(request.form.get("action"), (None, None))
    if run is None:
        raise Refused(_("Choose pause, resume or add time."))
    run(rh)
    flash(message(rh.round.number))
    return _to_round(rh)


@bp.post("/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/extension")
@staff_required
@round_action(TABLE)
def extend_table(rh):
    ops.extend_table(rh.table, rh.user, _whole_minutes())
    flash(_("Table %(number)s: its extension is set.", number=rh.table.number))
    return _to_round(rh, rh.table.number)


@bp.post("/events/<int:event_id>/rounds/<int:number>/start")
@staff_required
@round_action()
def start(rh):
    ops.start_round(rh.round, rh.user)
    flash(_("Round %(number)s has started: the clock is running.", number=rh.round.number))
    return _to_round(rh)


@bp.post("/events/<int:event_id>/rounds/<int:number>/finish")
@staff_required
@round_action()
def finish(rh):
    ops.finish_round(rh.round, rh.user, accept_unconfirmed=request.form.get("accept_unconfirmed") == "1")
    flash(_("Round %(number)s is finished.", number=rh.round.number))
    return _to_round(rh)


@bp.post("/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/accept/<int:revision>")
@staff_required
@round_action(TABLE)
def accept_version(rh):
    """Settle a dispute: staff accept one of the reported versions as the table's result."""
    revision = rh.url["revision"]
    ops.settle_dispute(rh.table, revision, rh.user, seen=whole_number(request.form.get("seen"), digits=9))
    flash(_("Table %(number)s: version %(revision)s is the result now.", number=rh.table.number, revision=revision))
    return _to_round(rh, rh.table.number)


@bp.post("/events/<int:event_id>/rounds/<int:number>/delete")
@staff_required
@round_action()
def delete(rh):
    ops.delete_draft(rh.round, rh.user)
    flash(_("The draft of round %(number)s is deleted.", number=rh.round.number))
    return redirect(url_for("rounds.rounds_page", event_id=rh.event.id))


@bp.post("/events/<int:event_id>/rounds/<int:number>/repair")
@staff_required
@round_action()
def repair(rh):
    """A new seed for a draft staff already reviewed, players without a legal deck included (logged again)."""
    ops.delete_draft(rh.round, rh.user)
    new = ops.pair_next_round(rh.event, rh.user, override_decks=True)
    flash(_("Round %(number)s is paired again (a new seed): review the draft.", number=new.number))
    return redirect(url_for("rounds.round_page", event_id=rh.event.id, number=new.number))


def _on_seating_refused(key: str):
    """A refused correction: the round as stored now, the message at the top; a form that did not validate
    (400) as it was posted, with its errors next to its fields."""
    def render(rh, e):
        refused = (key, rh.form) if e.status == 400 and rh.form is not None else None
        return _round_page(rh.event, rh.round, status=e.status, error=e.message, seating=refused)
    return render


def seating_action(key: str, path: str):
    """A seating correction's POST on the round page: its form (CSRF, bounds), a refusal shown on the round."""
    def decorate(view):
        endpoint = handler(load=ROUND, policy=loading.staff, form=lambda rh: seating_form(key),
                           refused=_on_seating_refused(key))(view)
        return bp.post(f"/events/<int:event_id>/rounds/<int:number>/{path}")(staff_required(endpoint))
    return decorate


@seating_action("swap", "swap")
def swap(rh):
    f = rh.form
    ops.swap_seats(rh.round, rh.user, f.first.data, f.second.data, seen=f.revision.data)
    names = _names(rh.event)
    flash(_("Swapped %(first)s and %(second)s.", first=names.get(f.first.data, "?"),
            second=names.get(f.second.data, "?")))
    return _to_round(rh, anchor="#seating")


@seating_action("move", "seating/move")
def move_player(rh):
    f = rh.form
    table = ops.move_player(rh.round, rh.user, f.player.data, f.table.data, f.seat.data, seen=f.revision.data)
    flash(_("%(name)s moved to table %(table)s.", name=_names(rh.event).get(f.player.data, "?"), table=table.number))
    return _to_round(rh, table.number)


@seating_action("late", "seating/late-arrival")
def seat_late_arrival(rh):
    f = rh.form
    table = ops.seat_late_arrival(rh.round, rh.user, f.player.data, f.table.data, f.seat.data,
                                  seen=f.revision.data)
    flash(_("%(name)s is seated at table %(table)s.", name=_names(rh.event).get(f.player.data, "?"),
            table=table.number))
    return _to_round(rh, table.number)


@seating_action("remove", "seating/remove")
def remove_player(rh):
    f = rh.form
    ops.remove_player(rh.round, rh.user, f.player.data, drop_player=f.how.data == "drop", seen=f.revision.data)
    name = _names(rh.event).get(f.player.data, "?")
    flash(_("%(name)s is removed from the round and dropped from the event.", name=name) if f.how.data == "drop"
          else _("%(name)s is removed from this round.", name=name))
    return _to_round(rh, anchor="#seating")


@seating_action("unpublish", "unpublish")
def unpublish(rh):
    again = ops.unpublish_and_pair_again(rh.round, rh.user, seen=rh.form.revision.data)
    flash(_("Round %(number)s is unpublished and paired again as a draft: review it, then publish it.",
            number=again.number))
    return redirect(url_for("rounds.round_page", event_id=rh.event.id, number=again.number))


def enter_result(table, form, *, reg=None, user=None, votes_from=None) -> None:
    """Store a pod or duel result from a validated form (staff: also every player's vote; a player's form may
    carry a send key: the same report sent again is stored once)."""
    seen = form.revision.data if "revision" in form._fields else None
    key = form.send_key.data if "send_key" in form._fields else None
    if table.kind == "match":
        ops.report_duel_games(table, form.winners(), time=bool(form.time.data), reg=reg, user=user, revision=seen,
                              send_key=key)
        return
    ops.report_pod_result(table, form.survivors.data, form.eliminated(), form.prizes(), reg=reg, user=user,
                          archenemy=form.archenemy_choice(), revision=seen, draw=form.draw.data or None,
                          send_key=key)
    for voter, votee in (votes_from or {}).items():
        ops.cast_vote(table, voter, votee, reg=reg, user=user)


def _posted_result_form(rh):
    return _result_form(rh.event, rh.table, rh.event.prize_conditions or [], ops.event_uses_votes(rh.event),
                        posted=True)


def _on_result_refused(rh, e):
    if e.status == 409:           # the table changed under the form: show what it holds now, and why
        return _round_page(rh.event, rh.round, status=e.status, error=e.message)
    return _round_page(rh.event, rh.round, status=e.status, table_form=rh.form, table_error=rh.table.number)


@bp.post("/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/result")
@staff_required
@handler(load=(*ROUND, result_table), policy=loading.staff, form=_posted_result_form, refused=_on_result_refused)
def table_result(rh):
    votes = rh.form.votes() if rh.table.kind == "pod" else {}
    enter_result(rh.table, rh.form, user=rh.user, votes_from=votes)
    flash(_("Table %(number)s: result saved.", number=rh.table.number))
    return _to_round(rh, rh.table.number)


# ----------------------------------------------------------------- standings and the projector

def _event_version(event_id, **_kw):
    return state_version(event_id)


@bp.get("/events/<int:event_id>/standings")
@polled(_event_version, shared=True)
@handler(load=EVENT)
def standings_page(rh):
    event = rh.event
    staff = event_ops.staff_for(g.get("user"), event)
    rounds = ops.rounds_of(event)
    published = [r for r in rounds if r.status != "draft"]
    ops.require_standings_visible(event, rh.user)
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
@handler(load=EVENT)
def stats_page(rh):
    """The event's numbers with charts: staff at any time; everyone once the event has finished and published its
    decklists (the commanders and who reached the cut can point at one player's list)."""
    event = rh.event
    staff = event_ops.staff_for(g.get("user"), event)
    if staff is None and not event_ops.decklists_public(event):
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
@handler(load=ROUND)
def projector(rh):
    return _projector(rh.event, rh.round)


@bp.get("/events/<int:event_id>/projector")
@polled(_event_version, shared=True)
@handler(load=EVENT)
def current_projector(rh):
    """The latest round the viewer may see: leave the projector on this address for the whole event;
    it moves on to the next round by itself when that is published, and waits for the first one."""
    rounds = [r for r in ops.rounds_of(rh.event) if ops.round_visible(r, rh.user)]
    return _projector(rh.event, rounds[-1] if rounds else None)


# ----------------------------------------------------------------- the player's round (on /p/<code>)

@bp.before_app_request
def _no_refusal_yet():
    """A refused player form is handed to the page through g; start every request without one."""
    for key in ("round_error", "round_form", "round_form_kind", "round_form_for"):
        g.pop(key, None)


def _player_table(rh, form):
    """The round and table a player's form names (rh.round, rh.table); an unknown round or table is a 404."""
    rh.round = ops.require_visible(ops.get_round(rh.reg.event, form.round.data), None)
    rh.table = ops.get_table(rh.round, form.table.data)
    rh.seated = [s.registration for s in rh.table.seats]    # kept loaded for the request (a lock re-reads the table)


def _show_player_refusal(rh, status, message=None, kind=None):
    """The player page again with the refusal in "Your round" (next to the form it is about, for `kind`)."""
    g.round_error = message
    if kind is not None:
        g.round_form = rh.form
        g.round_form_kind = kind
        g.round_form_for = rh.table.id
    return _player_page(rh.reg, status=status)


def _player_done(rh, message):
    flash(message)
    return redirect(url_for("events.player_page", code=rh.reg.access_code) + "#round")


def _player_result_form(rh):
    """The posted round and table (a stale or forged reference is refused), then that table's result form."""
    ref = TableRefForm(meta={"csrf": False}, prefix="r")
    if not ref.validate():
        raise Refused(OUT_OF_DATE)
    _player_table(rh, ref)
    if rh.table.kind == "bye":
        raise Refused(_("A bye has no result to report."), status=409)
    if rh.table.kind == "match":
        return duel_result_form(rh.table, prefix="r", base=PlayerDuelResultForm)
    return pod_result_form(rh.table, rh.reg.event.prize_conditions or [], with_votes=False, prefix="r",
                           base=PlayerPodResultForm)


def _on_player_result_refused(rh, e):
    if rh.form is None or e.status == 409:      # no form yet, or the table moved on: the page as it is, and why
        return _show_player_refusal(rh, e.status, e.message)
    expired = isinstance(e, FormRefused) and e.expired
    if isinstance(e, FormRefused) and not expired and "send_key" in rh.form.errors:   # a hidden field: the message
        return _show_player_refusal(rh, e.status, OUT_OF_DATE)
    return _show_player_refusal(rh, e.status, EXPIRED if expired else None, "result")


@bp.post("/p/<code>/result")
@handler(load=loading.player, form=_player_result_form, refused=_on_player_result_refused)
def player_result(rh):
    enter_result(rh.table, rh.form, reg=rh.reg, user=event_ops.staff_for(rh.user, rh.event))
    return _player_done(rh, _("Result reported. The others at your table confirm it on their pages."))


def _on_player_confirm_refused(rh, e):
    if isinstance(e, FormRefused):
        return _show_player_refusal(rh, 400, EXPIRED if e.expired else OUT_OF_DATE)
    return _show_player_refusal(rh, e.status, e.message)


@bp.post("/p/<code>/confirm")
@handler(load=loading.player, form=lambda rh: ConfirmForm(), refused=_on_player_confirm_refused)
def player_confirm(rh):
    _player_table(rh, rh.form)
    ops.confirm_result(rh.table, rh.reg, revision=rh.form.revision.data)
    return _player_done(rh, _("Thank you: you confirmed the result."))


def _on_player_game_refused(rh, e):
    """A game's report, the end at time, a game's start: the refusal as the round's message (the form is buttons)."""
    if isinstance(e, FormRefused):
        message = EXPIRED if e.expired else next(iter(rh.form.errors.get("winner") or []), OUT_OF_DATE)
        return _show_player_refusal(rh, 400, message)
    return _show_player_refusal(rh, e.status, e.message)


def _match_table(rh):
    _player_table(rh, rh.form)
    if rh.table.kind != "match":
        raise Refused(_("This table is a pod: report survivors and votes."), status=409)


@bp.post("/p/<code>/game")
@handler(load=loading.player, form=lambda rh: GameReportForm(), refused=_on_player_game_refused)
def player_game(rh):
    """One game of the player's match, reported as it ends."""
    _match_table(rh)
    f = rh.form
    ops.report_game(rh.table, f.game.data, f.winner_id(), time=bool(f.time.data), reg=rh.reg,
                    user=event_ops.staff_for(rh.user, rh.event))
    progress = ops.match_progress(rh.table)
    if rh.table.result_state == "disputed":
        return _player_done(rh, _("Your opponent reported game %(game)s differently: a judge will settle it.",
                                  game=f.game.data))
    if progress.over:
        return _player_done(rh, _("Game %(game)s reported: the match is decided. Your opponent confirms it on "
                                  "their page.", game=f.game.data))
    return _player_done(rh, _("Game %(game)s reported. Sideboard if you like, then start game %(next)s.",
                              game=f.game.data, next=progress.next_game))


@bp.post("/p/<code>/time")
@handler(load=loading.player, form=lambda rh: EndAtTimeForm(), refused=_on_player_game_refused)
def player_end_at_time(rh):
    """Time was called between games: the match ends with the games played."""
    _match_table(rh)
    ops.end_match_at_time(rh.table, reg=rh.reg, user=event_ops.staff_for(rh.user, rh.event))
    return _player_done(rh, _("The match ended at time. Your opponent confirms it on their page."))


def _on_player_vote_refused(rh, e):
    if isinstance(e, FormRefused):
        if e.expired:
            return _show_player_refusal(rh, 400, EXPIRED)
        if "votee" not in rh.form.errors:
            return _show_player_refusal(rh, 400, OUT_OF_DATE)
        _player_table(rh, rh.form)      # refused: rendered again by this function, as the message alone
        return _show_player_refusal(rh, 400, None, "vote")
    if "table" not in rh.extra:         # the round or table it names: the message alone
        return _show_player_refusal(rh, e.status, e.message)
    return _show_player_refusal(rh, e.status, None, "vote")      # the vote itself: next to its field


@bp.post("/p/<code>/vote")
@handler(load=loading.player, form=lambda rh: VoteForm(), refused=_on_player_vote_refused)
def player_vote(rh):
    _player_table(rh, rh.form)
    ops.cast_vote(rh.table, rh.reg.id, rh.form.votee.data, reg=rh.reg, user=event_ops.staff_for(rh.user, rh.event),
                  send_key=rh.form.send_key.data or None)
    return _player_done(rh, _("Your vote is in."))
