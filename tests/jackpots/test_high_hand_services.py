"""The High Hand (§637a.16), service by service: periods on the room's wall clock, the Tracking Slip,
the announcement of a pool, awards, their payment and what becomes of an award not collected."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from jackpots.funds.accounts import jackpot_awards_account, jackpot_fund_account
from jackpots.funds.models import Jackpot
from jackpots.high_hand.exceptions import HighHandRefused
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    PeriodStatus,
)
from jackpots.high_hand.periods import qualifying_periods
from jackpots.high_hand.services.awards import award_pay, unclaimed_approve, unclaimed_prepare
from jackpots.high_hand.services.periods import period_announce, periods_run
from jackpots.high_hand.services.slip import current_high_hand, entry_record, entry_void
from tests.conftest import PIN
from tests.jackpots.bad_beat import fund_official
from tests.rake.factories import RULES, load, rules_text

# Its pools are announced by hand, with official money no count made (``close_and_announce``).
pytestmark = pytest.mark.pools_by_hand

NEW_YORK = ZoneInfo("America/New_York")
_keys = itertools.count(1)


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=NEW_YORK)


def _wall(moment: datetime, pattern: str) -> str:
    return moment.astimezone(NEW_YORK).strftime(pattern)


# --- The periods on the wall clock ------------------------------------------------------------------


def test_hourly_periods_cross_midnight_on_the_wall_clock() -> None:
    periods = qualifying_periods(
        zone="America/New_York",
        every_minutes=60,
        first_starts=datetime.min.time(),
        after=_at("2026-06-01T22:30"),
        until=_at("2026-06-02T01:30"),
    )
    assert [(_wall(start, "%d %H:%M"), _wall(end, "%d %H:%M")) for start, end in periods] == [
        ("01 22:00", "01 23:00"),
        ("01 23:00", "02 00:00"),
        ("02 00:00", "02 01:00"),
        ("02 01:00", "02 02:00"),
    ]


def test_the_night_the_clocks_go_back_the_one_oclock_period_lasts_two_hours() -> None:
    periods = qualifying_periods(
        zone="America/New_York",
        every_minutes=60,
        first_starts=datetime.min.time(),
        after=_at("2026-11-01T00:30"),
        until=_at("2026-11-01T02:30"),
    )
    lengths = {_wall(start, "%H:%M"): (end - start) for start, end in periods}
    assert lengths["01:00"] == timedelta(hours=2)
    assert lengths["00:00"] == lengths["02:00"] == timedelta(hours=1)


def test_the_night_the_clocks_go_forward_no_period_is_empty() -> None:
    periods = qualifying_periods(
        zone="America/New_York",
        every_minutes=60,
        first_starts=datetime.min.time(),
        after=_at("2026-03-08T00:30"),
        until=_at("2026-03-08T04:30"),
    )
    assert all(end > start for start, end in periods)
    assert [_wall(start, "%H:%M %Z") for start, _ in periods] == ["00:00 EST", "01:00 EST", "03:00 EDT", "04:00 EDT"]
    assert periods[1][1] - periods[1][0] == timedelta(hours=1)  # 01:00 EST to 03:00 EDT


def test_the_schedule_opens_the_current_period_once(rated_table) -> None:
    at = _at("2026-06-01T10:20")
    first, again = periods_run(room=rated_table.room, at=at), periods_run(room=rated_table.room, at=at)

    (period,) = HighHandPeriod.objects.all()
    assert (first.opened, again.opened) == (1, 0)
    assert (period.starts_at, period.ends_at, period.status) == (
        _at("2026-06-01T10:00"),
        _at("2026-06-01T11:00"),
        "open",
    )


def test_a_restart_closes_what_ended_while_down_and_says_so(rated_table) -> None:
    room = rated_table.room
    periods_run(room=room, at=_at("2026-06-01T10:05"))

    run = periods_run(room=room, at=_at("2026-06-01T12:30"))

    ten, eleven, noon = HighHandPeriod.objects.order_by("starts_at")
    assert (run.opened, run.closed) == (2, 2)
    assert (ten.status, eleven.status, noon.status) == ("closed", "closed", "open")
    assert ten.close_note.startswith("Closed at 2026-06-01 12:30 EDT, 90 minutes after its end")
    assert eleven.close_note.startswith("Opened and closed at 2026-06-01 12:30 EDT")
    assert noon.close_note == ""


# --- The Tracking Slip --------------------------------------------------------------------------------


@pytest.fixture
def open_period(rated_table) -> HighHandPeriod:
    """The period open now (hourly), opened by the schedule."""
    periods_run(room=rated_table.room, at=timezone.now())
    return HighHandPeriod.objects.get(status=PeriodStatus.OPEN)


def _made_in(period: HighHandPeriod) -> datetime:
    return period.starts_at + (min(timezone.now(), period.ends_at) - period.starts_at) / 2


@pytest.fixture
def record(open_period, rated_table, dealer, floorperson):
    """``record(cards, **changes)``: an entry on the open period's slip."""

    def entry(cards: str, **changes):
        values = {
            "jackpot": open_period.jackpot,
            "table": rated_table,
            "seat": 4,
            "player_name": "Hal Hand",
            "player_phone": "215-555-0100",
            "id_type": "Driver's license",
            "id_number": "PA-99887766",
            "dealer": dealer,
            "players_dealt_in": 7,
            "pot_cents": 8_000,
            "cards": cards,
            "made_at": _made_in(open_period),
            "actor": floorperson,
            "pin": PIN,
            "idempotency_key": f"hh-{next(_keys)}",
            **changes,
        }
        return entry_record(**values)

    return entry


