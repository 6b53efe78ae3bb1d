"""``{% trace_link "payment" original %}``: the link from a document's admin page to its trace, shown to
whoever may read that trace (compliance and finance; a cage cashier on a payment they made)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode

from casino_backoffice.staff.permissions import Action, may

from ..trace.build import PAYMENTS

register = template.Library()


@register.simple_tag(takes_context=True)
def trace_link(context: Any, start: str, document: Any) -> str:
    user = context["request"].user
    if document is None or not (may(user, Action.TRACE_READ) or _own_payment(user, start, document)):
        return ""
    url = f"{reverse('audit:trace')}?{urlencode({start: document.pk})}"
    return format_html('<li><a href="{}" class="trace-link">Trace of this dollar</a></li>', url)


def _own_payment(user: Any, start: str, document: Any) -> bool:
    return start in PAYMENTS and may(user, Action.TRACE_OPEN) and getattr(document, "paid_by_id", None) == user.pk
