"""The displayed amount of a Bad Beat fund (§637a.15(h)) and the transfer of a discontinued fund (§637a.15(i))."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from casino_backoffice.ledger.models import Transfer, TransferKind
from casino_backoffice.staff.exceptions import ActionNotPermitted, SignerNotIndependent
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.exceptions import (
    AboveOfficialBalance,
    AlreadyApproved,
    AlreadyWitnessed,
    DisplayError,
    FundTransferRefused,
)
from jackpots.bad_beat.models import DisplayAdjustment, DisplayOverdue, FundTransfer, FundTransferStatus
from jackpots.bad_beat.selectors import fund_position
from jackpots.bad_beat.services.claims import claim_verify
from jackpots.bad_beat.services.display import (
    display_adjust,
    display_overdue_flag,
    display_witness,
    fund_transfer_approve,
    fund_transfer_prepare,
)
from jackpots.board.selectors import display_state
from jackpots.funds.models import Jackpot
from tables.selectors import gaming_day
from tests.conftest import PIN
from tests.core.sealing import triggers_suspended
from tests.jackpots.bad_beat import discontinue_bb_for_bb2, fund_official


def _shown(room, name: str):
    return next(jackpot for jackpot in display_state(room=room).jackpots if jackpot.name == name)


def test_the_display_shows_only_the_adjusted_amount(bad_beat, finance, floorperson) -> None:
    fund_official(bad_beat, 25_000, finance)
    assert _shown(bad_beat.room, "Bad Beat").amount_cents == 0  # never adjusted: the board shows no money
    assert fund_position(jackpot=bad_beat).display_matches is False

    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="adj-1")
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)

    assert (adjustment.amount_cents, adjustment.previous_cents, adjustment.official_cents) == (25_000, None, 25_000)
    assert _shown(bad_beat.room, "Bad Beat").amount_cents == 25_000
    assert fund_position(jackpot=bad_beat).display_matches is True
    # New official money does not move the display by itself: finance must adjust it again.
    fund_official(bad_beat, 1_000, finance)
    assert _shown(bad_beat.room, "Bad Beat").amount_cents == 25_000
    assert fund_position(jackpot=bad_beat).display_matches is False


def test_a_verification_shows_pending_until_the_display_is_adjusted(
    make_claim, bad_beat, finance, floorperson, supervisor
) -> None:
    fund_official(bad_beat, 40_000, finance)
    display_witness(
        adjustment=display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="adj-a"),
        actor=floorperson,
        pin=PIN,
    )
    claim_verify(claim=make_claim(), actor=supervisor, pin=PIN)

    shown = _shown(bad_beat.room, "Bad Beat")
    assert (shown.amount_cents, shown.pending) == (40_000, True)

    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="adj-b")
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)

    shown = _shown(bad_beat.room, "Bad Beat")
    assert (adjustment.amount_cents, adjustment.previous_cents, adjustment.owed_cents) == (0, 40_000, 40_000)
    assert (shown.amount_cents, shown.pending) == (0, False)
    assert fund_position(jackpot=bad_beat).display_matches is True


def test_a_floorperson_witnesses_the_adjustment_and_the_adjuster_cannot(
    bad_beat, finance, floorperson, make_staff
) -> None:
    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="adj-w")

    with pytest.raises(ActionNotPermitted):
        display_witness(adjustment=adjustment, actor=finance, pin=PIN)
    witnessed = display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)

    assert witnessed.witnessed_by == floorperson
    assert sorted(adjustment.signatures().values_list("purpose", flat=True)) == ["adjuster", "witness"]
    with pytest.raises(AlreadyWitnessed):
        display_witness(adjustment=adjustment, actor=make_staff(Role.SHIFT_SUPERVISOR), pin=PIN)


def test_a_high_hand_display_is_not_adjusted_this_way(rated_table, finance) -> None:
    high_hand = Jackpot.objects.get(room=rated_table.room, code="hh")
    with pytest.raises(DisplayError, match="pool of its qualifying period"):
        display_adjust(jackpot=high_hand, actor=finance, pin=PIN, idempotency_key="adj-hh")
    assert not DisplayAdjustment.objects.exists()


def test_a_gaming_day_without_an_adjustment_is_flagged_once(bad_beat) -> None:
    Jackpot.objects.filter(pk=bad_beat.pk).update(created_at=timezone.now() - timedelta(days=3))
    now = timezone.now()

    flagged = display_overdue_flag(room=bad_beat.room, at=now)
    again = display_overdue_flag(room=bad_beat.room, at=now + timedelta(minutes=1))

    assert len(flagged) == 3 and again == []
    assert DisplayOverdue.objects.filter(jackpot=bad_beat).count() == 3


def test_an_adjusted_day_is_not_flagged(bad_beat, finance, floorperson) -> None:
    Jackpot.objects.filter(pk=bad_beat.pk).update(created_at=timezone.now() - timedelta(days=2))
    yesterday = timezone.now() - timedelta(days=1)
    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="adj-y")
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)
    # Set and witnessed yesterday: it took effect on that gaming day.
    with triggers_suspended():  # sealed: only the test backdates a document
        DisplayAdjustment.objects.filter(pk=adjustment.pk).update(
            adjusted_at=yesterday, witnessed_at=yesterday, gaming_day=_day(bad_beat, yesterday)
        )

    display_overdue_flag(room=bad_beat.room, at=timezone.now())

    assert list(DisplayOverdue.objects.values_list("gaming_day", flat=True)) == [
        _day(bad_beat, yesterday - timedelta(days=1))
    ]


def _day(jackpot, at):
    return gaming_day(room=jackpot.room, at=at)


# --- Discontinuation (§637a.15(i)) ----------------------------------------------------------------


def test_a_discontinued_fund_moves_to_another_bad_beat_with_two_signatures(bad_beat, finance, make_staff) -> None:
    fund_official(bad_beat, 30_000, finance)
    discontinue_bb_for_bb2()
    bb2 = Jackpot.objects.get(room=bad_beat.room, code="bb2")

    prepared = fund_transfer_prepare(
        source=bad_beat,
        destination=bb2,
        amount_cents=30_000,
        reason="Approved procedure DP-1",
        actor=finance,
        pin=PIN,
        idempotency_key="ft-1",
    )
    assert fund_position(jackpot=bad_beat).official_cents == 30_000  # nothing moves before the approval
    with pytest.raises(SignerNotIndependent):
        fund_transfer_approve(transfer=prepared, actor=finance, pin=PIN)
    approved = fund_transfer_approve(transfer=prepared, actor=make_staff(Role.FINANCE), pin=PIN)

    assert approved.status == FundTransferStatus.APPROVED
    assert fund_position(jackpot=bad_beat).official_cents == 0
    assert fund_position(jackpot=bb2).official_cents == 30_000
    (transfer,) = Transfer.objects.filter(kind=TransferKind.FUND_TRANSFER)
    assert transfer.reference == approved
    with pytest.raises(AlreadyApproved):
        fund_transfer_approve(transfer=approved, actor=make_staff(Role.ADMINISTRATOR), pin=PIN)


def test_a_fund_still_collecting_is_not_transferred(bad_beat, finance) -> None:
    fund_official(bad_beat, 30_000, finance)
    discontinue_bb_for_bb2()
    bb2 = Jackpot.objects.get(room=bad_beat.room, code="bb2")
    with pytest.raises(FundTransferRefused, match="still collects at tables T1"):
        fund_transfer_prepare(
            source=bb2, destination=bad_beat, amount_cents=1, reason="x", actor=finance, pin=PIN, idempotency_key="ft-2"
        )
    assert not FundTransfer.objects.exists()


def test_a_bad_beat_fund_never_goes_to_a_high_hand_nor_above_what_it_holds(bad_beat, finance) -> None:
    fund_official(bad_beat, 30_000, finance)
    discontinue_bb_for_bb2()
    high_hand = Jackpot.objects.get(room=bad_beat.room, code="hh")
    bb2 = Jackpot.objects.get(room=bad_beat.room, code="bb2")
    signatures = Signature.objects.count()

    with pytest.raises(FundTransferRefused, match="High Hand fund"):
        fund_transfer_prepare(
            source=bad_beat,
            destination=high_hand,
            amount_cents=100,
            reason="x",
            actor=finance,
            pin=PIN,
            idempotency_key="ft-3",
        )
    with pytest.raises(AboveOfficialBalance, match=r"at most \$300\.00"):
        fund_transfer_prepare(
            source=bad_beat,
            destination=bb2,
            amount_cents=30_001,
            reason="x",
            actor=finance,
            pin=PIN,
            idempotency_key="ft-4",
        )

    assert not FundTransfer.objects.exists() and Signature.objects.count() == signatures
