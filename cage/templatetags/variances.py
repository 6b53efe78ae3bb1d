"""Variances in templates, in words and sign: ``{% load variances %}{{ count.variance_cents|variance }}``
-> 'over +$71.10', 'short -$2,295.00', 'none $0.00' (``cage.models.display_variance``)."""

from __future__ import annotations

from typing import Any

from django import template

from ..models import display_variance

register = template.Library()


@register.filter
def variance(cents: Any) -> str:
    """Cents of a variance (counted less expected) as people read it; nothing for no amount."""
    if cents is None or cents == "":
        return ""
    return display_variance(int(cents))
