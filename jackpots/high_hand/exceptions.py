"""What the High Hand's services refuse."""

from casino_backoffice.core.exceptions import ErrorCode
from jackpots.funds.exceptions import JackpotError


class HighHandErrorCode(ErrorCode):
    """The codes of the refusals of the High Hand Tracking Slip, its periods and its awards (§637a.16)."""

    HIGH_HAND_REFUSED = "high_hand_refused"
    # An entry of the Tracking Slip (§637a.16(f)).
    BELOW_MINIMUM = "below_minimum"
    NOT_HIGHER = "not_higher"
    PERIOD_CLOSED = "period_closed"
    TOO_FEW_PLAYERS = "too_few_players"
    PLAYER_REQUIRED = "player_required"
    ID_REQUIRED = "id_required"
    DEALER_REQUIRED = "dealer_required"
    CREDENTIAL_REQUIRED = "credential_required"
    DEALER_IS_VERIFIER = "dealer_is_verifier"
    CARDS_INVALID = "cards_invalid"
    MADE_IN_FUTURE = "made_in_future"
    NOT_OFFERED = "not_offered"
    SEAT_INVALID = "seat_invalid"
    ROUND_MISMATCH = "round_mismatch"
    ROUND_VOIDED = "round_voided"
    ALREADY_RECORDED = "already_recorded"
    # Its void.
    REASON_REQUIRED = "reason_required"
    ALREADY_VOID = "already_void"
    PERIOD_ANNOUNCED = "period_announced"
    # A period's box (§637a.16(d)).
    PERIOD_BOX_COUNTED = "period_box_counted"
    # An award paid, or gone where the rules send uncollected ones (§637a.16(h), (i)).
    ID_MISMATCH = "id_mismatch"
    AWARD_ALREADY_PAID = "award_already_paid"
    AWARD_EXPIRED = "award_expired"
    ALREADY_APPROVED = "already_approved"
    NO_PERIOD = "no_period"


class HighHandRefused(JackpotError):
    """A High Hand action refused by a rule of §637a.16; ``code`` names the rule (``below_minimum``,
    ``not_higher``, ``period_closed``, ``too_few_players`` ...).

    A refusal that says the document was signed already, or is past the step the action needs, is a
    409, as the Bad Beat's are (``share_already_paid``, ``already_decided``): the request may be right,
    the state is not. Every other refusal is a 400."""

    code = HighHandErrorCode.HIGH_HAND_REFUSED
    CONFLICTS = frozenset(
        {
            HighHandErrorCode.AWARD_ALREADY_PAID,
            HighHandErrorCode.AWARD_EXPIRED,
            HighHandErrorCode.ALREADY_VOID,
            HighHandErrorCode.ALREADY_APPROVED,
            HighHandErrorCode.PERIOD_ANNOUNCED,
            HighHandErrorCode.NO_PERIOD,
            HighHandErrorCode.ALREADY_RECORDED,
            HighHandErrorCode.PERIOD_BOX_COUNTED,
        }
    )

    def __init__(self, message: str, *, code: HighHandErrorCode | None = None) -> None:
        super().__init__(message, code=code)
        if self.code in self.CONFLICTS:
            self.status = 409
