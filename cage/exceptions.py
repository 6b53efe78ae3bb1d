"""Refusals of the counts and the cage, each with a message a floorperson or a cashier understands."""

from casino_backoffice.core.exceptions import Conflict, DomainError


class CageError(DomainError):
    code = "cage"


class UnknownBox(CageError):
    code = "unknown_box"


class BoxAlreadyCounted(Conflict):
    """A box is counted once for a count sheet (§637a.15(d))."""

    code = "box_already_counted"


class NoticeRequired(CageError):
    """A Bad Beat box is counted 'upon notice to a casino compliance representative' (§637a.15(d))."""

    code = "compliance_notice_required"


class WrongStatus(Conflict):
    """The document is not at the step the action needs (a count not yet witnessed, a transport not
    yet carried or already verified)."""

    code = "wrong_status"


class BoxMissing(CageError):
    """A box that was carried is not accounted for at the cage, and no supervisor signed an exception."""

    code = "box_missing"


class CountMismatch(CageError):
    code = "count_mismatch"


class DayHasUnresolvedVariance(Conflict):
    code = "unresolved_variance"


class CountNotRecountable(Conflict):
    """A count is recounted only while it is at the table: counted or witnessed, not yet carried to the
    cage nor verified there, nor superseded already."""

    code = "count_not_recountable"


class VarianceNotConfirmed(Conflict):
    """The cashier's count differs from what the container declares (or a box from what the ledger
    expected) by more than the room's variance threshold: the cashier confirms it before signing.
    ``expected_cents`` is the declared aggregate of a container, or what the ledger expected in the
    boxes; ``boxes`` lists each box beyond the threshold as (code, counted, expected)."""

    code = "confirm_variance"

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

    code = "correction_invalid"


class GamingDayNotReady(Conflict):
    """A gaming day finance may not close yet: it is not over, or a count, a transport, a time charge or
    a variance of the day is still open. ``code`` is the first of ``cage.gaming_days.BlockerKind``
    found (``unresolved_variance`` when only variances remain)."""

    code = "gaming_day_not_ready"
