"""A Bad Beat from the claim to the payment of each share (§637a.15(f)-(g)), service by service."""

from __future__ import annotations

import doctest
import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.staff.exceptions import ActionNotPermitted, SignerNotIndependent, WrongPin
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.exceptions import (
    AboveOfficialBalance,
    AlreadyClaimed,
    AlreadyDecided,
    AlreadyDistributed,
    ClaimDoesNotQualify,
    ClaimInvalid,
    ShareAlreadyPaid,
    WrongClaimStatus,
)
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDecision,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    ClaimStatus,
    DecisionOutcome,
    hand_cards,
)
from jackpots.bad_beat.models import claims as bad_beat_models
from jackpots.bad_beat.selectors import fund_position, payouts_to_deliver
from jackpots.bad_beat.services.claims import SeatedHand, SeatedPlayer, claim_deny, claim_verify
from jackpots.bad_beat.services.payouts import distribution_prepare, distribution_split, share_pay
from jackpots.funds.accounts import jackpot_fund_account, jackpot_paid_account
from jackpots.funds.exceptions import JackpotError
from jackpots.funds.models import PaymentPlace
from jackpots.funds.selectors import local_time
from rake.services import round_record
from tables.models import Round
from tables.selectors import gaming_day, gaming_day_bounds
from tests.clock import clock_move
from tests.conftest import PIN
from tests.core.sealing import triggers_suspended
from tests.jackpots.bad_beat import another_hand, fund_official, fund_reversed
from tests.jackpots.helpers import snapshot
from tests.rake.factories import recently


def _fund_cents(jackpot) -> int:
    return account_balance(account=Account.objects.get(code=jackpot_fund_account(jackpot=jackpot).code))


def _counts() -> tuple[int, ...]:
    return (
        BadBeatClaim.objects.count(),
        BadBeatDecision.objects.count(),
        BadBeatDistribution.objects.count(),
        BadBeatPayment.objects.count(),
        Transfer.objects.count(),
        Signature.objects.count(),
    )


# --- The claim --------------------------------------------------------------------------------------


def test_a_qualifying_claim_is_recorded_with_the_evaluators_verdict_in_words(make_claim, floorperson) -> None:
    claim = make_claim()

    assert claim.status == ClaimStatus.CLAIMED
    assert claim.qualifies is True
    assert claim.hand_code == "bad_beat"
    assert claim.losing_hand == "Full house, aces full of kings"
    assert claim.winning_hand == "Four of a kind, sevens, ace kicker"
    assert claim.reasons == [
        "Losing hand Full house, aces full of kings (both hole cards play) meets the minimum: Full house, aces full of tens",
        "Winning hand Four of a kind, sevens, ace kicker beats Full house, aces full of kings",
        "6 players dealt in (at least 4)",
    ]
    assert claim.others == [
        {"seat": 1, "name": "Pat One"},
        {"seat": 2, "name": "Sam Two"},
        {"seat": 5, "name": "Lee Five"},
        {"seat": 9, "name": "Kim Nine"},
    ]
    (signature,) = claim.signatures()
    assert (signature.purpose, signature.signer, signature.credential_number) == (
        "opener",
        floorperson,
        floorperson.credential_number,
    )


def test_a_claim_that_does_not_qualify_is_kept_as_evidence_and_cannot_be_verified(make_claim, supervisor) -> None:
    # Kings full of aces is below aces full of tens.
    claim = make_claim(
        board="Kd Kc Ac 7s 7h",
        losing=SeatedHand(seat=3, name="Ann Loser", hole="Ks As"),
    )
    assert claim.qualifies is False
    assert claim.reasons[0] == (
        "Losing hand Full house, kings full of aces (both hole cards play) is below the minimum: "
        "Full house, aces full of tens"
    )
    before = _counts()

    with pytest.raises(ClaimDoesNotQualify, match="does not qualify: Losing hand Full house, kings full of aces"):
        claim_verify(claim=claim, actor=supervisor, pin=PIN)

    assert _counts() == before
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.CLAIMED


