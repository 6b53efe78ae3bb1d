from casino_backoffice.core.exceptions import DomainError


class TableError(DomainError):
    code = "table"


class SeatLimitExceeded(TableError):
    code = "seat_limit"


class TableClosed(TableError):
    code = "table_closed"