def test_a_full_house_is_recorded_with_every_field_of_the_slip(record, dealer, floorperson) -> None:
    entry = record("9s 9d 9h 4c 4d")

    assert (entry.words, entry.tie, entry.table.number, entry.seat) == (
        "Full house, nines full of fours",
        False,
        "T1",
        4,
    )
    assert (entry.dealer_credential_number, entry.dealer_name) == (dealer.credential_number, dealer.get_full_name())
    (signature,) = entry.signatures()
    assert (signature.signer, signature.credential_number, signature.purpose) == (
        floorperson,
        floorperson.credential_number,
        "recorder",
    )


@pytest.mark.parametrize(
    ("cards", "changes", "code"),
    [
        ("9s 9d 9h 4c 2d", {}, "below_minimum"),
        ("9s 9d 9h 4c 4d", {"players_dealt_in": 5}, "too_few_players"),
        ("9s 9d 9h 4c 4d", {"id_number": " "}, "id_required"),
        ("9s 9d 9h 9c 9d", {}, "cards_invalid"),
        ("9s 9d 9h 4c 4d", {"made_at": timezone.now() - timedelta(days=2)}, "period_closed"),
    ],
)
def test_a_hand_the_rules_refuse_is_not_recorded(record, cards, changes, code) -> None:
    before = (HighHandEntry.objects.count(), Signature.objects.count())
    with pytest.raises(HighHandRefused) as refused:
        record(cards, **changes)
    assert refused.value.code == code
    assert (HighHandEntry.objects.count(), Signature.objects.count()) == before


def test_a_hand_of_a_pot_under_the_contribution_minimum_still_qualifies(record) -> None:
    # The posted $30.00 is 'the minimum pot amount required before the contribution ... is collected'
    # (§637a.16(b)(3)), measured after the rake: no restriction on qualifying (b)(7) is posted.
    entry = record("9s 9d 9h 4c 4d", pot_cents=2_999)

    assert (entry.pot_cents, entry.words) == (2_999, "Full house, nines full of fours")


def test_only_a_higher_or_equal_hand_is_recorded_and_an_equal_one_is_a_tie(record) -> None:
    record("Ts Td Th 4c 4d")
    with pytest.raises(HighHandRefused, match="lower than the period's high hand") as refused:
        record("9s 9d 9h Ac Ad")
    tie = record("Tc Td Th 4s 4h", seat=6)

    assert refused.value.code == "not_higher"
    assert tie.tie is True
    assert HighHandEntry.objects.count() == 2


def test_a_void_falls_back_to_the_best_entry_left(record, supervisor, open_period) -> None:
    first = record("9s 9d 9h 4c 4d")
    wrong = record("As Ad Ah Kc Kd")

    entry_void(entry=wrong, reason="The ace of hearts was a misread queen; see CAM-3.", actor=supervisor, pin=PIN)

    assert current_high_hand(period=open_period) == first
    assert HighHandEntry.objects.count() == 2  # the wrong entry stays on the slip