def test_the_winning_hand_must_beat_the_losing_hand(make_claim) -> None:
    claim = make_claim(winning=SeatedHand(seat=7, name="Walt Winner", hole="2d 3c"))
    assert claim.qualifies is False
    assert "the qualifying hand did not lose" in claim.reasons[1]


def test_too_few_players_dealt_in_does_not_qualify(make_claim) -> None:
    claim = make_claim(players_dealt_in=3, others=[SeatedPlayer(seat=1, name="Pat One")])
    assert claim.qualifies is False
    assert claim.reasons[-1] == "Only 3 players dealt in; at least 4 are required"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"board": "Ad Ac Kc 7s 7x"}, "The board: card 5 .7x.: .x. is not a suit"),
        ({"board": "Ad Ac Kc 7s"}, "The board is 5 cards, not 4"),
        ({"winning": SeatedHand(seat=7, name="Walt Winner", hole="As 7c")}, "A card is in two places"),
        ({"losing": SeatedHand(seat=7, name="Ann Loser", hole="As Ks")}, "Seat 7 is given twice"),
        ({"losing": SeatedHand(seat=11, name="Ann Loser", hole="As Ks")}, "Table T1 has seats 1 to 10"),
        ({"others": [SeatedPlayer(seat=1, name="Pat One")]}, "list every other player dealt in"),
        ({"winning": SeatedHand(seat=7, name=" ", hole="7d 7c")}, "Give the name of the player in seat 7"),
    ],
)
def test_a_claim_with_impossible_cards_or_seats_is_refused_and_nothing_is_recorded(
    make_claim, floorperson, changes, message
) -> None:
    before = _counts()

    with pytest.raises(ClaimInvalid, match=message):
        make_claim(**changes)

    assert _counts() == before
    floorperson.refresh_from_db()
    assert floorperson.failed_pin_attempts == 0


def test_only_a_floorperson_or_above_opens_a_claim_and_a_wrong_role_counts_no_pin(make_claim, dealer) -> None:
    before = _counts()

    with pytest.raises(ActionNotPermitted):
        make_claim(actor=dealer, pin="0000")

    assert _counts() == before
    dealer.refresh_from_db()
    assert dealer.failed_pin_attempts == 0


def test_a_retried_claim_records_once(make_claim) -> None:
    first = make_claim(idempotency_key="claim-retry")
    again = make_claim(idempotency_key="claim-retry")
    assert again.pk == first.pk
    assert BadBeatClaim.objects.count() == 1


# --- Verification and denial ----------------------------------------------------------------------


def test_the_shift_supervisor_verifies_and_the_payout_is_fixed_from_the_official_balance(
    make_claim, bad_beat, supervisor, finance
) -> None:
    fund_official(bad_beat, 100_001, finance)
    claim = make_claim()

    decision = claim_verify(claim=claim, actor=supervisor, pin=PIN)

    assert (decision.outcome, decision.official_cents, decision.available_cents, decision.payout_cents) == (
        DecisionOutcome.VERIFIED,
        100_001,
        100_001,
        100_001,
    )
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.VERIFIED
    position = fund_position(jackpot=bad_beat)
    assert (position.official_cents, position.owed_cents, position.available_cents, position.pending) == (
        100_001,
        100_001,
        0,
        True,
    )


def test_the_opener_cannot_verify_their_own_claim(make_claim, supervisor) -> None:
    claim = make_claim(actor=supervisor)
    before = _counts()

    with pytest.raises(SignerNotIndependent, match="opened claim"):
        claim_verify(claim=claim, actor=supervisor, pin=PIN)

    assert _counts() == before


