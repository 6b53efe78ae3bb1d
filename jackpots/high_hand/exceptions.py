"""What the High Hand's services refuse."""

from jackpots.funds.exceptions import JackpotError


class HighHandRefused(JackpotError):
    """A High Hand action refused by a rule of §637a.16; ``code`` names the rule (``below_minimum``,
    ``not_higher``, ``period_closed``, ``too_few_players`` ...).

    A refusal that says the document was signed already, or is past the step the action needs, is a
    409, as the Bad Beat's are (``share_already_paid``, ``already_decided``): the request may be right,
    the state is not. Every other refusal is a 400."""

    code = "high_hand_refused"
    CONFLICTS = frozenset(
        {
            "award_already_paid",
            "award_expired",
            "already_void",
            "already_approved",
            "period_announced",
            "no_period",
            "already_recorded",
            "period_box_counted",
        }
    )

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message, code=code)
        if self.code in self.CONFLICTS:
            self.status = 409
