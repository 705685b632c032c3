"""JSON API under /api/v1/: the same operations as the web pages."""
from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from . import views  # noqa: E402,F401
from ..swaps import api as _swaps_api  # noqa: E402,F401