@pytest.mark.parametrize("role", [Role.FLOORPERSON, Role.POKER_ROOM_MANAGER, Role.FINANCE])
def test_only_the_shift_supervisor_verifies(make_claim, make_staff, role) -> None:
    claim = make_claim()
    with pytest.raises(ActionNotPermitted):
        claim_verify(claim=claim, actor=make_staff(role), pin=PIN)


def test_a_wrong_pin_verifies_nothing(make_claim, supervisor) -> None:
    claim = make_claim()
    before = _counts()
    with pytest.raises(WrongPin):
        claim_verify(claim=claim, actor=supervisor, pin="9999")
    assert _counts() == before


def test_a_denied_claim_keeps_its_evidence_and_its_reason(make_claim, supervisor) -> None:
    claim = make_claim()

    decision = claim_deny(
        claim=claim, reason="Seat 7 exposed a card before the river; see CAM-12.", actor=supervisor, pin=PIN
    )

    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DENIED
    assert decision.reason == "Seat 7 exposed a card before the river; see CAM-12."
    assert claim.surveillance_reference == "CAM-12 21:14:05"
    assert claim.board == "Ad Ac Kc 7s 7h"
    with pytest.raises(AlreadyDecided):
        claim_verify(claim=claim, actor=supervisor, pin=PIN)


def test_a_denial_needs_a_reason(make_claim, supervisor) -> None:
    claim = make_claim()
    before = _counts()
    with pytest.raises(JackpotError, match="Say why"):
        claim_deny(claim=claim, reason="  ", actor=supervisor, pin=PIN)
    assert _counts() == before


def test_a_second_verification_is_refused(make_claim, bad_beat, supervisor, make_staff, finance) -> None:
    fund_official(bad_beat, 5_000, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    with pytest.raises(AlreadyDecided):
        claim_verify(claim=claim, actor=make_staff(Role.SHIFT_SUPERVISOR), pin=PIN)
    assert BadBeatDecision.objects.count() == 1


def test_a_second_claim_verified_pays_from_what_the_first_left(make_claim, bad_beat, supervisor, finance) -> None:
    fund_official(bad_beat, 10_000, finance)
    first = claim_verify(claim=make_claim(), actor=supervisor, pin=PIN)
    second = claim_verify(claim=make_claim(**another_hand(1)), actor=supervisor, pin=PIN)
    assert (first.payout_cents, second.payout_cents, second.owed_cents) == (10_000, 0, 10_000)


# --- Distribution ---------------------------------------------------------------------------------


def test_the_split_adds_up_to_the_cent_and_the_odd_cents_follow_the_stated_rule() -> None:
    lines = distribution_split(
        total_cents=100_003,
        shares_bp={"losing_hand": 5000, "winning_hand": 2500, "table_share": 2500},
        losing=(3, "Ann"),
        winning=(7, "Walt"),
        others=[(9, "Kim"), (1, "Pat"), (5, "Lee")],
    )
    assert [(line.share, line.seat, line.amount_cents) for line in lines] == [
        ("losing_hand", 3, 50_003),  # 50,001 + the 2 cents the percentages left
        ("winning_hand", 7, 25_000),
        ("table_share", 1, 8_334),  # 25,000 / 3: the lowest seat takes the odd cent
        ("table_share", 5, 8_333),
        ("table_share", 9, 8_333),
    ]
    assert sum(line.amount_cents for line in lines) == 100_003


def test_finance_prepares_the_distribution_by_the_posted_shares(
    make_claim, bad_beat, supervisor, finance, settings
) -> None:
    settings.TAX_REPORTING_THRESHOLD_CENTS = 50_000
    fund_official(bad_beat, 100_001, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)

    distribution = distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="dist-1")

    shares = list(distribution.shares.order_by("position"))
    assert distribution.total_cents == 100_001
    assert [(s.share, s.seat, s.name, s.amount_cents, s.tax_reportable) for s in shares] == [
        ("losing_hand", 3, "Ann Loser", 50_001, True),
        ("winning_hand", 7, "Walt Winner", 25_000, False),
        ("table_share", 1, "Pat One", 6_250, False),
        ("table_share", 2, "Sam Two", 6_250, False),
        ("table_share", 5, "Lee Five", 6_250, False),
        ("table_share", 9, "Kim Nine", 6_250, False),
    ]
    assert sum(s.amount_cents for s in shares) == distribution.total_cents
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DISTRIBUTED
    # A distribution moves no money: the shares are paid one by one.
    assert _fund_cents(bad_beat) == 100_001