def test_only_a_floorperson_or_above_records(record, dealer) -> None:
    with pytest.raises(ActionNotPermitted):
        record("9s 9d 9h 4c 4d", actor=dealer)


# --- The pool, awards, payment ---------------------------------------------------------------------


def _close(period: HighHandPeriod) -> HighHandPeriod:
    periods_run(room=period.room, at=period.ends_at + timedelta(seconds=30))
    period.refresh_from_db()
    return period


def test_tied_hands_share_the_pool_with_no_cent_lost(record, open_period, finance) -> None:
    fund_official(open_period.jackpot, 10_001, finance)
    first = record("Ts Td Th 4c 4d", seat=2)
    second = record("Tc Td Th 4s 4h", seat=6)

    announced = period_announce(period=_close(open_period), contributions_cents=10_001, at=timezone.now())

    assert (announced.status, announced.pool_cents) == (PeriodStatus.AWARDED, 10_001)
    assert [(award.entry_id, award.amount_cents) for award in HighHandAward.objects.order_by("entry")] == [
        (first.pk, 5_001),  # the odd cent to the hand recorded first
        (second.pk, 5_000),
    ]
    awards = Account.objects.get(code=jackpot_awards_account(jackpot=open_period.jackpot).code)
    assert account_balance(account=awards) == 10_001


def test_with_no_qualifying_hand_the_pool_rolls_into_the_next_period(open_period) -> None:
    period = _close(open_period)
    following = HighHandPeriod.objects.get(starts_at=period.ends_at)

    period_announce(period=period, contributions_cents=4_200, at=timezone.now())

    period.refresh_from_db()
    following.refresh_from_db()
    assert (period.status, period.pool_cents, following.rolled_in_cents) == (PeriodStatus.ROLLED_OVER, 4_200, 4_200)


def test_an_award_is_paid_once_at_the_cage_against_the_recorded_id(record, open_period, finance, cashier) -> None:
    fund_official(open_period.jackpot, 7_000, finance)
    record("Ts Td Th 4c 4d")
    period_announce(period=_close(open_period), contributions_cents=7_000, at=timezone.now())
    award = HighHandAward.objects.get()

    with pytest.raises(HighHandRefused) as mismatch:
        award_pay(award=award, id_type="Passport", id_number="X1", actor=cashier, pin=PIN, idempotency_key="p0")
    payment = award_pay(
        award=award, id_type="driver's license", id_number="pa-99887766", actor=cashier, pin=PIN, idempotency_key="p1"
    )
    with pytest.raises(HighHandRefused) as twice:
        award_pay(
            award=award,
            id_type="Driver's license",
            id_number="PA-99887766",
            actor=cashier,
            pin=PIN,
            idempotency_key="p2",
        )

    assert mismatch.value.code == "id_mismatch" and twice.value.code == "award_already_paid"
    assert HighHandAwardPayment.objects.get() == payment
    assert Transfer.objects.filter(kind=TransferKind.PAYOUT).count() == 1


def test_an_award_not_collected_goes_where_the_rules_say_with_finances_signature(
    record, open_period, finance, cashier, rated_table
) -> None:
    fund_official(open_period.jackpot, 7_000, finance)
    record("Ts Td Th 4c 4d")
    period_announce(period=_close(open_period), contributions_cents=7_000, at=timezone.now())
    award = HighHandAward.objects.get()

    (unclaimed,) = unclaimed_prepare(room=rated_table.room, at=award.collect_by + timedelta(minutes=1))
    with pytest.raises(ActionNotPermitted):
        unclaimed_approve(unclaimed=unclaimed, actor=cashier, pin=PIN)
    # The posted next_period: 'into the pool of the qualifying period open when the time limit ends'
    # (§637a.16(i)), never one that ended before it, such as the period still open now.
    with pytest.raises(HighHandRefused) as no_period:
        unclaimed_approve(unclaimed=unclaimed, actor=finance, pin=PIN)
    assert no_period.value.code == "no_period"
    periods_run(room=rated_table.room, at=award.collect_by + timedelta(minutes=1))
    approved = unclaimed_approve(unclaimed=unclaimed, actor=finance, pin=PIN)

    assert approved.into_period is not None and approved.into_period.rolled_in_cents == 7_000
    assert approved.into_period.starts_at <= award.collect_by < approved.into_period.ends_at
    fund = Account.objects.get(code=jackpot_fund_account(jackpot=open_period.jackpot).code)
    assert account_balance(account=fund) == 7_000
    with pytest.raises(HighHandRefused) as expired:
        award_pay(
            award=award,
            id_type="Driver's license",
            id_number="PA-99887766",
            actor=cashier,
            pin=PIN,
            idempotency_key="late",
        )
    assert expired.value.code == "award_expired"
    assert HighHandUnclaimed.objects.count() == 1


