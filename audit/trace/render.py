"""A trace as JSON, as a PDF and as a page: one canonical content, its SHA-256 printed on each.

The JSON is the content itself (money in cents and in dollars, times on the room's clock with its zone);
``trace_sha256`` is the SHA-256 of its canonical bytes (keys sorted, no spaces, UTF-8). The PDF and the
page are rendered from the same content and print that hash, so a regulator holding the PDF can ask the
API for the JSON and check that both say the same.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from typing import Any

from django.template.loader import render_to_string

from casino_backoffice.core.exports import pdf_bytes
from casino_backoffice.money import display_cents

from .model import Check, Link, Trace

TEMPLATE = "audit/trace_pdf.html"


def _dollars(cents: int | None) -> str | None:
    return None if cents is None else display_cents(cents)


def _link(link: Link) -> dict[str, Any]:
    return {
        "kind": link.kind,
        "id": link.id,
        "label": link.label,
        "amount_cents": link.amount_cents,
        "amount": _dollars(link.amount_cents),
        "at": link.at,
        "details": [list(pair) for pair in link.details],
        "transfers": [{**asdict(posted), "amount": _dollars(posted.amount_cents)} for posted in link.transfers],
        "signatures": [asdict(signed) for signed in link.signatures],
    }


def _check(check: Check) -> dict[str, Any]:
    return {
        "step": check.step,
        "what": check.what,
        "expected_cents": check.expected_cents,
        "actual_cents": check.actual_cents,
        "difference_cents": check.difference_cents,
        "reconciles": check.reconciles,
        "explanation": check.explanation,
    }


def trace_content(trace: Trace) -> dict[str, Any]:
    """The trace as plain data: what the JSON answers and the PDF and page show."""
    return {
        "start": trace.start,
        "room": trace.room,
        "zone": trace.zone,
        "reconciles": trace.reconciles,
        "steps": [{"step": step, "links": [_link(link) for link in links]} for step, links in trace.steps()],
        "checks": [_check(check) for check in trace.checks],
    }


def canonical_bytes(content: dict[str, Any]) -> bytes:
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def trace_sha256(trace: Trace) -> str:
    return hashlib.sha256(canonical_bytes(trace_content(trace))).hexdigest()


def trace_json(trace: Trace) -> dict[str, Any]:
    """The JSON of a trace: its content and the SHA-256 of that content."""
    content = trace_content(trace)
    return {**content, "sha256": hashlib.sha256(canonical_bytes(content)).hexdigest()}


def trace_pdf(trace: Trace) -> bytes:
    """The trace as the PDF a regulator keeps, its content's SHA-256 printed on every page."""
    return pdf_bytes(render_to_string(TEMPLATE, {"trace": trace_json(trace)}))
