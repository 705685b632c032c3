"""Download routes for printouts (organizer and judges).

    GET /events/<id>/print                         the list of documents
    GET /events/<id>/print/<document>.pdf?round=N  one document as PDF
        &table=T                                   result slips: that table's only
        &lang=ja                                   in en, ja, zh_Hans or cs (default: the event's language,
                                                   else English; never the browser's)
    POST /events/<id>/print/address                the address phones open (QR codes, player links)
"""
from __future__ import annotations

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..events import loading, operations as events
from ..events.forms import AddressForm
from ..auth.access import staff_required
from ..web import links
from ..web.handler import handler
from ..rounds import operations as rounds
from . import operations as ops
from .documents import DOCUMENTS

bp = Blueprint("printing", __name__)


@bp.get("/events/<int:event_id>/print")
@staff_required
@handler(load=loading.event, policy=loading.staff)
def index(rh):
    return _index(rh)


def _index(rh, status=200):
    """The documents, and the address their QR codes and links start with (where it comes from, and a form to
    set it unless the server's PUBLIC_URL does)."""
    event = rh.event
    form = rh.form
    if form is None:
        form = AddressForm(formdata=None)
        form.public_url.data = event.public_url or ""
    address = events.public_base(event)
    source = ("configured" if links.configured() else "event" if event.public_url else
              "detected" if links.detected() else "none")
    return render_template("printing/index.html", event=event, documents=list(DOCUMENTS.values()),
                           rounds=rounds.rounds_of(event), address=address, address_source=source,
                           address_ok=links.reachable(address), address_form=form), status


@bp.post("/events/<int:event_id>/print/address")
@staff_required
@handler(load=loading.event, policy=loading.staff, form=lambda rh: AddressForm(),
         refused=lambda rh, e: _index(rh, e.status))
def set_address(rh):
    """Staff set the address phones open: receipts and the poster work at once, no restart."""
    address = events.set_public_address(rh.event, rh.user, rh.form.public_url.data)
    if address:
        flash(_("QR codes and player links now start with %(url)s.", url=address))
    else:
        flash(_("QR codes and player links use the address the server found at start again."))
    return redirect(url_for("printing.index", event_id=rh.event.id) + "#address")


@bp.get("/events/<int:event_id>/print/<document>.pdf")
@staff_required
@handler(load=loading.event, policy=loading.staff)
def download(rh):
    pdf, filename = ops.build_document(rh.event, rh.url["document"], request.args.get("round"),
                                       language=request.args.get("lang"), table=request.args.get("table"))
    response = Response(pdf, mimetype="application/pdf")
    disposition = "attachment" if request.args.get("download") else "inline"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response