def test_an_unverified_claim_is_not_distributed(make_claim, finance) -> None:
    claim = make_claim()
    before = _counts()
    with pytest.raises(WrongClaimStatus, match="claimed, awaiting the shift supervisor"):
        distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="dist-x")
    assert _counts() == before


def test_a_second_distribution_is_refused(make_claim, bad_beat, supervisor, finance) -> None:
    fund_official(bad_beat, 4_000, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="dist-a")

    with pytest.raises(AlreadyDistributed):
        distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="dist-b")
    replay = distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="dist-a")
    assert BadBeatDistribution.objects.count() == 1 and replay.claim_id == claim.pk


def test_a_distribution_above_the_official_balance_is_refused(make_claim, bad_beat, supervisor, finance) -> None:
    fund_official(bad_beat, 4_000, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    fund_reversed(bad_beat, 1_000, finance)  # the official balance falls after the verification
    before = _counts()

    with pytest.raises(AboveOfficialBalance, match="more than the fund holds"):
        distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="dist-over")

    assert _counts() == before


# --- Payment --------------------------------------------------------------------------------------


@pytest.fixture
def distributed(make_claim, bad_beat, supervisor, finance):
    fund_official(bad_beat, 10_000, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    return distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="dist-pay")


def test_security_delivers_a_share_at_the_table_with_one_transfer_from_the_fund(
    distributed, bad_beat, security
) -> None:
    share = distributed.shares.get(position=1)

    payment = share_pay(
        share=share, id_type="Driver's license", id_number="PA-123", actor=security, pin=PIN, idempotency_key="pay-1"
    )

    assert (payment.place, payment.patron_name, payment.id_number) == (PaymentPlace.TABLE, "Ann Loser", "PA-123")
    (transfer,) = Transfer.objects.filter(kind=TransferKind.PAYOUT)
    assert transfer.amount_cents == 5_000
    assert transfer.reference == payment
    assert transfer.debit.code == jackpot_paid_account(jackpot=bad_beat).code
    assert _fund_cents(bad_beat) == 5_000
    assert fund_position(jackpot=bad_beat).owed_cents == 5_000


def test_a_share_is_paid_once_and_a_retry_answers_the_first_payment(distributed, security, cashier) -> None:
    share = distributed.shares.get(position=2)
    first = share_pay(share=share, id_type="Passport", id_number="X1", actor=security, pin=PIN, idempotency_key="pay-2")
    transfers = Transfer.objects.count()

    again = share_pay(share=share, id_type="Passport", id_number="X1", actor=security, pin=PIN, idempotency_key="pay-2")
    with pytest.raises(ShareAlreadyPaid, match="was paid already"):
        share_pay(share=share, id_type="Passport", id_number="X1", actor=cashier, pin=PIN, idempotency_key="pay-3")

    assert again.pk == first.pk
    assert Transfer.objects.count() == transfers
    assert BadBeatPayment.objects.count() == 1


def test_the_claim_is_paid_when_every_share_is(distributed, cashier) -> None:
    for share in distributed.shares.all():
        share_pay(
            share=share,
            id_type="License",
            id_number=f"L{share.pk}",
            actor=cashier,
            pin=PIN,
            idempotency_key=f"p{share.pk}",
        )
    distributed.claim.refresh_from_db()
    assert distributed.claim.status == ClaimStatus.PAID
    assert BadBeatPayment.objects.filter(place=PaymentPlace.CAGE).count() == distributed.shares.count()