class TestAnAwardKeptInTheFund:
    """The posted destination ``fund``: 'kept in the fund and added to the next qualifying period's pool
    when that period closes' (the rules' words for §637a.16(i))."""

    @pytest.fixture
    def rules(self, room):
        jackpots = [{**item, "unclaimed": "fund"} if item["code"] == "hh" else item for item in RULES["jackpots"]]
        return load(rules_text(jackpots=jackpots))

    def test_it_joins_the_pool_of_the_next_period_to_close_after_the_approval(
        self, record, open_period, finance, rated_table
    ) -> None:
        fund_official(open_period.jackpot, 7_000, finance)
        record("Ts Td Th 4c 4d")
        period_announce(period=_close(open_period), contributions_cents=7_000, at=timezone.now())
        award = HighHandAward.objects.get()
        (unclaimed,) = unclaimed_prepare(room=rated_table.room, at=award.collect_by + timedelta(minutes=1))
        assert unclaimed.destination == "fund"
        following = HighHandPeriod.objects.get(status=PeriodStatus.OPEN)

        approved = unclaimed_approve(unclaimed=unclaimed, actor=finance, pin=PIN)

        # Back in the fund at once, in no pool yet: the open period's pool does not show it.
        following.refresh_from_db()
        assert (approved.into_period, following.rolled_in_cents) == (None, 0)
        fund = Account.objects.get(code=jackpot_fund_account(jackpot=open_period.jackpot).code)
        assert account_balance(account=fund) == 7_000
        # The next period to close takes it into its pool.
        closed = _close(following)
        approved.refresh_from_db()
        assert (approved.into_period, closed.rolled_in_cents) == (closed, 7_000)
        _close(HighHandPeriod.objects.get(status=PeriodStatus.OPEN))
        assert HighHandPeriod.objects.filter(rolled_in_cents=7_000).count() == 1  # taken in once


def test_periods_are_announced_in_order(open_period) -> None:
    period = _close(open_period)
    following = HighHandPeriod.objects.get(starts_at=period.ends_at)
    _close(following)
    following.refresh_from_db()

    period_announce(period=following, contributions_cents=100, at=timezone.now())

    following.refresh_from_db()
    assert following.status == PeriodStatus.CLOSED  # waits for the earlier period, whose pool may roll into it


def test_the_fund_must_be_a_high_hand(rated_table) -> None:
    assert Jackpot.objects.get(room=rated_table.room, code="hh").periods.count() == 0
    periods_run(room=rated_table.room, at=timezone.now())
    assert not Jackpot.objects.get(room=rated_table.room, code="bb").periods.exists()


def test_a_dealer_is_named_by_a_dealer_with_a_credential(record, floorperson, make_staff) -> None:
    with pytest.raises(HighHandRefused) as refused:
        record("9s 9d 9h 4c 4d", dealer=make_staff(Role.SECURITY))
    assert refused.value.code == "dealer_required"


def test_the_same_seat_does_not_tie_itself(record) -> None:
    record("Ts Td Th 4c 4d", seat=6)
    with pytest.raises(HighHandRefused) as refused:
        record("Tc Td Th 4s 4h", seat=6)
    assert (refused.value.code, refused.value.status) == ("already_recorded", 409)
    assert HighHandEntry.objects.count() == 1


def test_a_new_player_in_the_same_seat_may_tie(record) -> None:
    record("Ts Td Th 4c 4d", seat=6)
    tie = record("Tc Td Th 4s 4h", seat=6, player_name="Nia New", id_number="PA-11223344")
    assert tie.tie is True and HighHandEntry.objects.count() == 2
