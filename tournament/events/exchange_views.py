"""Import and export of players and whole events (CSV, JSON).

Routes (staff only):
    GET/POST /events/<id>/import-players   players CSV -> registrations (the event's organizer)
    GET      /events/<id>/export.json      the whole event (its organizer, or a judge)
    GET      /events/<id>/export.csv       one row per player (its organizer, or a judge)
    GET/POST /events/import                an exported JSON -> a new event of the importing organizer

Upload views read larger bodies than the app-wide MAX_CONTENT_LENGTH allows
for other forms, so they raise the request's own limit first and then check
the CSRF token themselves (they are exempt from the automatic check, which
would read the body before the limit is raised). A stale token still gets the
usual 400.
"""
from __future__ import annotations

import io
from functools import wraps

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, send_file
from flask_babel import gettext as _, lazy_gettext as _l, ngettext
from flask_wtf.file import FileField, FileRequired
from werkzeug.exceptions import RequestEntityTooLarge

from ..auth.access import login_required
from ..errors import Refused
from ..extensions import csrf
from ..web import start_over
from .exchange import MAX_EVENT_BYTES, MAX_PLAYER_ROWS, MAX_PLAYERS_BYTES
from .exchange_ops import ImportRefused, export_event, import_event, import_players
from .forms import Form
from .operations import get_event, require_staff

bp = Blueprint("exchange", __name__)

UPLOAD_SLACK = 1_000_000        # multipart overhead, and room to report a file's exact size


class UploadForm(Form):
    file = FileField(_l("File"), validators=[FileRequired(_l("Choose a file to upload."))])


def upload_limit(file_limit: int):
    """Let this view's POST body be up to ``file_limit`` + slack, then check CSRF."""
    def decorate(view):
        @wraps(view)
        def wrapped(*args, **kwargs):
            if request.method == "POST":
                request.max_content_length = file_limit + UPLOAD_SLACK
                try:
                    config = current_app.config
                    if config.get("WTF_CSRF_ENABLED", True) and config.get("WTF_CSRF_CHECK_DEFAULT", True):
                        csrf.protect()
                    request.files  # read the body now, so an oversize one is reported here  # noqa: B018
                except RequestEntityTooLarge:
                    mb = f"{file_limit / 1_000_000:.0f}"
                    raise Refused(_("The file is larger than %(mb)s MB, the limit for this upload.", mb=mb),
                                  status=413) from None
            return view(*args, **kwargs)
        csrf.exempt(wrapped)
        return wrapped
    return decorate


def _event_url(event_id: int) -> str:
    return f"/events/{event_id}"


def read_upload(form: UploadForm) -> bytes:
    form.file.data.stream.seek(0)       # a retried request reads the upload again
    return form.file.data.read()


# ----------------------------------------------------------------- players CSV

@bp.route("/events/<int:event_id>/import-players", methods=["GET", "POST"])
@login_required
@upload_limit(MAX_PLAYERS_BYTES)
def import_players_page(event_id: int):
    event = get_event(event_id)
    require_staff(g.user, event, organizer_only=True)
    form = UploadForm()
    context = {"event": event, "form": form, "max_rows": MAX_PLAYER_ROWS, "max_mb": MAX_PLAYERS_BYTES // 1_000_000}
    if request.method == "GET":
        return render_template("exchange/import_players.html", **context)
    if not form.validate_on_submit():
        return render_template("exchange/import_players.html", **context), 400
    dry_run = request.form.get("action") == "preview"
    try:
        result = import_players(event, g.user, read_upload(form), dry_run=dry_run)
    except ImportRefused as e:
        start_over()
        return render_template("exchange/import_players.html", error=e.summary, problems=e.listed,
                               more_problems=len(e.problems) - len(e.listed), **context), e.status
    except Refused as e:
        start_over()
        return render_template("exchange/import_players.html", error=e.message, **context), e.status
    if dry_run:
        return render_template("exchange/import_players.html", preview=result, **context)
    flash(ngettext("Imported %(num)d player.", "Imported %(num)d players.", len(result.registrations)))
    return redirect(_event_url(event.id))


# ----------------------------------------------------------------- exports

def _send(export):
    response = send_file(io.BytesIO(export.data), mimetype=export.mimetype, as_attachment=True,
                         download_name=export.filename, max_age=0)
    response.headers["Cache-Control"] = "no-store"      # access codes and contacts
    return response


@bp.get("/events/<int:event_id>/export.json")
@login_required
def export_json(event_id: int):
    return _send(export_event(get_event(event_id), g.user, "json"))


@bp.get("/events/<int:event_id>/export.csv")
@login_required
def export_csv(event_id: int):
    return _send(export_event(get_event(event_id), g.user, "csv"))


# ----------------------------------------------------------------- import an exported event

@bp.route("/events/import", methods=["GET", "POST"])
@login_required
@upload_limit(MAX_EVENT_BYTES)
def import_event_page():
    require_staff(g.user, organizer_only=True)
    form = UploadForm()
    context = {"form": form, "max_mb": MAX_EVENT_BYTES // 1_000_000}
    if request.method == "GET":
        return render_template("exchange/import_event.html", **context)
    if not form.validate_on_submit():
        return render_template("exchange/import_event.html", **context), 400
    try:
        result = import_event(g.user, read_upload(form))
    except ImportRefused as e:
        start_over()
        return render_template("exchange/import_event.html", error=e.summary, problems=e.listed,
                               more_problems=len(e.problems) - len(e.listed), **context), e.status
    except Refused as e:
        start_over()
        return render_template("exchange/import_event.html", error=e.message, **context), e.status
    decklists = ngettext("%(num)d decklist", "%(num)d decklists", result.decklists)
    # TRANSLATORS: %(decklists)s is "%(num)d decklist" or "%(num)d decklists", already translated
    flash(ngettext("Imported “%(name)s” with %(num)d player and %(decklists)s.",
                   "Imported “%(name)s” with %(num)d players and %(decklists)s.", result.players,
                   name=result.event.name, decklists=decklists))
    for note in result.notes:
        flash(note, "warning")
    return redirect(_event_url(result.event.id))