def test_a_payment_needs_the_patrons_identification(distributed, security) -> None:
    before = _counts()
    with pytest.raises(JackpotError, match="identification"):
        share_pay(
            share=distributed.shares.first(),
            id_type="",
            id_number="1",
            actor=security,
            pin=PIN,
            idempotency_key="pay-id",
        )
    assert _counts() == before


@pytest.mark.parametrize(("role", "place"), [(Role.SECURITY, "cage"), (Role.CAGE_CASHIER, "table")])
def test_security_pays_at_the_table_and_the_cashier_at_the_cage(distributed, make_staff, role, place) -> None:
    before = _counts()
    with pytest.raises(JackpotError, match="pays at the"):
        share_pay(
            share=distributed.shares.first(),
            id_type="License",
            id_number="1",
            actor=make_staff(role),
            pin=PIN,
            idempotency_key="pay-place",
            place=place,
        )
    assert _counts() == before


@pytest.mark.parametrize("role", [Role.FLOORPERSON, Role.SHIFT_SUPERVISOR, Role.DEALER, Role.COMPLIANCE])
def test_only_security_finance_or_a_cashier_pays(distributed, make_staff, role) -> None:
    with pytest.raises(ActionNotPermitted):
        share_pay(
            share=distributed.shares.first(),
            id_type="L",
            id_number="1",
            actor=make_staff(role),
            pin=PIN,
            idempotency_key="pay-role",
        )
    assert not BadBeatShare.objects.filter(payment__isnull=False).exists()


def test_a_claim_verified_when_the_fund_held_nothing_is_not_in_the_queue_to_deliver(
    make_claim, bad_beat, supervisor
) -> None:
    claim = make_claim()
    decision = claim_verify(claim=claim, actor=supervisor, pin=PIN)

    assert decision.payout_cents == 0
    assert payouts_to_deliver(room=bad_beat.room) == []


def test_a_second_decision_says_who_decided_and_when_by_the_rooms_clock(make_claim, supervisor, make_staff) -> None:
    claim = make_claim()
    claim_deny(claim=claim, reason="Seat 7 mucked before showing.", actor=supervisor, pin=PIN)

    with pytest.raises(
        AlreadyDecided, match=rf"was already denied by {re.escape(str(supervisor))} at .* E[SD]T; nothing"
    ):
        claim_verify(claim=claim, actor=make_staff(Role.SHIFT_SUPERVISOR), pin=PIN)


# --- A hand is claimed once (§637a.15(f)-(g)) ------------------------------------------------------


@pytest.fixture
def played(rated_table, dealer) -> Callable[[str], Round]:
    """``played(key)``: a round of six players dealt in at T1, logged by its dealer a few minutes ago."""

    def play(key: str) -> Round:
        return round_record(
            table=rated_table,
            ended_at=recently(),
            players_dealt_in=6,
            pot_cents=12_000,
            uncalled_bet_cents=0,
            flop_dealt=True,
            voided=False,
            actor=dealer,
            idempotency_key=key,
        ).round

    return play


def _whole(distribution: BadBeatDistribution, payer) -> None:
    for share in distribution.shares.all():
        share_pay(share=share, id_type="License", id_number="L1", actor=payer, pin=PIN, idempotency_key=f"p{share.pk}")


