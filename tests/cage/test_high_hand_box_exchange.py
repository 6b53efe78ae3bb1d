"""The High Hand box is exchanged at each qualifying period's end (§637a.16(d): 'At the end of each
qualifying period, a certificate holder shall count the accumulated contents of each High Hand Jackpot
payout box'): a period's pool is exactly the drops of the rounds that ended in it, whenever its box is
counted, and a count fills the sheet of its own period and no other (§637a.16(g)-(h)).

Driven by ``manage.py run_schedule --at`` on T1 (hh: 5% capped at $2.00, hourly from 10:00, New York),
every $120 pot dropping $2.00."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from cage.invariants import high_hand_pool_violations
from cage.models import Box, Count, CountSheet, SheetKind
from cage.services import cage_verify, count_record, count_witness, transport_create
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.ledger.selectors import ledger_total
from jackpots.high_hand.exceptions import HighHandRefused
from jackpots.high_hand.models import HighHandAward, HighHandPeriod, PeriodStatus
from tables.models import Round
from tables.services import table_set_open
from tests.conftest import PIN
from tests.rake.factories import load, rules_text

NEW_YORK = ZoneInfo("America/New_York")


def _at(text: str) -> datetime:
    return datetime.fromisoformat(f"2026-11-30T{text}").replace(tzinfo=NEW_YORK)


def _run(at: datetime) -> None:
    call_command("run_schedule", at=at.isoformat())


def _period(start: str) -> HighHandPeriod:
    return HighHandPeriod.objects.get(jackpot__code="hh", starts_at=_at(start))


def test_a_round_after_the_period_ends_and_before_its_count_goes_to_the_next_pool(night) -> None:
    rounds, hand, count = night
    _run(_at("10:30"))
    rounds(_at("10:40"), 2)  # $4.00 in the 10:00 period
    winner = hand("Ks Kd Kh Kc 2d", _at("10:45"), seat=3)
    _run(_at("11:01"))  # 10:00 closes: its box is exchanged
    rounds(_at("11:05"))  # $2.00, after the end and before the count: the 11:00 period's

    verification = count()
    _run(_at("11:10"))

    ten = _period("10:00")
    assert verification.box_counts["T1-hh"] == 400
    assert (ten.status, ten.contributions_cents, ten.pool_cents) == (PeriodStatus.AWARDED, 400, 400)
    (award,) = HighHandAward.objects.filter(period=ten)
    assert (award.entry_id, award.amount_cents) == (winner.pk, 400)
    # The 11:00 box content holds the round after the end, for the 11:00 pool.
    rows = APIClient()
    rows.force_authenticate(verification.cashier)  # the blind count: the cage sees what a box should hold
    (box,) = rows.get("/api/boxes/", {"room": "main", "jackpot": "hh", "table": "T1"}).json()["results"]
    assert (box["expected"], box["period"]) == ("2.00", "2026-11-30T11:00:00-05:00")
    assert high_hand_pool_violations() == []
    assert ledger_total() == 0


def test_counts_made_two_periods_late_split_by_period(night) -> None:
    rounds, _hand, count = night
    _run(_at("10:30"))
    rounds(_at("10:40"))  # $2.00 for 10:00
    _run(_at("11:01"))
    rounds(_at("11:20"), 2)  # $4.00 for 11:00
    _run(_at("12:01"))
    rounds(_at("12:10"))  # $2.00 for 12:00, still open
    # Nobody counted at 11:00 nor at 12:00: two ended periods wait, each with its own sheet.
    sheets = CountSheet.objects.filter(kind=SheetKind.PERIOD, box__code="T1-hh").order_by("opens_at")
    assert [sheet.period.starts_at for sheet in sheets] == [_at("10:00"), _at("11:00")]

    first = count()  # the oldest period's box content first
    _run(_at("12:15"))
    second = count()
    _run(_at("12:20"))

    ten, eleven, twelve = _period("10:00"), _period("11:00"), _period("12:00")
    assert (first.box_counts["T1-hh"], second.box_counts["T1-hh"]) == (200, 400)
    assert (ten.status, ten.contributions_cents, ten.pool_cents) == (PeriodStatus.ROLLED_OVER, 200, 200)
    assert (eleven.status, eleven.contributions_cents, eleven.pool_cents) == (PeriodStatus.ROLLED_OVER, 400, 600)
    assert (twelve.status, twelve.rolled_in_cents) == (PeriodStatus.OPEN, 600)
    assert [Count.objects.get(sheet=sheet).period_id for sheet in sheets] == [ten.pk, eleven.pk]
    assert high_hand_pool_violations() == []


def test_a_round_that_ends_in_a_period_not_opened_yet_opens_it_marked_late(night) -> None:
    rounds, _hand, count = night
    _run(_at("12:30"))  # the first run opens the current period only: 11:00 was never opened
    rounds(_at("11:30"))  # a table system sends a round of 11:30 late: $2.00

    eleven = _period("11:00")
    assert (eleven.status, eleven.opened_late) == (PeriodStatus.CLOSED, True)
    assert "by a round of table T1 that ended in it" in eleven.open_note
    _run(_at("12:40"))  # its sheet now exists: the period does
    assert CountSheet.objects.filter(box__code="T1-hh", period=eleven).exists()
    assert count().box_counts["T1-hh"] == 200
    _run(_at("12:45"))
    eleven.refresh_from_db()
    # No full house at 11:00: its $2.00 rolls into the first period not announced yet (§637a.16(h)).
    assert (eleven.status, eleven.pool_cents) == (PeriodStatus.ROLLED_OVER, 200)
    assert _period("12:00").rolled_in_cents == 200


def test_a_round_of_a_period_whose_box_was_counted_is_refused_and_changes_nothing(
    night, rated_table, dealer, floorperson
) -> None:
    rounds, _hand, _count = night
    _run(_at("10:30"))
    rounds(_at("10:40"))
    _run(_at("11:01"))
    table_set_open(table=rated_table, is_open=False, actor=floorperson)
    counted = count_record(
        box=Box.objects.get(code="T1-hh"), counted_cents=200, actor=dealer, pin=PIN, idempotency_key="c-10"
    )
    assert (counted.period, counted.expected_cents) == (_period("10:00"), 200)
    table_set_open(table=rated_table, is_open=True, actor=floorperson)
    before = (Round.objects.count(), Transfer.objects.count())

    with pytest.raises(HighHandRefused) as refused:
        rounds(_at("10:50"))  # a round of 10:50 arrives after the 10:00 box was counted

    assert refused.value.code == "period_box_counted" and refused.value.status == 409
    assert "was counted at" in refused.value.message
    assert (Round.objects.count(), Transfer.objects.count()) == before


class TestRulesThatTakeEffectMidDay:
    """A second day: rules taking effect at 10:00, the periods driven by ``run_schedule --at``. The
    schedule made count sheets for a 09:00 period that never existed, the counts of the 10:00 boxes
    filled them, and the 10:00 period, four kings on its slip, stayed closed with no pool."""

    @pytest.fixture
    def rules(self, room):
        return load(rules_text(effective_from="2026-11-30T10:00:00-05:00"))

    def test_no_sheet_before_the_rules_and_the_four_kings_win_the_whole_pool(self, night) -> None:
        rounds, hand, count = night
        _run(_at("09:30"))  # no rules in effect yet
        _run(_at("10:30"))
        rounds(_at("10:20"), 3)  # $6.00
        winner = hand("Kc Kd Kh Ks 9c", _at("10:40"), seat=4)
        _run(_at("11:01"))

        assert set(CountSheet.objects.filter(kind=SheetKind.PERIOD).values_list("key", flat=True)) == {
            "period:2026-11-30T10:00"
        }
        count()
        _run(_at("11:05"))

        ten = _period("10:00")
        assert (ten.status, ten.pool_cents) == (PeriodStatus.AWARDED, 600)
        (award,) = HighHandAward.objects.filter(period=ten)
        assert (award.entry_id, award.amount_cents) == (winner.pk, 600)
        assert not HighHandPeriod.objects.filter(starts_at__lt=_at("10:00")).exists()
        assert high_hand_pool_violations() == []


def test_a_box_counted_before_its_period_ended_is_counted_again_for_what_came_after(
    night, rated_table, dealer, floorperson, security, cashier
) -> None:
    rounds, _hand, count = night
    _run(_at("10:30"))
    rounds(_at("10:35"))  # $2.00
    table_set_open(table=rated_table, is_open=False, actor=floorperson)
    early = count_record(
        box=Box.objects.get(code="T1-hh"), counted_cents=200, actor=dealer, pin=PIN, idempotency_key="c-1"
    )
    # The table closed before the period ended: its box is counted for what the period dropped so far.
    assert (early.period, early.sheet, early.expected_cents) == (_period("10:00"), None, 200)
    table_set_open(table=rated_table, is_open=True, actor=floorperson)
    rounds(_at("10:40"), 2)  # $4.00 after the early count, in the same period
    _run(_at("11:01"))

    assert count().box_counts["T1-hh"] == 400  # the 10:00 sheet takes what came after the early count
    _run(_at("11:05"))
    # The period waits for every count of its box contents: the early one too.
    assert _period("10:00").status == PeriodStatus.CLOSED
    count_witness(count=early, actor=floorperson, pin=PIN, surveillance_reference="CAM-9")
    container = transport_create(
        room=rated_table.room, seal="S-early", counts=[early], actor=security, pin=PIN, idempotency_key="t-early"
    )
    cage_verify(transport=container, counted=200, actor=cashier, pin=PIN, idempotency_key="v-early")
    _run(_at("11:10"))
    ten = _period("10:00")
    assert (ten.status, ten.contributions_cents, ten.pool_cents) == (PeriodStatus.ROLLED_OVER, 600, 600)
    assert high_hand_pool_violations() == []


def test_a_period_a_round_opened_while_the_schedule_was_down_does_not_hide_the_ones_it_missed(night) -> None:
    rounds, _hand, _count = night
    _run(_at("10:30"))
    rounds(_at("12:15"))  # the schedule is down from 10:31; a round at 12:15 opens the 12:00 period, late
    _run(_at("12:31"))  # back: the 11:00 period it missed is recorded too, and 10:00 and 11:00 close

    periods = HighHandPeriod.objects.filter(jackpot__code="hh").order_by("starts_at")
    assert [(p.starts_at, p.status, p.opened_late) for p in periods] == [
        (_at("10:00"), PeriodStatus.CLOSED, False),
        (_at("11:00"), PeriodStatus.CLOSED, False),
        (_at("12:00"), PeriodStatus.CLOSED, True),  # closed at once: by the real clock its end has passed
    ]


def test_the_cage_is_told_the_period_the_next_count_takes_after_a_box_was_taken_whole(
    night, rated_table, dealer, floorperson, cashier
) -> None:
    """A box counted whole before its period ended needs no count for that period (no sheet is made);
    the cage's list then names the next period and what it holds, which is what the next count takes.
    Found by the load soak: the list named the counted period with $0.00 while the count took $28.00."""
    rounds, _hand, _count = night
    _run(_at("10:30"))
    rounds(_at("10:35"))  # $2.00 for 10:00
    table_set_open(table=rated_table, is_open=False, actor=floorperson)
    early = count_record(
        box=Box.objects.get(code="T1-hh"), counted_cents=200, actor=dealer, pin=PIN, idempotency_key="c-whole"
    )
    assert (early.period, early.sheet) == (_period("10:00"), None)
    table_set_open(table=rated_table, is_open=True, actor=floorperson)
    _run(_at("11:01"))  # 10:00 closes; its box content was taken whole: no sheet for it
    rounds(_at("11:10"), 2)  # $4.00 for 11:00
    assert not CountSheet.objects.filter(box__code="T1-hh", period=_period("10:00")).exists()

    cage = APIClient()
    cage.force_authenticate(cashier)
    (box,) = cage.get("/api/boxes/", {"room": "main", "jackpot": "hh", "table": "T1"}).json()["results"]
    assert (box["expected"], box["period"]) == ("4.00", "2026-11-30T11:00:00-05:00")
    table_set_open(table=rated_table, is_open=False, actor=floorperson)
    then = count_record(
        box=Box.objects.get(code="T1-hh"), counted_cents=400, actor=dealer, pin=PIN, idempotency_key="c-next"
    )
    assert (then.period, then.expected_cents) == (_period("11:00"), 400)
