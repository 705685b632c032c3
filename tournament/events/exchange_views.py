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

from flask import Blueprint, current_app, flash, redirect, render_template, request, send_file
from flask_babel import gettext as _, lazy_gettext as _l, ngettext
from flask_wtf.file import FileField, FileRequired
from werkzeug.exceptions import RequestEntityTooLarge

from ..auth.access import login_required
from ..errors import Refused
from ..extensions import csrf
from ..web.handler import FormRefused, handler
from . import loading
from .exchange import MAX_EVENT_BYTES, MAX_PLAYER_ROWS, MAX_PLAYERS_BYTES
from .exchange_ops import ImportRefused, export_event, import_event, import_players
from .forms import Form

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


def _upload_form(rh) -> UploadForm:
    return UploadForm()


def _import_page(template: str, context: dict, e: Refused | None = None, **shown):
    """An import page; after a refusal with what was wrong (every problem of the file, for an import's),
    nothing stored. A form that did not validate shows its errors next to its field."""
    if e is None:
        return render_template(template, **shown, **context)
    if isinstance(e, ImportRefused):
        shown.update(error=e.summary, problems=e.listed, more_problems=len(e.problems) - len(e.listed))
    elif not isinstance(e, FormRefused):
        shown.update(error=e.message)
    return render_template(template, **shown, **context), e.status


def read_upload(form: UploadForm) -> bytes:
    form.file.data.stream.seek(0)       # a retried request reads the upload again
    return form.file.data.read()


# ----------------------------------------------------------------- players CSV

def _players_context(rh) -> dict:
    return {"event": rh.event, "form": rh.form, "max_rows": MAX_PLAYER_ROWS,
            "max_mb": MAX_PLAYERS_BYTES // 1_000_000}


@bp.route("/events/<int:event_id>/import-players", methods=["GET", "POST"])
@login_required
@upload_limit(MAX_PLAYERS_BYTES)
@handler(load=loading.event, policy=loading.organizers, form=_upload_form,
         refused=lambda rh, e: _import_page("exchange/import_players.html", _players_context(rh), e))
def import_players_page(rh):
    if request.method == "GET":
        return _import_page("exchange/import_players.html", _players_context(rh))
    dry_run = request.form.get("action") == "preview"
    result = import_players(rh.event, rh.user, read_upload(rh.form), dry_run=dry_run)
    if dry_run:
        return _import_page("exchange/import_players.html", _players_context(rh), preview=result)
    flash(ngettext("Imported %(num)d player.", "Imported %(num)d players.", len(result.registrations)))
    return redirect(_event_url(rh.event.id))


# ----------------------------------------------------------------- exports

def _send(export):
    response = send_file(io.BytesIO(export.data), mimetype=export.mimetype, as_attachment=True,
                         download_name=export.filename, max_age=0)
    response.headers["Cache-Control"] = "no-store"      # access codes and contacts
    return response


@bp.get("/events/<int:event_id>/export.json")
@login_required
@handler(load=loading.event, policy=loading.staff)
def export_json(rh):
    return _send(export_event(rh.event, rh.user, "json"))


@bp.get("/events/<int:event_id>/export.csv")
@login_required
@handler(load=loading.event, policy=loading.staff)
def export_csv(rh):
    return _send(export_event(rh.event, rh.user, "csv"))


# ----------------------------------------------------------------- import an exported event

def _event_import_context(rh) -> dict:
    return {"form": rh.form, "max_mb": MAX_EVENT_BYTES // 1_000_000}


@bp.route("/events/import", methods=["GET", "POST"])
@login_required
@upload_limit(MAX_EVENT_BYTES)
@handler(policy=loading.organizer_account, form=_upload_form,
         refused=lambda rh, e: _import_page("exchange/import_event.html", _event_import_context(rh), e))
def import_event_page(rh):
    if request.method == "GET":
        return _import_page("exchange/import_event.html", _event_import_context(rh))
    result = import_event(rh.user, read_upload(rh.form))
    decklists = ngettext("%(num)d decklist", "%(num)d decklists", result.decklists)
    # TRANSLATORS: %(decklists)s is "%(num)d decklist" or "%(num)d decklists", already translated
    flash(ngettext("Imported “%(name)s” with %(num)d player and %(decklists)s.",
                   "Imported “%(name)s” with %(num)d players and %(decklists)s.", result.players,
                   name=result.event.name, decklists=decklists))
    for note in result.notes:
        flash(note, "warning")
    return redirect(_event_url(result.event.id))