def test_a_round_claimed_again_is_refused_naming_the_first_claim_and_nothing_changes(
    make_claim, played, floorperson, make_staff
) -> None:
    round_ = played("r-claimed-twice")
    first = make_claim(round=round_)
    other = make_staff(Role.FLOORPERSON)
    before = snapshot()

    # Other cards typed for the same round (a misread card, a second tablet): the round is the hand.
    with pytest.raises(AlreadyClaimed) as refused:
        make_claim(round=round_, actor=other, **another_hand(1))

    assert refused.value.code == "already_claimed" and refused.value.status == 409
    assert refused.value.message == (
        f"Round {round_.pk} at T1 was already claimed: claim {first.pk}, opened by {floorperson} at "
        f"{local_time(first.opened_at, 'America/New_York')}, awaiting the shift supervisor. A Bad Beat is paid once "
        f"(§637a.15(f)-(g)): if claim {first.pk} is wrong, the shift supervisor denies it and the corrected claim is "
        "recorded then. Nothing was recorded."
    )
    assert snapshot() == before  # no claim, no signature, the PIN not even asked


@pytest.mark.parametrize(
    "typed",
    [
        {"board": "7h 7s Kc Ac Ad", "losing": SeatedHand(seat=3, name="Ann Loser", hole="Ks As")},
        {"winning": SeatedHand(seat=7, name="Walt Winner", hole="7c 7d")},
        # The two hands the other way round: the same nine cards (the claim would not qualify either).
        {
            "losing": SeatedHand(seat=3, name="Ann Loser", hole="7d 7c"),
            "winning": SeatedHand(seat=7, name="Walt Winner", hole="As Ks"),
        },
    ],
    ids=["board-and-hole-cards-reordered", "winning-hole-cards-reordered", "hands-exchanged"],
)
def test_the_same_cards_at_the_table_the_same_gaming_day_are_refused_in_whatever_order(
    make_claim, make_staff, typed
) -> None:
    first = make_claim()
    other = make_staff(Role.FLOORPERSON)
    before = snapshot()

    with pytest.raises(
        AlreadyClaimed, match=rf"^The same cards at T1 on gaming day {first.gaming_day.isoformat()} "
    ) as refused:
        make_claim(actor=other, **typed)

    assert f"(board Ad Ac Kc 7s 7h, As Ks against 7d 7c) was already claimed: claim {first.pk}, opened by" in str(
        refused.value
    )
    assert snapshot() == before


def test_the_cards_are_one_hand_with_a_round_or_without_one(make_claim, played) -> None:
    without = make_claim()
    with pytest.raises(AlreadyClaimed, match=f"claim {without.pk}, "):
        make_claim(round=played("r-after"))
    with_round = make_claim(round=played("r-first"), **another_hand(1))
    with pytest.raises(AlreadyClaimed, match=f"claim {with_round.pk}, "):
        make_claim(**another_hand(1))
    assert BadBeatClaim.objects.count() == 2


def test_a_hand_played_before_the_days_start_and_claimed_again_after_it_is_refused(
    make_claim, rated_table, dealer, monkeypatch
) -> None:
    """The round ended at 05:58, on the day before; its cards claimed again without the round at 06:02
    would be dated the new day. They are one hand: the second claim is refused, naming the first."""
    start = gaming_day_bounds(room=rated_table.room, day=gaming_day(room=rated_table.room, at=timezone.now()))[0]
    clock_move(monkeypatch, to=start - timedelta(minutes=1))
    played = round_record(
        table=rated_table,
        ended_at=start - timedelta(minutes=2),
        players_dealt_in=6,
        pot_cents=12_000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key="r-before-the-start",
    ).round
    first = make_claim(round=played)
    clock_move(monkeypatch, to=start + timedelta(minutes=2))
    before = snapshot()

    with pytest.raises(AlreadyClaimed, match=rf"on gaming day {first.gaming_day.isoformat()} .*claim {first.pk}, "):
        make_claim()

    assert gaming_day(room=rated_table.room, at=timezone.now()) == first.gaming_day + timedelta(days=1)
    assert snapshot() == before


