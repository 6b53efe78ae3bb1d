from casino_backoffice.core.exceptions import Conflict, DomainError, ErrorCode


class TableErrorCode(ErrorCode):
    """The codes of the refusals of rooms, tables and gaming days."""

    TABLE = "table"
    SEAT_LIMIT = "seat_limit"
    TABLE_CLOSED = "table_closed"
    GAMING_DAY_CLOSED = "gaming_day_closed"


class TableError(DomainError):
    code = TableErrorCode.TABLE


class SeatLimitExceeded(TableError):
    code = TableErrorCode.SEAT_LIMIT


class TableClosed(TableError):
    code = TableErrorCode.TABLE_CLOSED


class GamingDayClosed(Conflict):
    """Something recorded for a gaming day finance has closed (§637a.17: the revenue of the day is final)."""

    code = TableErrorCode.GAMING_DAY_CLOSED
