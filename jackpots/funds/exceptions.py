"""What a jackpot service refuses, as the kernel's ``DomainError``: ``JackpotError`` is the base of
each product's refusals (``jackpots.bad_beat.exceptions``, ``jackpots.high_hand.exceptions``,
``jackpots.progressive.exceptions``)."""

from casino_backoffice.core.exceptions import DomainError, ErrorCode


class FundsErrorCode(ErrorCode):
    """The codes of the refusals every jackpot fund shares."""

    JACKPOT = "jackpot"
    JACKPOT_KIND_CHANGED = "jackpot_kind_changed"


class JackpotError(DomainError):
    code: ErrorCode = FundsErrorCode.JACKPOT


class JackpotKindChanged(JackpotError):
    """A code names one fund for ever: a Bad Beat code cannot become a High Hand."""

    code = FundsErrorCode.JACKPOT_KIND_CHANGED
