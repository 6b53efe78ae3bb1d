from casino_backoffice.core.exceptions import Conflict, DomainError


class TableError(DomainError):
    code = "table"


class SeatLimitExceeded(TableError):
    code = "seat_limit"


class TableClosed(TableError):
    code = "table_closed"


class GamingDayClosed(Conflict):
    """Something recorded for a gaming day finance has closed (§637a.17: the revenue of the day is final)."""

    code = "gaming_day_closed"
