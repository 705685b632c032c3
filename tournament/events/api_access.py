"""Who may use an API operation, for the API views of every feature: the pages' policies (tournament.events.loading)
behind the API's own way of knowing staff (a bearer token, never the browser session), and the paging every long
list shares (limit, offset, next_offset)."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated

import pydantic

from ..timezones import as_utc
from ..web.api import by_token, optional_staff_user, staff_user
from . import loading, operations as ops

MAX_PAGE = 500


def iso_utc(value: datetime) -> str:
    """A stored time as RFC 3339 in UTC ("2026-05-01T18:30:00Z"); SQLite hands times back without their zone."""
    return as_utc(value).isoformat(timespec="seconds").replace("+00:00", "Z")


# A stored time in a response: always UTC with its zone (JSON has no time type; flask would write an HTTP date)
UtcDateTime = Annotated[datetime, pydantic.PlainSerializer(iso_utc, return_type=str),
                        pydantic.WithJsonSchema({"type": "string", "format": "date-time"})]


def shaped(model: type[pydantic.BaseModel], data: dict) -> pydantic.BaseModel:
    """The answer as its response model reads it: what the document promises, times in RFC 3339."""
    return model.model_validate(data)


staff = by_token(loading.staff)              # 401 without a token, 403 for another event's staff
organizers = by_token(loading.organizers)


def token_user(rh) -> bool:
    """Any staff account, by its token (what it may see is then decided by the operation)."""
    staff_user()
    return True


def public(rh) -> bool:
    """Everyone; a token, when one is sent, must be valid (then rh.staff says whether it runs this event)."""
    user = optional_staff_user()
    event = rh.extra.get("event")
    rh.api_user = user
    rh.staff = user is not None and event is not None and ops.staff_for(user, event) is not None
    return True


class Page(pydantic.BaseModel):
    """?limit=&offset=: one page of a long list; the answer's next_offset is the next page's (null: the last)."""
    model_config = pydantic.ConfigDict(extra="forbid")
    limit: int = pydantic.Field(100, ge=1, le=MAX_PAGE, description="At most this many items.")
    offset: int = pydantic.Field(0, ge=0, le=10_000_000, description="Skip this many items first.")


def page(items: list, query: Page) -> tuple[list, int | None]:
    """The page's items and the next page's offset (None on the last page)."""
    chunk = items[query.offset:query.offset + query.limit]
    end = query.offset + len(chunk)
    return chunk, (end if end < len(items) else None)
