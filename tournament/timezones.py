"""The event's own clock: every page and printout shows times in the event's time zone; exports keep UTC."""
from __future__ import annotations

import os
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones


def machine_zone() -> str:
    """The laptop's own zone (TZ, /etc/timezone, the /etc/localtime link), the default for a new event."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    try:
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    except OSError:
        pass
    try:
        target = os.readlink("/etc/localtime")
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    for name in candidates:
        if valid_zone(name):
            return name
    return "UTC"


def valid_zone(name) -> bool:
    """An IANA zone name; anything that is not text (a JSON object, a list) is simply not one."""
    return isinstance(name, str) and 0 < len(name) <= 64 and _zone_exists(name)


@lru_cache(maxsize=512)
def _zone_exists(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def zone_of(event) -> ZoneInfo:
    name = getattr(event, "timezone", None)
    return ZoneInfo(name) if valid_zone(name) else ZoneInfo("UTC")


def as_utc(value: datetime | None) -> datetime | None:
    """A stored time in UTC (SQLite hands times back without their zone; every stored time is UTC)."""
    if value is None:
        return None
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


def local(value: datetime | str | None, event) -> datetime | None:
    """A stored time (UTC; SQLite hands it back without a zone; an ISO string) on the event's clock."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    try:
        return as_utc(value).astimezone(zone_of(event))
    except OverflowError:           # a time at the calendar's edge stored before deadlines had a range: shown in UTC
        return as_utc(value)


def local_text(value, event, seconds: bool = False) -> str:
    """2026-12-05 10:30 CET: the date, the time and the zone's abbreviation."""
    moment = local(value, event)
    if moment is None:
        return ""
    return moment.strftime("%Y-%m-%d %H:%M:%S %Z" if seconds else "%Y-%m-%d %H:%M %Z")


def clock_text(value, event) -> str:
    """10:30:15 CET: a time of day within the event."""
    moment = local(value, event)
    return moment.strftime("%H:%M:%S %Z") if moment else ""
