"""``{% trace_link "payment" original %}`` (or ``{% trace_link_for original %}``): the link from a
document's admin page to its trace, shown to whoever may read that trace (compliance and finance; a cage
cashier on a payment they made)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode

from casino_backoffice.staff.permissions import Action, may

from ..trace.build import PAYMENTS, STARTS

register = template.Library()


@register.simple_tag(takes_context=True)
def trace_link(context: Any, start: str, document: Any) -> str:
    user = context["request"].user
    if document is None or not (may(user, Action.TRACE_READ) or _own_payment(user, start, document)):
        return ""
    url = f"{reverse('audit:trace')}?{urlencode({start: document.pk})}"
    return format_html('<li><a href="{}" class="trace-link">Trace of this dollar</a></li>', url)


@register.simple_tag(takes_context=True)
def trace_link_for(context: Any, document: Any) -> str:
    """The trace link of a document of any kind a trace starts from (``STARTS``), named by its model: the
    admin's object tools of those pages (``admin/<app>/<model>/change_form_object_tools.html``)."""
    start = next((name for name, model in STARTS.items() if isinstance(document, model)), None)
    return trace_link(context, start, document) if start is not None else ""


def _own_payment(user: Any, start: str, document: Any) -> bool:
    return start in PAYMENTS and may(user, Action.TRACE_OPEN) and getattr(document, "paid_by_id", None) == user.pk
