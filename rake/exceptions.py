from casino_backoffice.core import idempotency
from casino_backoffice.core.exceptions import Conflict, DomainError, ErrorCode


class RakeErrorCode(ErrorCode):
    """The codes of the refusals of rounds, rake, time charges and rules files."""

    RAKE = "rake"
    RULES_INVALID = "rules_invalid"
    NO_RULES_IN_EFFECT = "no_rules_in_effect"
    INVALID_ROUND = "invalid_round"
    TIME_CHARGE_ALREADY_ASSESSED = "time_charge_already_assessed"
    TIME_CHARGE_ALREADY_VERIFIED = "time_charge_already_verified"
    LATE_ENTRY_UNSIGNED = "late_entry_unsigned"
    ROUND_ALREADY_VOID = "round_already_void"
    ROUND_HAS_JACKPOT_HAND = "round_has_jackpot_hand"
    ROUND_BOX_COUNTED = "round_box_counted"


class RakeError(DomainError):
    code = RakeErrorCode.RAKE


class RulesFileInvalid(RakeError):
    """A rules file that breaks one rule or more; ``errors`` lists every one, and nothing changed."""

    code = RakeErrorCode.RULES_INVALID

    def __init__(self, errors: list[str]) -> None:
        count = len(errors)
        super().__init__(
            f"The rules file has {count} error{'s' if count != 1 else ''}; nothing was changed.\n" + "\n".join(errors)
        )
        self.errors = errors


class RulesNotInEffect(RakeError):
    code = RakeErrorCode.NO_RULES_IN_EFFECT


class InvalidRound(RakeError):
    """A round refused before anything was recorded; ``field_errors`` maps each field to its messages."""

    code = RakeErrorCode.INVALID_ROUND

    def __init__(self, field_errors: dict[str, list[str]]) -> None:
        super().__init__(" ".join(message for messages in field_errors.values() for message in messages))
        self.field_errors = field_errors


# The same Idempotency-Key posted before with another body: the kernel's refusal, one for every app.
IdempotencyKeyReused = idempotency.IdempotencyKeyReused


class TimeChargeAlreadyAssessed(Conflict):
    code = RakeErrorCode.TIME_CHARGE_ALREADY_ASSESSED


class TimeChargeAlreadyVerified(Conflict):
    code = RakeErrorCode.TIME_CHARGE_ALREADY_VERIFIED


class LateEntryUnsigned(RakeError):
    """A round logged longer after it ended than the room's ``late_entry_minutes`` without a shift
    supervisor's signature (a house control; the revenue of the day, §637a.17)."""

    code = RakeErrorCode.LATE_ENTRY_UNSIGNED


class RoundAlreadyVoid(Conflict):
    """A round voided already: by a void, or logged void at the table (it took nothing)."""

    code = RakeErrorCode.ROUND_ALREADY_VOID


class RoundHasJackpotHand(Conflict):
    """A round whose hand stands as a jackpot's (a Bad Beat claim not denied, a High Hand entry not void):
    a voided round has no winning hand, so the hand's document is settled first."""

    code = RakeErrorCode.ROUND_HAS_JACKPOT_HAND


class RoundBoxCounted(Conflict):
    """A round whose rake or drop went into a box counted since: the money left the box."""

    code = RakeErrorCode.ROUND_BOX_COUNTED
