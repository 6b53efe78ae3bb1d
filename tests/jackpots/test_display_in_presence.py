"""A Bad Beat display adjustment takes effect only when both have signed, finance and the floorperson or
above present (§637a.15(h)(1)); the time from the verification it answers is recorded, and the schedule
flags a verification whose display was not adjusted within the limit the house posts (§637a.15(h))."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from cage.services import schedule_run
from casino_backoffice.staff.models import Signature
from jackpots.bad_beat.exceptions import DisplaySuperseded
from jackpots.bad_beat.models import DisplayAdjustment, DisplayAdjustmentLate, DisplayOverdue
from jackpots.bad_beat.reports import posted_rules, table_notices
from jackpots.bad_beat.selectors import adjustments_to_witness, fund_position
from jackpots.bad_beat.services.claims import SeatedHand, claim_verify
from jackpots.bad_beat.services.display import display_adjust, display_late_flag, display_overdue_flag, display_witness
from jackpots.board.selectors import display_state
from jackpots.funds.models import Jackpot
from tables.selectors import gaming_day
from tests.conftest import PIN
from tests.core.sealing import triggers_suspended
from tests.jackpots.bad_beat import fund_official
from tests.rake.factories import RULES, load, rules_text


class Clock:
    """The moment every service reads (``django.utils.timezone.now``), moved by the test."""

    def __init__(self) -> None:
        self.now = timezone.now().replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(timezone, "now", clock)
    return clock


def _post_limit(minutes: int) -> None:
    """A new version of the tests' rules in which bb posts ``display_adjust_within_minutes``."""
    bb = {**RULES["jackpots"][0], "display_adjust_within_minutes": minutes}
    load(rules_text(jackpots=[bb, *RULES["jackpots"][1:]]))


def _shown(room) -> tuple[int, bool]:
    shown = next(jackpot for jackpot in display_state(room=room).jackpots if jackpot.name == "Bad Beat")
    return shown.amount_cents, shown.pending


def _adjusted(bad_beat, finance, key: str) -> DisplayAdjustment:
    return display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key=key)


# --- The board ------------------------------------------------------------------------------------


def test_the_board_shows_an_adjustment_only_when_the_witness_has_signed(
    make_claim, bad_beat, finance, floorperson, supervisor, clock, client
) -> None:
    fund_official(bad_beat, 40_000, finance)
    display_witness(adjustment=_adjusted(bad_beat, finance, "adj-1"), actor=floorperson, pin=PIN)
    clock.advance(minutes=1)
    claim_verify(claim=make_claim(), actor=supervisor, pin=PIN)  # owes the whole fund
    clock.advance(minutes=1)

    adjustment = _adjusted(bad_beat, finance, "adj-2")

    # Finance has signed, the witness has not: the board shows what it showed, under the notice.
    assert (adjustment.amount_cents, adjustment.previous_cents, adjustment.witnessed_at) == (0, 40_000, None)
    assert _shown(bad_beat.room) == (40_000, True)
    assert "Pending adjustment" in client.get("/display/main/panel/").content.decode()
    position = fund_position(jackpot=bad_beat)
    assert (position.displayed_cents, position.available_cents, position.display_matches) == (40_000, 0, False)

    clock.advance(minutes=1)
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)

    assert _shown(bad_beat.room) == (0, False)
    assert "Pending adjustment" not in client.get("/display/main/panel/").content.decode()
    assert fund_position(jackpot=bad_beat).display_matches is True


def test_a_fund_never_witnessed_shows_no_money(bad_beat, finance) -> None:
    fund_official(bad_beat, 25_000, finance)

    _adjusted(bad_beat, finance, "adj-alone")

    assert _shown(bad_beat.room) == (0, False)
    assert fund_position(jackpot=bad_beat).displayed_cents is None


def test_a_newer_adjustment_supersedes_one_not_yet_witnessed(bad_beat, finance, floorperson, clock) -> None:
    fund_official(bad_beat, 10_000, finance)
    older = _adjusted(bad_beat, finance, "adj-older")
    clock.advance(minutes=2)
    fund_official(bad_beat, 500, finance)
    newer = _adjusted(bad_beat, finance, "adj-newer")
    assert [adjustment.pk for adjustment in adjustments_to_witness(room=bad_beat.room)] == [newer.pk]
    signatures = Signature.objects.count()

    with pytest.raises(DisplaySuperseded, match=rf"superseded by adjustment {newer.pk} \(\$105\.00\)"):
        display_witness(adjustment=older, actor=floorperson, pin=PIN)

    older.refresh_from_db()
    assert (older.witnessed_by, older.witnessed_at) == (None, None)
    assert Signature.objects.count() == signatures and _shown(bad_beat.room) == (0, False)
    display_witness(adjustment=newer, actor=floorperson, pin=PIN)
    assert _shown(bad_beat.room) == (10_500, False)
    assert adjustments_to_witness(room=bad_beat.room) == []


