"""What the progressives' services refuse."""

from casino_backoffice.core.exceptions import ErrorCode
from jackpots.funds.exceptions import JackpotError


class ProgressiveErrorCode(ErrorCode):
    """The codes of the refusals of the progressive meters, rounds, hands, validations, payments and
    resets (§655a.11-12, §657a.11-12, and the house's controls)."""

    PROGRESSIVE_REFUSED = "progressive_refused"
    # The meters and their posted rules
    METER_GAME_CHANGED = "meter_game_changed"
    NOT_PROGRESSIVE = "not_progressive"
    METER_PENDING = "meter_pending"
    NOT_PENDING = "not_pending"
    # A round's wagers and its wager count exception
    TABLE_CLOSED = "table_closed"
    WAGER_SIZE = "wager_size"
    INVALID = "invalid"
    PAYOUT_DOCUMENTATION_OPEN = "payout_documentation_open"
    REASON_REQUIRED = "reason_required"
    ALREADY_EXPLAINED = "already_explained"
    # A winning hand
    CARDS_INVALID = "cards_invalid"
    NO_PAYOUT = "no_payout"
    LIGHT_NOT_CONFIRMED = "light_not_confirmed"
    OUT_OF_ORDER = "out_of_order"
    ALREADY_RECORDED = "already_recorded"
    # Its validation and its payment
    SAME_PERSON = "same_person"
    ALREADY_VALIDATED = "already_validated"
    NOT_VALIDATED = "not_validated"
    NOT_AT_CAGE = "not_at_cage"
    ID_REQUIRED = "id_required"
    ALREADY_PAID = "already_paid"
    # A banked round's void (§655a.13, §657a.13)
    ROUND_ALREADY_VOID = "round_already_void"
    ROUND_HAS_PAYOUT = "round_has_payout"
    METER_PAID_SINCE = "meter_paid_since"
    ROUND_VOIDED = "round_voided"


class ProgressiveRefused(JackpotError):
    """A progressive action refused by a rule of §655a or §657a, or of the house's controls; ``code``
    names the rule (``NOT_PROGRESSIVE``, ``WAGER_SIZE``, ``NO_PAYOUT``, ``LIGHT_NOT_CONFIRMED``,
    ``OUT_OF_ORDER``, ``CARDS_INVALID`` ...). A refusal that says the record exists already or is past
    the step the action needs is a 409; every other is a 400."""

    code = ProgressiveErrorCode.PROGRESSIVE_REFUSED
    CONFLICTS = frozenset(
        {
            ProgressiveErrorCode.ALREADY_RECORDED,
            ProgressiveErrorCode.ALREADY_VALIDATED,
            ProgressiveErrorCode.ALREADY_PAID,
            ProgressiveErrorCode.ALREADY_EXPLAINED,
            ProgressiveErrorCode.METER_PENDING,
            ProgressiveErrorCode.NOT_PENDING,
            ProgressiveErrorCode.PAYOUT_DOCUMENTATION_OPEN,
            ProgressiveErrorCode.ROUND_ALREADY_VOID,
            ProgressiveErrorCode.ROUND_HAS_PAYOUT,
            ProgressiveErrorCode.METER_PAID_SINCE,
            ProgressiveErrorCode.ROUND_VOIDED,
        }
    )

    def __init__(self, message: str, *, code: ProgressiveErrorCode | None = None) -> None:
        super().__init__(message, code=code)
        if self.code in self.CONFLICTS:
            self.status = 409
