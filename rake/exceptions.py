from casino_backoffice.core import idempotency
from casino_backoffice.core.exceptions import Conflict, DomainError


class RakeError(DomainError):
    code = "rake"


class RulesFileInvalid(RakeError):
    """A rules file that breaks one rule or more; ``errors`` lists every one, and nothing changed."""

    code = "rules_invalid"

    def __init__(self, errors: list[str]) -> None:
        count = len(errors)
        super().__init__(
            f"The rules file has {count} error{'s' if count != 1 else ''}; nothing was changed.\n" + "\n".join(errors)
        )
        self.errors = errors


class RulesNotInEffect(RakeError):
    code = "no_rules_in_effect"


class InvalidRound(RakeError):
    """A round refused before anything was recorded; ``field_errors`` maps each field to its messages."""

    code = "invalid_round"

    def __init__(self, field_errors: dict[str, list[str]]) -> None:
        super().__init__(" ".join(message for messages in field_errors.values() for message in messages))
        self.field_errors = field_errors


# The same Idempotency-Key posted before with another body: the kernel's refusal, one for every app.
IdempotencyKeyReused = idempotency.IdempotencyKeyReused


class TimeChargeAlreadyAssessed(Conflict):
    code = "time_charge_already_assessed"


class TimeChargeAlreadyVerified(Conflict):
    code = "time_charge_already_verified"


class LateEntryUnsigned(RakeError):
    """A round logged longer after it ended than the room's ``late_entry_minutes`` without a shift
    supervisor's signature (a house control; the revenue of the day, §637a.17)."""

    code = "late_entry_unsigned"
