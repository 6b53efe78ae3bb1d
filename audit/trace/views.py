"""The trace's pages under /audit/: the chain as a page (``/audit/trace/?payment=12``) and as a PDF
(``/audit/trace/pdf/?payment=12``), for the people ``audit.trace.build.trace_of`` lets read it."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import admin
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.exports import PDF_TYPE

from .build import trace_asked, trace_of
from .model import Trace
from .render import trace_json, trace_pdf

PAGE = "audit/trace_page.html"
REFUSED = "audit/trace_refused.html"


def _traced(request: HttpRequest) -> tuple[str, int, Trace]:
    start, pk = trace_asked(request.GET)
    return start, pk, trace_of(start=start, pk=pk, actor=request.user)


def _refused(request: HttpRequest, error: DomainError) -> HttpResponse:
    context = {**admin.site.each_context(request), "message": error.message}
    return render(request, REFUSED, context, status=error.status)


@login_required
def trace_page(request: HttpRequest) -> HttpResponse:
    try:
        start, pk, trace = _traced(request)
    except DomainError as error:
        return _refused(request, error)
    context = {**admin.site.each_context(request), "trace": trace_json(trace), "query": urlencode({start: pk})}
    return render(request, PAGE, context)


@login_required
def trace_pdf_download(request: HttpRequest) -> HttpResponse:
    try:
        start, pk, trace = _traced(request)
    except DomainError as error:
        return _refused(request, error)
    response = HttpResponse(trace_pdf(trace), content_type=PDF_TYPE)
    response["Content-Disposition"] = f'attachment; filename="trace-{start}-{pk}.pdf"'
    return response
