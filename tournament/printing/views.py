"""Download routes for printouts (organizer and judges).

    GET /events/<id>/print                         the list of documents
    GET /events/<id>/print/<document>.pdf?round=N  one document as PDF
        &lang=ja                                   in en, ja, zh_Hans or cs (default: the event's language,
                                                   else English; never the browser's)
"""
from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from ..events import loading
from ..auth.access import staff_required
from ..web.handler import handler
from ..rounds import operations as rounds
from . import operations as ops
from .documents import DOCUMENTS

bp = Blueprint("printing", __name__)


@bp.get("/events/<int:event_id>/print")
@staff_required
@handler(load=loading.event, policy=loading.staff)
def index(rh):
    return render_template("printing/index.html", event=rh.event, documents=list(DOCUMENTS.values()),
                           rounds=rounds.rounds_of(rh.event))


@bp.get("/events/<int:event_id>/print/<document>.pdf")
@staff_required
@handler(load=loading.event, policy=loading.staff)
def download(rh):
    pdf, filename = ops.build_document(rh.event, rh.url["document"], request.args.get("round"),
                                       language=request.args.get("lang"))
    response = Response(pdf, mimetype="application/pdf")
    disposition = "attachment" if request.args.get("download") else "inline"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response
