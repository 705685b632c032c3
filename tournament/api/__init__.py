"""JSON API under /api/v1/: the same operations as the web pages, on the one blueprint tournament.web.api.bp.
Each feature declares its routes there (tournament.web.api.operation); importing them registers them."""
from ..web.api import bp

from . import views  # noqa: E402,F401
from ..events import export_api, open_data_api  # noqa: E402,F401
from ..ratings import api as ratings_api  # noqa: E402,F401
from ..games import api as games_api  # noqa: E402,F401
from ..rounds import api as rounds_api  # noqa: E402,F401
from ..series import api as series_api  # noqa: E402,F401
from ..swaps import api as swaps_api  # noqa: E402,F401
from ..penalties import api as penalties_api  # noqa: E402,F401

__all__ = ["bp"]
