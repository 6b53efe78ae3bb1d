"""The audit's refusals: a trace asked wrongly, of nothing, or of what the person may not read."""

from __future__ import annotations

from casino_backoffice.core.exceptions import CoreErrorCode, DomainError, ErrorCode


class AuditErrorCode(ErrorCode):
    TRACE_ASKED_WRONGLY = "trace_asked_wrongly"
    NOT_YOUR_PAYMENT = "not_your_payment"


class TraceAskedWrongly(DomainError):
    """Not exactly one document to trace from: HTTP 400."""

    code = AuditErrorCode.TRACE_ASKED_WRONGLY


class TraceNotFound(DomainError):
    """No such document in the person's rooms (another room's is not there for them): HTTP 404."""

    code = CoreErrorCode.NOT_FOUND
    status = 404


class NotYourPayment(DomainError):
    """A cage cashier reads the traces of the payments they made, and no other: HTTP 403."""

    code = AuditErrorCode.NOT_YOUR_PAYMENT
    status = 403
