"""Web pages for series: the organizer's list, a series' standings (public) with its management, a player's
history, the series' stats, its export and import. Thin, like the other features' views: each declares through
tournament.web.handler what its URL loads, who may use it, the form it reads and how a refusal renders."""
from __future__ import annotations

import io

from flask import Blueprint, flash, g, redirect, render_template, request, send_file, url_for
from flask_babel import gettext as _, ngettext

from ..auth.access import login_required, staff_required
from ..events.exchange_views import UploadForm, read_upload, upload_limit
from ..web import EXPIRED
from ..web.handler import FormRefused, handler
from . import loading, operations as ops
from ..events.forms import options
from .forms import AddEventForm, DecisionForm, SeriesForm
from ..ratings import operations as rating_ops

bp = Blueprint("series", __name__)

SERIES = (loading.series,)


def _settings(form: SeriesForm) -> dict:
    return {"name": form.name.data, "scoring": form.scoring.data, "points_table": form.points_table.data or "",
            "attendance_points": form.attendance_points.data}


def _to_series(rh):
    return redirect(url_for("series.series_page", series_id=rh.series.id))


# ----------------------------------------------------------------- the organizer's list

def _on_list_refused(rh, e):
    return render_template("series/list.html", series=ops.series_of(rh.user), form=rh.form), e.status


@bp.route("/series", methods=["GET", "POST"])
@staff_required
@handler(form=lambda rh: SeriesForm(), refused=_on_list_refused)
def list_series(rh):
    if request.method == "POST":
        series = ops.create_series(rh.user, _settings(rh.form))
        flash(_("Series “%(name)s” created: add its events below.", name=series.name))
        return redirect(url_for("series.series_page", series_id=series.id))
    return render_template("series/list.html", series=ops.series_of(rh.user), form=rh.form)


# ----------------------------------------------------------------- a series' page and its management

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
                           scoring_words=ops.SCORING_WORDS, ratings=rating_ops.series_ratings(series)), status


def _on_series_page(rh, e):
    """A button or the add-event form refused: the series page with the message at its top (a form that did not
    validate is an expired one: these forms are a choice or a button and their CSRF token)."""
    if isinstance(e, FormRefused):
        return _series_page(rh.series, 400, error=EXPIRED)
    return _series_page(rh.series, e.status, error=e.message)


def _on_settings_refused(rh, e):
    return _series_page(rh.series, e.status, settings_form=rh.form)


def series_action(form=lambda rh: DecisionForm()):
    """A management button or form of a series' page (its organizer only), a refusal shown on that page."""
    return handler(load=SERIES, policy=loading.owner, form=form, refused=_on_series_page)


@bp.get("/series/<int:series_id>")
@handler(load=SERIES)
def series_page(rh):
    """The series' standings, public like an event's; its organizer also manages it here."""
    return _series_page(rh.series)


@bp.post("/series/<int:series_id>/settings")
@staff_required
@handler(load=SERIES, policy=loading.owner, form=lambda rh: SeriesForm(), refused=_on_settings_refused)
def update_settings(rh):
    ops.update_series(rh.series, rh.user, _settings(rh.form))
    flash(_("Series settings saved: the standings below use them."))
    return _to_series(rh)


@bp.post("/series/<int:series_id>/events")
@staff_required
@series_action(form=lambda rh: AddEventForm())
def add_event(rh):
    event = ops.add_event(rh.series, rh.user, rh.form.event_id.data)
    if event.status == "finished":
        flash(_("“%(name)s” is in the series and its places count.", name=event.name))
    else:
        flash(_("“%(name)s” is in the series: its places count once it has finished.", name=event.name))
    return _to_series(rh)


@bp.post("/series/<int:series_id>/events/<int:series_event_id>/remove")
@staff_required
@series_action()
def remove_recorded(rh):
    name = ops.remove_event(rh.series, rh.user, series_event_id=rh.url["series_event_id"])
    flash(_("“%(name)s” no longer counts in the series.", name=name))
    return _to_series(rh)


@bp.post("/series/<int:series_id>/live/<int:event_id>/remove")
@staff_required
@series_action()
def remove_live(rh):
    name = ops.remove_event(rh.series, rh.user, event_id=rh.url["event_id"])
    flash(_("“%(name)s” is no longer in the series.", name=name))
    return _to_series(rh)


@bp.post("/series/<int:series_id>/results/<int:result_id>/<any(same, different):answer>")
@staff_required
@series_action()
def decide(rh):
    same = rh.url["answer"] == "same"
    name = ops.decide(rh.series, rh.user, rh.url["result_id"], same).name
    flash(_("%(name)s is counted as the same person.", name=name) if same
          else _("%(name)s is counted as a different person.", name=name))
    return _to_series(rh)


# ----------------------------------------------------------------- a player's history, stats, export and import

@bp.get("/series/<int:series_id>/players/<int:person_id>")
@handler(load=(*SERIES, loading.person))
def player_history(rh):
    series, person = rh.series, rh.person
    manage = ops.may_manage_series(rh.user, series)
    rows = ops.history(series, person, staff=manage)
    standing = next((r for r in ops.series_standings(series)["rows"] if r.person == person.id), None)
    rating = next((r for r in rating_ops.series_ratings(series) if r["player"] == person.id), None)
    return render_template("series/history.html", series=series, person=person, rows=rows, standing=standing,
                           manage=manage, rating=rating,
                           server_rating=rating_ops.server_rating_of(person.player_id, person.search_key))


@bp.get("/series/<int:series_id>/stats")
@handler(load=SERIES)
def stats_page(rh):
    series = rh.series
    manage = ops.may_manage_series(rh.user, series)
    stats, counted, recorded = ops.series_stats(series, staff=manage)
    return render_template("series/stats.html", series=series, stats=stats, counted=counted, recorded=recorded,
                           manage=manage)


@bp.get("/series/<int:series_id>/export.json")
@login_required
@handler(load=SERIES, policy=loading.owner)
def export_json(rh):
    data, filename = ops.export_series(rh.series, rh.user)
    response = send_file(io.BytesIO(data), mimetype="application/json", as_attachment=True, download_name=filename,
                         max_age=0)
    response.headers["Cache-Control"] = "no-store"
    return response


def _import_page(form, status=200, error=None):
    return render_template("series/import.html", form=form, error=error,
                           max_mb=ops.MAX_SERIES_BYTES // 1_000_000), status


def _on_import_refused(rh, e):
    # a form that did not validate shows its errors next to the file field; the import's refusal at the top
    return _import_page(rh.form, e.status, error=None if isinstance(e, FormRefused) else e.message)


@bp.route("/series/import", methods=["GET", "POST"])
@login_required
@upload_limit(ops.MAX_SERIES_BYTES)
@handler(form=lambda rh: UploadForm(), refused=_on_import_refused)
def import_page(rh):
    if request.method == "GET":
        return _import_page(rh.form)
    series = ops.import_series(rh.user, read_upload(rh.form))
    flash(_("Imported the series “%(name)s” with %(events)s and %(players)s.", name=series.name,
            events=ngettext("%(num)d event", "%(num)d events", len(series.events)),
            players=ngettext("%(num)d player", "%(num)d players", len(series.players))))
    return redirect(url_for("series.series_page", series_id=series.id))
