"""``{% day_seal original as seal %}``: the seal of a closed gaming day's package (``audit.package.seal``),
for the close's admin page, with the package's URL for whoever may download it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template
from django.urls import reverse

from casino_backoffice.staff.permissions import Action, may

from ..models import DayPackageSeal

register = template.Library()


@dataclass(frozen=True)
class SealShown:
    seal: DayPackageSeal | None
    package_url: str  # empty when the person may not download it


@register.simple_tag(takes_context=True)
def day_seal(context: Any, close: Any) -> SealShown | None:
    if close is None or close.pk is None:
        return None
    seal = DayPackageSeal.objects.filter(close=close).first()
    url = ""
    if may(context["request"].user, Action.DAY_PACKAGE_READ):
        url = reverse("audit:day_package", args=[close.room_id, close.gaming_day.isoformat()])
    return SealShown(seal=seal, package_url=url)
