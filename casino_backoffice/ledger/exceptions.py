from casino_backoffice.core.exceptions import Conflict, DomainError, ErrorCode


class LedgerErrorCode(ErrorCode):
    """The codes of the ledger's refusals."""

    LEDGER = "ledger"
    INVALID_TRANSFER = "invalid_transfer"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    ALREADY_REVERSED = "already_reversed"
    BELOW_ZERO = "below_zero"


class LedgerError(DomainError):
    code = LedgerErrorCode.LEDGER


class InvalidTransfer(LedgerError):
    code = LedgerErrorCode.INVALID_TRANSFER


class IdempotencyConflict(Conflict):
    """The same idempotency key was posted before with a different transfer."""

    code = LedgerErrorCode.IDEMPOTENCY_CONFLICT


class AlreadyReversed(Conflict):
    code = LedgerErrorCode.ALREADY_REVERSED


class BelowZero(Conflict):
    """The transfer would take a box, container, fund, revenue or payout account below zero; the
    database refuses it (migration 0010), whatever the service checked before."""

    code = LedgerErrorCode.BELOW_ZERO
