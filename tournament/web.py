"""Every refusal becomes a clear 4xx page or JSON message, never a 500 for bad input."""
from __future__ import annotations

from flask import jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from .errors import Refused
from .extensions import db


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def error_response(message: str, status: int, field: str | None = None):
    db.session.rollback()
    if wants_json():
        body = {"error": {"status": status, "message": message}}
        if field:
            body["error"]["field"] = field
        return jsonify(body), status
    return render_template("error.html", message=message, status=status), status


def register_error_handlers(app) -> None:
    @app.errorhandler(Refused)
    def refused(e: Refused):
        return error_response(e.message, e.status, e.field)

    @app.errorhandler(CSRFError)
    def csrf_error(e: CSRFError):
        return error_response("This form has expired or did not come from this site. Reload the page and "
                              "try again.", 400)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        messages = {
            400: "The request could not be read.",
            404: "There is nothing at this address.",
            405: "This address does not accept that kind of request.",
            413: "What you sent is too large.",
            429: "Too many requests; wait a moment and try again.",
        }
        return error_response(messages.get(e.code, e.description or e.name), e.code or 500)
