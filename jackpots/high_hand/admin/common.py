"""What the High Hand's admin pages share: the read-only base and a period in words and as a link."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from casino_backoffice.core.admin import ReadOnlyAdmin
from casino_backoffice.core.clock import local_text
from casino_backoffice.staff.permissions import Action, may
from jackpots.high_hand.models import HighHandPeriod


def period_named(period: HighHandPeriod) -> str:
    """The period by its fund and its start on the room's clock: 'hh 2026-11-30 18:00' (the period's
    jackpot and room selected)."""
    return f"{period.jackpot.code} {local_text(period.starts_at, period.room)}"


def period_link(period: HighHandPeriod) -> str:
    return format_html(
        '<a href="{}" style="white-space: nowrap">{}</a>',
        reverse("admin:jackpots_highhandperiod_change", args=[period.pk]),
        period_named(period),
    )


class HighHandAdmin(ReadOnlyAdmin):
    """High Hand documents and money rows: read by the back office (``Action.HIGH_HAND_RECORDS_READ``),
    never added, changed nor deleted here; services are their only writers."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) and may(request.user, Action.HIGH_HAND_RECORDS_READ)
