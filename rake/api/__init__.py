"""The rake API: rounds of play, time charges, the rake calculator, rules versions and poker revenue.

Serializers check shape; ``rake.services`` checks rules. Money is a decimal string ("120.00") in
and out. Every money-creating POST takes an ``Idempotency-Key`` header.
"""

from __future__ import annotations

from django.urls import path

from casino_backoffice.core.api import MoneyField

from .common import (
    ERRORS,
    IDEMPOTENCY_HEADER,
    Recorded,
    _idempotency_key,
    _resolve_table,
    idempotent_post,
    write_input,
    write_outcome,
)
from .reports import (
    CalculatorInput,
    CalculatorOutput,
    RakeCalculator,
    RevenueReport,
    RulesVersionList,
    RulesVersionOutput,
)
from .rounds import RoundInput, RoundListCreate, RoundOutput, round_data
from .time_charges import TimeChargeInput, TimeChargeListCreate, TimeChargeOutput, TimeChargeVerify
from .voids import RoundVoidCreate

__all__ = [
    "ERRORS",
    "IDEMPOTENCY_HEADER",
    "CalculatorInput",
    "CalculatorOutput",
    "MoneyField",
    "RakeCalculator",
    "Recorded",
    "RevenueReport",
    "RoundInput",
    "RoundListCreate",
    "RoundOutput",
    "RoundVoidCreate",
    "RulesVersionList",
    "RulesVersionOutput",
    "TimeChargeInput",
    "TimeChargeListCreate",
    "TimeChargeOutput",
    "TimeChargeVerify",
    "_idempotency_key",
    "_resolve_table",
    "idempotent_post",
    "round_data",
    "urlpatterns",
    "write_input",
    "write_outcome",
]


urlpatterns = [
    path("rounds/", RoundListCreate.as_view(), name="api-rounds"),
    path("rounds/<int:pk>/void/", RoundVoidCreate.as_view(), name="api-round-void"),
    path("time-charges/", TimeChargeListCreate.as_view(), name="api-time-charges"),
    path("time-charges/<int:pk>/verify/", TimeChargeVerify.as_view(), name="api-time-charge-verify"),
    path("rake-calculator/", RakeCalculator.as_view(), name="api-rake-calculator"),
    path("rules-versions/", RulesVersionList.as_view(), name="api-rules-versions"),
    path("revenue/", RevenueReport.as_view(), name="api-revenue"),
]
