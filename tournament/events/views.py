from flask import Blueprint, g, render_template

from ..auth.access import login_required
from .operations import events_for

bp = Blueprint("events", __name__)


@bp.get("/events")
@login_required
def list_events():
    return render_template("events/list.html", events=events_for(g.user))
