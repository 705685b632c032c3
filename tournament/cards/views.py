from flask import Blueprint, render_template, request

from ..events.listing import current_events
from ..web.handler import handler
from .operations import card_status
from .repository import DbCardPool

bp = Blueprint("cards", __name__)


@bp.get("/")
@handler()
def index(rh):
    """The first page: the events open for registration or under way (their registration and standings
    links), the card database status and a card search with did-you-mean."""
    query = (request.args.get("q") or "").strip()[:200]
    card = suggestions = None
    if query:
        pool = DbCardPool()
        card = pool.get(query)
        if card is None:
            suggestions = pool.suggest(query)
    return render_template("cards/index.html", status=card_status(), query=query, card=card,
                           suggestions=suggestions, events=current_events())
