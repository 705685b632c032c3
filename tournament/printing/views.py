"""Download routes for printouts (organizer and judges).

    GET /events/<id>/print                         the list of documents
    GET /events/<id>/print/<document>.pdf?round=N  one document as PDF
        &lang=ja                                   in en, ja, zh_Hans or cs (default: the event's language,
                                                   else English; never the browser's)
"""
from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from ..web import staff_event, staff_required
from ..rounds import operations as rounds
from . import operations as ops
from .documents import DOCUMENTS

bp = Blueprint("printing", __name__)


@bp.get("/events/<int:event_id>/print")
@staff_required
def index(event_id):
    event = staff_event(event_id)
    return render_template("printing/index.html", event=event, documents=list(DOCUMENTS.values()),
                           rounds=rounds.rounds_of(event))


@bp.get("/events/<int:event_id>/print/<document>.pdf")
@staff_required
def download(event_id, document):
    event = staff_event(event_id)
    pdf, filename = ops.build_document(event, document, request.args.get("round"),
                                       language=request.args.get("lang"))
    response = Response(pdf, mimetype="application/pdf")
    disposition = "attachment" if request.args.get("download") else "inline"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response
