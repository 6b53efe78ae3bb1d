from casino_backoffice.core.exceptions import Conflict, DomainError


class LedgerError(DomainError):
    code = "ledger"


class InvalidTransfer(LedgerError):
    code = "invalid_transfer"


class IdempotencyConflict(Conflict):
    """The same idempotency key was posted before with a different transfer."""

    code = "idempotency_conflict"


class AlreadyReversed(Conflict):
    code = "already_reversed"


class BelowZero(Conflict):
    """The transfer would take a box, container, fund, revenue or payout account below zero; the
    database refuses it (migration 0010), whatever the service checked before."""

    code = "below_zero"
