"""What a jackpot service refuses, as the kernel's ``DomainError``: ``JackpotError`` is the base of
each product's refusals (``jackpots.bad_beat.exceptions``, ``jackpots.high_hand.exceptions``,
``jackpots.progressive.exceptions``)."""

from casino_backoffice.core.exceptions import DomainError


class JackpotError(DomainError):
    code = "jackpot"


class JackpotKindChanged(JackpotError):
    """A code names one fund for ever: a Bad Beat code cannot become a High Hand."""

    code = "jackpot_kind_changed"
