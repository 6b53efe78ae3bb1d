"""Refusals of the counts and the cage, each with a message a floorperson or a cashier understands."""

from casino_backoffice.core.exceptions import Conflict, DomainError, ErrorCode


class CageErrorCode(ErrorCode):
    """The codes of the refusals of the counts, the custody and the cage."""

    CAGE = "cage"
    UNKNOWN_BOX = "unknown_box"
    BOX_ALREADY_COUNTED = "box_already_counted"
    COMPLIANCE_NOTICE_REQUIRED = "compliance_notice_required"
    WRONG_STATUS = "wrong_status"
    BOX_MISSING = "box_missing"
    COUNT_MISMATCH = "count_mismatch"
    UNRESOLVED_VARIANCE = "unresolved_variance"
    COUNT_NOT_RECOUNTABLE = "count_not_recountable"
    CONFIRM_VARIANCE = "confirm_variance"
    CORRECTION_INVALID = "correction_invalid"
    GAMING_DAY_NOT_READY = "gaming_day_not_ready"
    # What still blocks the close of a gaming day: ``cage.gaming_days.BlockerKind`` takes its values from
    # these and ``UNRESOLVED_VARIANCE`` (a refused close's code is the first kind found, ``kind.code``).
    GAMING_DAY_NOT_OVER = "gaming_day_not_over"
    COUNTS_DUE = "counts_due"
    TRANSPORTS_NOT_VERIFIED = "transports_not_verified"
    TIME_CHARGES_NOT_VERIFIED = "time_charges_not_verified"
    IRREGULARITIES_OPEN = "irregularities_open"


class CageError(DomainError):
    code = CageErrorCode.CAGE


class UnknownBox(CageError):
    code = CageErrorCode.UNKNOWN_BOX


class BoxAlreadyCounted(Conflict):
    """A box is counted once for a count sheet (§637a.15(d))."""

    code = CageErrorCode.BOX_ALREADY_COUNTED


class NoticeRequired(CageError):
    """A Bad Beat box is counted 'upon notice to a casino compliance representative' (§637a.15(d))."""

    code = CageErrorCode.COMPLIANCE_NOTICE_REQUIRED


class WrongStatus(Conflict):
    """The document is not at the step the action needs (a count not yet witnessed, a transport not
    yet carried or already verified)."""

    code = CageErrorCode.WRONG_STATUS


class BoxMissing(CageError):
    """A box that was carried is not accounted for at the cage, and no supervisor signed an exception."""

    code = CageErrorCode.BOX_MISSING


class CountMismatch(CageError):
    code = CageErrorCode.COUNT_MISMATCH


class DayHasUnresolvedVariance(Conflict):
    code = CageErrorCode.UNRESOLVED_VARIANCE


class CountNotRecountable(Conflict):
    """A count is recounted only while it is at the table: counted or witnessed, not yet carried to the
    cage nor verified there, nor superseded already."""

    code = CageErrorCode.COUNT_NOT_RECOUNTABLE


class VarianceNotConfirmed(Conflict):
    """The cashier's count differs from what the container declares (or a box from what the ledger
    expected) by more than the room's variance threshold: the cashier confirms it before signing.
    ``expected_cents`` is the declared aggregate of a container, or what the ledger expected in the
    boxes; ``boxes`` lists each box beyond the threshold as (code, counted, expected)."""

    code = CageErrorCode.CONFIRM_VARIANCE

    def __init__(
        self,
        message: str,
        *,
        counted_cents: int,
        expected_cents: int,
        threshold_cents: int,
        declared: bool,
        boxes: tuple[tuple[str, int, int], ...] = (),
    ) -> None:
        super().__init__(message)
        self.counted_cents, self.expected_cents, self.threshold_cents = counted_cents, expected_cents, threshold_cents
        self.declared, self.boxes = declared, boxes


class CorrectionInvalid(CageError):
    """A correction of the official record that the variance does not bear: more than the variance,
    a box the variance is not about, a variance not yet made official."""

    code = CageErrorCode.CORRECTION_INVALID


class GamingDayNotReady(Conflict):
    """A gaming day finance may not close yet: it is not over, or a count, a transport, a time charge or
    a variance of the day is still open. ``code`` is the first of ``cage.gaming_days.BlockerKind``
    found (``unresolved_variance`` when only variances remain)."""

    code = CageErrorCode.GAMING_DAY_NOT_READY
