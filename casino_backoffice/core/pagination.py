"""Every list of the API pages by ``limit`` and ``offset``, within bounds: a ``limit`` above
``MAX_LIMIT`` gives ``MAX_LIMIT`` rows, and an ``offset`` that no database row number can reach (past
PostgreSQL's bigint) is a 400 naming the parameter, not a database error."""

from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

MAX_LIMIT = 1000
MAX_OFFSET = 2**62  # far beyond any list, and an OFFSET PostgreSQL takes with any LIMIT added


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_offset(self, request: Request) -> int:
        offset = super().get_offset(request)
        if offset > MAX_OFFSET:
            raise ValidationError({self.offset_query_param: [f"An offset is a whole number up to {MAX_OFFSET}."]})
        return offset
