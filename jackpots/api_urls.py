"""The jackpots API. The Bad Beat (§637a.15): claims at the table, the shift supervisor's verification
or denial, finance's distribution, the payment of each share, the adjustment of the display and its
witness, and the transfer of a discontinued fund. The High Hand (§637a.16): the qualifying periods,
the entries of the Tracking Slip and their void, the payment of an award at the cage, and where an
uncollected award goes. The progressives (§655a.12, §657a.12): the meters and their reset, the wagers
of a round, a winning hand, its validation and its payment through the cage.

Serializers check shape; each product's services check rules. Money is a decimal string ("12.34") in and
out; cards are text ("Ah Kd"). The authenticated person signs with ``pin`` in the body. Every POST that
creates a document or moves money takes an ``Idempotency-Key`` header.
"""

from __future__ import annotations

from django.urls import path

from jackpots.bad_beat.api.claims import ClaimDeny, ClaimDetail, ClaimListCreate, ClaimVerify
from jackpots.bad_beat.api.display import (
    DisplayAdjustmentCreate,
    DisplayAdjustmentWitness,
    FundTransferApprove,
    FundTransferCreate,
)
from jackpots.bad_beat.api.payouts import DistributionCreate, SharePay
from jackpots.board.api import DisplayCheck
from jackpots.high_hand.api import AwardPay, EntryCreate, EntryVoid, PeriodList, UnclaimedApprove
from jackpots.progressive.api import (
    ExceptionExplain,
    HandCreate,
    HandPay,
    HandValidate,
    MeterList,
    MeterReset,
    RoundCreate,
    RoundDetail,
    RoundVoidCreate,
)

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
    path("high-hand/periods/", PeriodList.as_view(), name="api-high-hand-periods"),
    path("high-hand/entries/", EntryCreate.as_view(), name="api-high-hand-entries"),
    path("high-hand/entries/<int:pk>/void/", EntryVoid.as_view(), name="api-high-hand-entry-void"),
    path("high-hand/awards/<int:pk>/pay/", AwardPay.as_view(), name="api-high-hand-award-pay"),
    path("high-hand/unclaimed/<int:pk>/approve/", UnclaimedApprove.as_view(), name="api-high-hand-unclaimed-approve"),
    path("progressive/meters/", MeterList.as_view(), name="api-progressive-meters"),
    path("display-check/", DisplayCheck.as_view(), name="api-display-check"),
    path("progressive/meters/<int:pk>/reset/", MeterReset.as_view(), name="api-progressive-meter-reset"),
    path("progressive/rounds/", RoundCreate.as_view(), name="api-progressive-rounds"),
    path("progressive/rounds/<int:pk>/", RoundDetail.as_view(), name="api-progressive-round"),
    path("progressive/rounds/<int:pk>/void/", RoundVoidCreate.as_view(), name="api-progressive-round-void"),
    path("progressive/hands/", HandCreate.as_view(), name="api-progressive-hands"),
    path("progressive/hands/<int:pk>/validate/", HandValidate.as_view(), name="api-progressive-hand-validate"),
    path("progressive/hands/<int:pk>/pay/", HandPay.as_view(), name="api-progressive-hand-pay"),
    path(
        "progressive/exceptions/<int:pk>/explain/", ExceptionExplain.as_view(), name="api-progressive-exception-explain"
    ),
]
