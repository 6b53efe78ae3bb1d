"""TODO docstring."""

from casino_backoffice.core.exceptions import DomainError


class JackpotError(DomainError):
    code = "jackpot"


class JackpotKindChanged(JackpotError):
    """A code names one fund for ever: a Bad Beat code cannot become a High Hand."""

    code = "jackpot_kind_changed"
