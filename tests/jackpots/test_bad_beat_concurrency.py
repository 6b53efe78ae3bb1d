"""Twenty people paying the same share at once pay it once; the fund never goes below zero. Twenty
tablets claiming the same hand at once record it once.

Real parallel connections on PostgreSQL: every thread has its own database connection and its own
Idempotency-Key (two tablets, two clicks), and all start together.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, transaction

from casino_backoffice.ledger.models import Transfer, TransferKind
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.exceptions import AlreadyClaimed, ShareAlreadyPaid
from jackpots.bad_beat.models import BadBeatClaim, BadBeatPayment
from jackpots.bad_beat.selectors import fund_position
from jackpots.bad_beat.services.claims import _claim_locked, claim_verify
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from rake.services import round_record
from tests.conftest import PIN
from tests.jackpots.bad_beat import another_hand, fund_official
from tests.lock_race import retry_racing_its_first_attempt, second_waits_for_first
from tests.rake.factories import recently

ATTEMPTS = 20


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_payments_of_one_share_pay_it_once(make_claim, bad_beat, supervisor, finance, make_staff):
    assert connection.vendor == "postgresql"
    fund_official(bad_beat, 10_000, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    share = distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="dist").shares.get(position=1)
    payers = [make_staff(Role.SECURITY if n % 2 else Role.CAGE_CASHIER) for n in range(ATTEMPTS)]
    start = threading.Barrier(ATTEMPTS)

    def pay(n: int) -> str:
        try:
            start.wait(timeout=30)
            share_pay(
                share=share, id_type="License", id_number="PA-1", actor=payers[n], pin=PIN, idempotency_key=f"pay-{n}"
            )
            return "paid"
        except ShareAlreadyPaid:
            return "refused"
        finally:
            connection.close()

    with ThreadPoolExecutor(ATTEMPTS) as pool:
        outcomes = list(pool.map(pay, range(ATTEMPTS)))

    assert outcomes.count("paid") == 1
    assert outcomes.count("refused") == ATTEMPTS - 1
    assert BadBeatPayment.objects.count() == 1
    assert Transfer.objects.filter(kind=TransferKind.PAYOUT).count() == 1
    position = fund_position(jackpot=bad_beat)
    assert (position.official_cents, position.owed_cents) == (5_000, 5_000)
    assert ledger_total() == 0


@pytest.mark.django_db(transaction=True)
def test_concurrent_payments_of_every_share_leave_the_fund_at_zero(
    make_claim, bad_beat, supervisor, finance, make_staff
):
    fund_official(bad_beat, 10_001, finance)
    claim = make_claim()
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    shares = list(distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key="d").shares.all())
    payers = [make_staff(Role.CAGE_CASHIER) for _ in range(len(shares) * 3)]
    start = threading.Barrier(len(payers))

    def pay(n: int) -> str:
        try:
            start.wait(timeout=30)
            share_pay(
                share=shares[n % len(shares)],
                id_type="L",
                id_number="1",
                actor=payers[n],
                pin=PIN,
                idempotency_key=f"k{n}",
            )
            return "paid"
        except ShareAlreadyPaid:
            return "refused"
        finally:
            connection.close()

    with ThreadPoolExecutor(len(payers)) as pool:
        outcomes = list(pool.map(pay, range(len(payers))))

    assert outcomes.count("paid") == len(shares)
    position = fund_position(jackpot=bad_beat)
    assert (position.official_cents, position.owed_cents) == (0, 0)
    claim.refresh_from_db()
    assert claim.status == "paid"


@pytest.mark.django_db(transaction=True)
def test_a_round_is_recorded_while_a_claim_of_its_jackpot_is_held_for_verification(make_claim, rated_table, dealer):
    """The lock of a claim is the claim's row only. A round's drop points at the jackpot and its rules
    version, and PostgreSQL checks those keys (FOR KEY SHARE) at the round's commit: a claim locked
    with its jackpot and rules version (FOR UPDATE of every joined row) made every round of the room
    wait for the verification, and two of them deadlocked in the 10-minute soak."""
    claim = make_claim()
    recorded: list[object] = []

    def record_a_round() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = '5s'")
            recorded.append(
                round_record(
                    table=rated_table,
                    ended_at=recently(),
                    players_dealt_in=6,
                    pot_cents=12_000,
                    uncalled_bet_cents=0,
                    flop_dealt=True,
                    voided=False,
                    actor=dealer,
                    idempotency_key="round-during-verification",
                ).round
            )
        except Exception as error:  # noqa: BLE001 - the assertion below shows it
            recorded.append(error)
        finally:
            connection.close()

    with transaction.atomic():
        _claim_locked(claim)
        thread = threading.Thread(target=record_a_round)
        thread.start()
        thread.join(timeout=30)

    assert len(recorded) == 1 and not isinstance(recorded[0], Exception), recorded
    assert recorded[0].drops.filter(jackpot=claim.jackpot).exists()


# --- A hand claimed at once from several tablets (§637a.15(f)-(g)) --------------------------------

CLAIMERS = 20


def _round_of_six(table, dealer, key: str):
    return round_record(
        table=table,
        ended_at=recently(),
        players_dealt_in=6,
        pot_cents=12_000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key=key,
    ).round


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same", ["round", "cards"])
def test_two_claims_of_one_hand_at_once_record_one_and_refuse_the_other(
    make_claim, rated_table, dealer, make_staff, same
) -> None:
    """The second claim waits at its insert for the first one's transaction (the partial unique index
    of the round, or of the cards at the table on the gaming day), and is refused when it commits."""
    if same == "round":
        round_ = _round_of_six(rated_table, dealer, "race-round")
        first_hand, second_hand = {"round": round_}, {"round": round_, **another_hand(1)}
    else:
        first_hand, second_hand = {}, {"board": "7h 7s Kc Ac Ad"}
    tablets = [make_staff(Role.FLOORPERSON), make_staff(Role.FLOORPERSON)]

    answers = second_waits_for_first(
        lambda: make_claim(actor=tablets[0], idempotency_key="race-first", **first_hand),
        lambda: make_claim(actor=tablets[1], idempotency_key="race-second", **second_hand),
        pause_at="jackpots.bad_beat.services.claims.signature_add",
    )

    first, second = answers["first"], answers["second"]
    assert isinstance(first, BadBeatClaim), answers
    assert isinstance(second, AlreadyClaimed), answers
    assert f"was already claimed: claim {first.pk}, opened by {tablets[0]} at " in second.message
    assert list(BadBeatClaim.objects.values_list("pk", flat=True)) == [first.pk]
    assert Signature.objects.filter(purpose="opener").count() == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_tablets_claiming_one_hand_at_once_record_it_once(make_claim, make_staff) -> None:
    tablets = [make_staff(Role.FLOORPERSON) for _ in range(CLAIMERS)]
    start = threading.Barrier(CLAIMERS)

    def claim(n: int) -> str:
        try:
            start.wait(timeout=30)
            make_claim(actor=tablets[n], idempotency_key=f"tablet-{n}")
            return "recorded"
        except AlreadyClaimed:
            return "refused"
        finally:
            connection.close()

    with ThreadPoolExecutor(CLAIMERS) as pool:
        outcomes = list(pool.map(claim, range(CLAIMERS)))

    assert (outcomes.count("recorded"), outcomes.count("refused")) == (1, CLAIMERS - 1)
    assert BadBeatClaim.objects.count() == 1
    assert Signature.objects.filter(purpose="opener").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_claim_retried_while_its_first_attempt_runs_answers_the_first_claim(make_claim, floorperson) -> None:
    answers = retry_racing_its_first_attempt(
        lambda: make_claim(actor=floorperson, idempotency_key="claim-retried"),
        pause_at="jackpots.bad_beat.services.claims.signature_add",
    )

    first, retry = answers["first"], answers["retry"]
    assert isinstance(first, BadBeatClaim) and isinstance(retry, BadBeatClaim), answers
    assert retry.pk == first.pk
    assert BadBeatClaim.objects.count() == 1
