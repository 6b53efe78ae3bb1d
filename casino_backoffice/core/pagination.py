"""Every list of the API pages by ``limit`` and ``offset``, within bounds: a ``limit`` above
``MAX_LIMIT`` gives ``MAX_LIMIT`` rows, and an ``offset`` that no database row number can reach (past
PostgreSQL's bigint) is a 400 naming the parameter, not a database error. Either one given as
anything but a whole number (``limit`` from 1, ``offset`` from 0, digits only) is a 400 naming it too,
as the schema says, where DRF silently read it as absent; an empty one is absent."""

from __future__ import annotations

import re
from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

MAX_LIMIT = 1000
MAX_OFFSET = 2**62  # far beyond any list, and an OFFSET PostgreSQL takes with any LIMIT added
_DIGITS = re.compile(r"[0-9]+")


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_limit(self, request: Request) -> int | None:
        self._whole_number(request, self.limit_query_param, minimum=1)
        return super().get_limit(request)

    def get_offset(self, request: Request) -> int:
        self._whole_number(request, self.offset_query_param, minimum=0)
        offset = super().get_offset(request)
        if offset > MAX_OFFSET:
            raise ValidationError({self.offset_query_param: [f"An offset is a whole number up to {MAX_OFFSET}."]})
        return offset

    @staticmethod
    def _whole_number(request: Request, name: str, *, minimum: int) -> None:
        value = request.query_params.get(name, "")
        # Digits alone, and at least one of them not 0 where 0 is too few (no int() of a long string).
        if value and not (_DIGITS.fullmatch(value) and (minimum == 0 or value.strip("0"))):
            raise ValidationError({name: [f"{name} is a whole number from {minimum}, written in digits."]})

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        minimums = {self.limit_query_param: 1, self.offset_query_param: 0}
        for parameter in parameters:
            if parameter["name"] in minimums:
                parameter["schema"]["minimum"] = minimums[parameter["name"]]
        return parameters
