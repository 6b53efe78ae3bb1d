"""A trace's faces: its canonical JSON and that JSON's SHA-256, its page and its PDF (issue 29, item 2).

The JSON is the content (``serializers.TraceContentOutput``) with its keys sorted, no spaces, UTF-8; the
SHA-256 is of those bytes. The PDF prints that hash and the same amounts, so a regulator holding both
checks one against the other: the evidence package for one dollar.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from casino_backoffice.core.exports import pdf_bytes

from .model import Trace
from .serializers import content_data


def trace_json(trace: Trace) -> dict[str, Any]:
    """The trace's content as plain JSON values, keys sorted (the API's body without its hash)."""
    loaded: dict[str, Any] = json.loads(trace_canonical_bytes(trace))
    return loaded


def trace_canonical_bytes(trace: Trace) -> bytes:
    """The bytes the SHA-256 is of: the content, keys sorted, no spaces, UTF-8."""
    return json.dumps(content_data(trace), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def trace_sha256(trace: Trace) -> str:
    return hashlib.sha256(trace_canonical_bytes(trace)).hexdigest()


def trace_context(trace: Trace, *, printed_by: str = "") -> dict[str, Any]:
    """What the page and the PDF show: the steps in order, the checks, the hash."""
    return {
        "trace": trace,
        "steps": trace.steps(),
        "sha256": trace_sha256(trace),
        "printed_at": timezone.now(),
        "printed_by": printed_by,
        "title": f"Trace of {trace.start.replace(':', ' ')}",
    }


def trace_pdf(trace: Trace, *, printed_by: str = "") -> bytes:
    """The trace as a signed-documents PDF, with the SHA-256 of its canonical JSON printed on it."""
    return pdf_bytes(render_to_string("audit/trace_pdf.html", trace_context(trace, printed_by=printed_by)))
