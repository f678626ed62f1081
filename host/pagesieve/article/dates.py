"""Dates as pages write them, normalised to ISO 8601 (:func:`normalize_date`), and the date an
address holds (:func:`date_in_url`)."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime


_ISO = re.compile(
    r"^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})"
    r"(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?"
)
_COMPACT = re.compile(r"^\s*(\d{4})(\d{2})(\d{2})(?:T?(\d{2})(\d{2})(\d{2})?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$")
_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}
_MONTH_DAY_YEAR = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")
_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\.?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b")
_URL_DATE = re.compile(r"/((?:19|20)\d{2})/(0[1-9]|1[0-2])/(0[1-9]|[12]\d|3[01])(?:/|$)")


def _format(year: int, month: int, day: int, hour=None, minute=None, second=None, tz=None) -> str | None:
    try:
        if hour is None:
            return datetime(year, month, day).date().isoformat()
        moment = datetime(year, month, day, int(hour), int(minute), int(second or 0))
    except (ValueError, TypeError):
        return None
    text = moment.isoformat()
    if tz:
        if tz == "Z":
            return text + "Z"
        tz = tz.replace(":", "")
        if len(tz) == 3:
            tz += "00"
        return f"{text}{tz[:3]}:{tz[3:5]}"
    return text


def normalize_date(value: str) -> str | None:
    """Normalise a date string found in a page to ISO 8601.

    Args:
        value: e.g. ``"2015-03-10T10:00:00+0000"``, ``"2015/03/10"``, ``"20150310"``,
            ``"Tue, 10 Mar 2015 10:00:00 GMT"`` (RFC 2822), ``"March 10, 2015"``.

    Returns:
        ``"YYYY-MM-DDTHH:MM:SS[+HH:MM|Z]"`` when a time of day is given, else ``"YYYY-MM-DD"``;
        ``None`` when nothing valid is recognised. Years outside 1990-2100 are refused.
    """
    if not isinstance(value, str):
        return None
    value = value.strip()[:80]
    if not value:
        return None
    result = None
    match = _ISO.match(value) or _COMPACT.match(value)
    if match:
        year, month, day, hour, minute, second, tz = match.groups()
        result = _format(int(year), int(month), int(day), hour, minute, second, tz)
    if result is None and "," in value and ":" in value:
        try:
            moment = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            moment = None
        if moment is not None:
            if moment.tzinfo is not None and moment.utcoffset() == timezone.utc.utcoffset(None):
                result = moment.replace(tzinfo=None).isoformat() + "Z"
            else:
                result = moment.isoformat()
    if result is None:
        match = _MONTH_DAY_YEAR.search(value)
        if match and match.group(1)[:3].lower() in _MONTHS:
            result = _format(int(match.group(3)), _MONTHS[match.group(1)[:3].lower()], int(match.group(2)))
        else:
            match = _DAY_MONTH_YEAR.search(value)
            if match and match.group(2)[:3].lower() in _MONTHS:
                result = _format(int(match.group(3)), _MONTHS[match.group(2)[:3].lower()], int(match.group(1)))
    if result is None or not 1990 <= int(result[:4]) <= 2100:
        return None
    return result





def date_in_url(url: str) -> str | None:
    """The date of a clear ``/YYYY/MM/DD/`` path in ``url`` (years 1900-2099), ``YYYY-MM-DD``; else ``None``."""
    match = _URL_DATE.search(url)
    if match:
        return _format(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    return None
