"""The Bad Beat API (§637a.15): claims at the table, the shift supervisor's verification or denial,
finance's distribution, the payment of each share, the adjustment of the display and its witness, and
the transfer of a discontinued fund.

Serializers check shape; ``jackpots.services`` checks rules. Money is a decimal string ("12.34") in and
out; cards are text ("Ah Kd"). The authenticated person signs with ``pin`` in the body. Every POST that
creates a document or moves money takes an ``Idempotency-Key`` header.
"""

from __future__ import annotations

from django.urls import path

from .claims import ClaimDeny, ClaimDetail, ClaimListCreate, ClaimVerify
from .display import DisplayAdjustmentCreate, DisplayAdjustmentWitness, FundTransferApprove, FundTransferCreate
from .payouts import DistributionCreate, SharePay

urlpatterns = [
    path("bad-beat/claims/", ClaimListCreate.as_view(), name="api-bad-beat-claims"),
    path("bad-beat/claims/<int:pk>/", ClaimDetail.as_view(), name="api-bad-beat-claim"),
    path("bad-beat/claims/<int:pk>/verify/", ClaimVerify.as_view(), name="api-bad-beat-claim-verify"),
    path("bad-beat/claims/<int:pk>/deny/", ClaimDeny.as_view(), name="api-bad-beat-claim-deny"),
    path(
        "bad-beat/claims/<int:pk>/distribution/", DistributionCreate.as_view(), name="api-bad-beat-claim-distribution"
    ),
    path("bad-beat/shares/<int:pk>/pay/", SharePay.as_view(), name="api-bad-beat-share-pay"),
    path("display-adjustments/", DisplayAdjustmentCreate.as_view(), name="api-display-adjustments"),
    path(
        "display-adjustments/<int:pk>/witness/",
        DisplayAdjustmentWitness.as_view(),
        name="api-display-adjustment-witness",
    ),
    path("fund-transfers/", FundTransferCreate.as_view(), name="api-fund-transfers"),
    path("fund-transfers/<int:pk>/approve/", FundTransferApprove.as_view(), name="api-fund-transfer-approve"),
]