@pytest.mark.parametrize("stage", ["verified", "distributed", "paid"])
def test_a_hand_verified_distributed_or_paid_is_not_claimed_again(
    make_claim, bad_beat, supervisor, finance, cashier, stage
) -> None:
    fund_official(bad_beat, 10_000, finance)
    first = make_claim()
    decision = claim_verify(claim=first, actor=supervisor, pin=PIN)
    said = f"verified by {supervisor} at {local_time(decision.decided_at, 'America/New_York')}"
    if stage in ("distributed", "paid"):
        distribution = distribution_prepare(claim=first, actor=finance, pin=PIN, idempotency_key="dist-first")
        said = f"distributed at {local_time(distribution.prepared_at, 'America/New_York')}, its shares being paid"
    if stage == "paid":
        _whole(distribution, cashier)
        last = BadBeatPayment.objects.latest("paid_at")
        said = f"paid at {local_time(last.paid_at, 'America/New_York')}"
    first.refresh_from_db()
    assert first.status == stage
    before = snapshot()

    with pytest.raises(AlreadyClaimed) as refused:
        make_claim()

    assert f"was already claimed: claim {first.pk}, {said}. A Bad Beat is paid once" in refused.value.message
    assert snapshot() == before


def test_a_denied_claim_does_not_block_the_corrected_one(make_claim, played, supervisor, make_staff) -> None:
    round_ = played("r-corrected")
    # The floorperson typed kings full for aces full: it does not qualify and is denied.
    wrong = make_claim(round=round_, board="Kd Kc Ac 7s 7h", losing=SeatedHand(seat=3, name="Ann Loser", hole="Ks As"))
    claim_deny(claim=wrong, reason="Misread: the board had two aces.", actor=supervisor, pin=PIN)

    corrected = make_claim(round=round_)
    claim_verify(claim=corrected, actor=make_staff(Role.SHIFT_SUPERVISOR), pin=PIN)

    corrected.refresh_from_db()
    assert (corrected.round_id, corrected.qualifies, corrected.status) == (round_.pk, True, ClaimStatus.VERIFIED)
    # The same cards again, without a round, after a denial of them: recorded too.
    denied_cards = make_claim(**another_hand(1))
    claim_deny(claim=denied_cards, reason="Cards exposed before the river.", actor=supervisor, pin=PIN)
    assert make_claim(**another_hand(1)).status == ClaimStatus.CLAIMED


def test_the_same_cards_another_gaming_day_are_another_hand(make_claim) -> None:
    yesterday = make_claim()
    with triggers_suspended():  # sealed: only the test backdates a claim
        BadBeatClaim.objects.filter(pk=yesterday.pk).update(
            gaming_day=yesterday.gaming_day - timedelta(days=1), happened_at=yesterday.happened_at - timedelta(days=1)
        )
    assert make_claim().pk != yesterday.pk


def test_a_retry_with_its_key_answers_the_first_claim_and_another_key_is_refused(make_claim) -> None:
    first = make_claim(idempotency_key="claim-once")
    before = snapshot()

    again = make_claim(idempotency_key="claim-once")
    with pytest.raises(AlreadyClaimed, match=f"claim {first.pk}, "):
        make_claim(idempotency_key="claim-other-key")

    assert again.pk == first.pk
    assert snapshot() == before


def test_the_database_refuses_a_second_claim_of_a_round_or_of_the_cards(make_claim, played) -> None:
    """Should a path skip the service's check, the partial unique indexes still say no."""
    round_ = played("r-index")
    first = make_claim(round=round_)
    copy = {
        field.attname: getattr(first, field.attname)
        for field in BadBeatClaim._meta.concrete_fields
        if field.attname not in ("id", "idempotency_key")
    }
    for changes, index in (
        ({"cards": "As Ks Qs Js Ts / 2c 3c / 4c 5c"}, "jackpots_claim_one_per_round"),
        ({"round_id": None}, "jackpots_claim_one_per_hand"),
    ):
        with pytest.raises(IntegrityError, match=index), transaction.atomic():
            BadBeatClaim.objects.create(**{**copy, **changes, "idempotency_key": f"raw-{index}"})
    # A denied claim of the round is not in the index.
    BadBeatClaim.objects.create(**{**copy, "status": ClaimStatus.DENIED, "idempotency_key": "raw-denied"})


