"""The cage API: boxes, counts at a closed table, chain of custody, cage verifications, variances,
the close of a gaming day, the official record and each fund's official balance (issue 8).

Serializers check shape; ``cage.services`` checks rules. Money is a decimal string ("12.34") in and
out. The authenticated person signs with ``pin`` in the body. Every POST that creates a document or
moves money takes an ``Idempotency-Key`` header.
"""

from __future__ import annotations

from django.urls import path

from .boxes import BoxList, JackpotList
from .counts import CountListCreate, CountRecount, CountWitness, NoticeCreate
from .records import OfficialRecord, OfficialRecordLines
from .transports import MissingBoxCreate, TransportAccount, TransportCreate
from .verifications import (
    CageVerificationCreate,
    GamingDayCloseCreate,
    VarianceExplain,
    VarianceList,
    VerificationExplain,
)

urlpatterns = [
    path("boxes/", BoxList.as_view(), name="api-boxes"),
    path("jackpots/", JackpotList.as_view(), name="api-jackpots"),
    path("compliance-notices/", NoticeCreate.as_view(), name="api-compliance-notices"),
    path("counts/", CountListCreate.as_view(), name="api-counts"),
    path("counts/<int:pk>/witness/", CountWitness.as_view(), name="api-count-witness"),
    path("counts/<int:pk>/recount/", CountRecount.as_view(), name="api-count-recount"),
    path("transports/", TransportCreate.as_view(), name="api-transports"),
    path("transports/<int:pk>/account/", TransportAccount.as_view(), name="api-transport-account"),
    path("transports/<int:pk>/missing-boxes/", MissingBoxCreate.as_view(), name="api-transport-missing-boxes"),
    path("cage-verifications/", CageVerificationCreate.as_view(), name="api-cage-verifications"),
    path("cage-verifications/<int:pk>/explain/", VerificationExplain.as_view(), name="api-cage-verification-explain"),
    path("variances/", VarianceList.as_view(), name="api-variances"),
    path("variances/<int:pk>/explain/", VarianceExplain.as_view(), name="api-variance-explain"),
    path("gaming-days/close/", GamingDayCloseCreate.as_view(), name="api-gaming-day-close"),
    path("official-record/", OfficialRecord.as_view(), name="api-official-record"),
    path("official-record/lines.csv", OfficialRecordLines.as_view(), name="api-official-record-lines"),
]
