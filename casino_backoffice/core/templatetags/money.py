"""Money in templates, as people read it: ``{% load money %}{{ count.counted_cents|money }}`` -> $1,234.56."""

from __future__ import annotations

from typing import Any

from django import template

from casino_backoffice.money import display_cents, display_percent

register = template.Library()


@register.filter
def money(cents: Any) -> str:
    """Cents (an int, or its text) as dollars and cents; nothing for no amount."""
    if cents is None or cents == "":
        return ""
    return display_cents(int(cents))


@register.filter
def chip(cents: Any) -> str:
    """A chip's denomination in cents as people name it: 2500 -> $25."""
    return display_cents(int(cents)).removesuffix(".00")


@register.filter
def percent(rate_bp: Any) -> str:
    """Basis points as people read a rate: 1000 -> 10%."""
    return display_percent(int(rate_bp))
