"""What the progressives' services refuse."""

from jackpots.funds.exceptions import JackpotError


class ProgressiveRefused(JackpotError):
    """A progressive action refused by a rule of §655a or §657a, or of the house's controls; ``code``
    names the rule (``not_progressive``, ``wager_size``, ``no_payout``, ``light_not_confirmed``,
    ``out_of_order``, ``cards_invalid`` ...). A refusal that says the record exists already or is past
    the step the action needs is a 409; every other is a 400."""

    code = "progressive_refused"
    CONFLICTS = frozenset(
        {
            "already_recorded",
            "already_validated",
            "already_paid",
            "already_explained",
            "meter_pending",
            "not_pending",
            "payout_documentation_open",
        }
    )

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message, code=code)
        if self.code in self.CONFLICTS:
            self.status = 409
