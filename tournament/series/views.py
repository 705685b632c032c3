"""Web pages for series: the organizer's list, a series' standings (public) with its management, a player's
history, the series' stats, its export and import. Thin, like the other features' views."""
from __future__ import annotations

import io

from flask import Blueprint, flash, g, redirect, render_template, request, send_file, url_for
from flask_babel import gettext as _, lazy_gettext as _l, ngettext

from ..auth.access import login_required
from ..errors import Refused
from ..events.exchange_views import UploadForm, read_upload, upload_limit
from ..web import EXPIRED, form_failed, refusal, refuse_into, staff_required
from . import operations as ops
from ..events.forms import options
from .forms import AddEventForm, DecisionForm, SeriesForm

bp = Blueprint("series", __name__)


def _settings(form: SeriesForm) -> dict:
    return {"name": form.name.data, "scoring": form.scoring.data, "points_table": form.points_table.data or "",
            "attendance_points": form.attendance_points.data}


@bp.route("/series", methods=["GET", "POST"])
@staff_required
def list_series():
    form = SeriesForm()
    status = 200
    if request.method == "POST":
        if form.validate_on_submit():
            try:
                series = ops.create_series(g.user, _settings(form))
            except Refused as e:
                status = refuse_into(form, e)
            else:
                flash(_("Series “%(name)s” created: add its events below.", name=series.name))
                return redirect(url_for("series.series_page", series_id=series.id))
        else:
            status = form_failed(form)
    return render_template("series/list.html", series=ops.series_of(g.user), form=form), status


def _series_page(series, status=200, error=None, settings_form=None, add_form=None):
    user = g.get("user")
    manage = ops.may_manage_series(user, series)
    if manage:
        if settings_form is None:
            settings_form = SeriesForm(formdata=None, obj=series)
            settings_form.points_table.data = ", ".join(map(str, series.points_table or []))   # obj's list wins otherwise
        add_form = add_form or AddEventForm(formdata=None)
        add_form.event_id.choices = options((e.id, e.name + (f" ({e.date.isoformat()})" if e.date else ""))
                                            for e in ops.events_to_add(series, user))
    return render_template("series/series.html", series=series, manage=manage, error=error,
                           standings=ops.series_standings(series), pending=ops.pending(series) if manage else [],
                           settings_form=settings_form, add_form=add_form, action_form=DecisionForm(formdata=None),
                           scoring_words=ops.SCORING_WORDS), status


@bp.get("/series/<int:series_id>")
def series_page(series_id):
    """The series' standings, public like an event's; its organizer also manages it here."""
    return _series_page(ops.get_series(series_id))


def _owned(series_id):
    series = ops.get_series(series_id)
    ops.require_series_owner(g.get("user"), series)
    return series


@bp.post("/series/<int:series_id>/settings")
@staff_required
def update_settings(series_id):
    series = _owned(series_id)
    form = SeriesForm()
    if not form.validate_on_submit():
        return _series_page(series, form_failed(form), settings_form=form)
    try:
        ops.update_series(series, g.user, _settings(form))
    except Refused as e:
        return _series_page(series, refuse_into(form, e), settings_form=form)
    flash(_("Series settings saved: the standings below use them."))
    return redirect(url_for("series.series_page", series_id=series.id))


@bp.post("/series/<int:series_id>/events")
@staff_required
def add_event(series_id):
    series = _owned(series_id)
    form = AddEventForm()
    if not form.validate_on_submit():
        return _series_page(series, 400, error=EXPIRED)
    try:
        event = ops.add_event(series, g.user, form.event_id.data)
    except Refused as e:
        return _series_page(series, *refusal(e)[::-1])
    if event.status == "finished":
        flash(_("“%(name)s” is in the series and its places count.", name=event.name))
    else:
        flash(_("“%(name)s” is in the series: its places count once it has finished.", name=event.name))
    return redirect(url_for("series.series_page", series_id=series.id))


def _action(series, run, done):
    """`done`: the message, with %(name)s for what `run` returns."""
    if not DecisionForm().validate_on_submit():
        return _series_page(series, 400, error=EXPIRED)
    try:
        message = run()
    except Refused as e:
        return _series_page(series, *refusal(e)[::-1])
    flash(done % {"name": message})
    return redirect(url_for("series.series_page", series_id=series.id))


@bp.post("/series/<int:series_id>/events/<int:series_event_id>/remove")
@staff_required
def remove_recorded(series_id, series_event_id):
    series = _owned(series_id)
    return _action(series, lambda: ops.remove_event(series, g.user, series_event_id=series_event_id),
                   _l("“%(name)s” no longer counts in the series."))


@bp.post("/series/<int:series_id>/live/<int:event_id>/remove")
@staff_required
def remove_live(series_id, event_id):
    series = _owned(series_id)
    return _action(series, lambda: ops.remove_event(series, g.user, event_id=event_id),
                   _l("“%(name)s” is no longer in the series."))


@bp.post("/series/<int:series_id>/results/<int:result_id>/<any(same, different):answer>")
@staff_required
def decide(series_id, result_id, answer):
    series = _owned(series_id)
    same = answer == "same"
    return _action(series, lambda: ops.decide(series, g.user, result_id, same).name,
                   _l("%(name)s is counted as the same person.") if same
                   else _l("%(name)s is counted as a different person."))


@bp.get("/series/<int:series_id>/players/<int:person_id>")
def player_history(series_id, person_id):
    series = ops.get_series(series_id)
    person = ops.person_of(series, person_id)
    manage = ops.may_manage_series(g.get("user"), series)
    rows = ops.history(series, person, staff=manage)
    standing = next((r for r in ops.series_standings(series)["rows"] if r.person == person.id), None)
    return render_template("series/history.html", series=series, person=person, rows=rows, standing=standing,
                           manage=manage)


@bp.get("/series/<int:series_id>/stats")
def stats_page(series_id):
    series = ops.get_series(series_id)
    manage = ops.may_manage_series(g.get("user"), series)
    stats, counted, recorded = ops.series_stats(series, staff=manage)
    return render_template("series/stats.html", series=series, stats=stats, counted=counted, recorded=recorded,
                           manage=manage)


@bp.get("/series/<int:series_id>/export.json")
@login_required
def export_json(series_id):
    data, filename = ops.export_series(ops.get_series(series_id), g.user)
    response = send_file(io.BytesIO(data), mimetype="application/json", as_attachment=True, download_name=filename,
                         max_age=0)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/series/import", methods=["GET", "POST"])
@login_required
@upload_limit(ops.MAX_SERIES_BYTES)
def import_page():
    form = UploadForm()
    context = {"form": form, "max_mb": ops.MAX_SERIES_BYTES // 1_000_000}
    if request.method == "GET":
        return render_template("series/import.html", **context)
    if not form.validate_on_submit():
        return render_template("series/import.html", **context), form_failed(form)
    try:
        series = ops.import_series(g.user, read_upload(form))
    except Refused as e:
        message, status = refusal(e)
        return render_template("series/import.html", error=message, **context), status
    flash(_("Imported the series “%(name)s” with %(events)s and %(players)s.", name=series.name,
            events=ngettext("%(num)d event", "%(num)d events", len(series.events)),
            players=ngettext("%(num)d player", "%(num)d players", len(series.players))))
    return redirect(url_for("series.series_page", series_id=series.id))
