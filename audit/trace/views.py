"""The trace's pages under /audit/: ``/audit/trace/?payment=12`` in the admin's style, and its PDF
(``/audit/trace/pdf/?payment=12``). Who may read which trace is ``build.trace_of``'s to say; a refusal is
shown with its status (400 asked wrongly, 403 not theirs, 404 not in their rooms)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, QueryDict
from django.template.response import TemplateResponse
from django.utils.http import urlencode

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.exports import PDF_TYPE
from casino_backoffice.staff.auth import acting_user

from .build import STARTS, trace_asked, trace_of
from .collect import person
from .model import Trace
from .render import trace_context, trace_pdf


def _asked(query: QueryDict) -> dict[str, str]:
    """The query as ``{start: id}``: ``?payment=12``, or the page's own form (``?start=payment&id=12``)."""
    if "start" in query:
        return {query.get("start", ""): query.get("id", "")}
    return {name: str(value) for name, value in query.items()}


def _trace(request: HttpRequest) -> tuple[Trace, str, int]:
    start, pk = trace_asked(_asked(request.GET))
    return trace_of(start=start, pk=pk, actor=acting_user(request)), start, pk


def trace_page(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {**admin.site.each_context(request), "title": "Trace of a dollar", "starts": list(STARTS)}
    status = 200
    if request.GET:
        try:
            trace, start, pk = _trace(request)
        except DomainError as error:
            context["error"], status = error.message, error.status
        else:
            context |= trace_context(trace, printed_by=person(acting_user(request)))
            context |= {"start": start, "pk": pk, "query": urlencode({start: pk})}
    return TemplateResponse(request, "audit/trace.html", context, status=status)


def trace_pdf_download(request: HttpRequest) -> HttpResponse:
    try:
        trace, start, pk = _trace(request)
    except DomainError as error:
        return HttpResponse(error.message, status=error.status, content_type="text/plain; charset=utf-8")
    response = HttpResponse(trace_pdf(trace, printed_by=person(acting_user(request))), content_type=PDF_TYPE)
    response["Content-Disposition"] = f'attachment; filename="trace-{trace.room}-{start}-{pk}.pdf"'
    return response
