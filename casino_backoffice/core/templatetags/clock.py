"""Moments on a page read on the room's clock (``core.clock``), never the site's: ``{% load clock %}``
then ``{{ count.counted_at|on_clock:count.box.room }}`` ("21:14 EST") or ``|on_clock_zoned:room``
("2026-12-03 21:14 EST"), ``|on_clock_second:room`` ("2026-12-03 21:14:05 EST", a signature's time)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template

from casino_backoffice.core.clock import HOUR_MINUTE_ZONED, ZONED, ZONED_SECOND, local_text

register = template.Library()


@register.filter
def on_clock(at: datetime | None, where: Any) -> str:
    """The hour and minute of ``at`` on the clock of ``where`` (a room, or a zone's name), with the
    zone's abbreviation: a tablet of one room and a back office of several read the same words."""
    return local_text(at, where or None, HOUR_MINUTE_ZONED)


@register.filter
def on_clock_zoned(at: datetime | None, where: Any) -> str:
    """``at`` on the clock of ``where``, dated and with the zone's abbreviation."""
    return local_text(at, where or None, ZONED)


@register.filter
def on_clock_second(at: datetime | None, where: Any) -> str:
    """``at`` on the clock of ``where`` to the second, dated and with the zone's abbreviation."""
    return local_text(at, where or None, ZONED_SECOND)