# --- The time from the verification ---------------------------------------------------------------


def test_the_time_from_the_verification_to_the_effective_adjustment_is_recorded(
    make_claim, bad_beat, finance, floorperson, supervisor, clock
) -> None:
    fund_official(bad_beat, 30_000, finance)
    daily = _adjusted(bad_beat, finance, "adj-day")
    display_witness(adjustment=daily, actor=floorperson, pin=PIN)
    clock.advance(minutes=1)
    first = claim_verify(claim=make_claim(), actor=supervisor, pin=PIN)
    clock.advance(minutes=2)
    # A second Bad Beat before the adjustment: aces full of kings again, beaten by four eights.
    second = make_claim(board="Ad Ac Kc 8s 8h", winning=SeatedHand(seat=7, name="Walt Winner", hole="8d 8c"))
    claim_verify(claim=second, actor=supervisor, pin=PIN)
    clock.advance(minutes=2)
    adjustment = _adjusted(bad_beat, finance, "adj-after")
    clock.advance(minutes=3, seconds=30)

    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)

    adjustment.refresh_from_db()
    # From the first verification it answers: 2 + 2 + 3.5 minutes.
    assert (adjustment.verification, adjustment.seconds_from_verification) == (first, 450)
    assert adjustment.witnessed_at == first.decided_at + timedelta(seconds=450)
    daily.refresh_from_db()
    assert (daily.verification, daily.seconds_from_verification) == (None, None)  # no verification before it


def test_a_verification_after_finance_set_the_amount_waits_for_the_next_adjustment(
    make_claim, bad_beat, finance, floorperson, supervisor, clock
) -> None:
    fund_official(bad_beat, 30_000, finance)
    adjustment = _adjusted(bad_beat, finance, "adj-before")
    clock.advance(minutes=1)
    verification = claim_verify(claim=make_claim(), actor=supervisor, pin=PIN)
    clock.advance(minutes=1)

    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)

    adjustment.refresh_from_db()
    # Its amount was set before the claim owed anything: it answers no verification, the notice stays.
    assert (adjustment.verification, _shown(bad_beat.room)) == (None, (30_000, True))
    clock.advance(minutes=1)
    later = _adjusted(bad_beat, finance, "adj-next")
    display_witness(adjustment=later, actor=floorperson, pin=PIN)
    later.refresh_from_db()
    assert (later.verification, later.seconds_from_verification, _shown(bad_beat.room)) == (
        verification,
        120,
        (0, False),
    )


# --- The posted limit and the schedule ------------------------------------------------------------


def test_the_schedule_flags_a_verification_not_answered_within_the_posted_limit_once(
    make_claim, bad_beat, finance, floorperson, supervisor, clock
) -> None:
    _post_limit(10)
    fund_official(bad_beat, 30_000, finance)
    verification = claim_verify(claim=make_claim(), actor=supervisor, pin=PIN)
    verified_at = verification.decided_at
    clock.advance(minutes=8)
    adjustment = _adjusted(bad_beat, finance, "adj-late")  # finance in time; the witness is not

    assert display_late_flag(room=bad_beat.room, at=verified_at + timedelta(minutes=10)) == []
    (flag,) = display_late_flag(room=bad_beat.room, at=verified_at + timedelta(minutes=10, seconds=1))
    assert (flag.verification, flag.jackpot, flag.within_minutes, flag.due_at) == (
        verification,
        bad_beat,
        10,
        verified_at + timedelta(minutes=10),
    )
    clock.advance(minutes=4)
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)

    assert display_late_flag(room=bad_beat.room, at=verified_at + timedelta(minutes=13)) == []
    assert display_late_flag(room=bad_beat.room, at=verified_at + timedelta(days=1)) == []
    adjustment.refresh_from_db()
    assert adjustment.seconds_from_verification == 12 * 60
    assert DisplayAdjustmentLate.objects.count() == 1