def test_a_hand_is_one_text_whatever_order_its_cards_were_typed_in() -> None:
    assert doctest.testmod(bad_beat_models).failed == 0
    assert hand_cards(board="2c 3d 4h 5s 6c", losing_hole="As Ks Qs Js", winning_hole="Ah Kh Qh Jh") == (
        "6c 5s 4h 3d 2c / As Ks Qs Js / Ah Kh Qh Jh"
    )


# --- A claim of a hand claimed twice before a hand could be claimed once ---------------------------


def _recorded_before_the_rule(claim: BadBeatClaim, first: BadBeatClaim) -> BadBeatClaim:
    """Make ``claim`` a claim of ``first``'s hand as migration 0016 leaves one recorded before it."""
    with triggers_suspended():  # sealed: as the migration found it, not as a service writes
        BadBeatClaim.objects.filter(pk=claim.pk).update(cards=first.cards, duplicate_of=first)
    return BadBeatClaim.objects.get(pk=claim.pk)


def test_a_duplicate_recorded_before_the_rule_is_not_verified_while_the_first_stands(
    make_claim, bad_beat, supervisor, finance, make_staff
) -> None:
    fund_official(bad_beat, 10_000, finance)
    first = make_claim()
    duplicate = _recorded_before_the_rule(make_claim(**another_hand(1)), first)
    before = snapshot()

    with pytest.raises(AlreadyClaimed) as refused:
        claim_verify(claim=duplicate, actor=supervisor, pin=PIN)

    assert refused.value.message.startswith(
        f"Claim {duplicate.pk} is of the same hand as claim {first.pk}: The same cards at T1 on gaming day "
    )
    assert "awaiting the shift supervisor. A Bad Beat is paid once (§637a.15(f)-(g)): claim" in refused.value.message
    assert snapshot() == before
    # Once the first is denied, the other claim of the hand is the one that stands.
    claim_deny(claim=first, reason="Recorded twice: claim of the other tablet kept.", actor=supervisor, pin=PIN)
    assert claim_verify(claim=duplicate, actor=make_staff(Role.SHIFT_SUPERVISOR), pin=PIN).payout_cents == 10_000


def test_a_duplicate_recorded_before_the_rule_is_not_distributed_nor_paid(
    make_claim, bad_beat, supervisor, finance, cashier
) -> None:
    first, second, third = make_claim(), make_claim(**another_hand(1)), make_claim(**another_hand(2))
    for claim in (first, second, third):
        fund_official(bad_beat, 10_000, finance)
        claim_verify(claim=claim, actor=supervisor, pin=PIN)
    distribution = distribution_prepare(claim=first, actor=finance, pin=PIN, idempotency_key="dist-1")
    paid_twice = distribution_prepare(claim=second, actor=finance, pin=PIN, idempotency_key="dist-2")
    second, third = _recorded_before_the_rule(second, first), _recorded_before_the_rule(third, first)
    before = snapshot()

    with pytest.raises(AlreadyClaimed, match=rf"^Claim {third.pk} is of the same hand as claim {first.pk}: "):
        distribution_prepare(claim=third, actor=finance, pin=PIN, idempotency_key="dist-3")
    with pytest.raises(AlreadyClaimed, match=rf"^Claim {second.pk} is of the same hand as claim {first.pk}: "):
        share_pay(
            share=paid_twice.shares.get(position=1),
            id_type="License",
            id_number="L2",
            actor=cashier,
            pin=PIN,
            idempotency_key="pay-2",
        )

    assert snapshot() == before
    _whole(distribution, cashier)  # the first claim of the hand is paid in full
    assert BadBeatClaim.objects.get(pk=first.pk).status == ClaimStatus.PAID
