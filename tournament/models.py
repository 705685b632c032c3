"""Every feature's models, imported in one place so migrations see them all."""
from .auth.models import ApiToken, User  # noqa: F401
from .web.throttle import rate_limit  # noqa: F401
from .cards.models import Card, CardImport, CardName  # noqa: F401
from .events.models import AuditEntry, Decklist, Event, EventStaff, Registration  # noqa: F401
from .rounds.models import (DuelGame, GameTable, PrizeClaim, ResultConfirmation, ResultReport, Round, Seat,  # noqa: F401
                            SentForm, Vote)  # noqa: F401
from .swaps.models import DeckVersion, Swap, SwapWindow  # noqa: F401
from .games.models import TrackerEvent, TrackerGame  # noqa: F401
from .series.models import Series, SeriesEvent, SeriesPlayer, SeriesResult  # noqa: F401
from .penalties.models import Penalty  # noqa: F401