def test_a_display_adjusted_in_time_is_not_flagged(
    make_claim, bad_beat, finance, floorperson, supervisor, clock
) -> None:
    _post_limit(10)
    fund_official(bad_beat, 30_000, finance)
    verified_at = claim_verify(claim=make_claim(), actor=supervisor, pin=PIN).decided_at
    clock.advance(minutes=3)
    adjustment = _adjusted(bad_beat, finance, "adj-in-time")
    clock.advance(minutes=7)  # effective exactly at the limit
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)

    for later in (timedelta(minutes=11), timedelta(hours=5), timedelta(days=2)):
        assert display_late_flag(room=bad_beat.room, at=verified_at + later) == []
    assert not DisplayAdjustmentLate.objects.exists()


def test_a_verification_never_answered_is_flagged_by_the_schedule_run(make_claim, bad_beat, supervisor, clock) -> None:
    _post_limit(5)
    verified_at = claim_verify(claim=make_claim(), actor=supervisor, pin=PIN).decided_at

    early = schedule_run(at=verified_at + timedelta(minutes=4))
    run = schedule_run(at=verified_at + timedelta(minutes=6))
    again = schedule_run(at=verified_at + timedelta(minutes=7))

    assert early is not None and run is not None and again is not None
    assert (early.displays_flagged, run.displays_flagged, again.displays_flagged) == (0, 1, 0)
    assert DisplayAdjustmentLate.objects.get().within_minutes == 5


def test_without_a_posted_limit_the_time_is_recorded_and_nothing_flagged(
    make_claim, bad_beat, finance, floorperson, supervisor, clock
) -> None:
    verified_at = claim_verify(claim=make_claim(), actor=supervisor, pin=PIN).decided_at
    clock.advance(hours=3)
    adjustment = _adjusted(bad_beat, finance, "adj-slow")
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)

    assert display_late_flag(room=bad_beat.room, at=verified_at + timedelta(hours=4)) == []
    adjustment.refresh_from_db()
    assert adjustment.seconds_from_verification == 3 * 3600


# --- The daily adjustment -------------------------------------------------------------------------


def _day(jackpot: Jackpot, at: datetime):
    return gaming_day(room=jackpot.room, at=at)


def test_finance_alone_does_not_adjust_the_day(bad_beat, finance, floorperson) -> None:
    Jackpot.objects.filter(pk=bad_beat.pk).update(created_at=timezone.now() - timedelta(days=3))
    yesterday = timezone.now() - timedelta(days=1)
    before = timezone.now() - timedelta(days=2)
    witnessed = _adjusted(bad_beat, finance, "adj-witnessed")
    display_witness(adjustment=witnessed, actor=floorperson, pin=PIN)
    alone = _adjusted(bad_beat, finance, "adj-alone")
    # The first took effect the day before yesterday; the second was set yesterday, never witnessed.
    with triggers_suspended():  # sealed: only the test backdates a document
        DisplayAdjustment.objects.filter(pk=witnessed.pk).update(
            adjusted_at=before, witnessed_at=before, gaming_day=_day(bad_beat, before)
        )
        DisplayAdjustment.objects.filter(pk=alone.pk).update(
            adjusted_at=yesterday, gaming_day=_day(bad_beat, yesterday)
        )

    display_overdue_flag(room=bad_beat.room, at=timezone.now())

    assert sorted(DisplayOverdue.objects.values_list("gaming_day", flat=True)) == [
        _day(bad_beat, timezone.now() - timedelta(days=3)),
        _day(bad_beat, yesterday),
    ]


# --- Posted with the rules ------------------------------------------------------------------------


def test_the_limit_is_posted_with_the_rules_and_at_each_table(bad_beat) -> None:
    _post_limit(15)

    rules = posted_rules(room=bad_beat.room, at=timezone.now())
    (posted,) = rules.bad_beats
    (notice,) = table_notices(rules=rules)

    assert posted.display_adjustment == (
        "After a Bad Beat is verified the display shows 'pending adjustment' until finance adjusts it to the "
        "current amount in the presence of a floorperson or above, within 15 minutes of the verification; and at "
        "least once every gaming day (§637a.15(f)(1), (h))."
    )
    assert notice.offers[0][0].display_adjustment == posted.display_adjustment


def test_without_a_limit_the_posted_rules_say_immediately(bad_beat) -> None:
    (posted,) = posted_rules(room=bad_beat.room, at=timezone.now()).bad_beats

    assert posted.display_adjustment == (
        "After a Bad Beat is verified the display shows 'pending adjustment' until finance adjusts it to the "
        "current amount in the presence of a floorperson or above, immediately upon the verification; and at "
        "least once every gaming day (§637a.15(f)(1), (h))."
    )
