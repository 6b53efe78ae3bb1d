"""A gaming day does not close with its irregularities off the record: each irregularity of the day
awaits its ruling, a round logged voided awaits its report of missing or extra cards (§637a.18(i)), a
round that refunded a player awaits its report of the refund (§637a.18(k)(3))."""

from __future__ import annotations

import uuid
from zoneinfo import ZoneInfo

from django.utils import timezone

from cage.gaming_days import BlockerKind, gaming_day_blockers
from rake.services import round_void
from tables.irregularities.services import irregularity_report, irregularity_rule
from tests.conftest import PIN
from tests.rake.factories import round_logged


def key() -> str:
    return str(uuid.uuid4())


def irregularities_blocking(room, day) -> list[str]:
    blockers = gaming_day_blockers(room=room, day=day, now=timezone.now())
    return [b.text for b in blockers if b.kind == BlockerKind.IRREGULARITY]


def test_the_days_irregularities_block_its_close_until_on_the_record(rated_table, room, dealer, floorperson):
    # Given a round logged voided, one that refunded $40.00, one that stands, one voided after, a misdeal
    voided = round_logged(rated_table, dealer, voided=True)
    refunded = round_logged(rated_table, dealer, refund_cents=4000)
    round_logged(rated_table, dealer)
    after = round_logged(rated_table, dealer)
    round_void(round=after, reason="An extra 2c found.", actor=floorperson, pin=PIN, idempotency_key=key())
    misdeal = irregularity_report(
        table=rated_table,
        kind="misdeal",
        cause="wrong_starting_position",
        description="Dealt from seat 4.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    day = voided.gaming_day
    clock = misdeal.occurred_at.astimezone(ZoneInfo(room.timezone))

    # Then three things block the close: the misdeal's ruling and the two rounds' reports; the round
    # voided after it was logged carries its own report, decided by its signed void
    assert irregularities_blocking(room, day) == [
        f"Irregularity {misdeal.pk} (misdeal, table T1, {clock:%Y-%m-%d %H:%M} {clock.tzname()}) awaits its ruling.",
        f"Round {voided.pk} at table T1 was logged voided: its missing or extra cards are to be reported (§637a.18(i)).",
        f"Round {refunded.pk} at table T1 was refunded $40.00 from its pot: the refund is to be reported "
        "(§637a.18(k)(3)).",
    ]

    # When the dealer reports both rounds and a floorperson rules on all three
    for round_, kind in ((voided, "missing_or_extra_cards"), (refunded, "dealer_error_refund")):
        reported = irregularity_report(
            table=rated_table,
            kind=kind,
            round=round_,
            description="Reported.",
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        )
        irregularity_rule(irregularity=reported, ruling="So ruled.", actor=floorperson, pin=PIN, idempotency_key=key())
    irregularity_rule(irregularity=misdeal, ruling="Misdeal.", actor=floorperson, pin=PIN, idempotency_key=key())

    # Then nothing of the kind blocks it
    assert irregularities_blocking(room, day) == []
