"""A gaming day walked to its close with each mistake of issue 24 (items 3 and 4, §637a.17): a round
back-dated nine months, a close before the day is over, a close with a variance unexplained, a round,
a time charge and a count for the closed day, a rules version dated back. Each is refused with what to
do instead and changes nothing; at the end the official record, the funds and the revenue report
equal what was really in the boxes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from cage.exceptions import GamingDayNotReady
from cage.gaming_days import BlockerKind, gaming_day_blockers, open_gaming_days
from cage.models import Box, GamingDayClose, Variance
from cage.selectors import official_record
from cage.services import (
    boxes_sync,
    cage_verify,
    count_record,
    count_witness,
    gaming_day_close,
    notice_record,
    transport_create,
    variance_explain,
)
from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.selectors import account_balance, ledger_total
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot
from rake.exceptions import LateEntryUnsigned, RulesFileInvalid
from rake.selectors import poker_revenue
from rake.services import round_record, rules_load, time_charge_assess
from tables.exceptions import GamingDayClosed
from tables.models import RulesVersion, Table
from tables.selectors import gaming_day, gaming_day_bounds
from tables.services import table_set_open
from tests.cage.helpers import snapshot
from tests.clock import clock_move
from tests.conftest import PIN
from tests.rake import factories

# The example's rules with the Bad Beat only: T1 (nl10, bb), T2 (lim), T7 (time charges).
BAD_BEAT_ONLY = {
    **factories.RULES,
    "jackpots": [factories.RULES["jackpots"][0]],
    "tables": [
        {**factories.RULES["tables"][0], "jackpots": ["bb"]},
        {**factories.RULES["tables"][1], "jackpots": []},
        factories.RULES["tables"][2],
    ],
}


def _round(table: Table, *, ended_at, actor, key: str, **more):
    return round_record(
        table=table,
        ended_at=ended_at,
        players_dealt_in=9,
        pot_cents=12000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=actor,
        idempotency_key=key,
        **more,
    )


def _everything() -> tuple:
    from tables.models import Round

    return (*snapshot(), Round.objects.count(), RulesVersion.objects.count())


@pytest.mark.django_db
def test_a_gaming_day_with_each_mistake_closes_on_what_was_in_the_boxes(
    room, monkeypatch, dealer, floorperson, supervisor, security, cashier, finance
) -> None:
    import yaml

    factories.load(yaml.safe_dump(BAD_BEAT_ONLY, sort_keys=False))
    t1, t2 = (
        table_set_open(table=Table.objects.get(room=room, number=n), is_open=True, actor=floorperson)
        for n in ("T1", "T2")
    )
    now = timezone.now()
    day = gaming_day(room=room, at=now - timedelta(minutes=5))

    # Four rounds of $120 at T1 (rake $5.00, Bad Beat $1.00 each) and two at T2 (rake $3.00 each).
    for n in range(4):
        _round(t1, ended_at=now - timedelta(minutes=5 + n), actor=dealer, key=f"t1-{n}")
    for n in range(2):
        _round(t2, ended_at=now - timedelta(minutes=5 + n), actor=dealer, key=f"t2-{n}")

    # Mistake: a round back-dated nine months, unsigned. Refused, saying what to send; nothing changed.
    before = _everything()
    with pytest.raises(LateEntryUnsigned) as late:
        _round(t1, ended_at=now - timedelta(days=274), actor=dealer, key="t1-back-dated")
    assert "late_entry_by" in late.value.message and "correct ended_at" in late.value.message
    assert _everything() == before

    # The tables close; the boxes are counted (T2's drop box $0.10 short), witnessed, carried, verified.
    for table in (t1, t2):
        table_set_open(table=table, is_open=False, actor=floorperson)
    boxes_sync(room=room)
    notice_record(room=room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key="n-1")
    counted = {"T1-bb": 400, "T1-drop": 2000, "T2-drop": 590}
    counts = [
        count_witness(
            count=count_record(
                box=Box.objects.get(room=room, code=code),
                counted_cents=cents,
                actor=dealer,
                pin=PIN,
                idempotency_key=code,
            ),
            actor=floorperson,
            pin=PIN,
            surveillance_reference=f"CAM-1 {code}",
        )
        for code, cents in counted.items()
    ]
    transport = transport_create(room=room, seal="S-1", actor=security, pin=PIN, idempotency_key="s-1", counts=counts)
    cage_verify(transport=transport, counted=2990, actor=cashier, pin=PIN, idempotency_key="v-1")

    # Mistake: finance closes the day before it is over. Refused, naming when it ends; nothing changed.
    before = _everything()
    with pytest.raises(GamingDayNotReady) as early:
        gaming_day_close(room=room, day=day, actor=finance, pin=PIN)
    assert early.value.code == "gaming_day_not_over" and "it ends at" in early.value.message
    assert _everything() == before

    # The day is over: ten minutes after its end.
    ends_at = gaming_day_bounds(room=room, day=day)[1]
    clock_move(monkeypatch, to=ends_at + timedelta(minutes=10))

    # Mistake: the close while T2's variance awaits its explanation. Refused, naming it; nothing changed.
    (variance,) = Variance.objects.filter(room=room, gaming_day=day, needs_explanation=True)
    (open_day,) = [d for d in open_gaming_days(rooms=[room], now=timezone.now()) if d.day == day]
    assert [b.kind for b in open_day.blockers] == [BlockerKind.VARIANCE] and open_day.blockers[0].document == variance
    before = _everything()
    with pytest.raises(GamingDayNotReady) as unexplained:
        gaming_day_close(room=room, day=day, actor=finance, pin=PIN)
    assert unexplained.value.code == "unresolved_variance"
    assert f"Variance {variance.pk} (T2-drop, -$0.10) awaits its explanation." in unexplained.value.message
    assert _everything() == before
    variance_explain(variance=variance, reason="A dime short: dealer error.", actor=supervisor, pin=PIN)
    assert gaming_day_blockers(room=room, day=day, now=timezone.now()) == ()
    close = gaming_day_close(room=room, day=day, actor=finance, pin=PIN)
    assert (close.gaming_day, close.closed_by) == (day, finance)
    assert day not in {d.day for d in open_gaming_days(rooms=[room], now=timezone.now())}

    # What the boxes held, as the record stands at the close.
    official = sorted((row.account.code, row.gaming_day, row.official_cents) for row in official_record(room=room))
    revenue = [(r.keys, r.rounds, r.expected_cents, r.counted_cents) for r in poker_revenue(room=room)]

    # Mistakes after the close: a round of the closed day (signed for as late), a time charge for it,
    # a count for it, a rules version dated back into it. Each refused; nothing changed.
    t1 = table_set_open(table=t1, is_open=True, actor=floorperson)
    t7 = table_set_open(table=Table.objects.get(room=room, number="T7"), is_open=True, actor=floorperson)
    sheet_box = _a_sheet_of_a_day_closed_by_an_earlier_release(room=room, finance=finance)
    before = _everything()
    with pytest.raises(GamingDayClosed) as closed:
        _round(
            t1,
            ended_at=ends_at - timedelta(minutes=30),
            actor=dealer,
            key="t1-after-close",
            late_entry_by=supervisor,
            pin=PIN,
        )
    assert closed.value.code == "gaming_day_closed" and f"closed by {finance.username}" in closed.value.message
    with pytest.raises(GamingDayClosed):
        time_charge_assess(
            table=t7,
            interval_starts_at=ends_at - timedelta(minutes=60),
            players_seated=5,
            actor=dealer,
            idempotency_key="tc-closed",
        )
    with pytest.raises(RulesFileInvalid, match="is before now"):
        rules_load(
            text=yaml.safe_dump({**BAD_BEAT_ONLY, "effective_from": (ends_at - timedelta(hours=2)).isoformat()}),
            actor=factories.rules_loader(),
        )
    with pytest.raises(GamingDayClosed) as count_closed:
        count_record(box=sheet_box, counted_cents=0, actor=dealer, pin=PIN, idempotency_key="count-closed-day")
    assert "Count of box T2-drop" in count_closed.value.message
    assert _everything() == before

    # The official record, the funds and the revenue report are what was in the boxes.
    assert official == [("jackpot:main:bb:fund", day, 400), ("room:main:revenue", day, 2590)]
    assert (
        sorted((row.account.code, row.gaming_day, row.official_cents) for row in official_record(room=room)) == official
    )
    bad_beat = Jackpot.objects.get(room=room, code="bb")
    fund = Account.objects.get(code=jackpot_fund_account(jackpot=bad_beat).code)
    assert account_balance(account=fund) == 400
    rows = {r.keys["table"]: r for r in poker_revenue(room=room) if r.keys["gaming_day"] == day}
    assert {number: (r.rounds, r.expected_cents, r.counted_cents) for number, r in rows.items()} == {
        "T1": (4, 2000, 2000),
        "T2": (2, 600, 590),
    }
    assert [(r.keys, r.rounds, r.expected_cents, r.counted_cents) for r in poker_revenue(room=room)] == revenue
    assert ledger_total() == 0
    assert GamingDayClose.objects.filter(room=room).count() == 2


def _a_sheet_of_a_day_closed_by_an_earlier_release(*, room, finance) -> Box:
    """A count sheet still due on a day an earlier release closed (it did not wait for counts): the
    count that would fill it is the count of a closed day."""
    from cage.models import CountSheet, SheetKind

    box = Box.objects.get(room=room, code="T2-drop")
    past = gaming_day(room=room, at=timezone.now()) - timedelta(days=3)
    starts, ends = gaming_day_bounds(room=room, day=past)
    CountSheet.objects.create(
        room=room,
        box=box,
        kind=SheetKind.DAILY,
        key=f"day:{past.isoformat()}",
        gaming_day=past,
        opens_at=starts,
        due_by=ends,
        created_at=starts,
    )
    GamingDayClose.objects.create(room=room, gaming_day=past, closed_by=finance, closed_at=ends)
    return box
