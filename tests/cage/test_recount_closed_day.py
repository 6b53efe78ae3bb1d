"""A recount of a count of a closed gaming day is refused (409 ``gaming_day_closed``) and changes
nothing: a closed day stays closed (§637a.17), for a recount as for a count. The close itself waits
for every count at the table, so this guards the race of a recount and the close; the close is
written here directly, as a race would leave it."""

from __future__ import annotations

import pytest
from django.utils import timezone

from cage.models import Box, Count, CountStatus, GamingDayClose
from cage.services import boxes_sync, count_record, count_recount
from casino_backoffice.ledger.models import Transfer
from tables.exceptions import GamingDayClosed
from tests.conftest import PIN


def test_a_recount_of_a_closed_days_count_is_refused_and_changes_nothing(
    closed_table, dealer, supervisor, finance, key
) -> None:
    boxes_sync(room=closed_table.room)
    box = Box.objects.select_related("room", "table", "account", "jackpot").get(code="T1-drop")
    count = count_record(box=box, counted_cents=7900, actor=dealer, pin=PIN, idempotency_key=key())
    GamingDayClose.objects.create(
        room=closed_table.room, gaming_day=count.gaming_day, closed_by=finance, closed_at=timezone.now()
    )
    before = (Count.objects.count(), Transfer.objects.count())
    with pytest.raises(GamingDayClosed):
        count_recount(
            count=count, counted_cents=790, reason="typed 79.00", actor=supervisor, pin=PIN, idempotency_key=key()
        )
    assert (Count.objects.count(), Transfer.objects.count()) == before
    assert Count.objects.get(pk=count.pk).status == CountStatus.COUNTED
