"""A winning progressive hand (§655a.11(i)(4), §657a.11(e)): recorded with its payout and Envy Bonuses
in the dealer's order, each meter payout the meter as it stands at that player's turn; validated by a
floorperson or above; paid at the table or through the cage."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.ledger.services import (
    Posting,
    account_locked,
    account_open_as,
    transfers_post_within,
)
from casino_backoffice.poker import winning_line
from casino_backoffice.poker.cards import format_cards
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.segregation import independent_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.progressive.accounts import (
    meter_account,
    meter_funding_account,
    meter_paid_account,
    meter_won_account,
)
from jackpots.progressive.exceptions import ProgressiveErrorCode
from jackpots.progressive.models import (
    EnvyBonus,
    PayoutPlace,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressivePayment,
    ProgressiveRound,
    ProgressiveValidation,
)
from jackpots.progressive.services._common import _refuse
from jackpots.progressive.services.meters import meter_lock
from jackpots.progressive.services.winning import Winning, winning_in_turn, winning_payout, winning_read


def progressive_hand_record(
    *,
    round: ProgressiveRound,
    seat: int,
    cards: str,
    actor: User,
    idempotency_key: str,
    community_cards: str = "",
    folded: bool = False,
    light_confirmed: bool = False,
) -> ProgressiveHand:
    """The dealer records a hand of the round that wins a progressive payout or is an Envy Bonus
    Qualifying Hand, having verified it and the system's light (§655a.11(i)(4)(i)(A)-(B),
    §657a.11(e)(1)-(2)).

    The evaluator names the hand and the progressive paytable line it wins ('only the highest ranking
    hand', §655a.12(c)(2), §657a.12(d)(2)). A line of the meter pays that share of the meter as it
    stands now, at this player's turn (rounded down to the cent; the rest stays on the meter), and is
    paid through the cage when it is 100% of the meter at Mississippi Stud or any share of it at Crazy 4
    Poker; a 'for 1' line pays that many times the wager, at the table. A player who folded forfeited
    the wager (§655a.11(h), §657a.11(b)(2)) and wins no payout, but their hand still gives the others
    Envy Bonuses and they keep their own. Every other player of the round with a Progressive Payout
    Wager receives an Envy Bonus for an Envy Bonus Qualifying Hand, by their own wager size; never for
    their own hand, never for the dealer's (§655a.11(i)(4)(i)(E), §657a.11(e)(5)).

    Refused: a hand that wins nothing, a payout whose light was not confirmed, cards that cannot be
    dealt with the round's others, a seat already recorded, a seat to the dealer's left of one
    recorded (paid later), and a meter payout while the meter waits to be reset."""
    action_require(actor=actor, action=Action.PROGRESSIVE_HAND_RECORD, of=round)
    fingerprint = request_fingerprint(
        {
            "round": round.pk,
            "seat": seat,
            "cards": cards,
            "community": community_cards,
            "folded": folded,
            "light": light_confirmed,
            "by": actor.pk,
        }
    )
    once = DocumentOnce(model=ProgressiveHand, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _hand_write(
            once,
            winning_read(
                round=round,
                seat=seat,
                cards=cards,
                community_cards=community_cards,
                folded=folded,
                light_confirmed=light_confirmed,
            ),
            actor=actor,
        ),
        race_refusal=lambda: _refuse(
            f"Seat {seat} of round {round.pk} is recorded already.", ProgressiveErrorCode.ALREADY_RECORDED
        ),
    )


def _hand_write(once: DocumentOnce[ProgressiveHand], winning: Winning, *, actor: User) -> ProgressiveHand:
    """The hand, its Envy Bonuses and their postings, under the meter's lock (``progressive_hand_record``)."""
    recorded_at = timezone.now()
    round_, hand, seat, line = winning.round, winning.hand, winning.seat, winning.line
    with transaction.atomic(durable=True):
        meter = meter_lock(round_.meter)
        once.replay_under_lock()
        winning_in_turn(winning)
        meter_cents = account_balance(account=account_locked(meter_account(meter=meter)))
        amount, meter_bp, place = winning_payout(winning, meter=meter, meter_cents=meter_cents)
        hand_record = ProgressiveHand.objects.create(
            round=round_,
            seat=seat,
            cards=winning.recorded_cards,
            hand_cards=format_cards(hand.cards),
            words=str(hand),
            strength=hand[0],
            folded=winning.folded,
            wager_cents=winning.wager_cents,
            line=line.hand if line else "",
            payout=str(line.payout) if line else "",
            meter_bp=meter_bp,
            meter_before_cents=meter_cents,
            amount_cents=amount,
            place=place,
            light_confirmed=winning.light_confirmed,
            envy_qualifying=winning.envy_qualifying,
            recorded_by=actor,
            recorded_at=recorded_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        bonuses = _envy_bonuses(winning, hand_record=hand_record)
        _hand_post(winning, hand_record=hand_record, bonuses=bonuses, meter=meter, actor=actor)
    return hand_record


def _envy_bonuses(winning: Winning, *, hand_record: ProgressiveHand) -> list[EnvyBonus]:
    """An Envy Bonus to every other player of the round with a Progressive Payout Wager, by their own
    wager size, for an Envy Bonus Qualifying Hand (§655a.11(i)(4)(i)(E), §657a.11(e)(5))."""
    bonuses: list[EnvyBonus] = []
    if not winning.envy_qualifying:
        return bonuses
    for other in winning.round.wagers.exclude(seat=winning.seat).order_by("-seat"):
        envy = winning_line(winning.rule.envy_paytable(wager_cents=other.amount_cents), winning.hand)
        if envy is not None:
            bonuses.append(
                EnvyBonus(
                    hand=hand_record,
                    seat=other.seat,
                    wager_cents=other.amount_cents,
                    line=envy.hand,
                    amount_cents=envy.payout.amount_cents,
                )
            )
    EnvyBonus.objects.bulk_create(bonuses)
    return bonuses


def _hand_post(
    winning: Winning,
    *,
    hand_record: ProgressiveHand,
    bonuses: list[EnvyBonus],
    meter: ProgressiveMeter,
    actor: User,
) -> None:
    """What the hand won moves to the meter's won account: its payout from the meter (or from the
    house's funding for a 'for 1' line), each Envy Bonus from the funding."""
    table, seat, hand, line = winning.round.table, winning.seat, winning.hand, winning.line
    won = account_open_as(meter_won_account(meter=meter)).pk
    funding = account_open_as(meter_funding_account(meter=meter)).pk
    postings = []
    if hand_record.amount_cents:
        source = account_open_as(meter_account(meter=meter)).pk if hand_record.meter_bp else funding
        postings.append(
            Posting(
                debit_id=won,
                credit_id=source,
                amount_cents=hand_record.amount_cents,
                kind=TransferKind.PROGRESSIVE_WIN,
                idempotency_key=f"progressive:hand:{hand_record.pk}:won",
                memo=f"Table {table.number} seat {seat}: {hand}, {line.payout if line else ''}"[:300],
            )
        )
    postings.extend(
        Posting(
            debit_id=won,
            credit_id=funding,
            amount_cents=bonus.amount_cents,
            kind=TransferKind.PROGRESSIVE_WIN,
            idempotency_key=f"progressive:hand:{hand_record.pk}:envy:{bonus.seat}",
            memo=f"Envy Bonus to seat {bonus.seat} for {hand} at seat {seat}"[:300],
        )
        for bonus in bonuses
    )
    transfers_post_within(postings=postings, actor=actor, reference=hand_record)


# --- Validation, payment at the cage, reset -------------------------------------------------------


def progressive_validate(*, hand: ProgressiveHand, actor: User, pin: str) -> ProgressiveValidation:
    """A floorperson or above validates a progressive payout and its Envy Bonuses and signs
    (§655a.11(i)(4)(i)(C), §657a.11(e)(3)); not the person who recorded the hand. What is paid at the
    table (a 'for 1' payout, Mississippi Stud's 10% of the meter, every Envy Bonus) is paid with the
    validation; a payout through the cage waits for the cashier (``progressive_pay``)."""
    action_require(actor=actor, action=Action.PROGRESSIVE_VALIDATE, of=hand)
    if ProgressiveValidation.objects.filter(hand_id=hand.pk).exists():
        raise _refuse(f"The payout of {hand} is validated already.", ProgressiveErrorCode.ALREADY_VALIDATED)
    if hand.recorded_by_id == actor.pk:
        raise _refuse(
            "The person who recorded the hand does not validate its payout: another floorperson or above does.",
            ProgressiveErrorCode.SAME_PERSON,
        )
    signer = pin_check(user=actor, pin=pin)
    try:
        with transaction.atomic(durable=True):
            hand = (
                ProgressiveHand.objects.select_for_update(of=("self",))
                .select_related("round__meter__room", "round__table")
                .get(pk=hand.pk)
            )
            meter = hand.round.meter
            validation = ProgressiveValidation.objects.create(
                hand=hand, hand_recorded_by_id=hand.recorded_by_id, validated_by=actor, validated_at=signer.verified_at
            )
            won = account_locked(meter_won_account(meter=meter)).pk
            paid = account_open_as(meter_paid_account(meter=meter)).pk
            postings = []
            if hand.amount_cents and hand.place == PayoutPlace.TABLE:
                postings.append(
                    Posting(
                        debit_id=paid,
                        credit_id=won,
                        amount_cents=hand.amount_cents,
                        kind=TransferKind.PAYOUT,
                        idempotency_key=f"progressive:hand:{hand.pk}:paid",
                        memo=f"Paid at table {hand.round.table.number}, seat {hand.seat}: {hand.words}"[:300],
                    )
                )
            postings.extend(
                Posting(
                    debit_id=paid,
                    credit_id=won,
                    amount_cents=bonus.amount_cents,
                    kind=TransferKind.PAYOUT,
                    idempotency_key=f"progressive:hand:{hand.pk}:envy:{bonus.seat}:paid",
                    memo=f"Envy Bonus paid at table {hand.round.table.number}, seat {bonus.seat}"[:300],
                )
                for bonus in hand.envy_bonuses.all()
            )
            transfers_post_within(postings=postings, actor=actor, reference=validation)
            signature_add(document=validation, rule=ProgressiveValidation.VALIDATOR, signer=signer)
    except IntegrityError:
        raise _refuse(f"The payout of {hand} is validated already.", ProgressiveErrorCode.ALREADY_VALIDATED) from None
    return validation


def progressive_pay(
    *,
    hand: ProgressiveHand,
    patron_name: str,
    id_type: str,
    id_number: str,
    actor: User,
    pin: str,
    idempotency_key: str,
) -> ProgressivePayment:
    """A cage cashier pays a validated progressive payout that may not be paid from the table inventory
    (§655a.11(i)(4)(i)(D), §657a.11(e)(4) as amended), against the patron's identification, and signs.
    Once. Not the person who recorded the hand nor the one who validated the payout, whatever roles
    they hold: the floorperson or above validates (§655a.11(i)(4)(i)(C), §657a.11(e)(3)), someone else pays."""
    action_require(actor=actor, action=Action.PROGRESSIVE_PAY, of=hand)
    patron_name, id_type, id_number = ((value or "").strip() for value in (patron_name, id_type, id_number))
    fingerprint = request_fingerprint({"hand": hand.pk, "patron": [patron_name, id_type, id_number], "by": actor.pk})
    once = DocumentOnce(model=ProgressivePayment, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _payment_write(
            once, hand=hand, patron_name=patron_name, id_type=id_type, id_number=id_number, actor=actor, pin=pin
        ),
        race_refusal=lambda: _refuse(
            f"The payout of {hand} is paid already; nothing was paid twice.", ProgressiveErrorCode.ALREADY_PAID
        ),
    )


def _payment_write(
    once: DocumentOnce[ProgressivePayment],
    *,
    hand: ProgressiveHand,
    patron_name: str,
    id_type: str,
    id_number: str,
    actor: User,
    pin: str,
) -> ProgressivePayment:
    """The payment's rule, once its key is new (``progressive_pay``): validated, not paid, under the hand's lock."""
    if not patron_name or not id_type or not id_number:
        raise _refuse(
            "The patron's name, ID type and ID number are recorded with a payment at the cage.",
            ProgressiveErrorCode.ID_REQUIRED,
        )
    _payable_at_cage(hand)
    independent_require(
        person=actor,
        step="payment at the cage",
        earlier=[hand, ProgressiveValidation.objects.filter(hand_id=hand.pk).first()],
        section="§655a.11(i)(4)(i)(D), §657a.11(e)(4)",
    )
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        hand = (
            ProgressiveHand.objects.select_for_update(of=("self",)).select_related("round__meter__room").get(pk=hand.pk)
        )
        once.replay_under_lock()
        _payable_at_cage(hand)
        meter = hand.round.meter
        payment = ProgressivePayment.objects.create(
            hand=hand,
            patron_name=patron_name,
            id_type=id_type,
            id_number=id_number,
            paid_by=actor,
            paid_at=signer.verified_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        transfers_post_within(
            postings=[
                Posting(
                    debit_id=account_open_as(meter_paid_account(meter=meter)).pk,
                    credit_id=account_locked(meter_won_account(meter=meter)).pk,
                    amount_cents=hand.amount_cents,
                    kind=TransferKind.PAYOUT,
                    idempotency_key=f"progressive:hand:{hand.pk}:paid",
                    memo=f"Paid at the cage to {patron_name}: {hand.words}"[:300],
                )
            ],
            actor=actor,
            reference=payment,
        )
        signature_add(document=payment, rule=ProgressivePayment.PAYER, signer=signer)
    return payment


def _payable_at_cage(hand: ProgressiveHand) -> None:
    if hand.place != PayoutPlace.CAGE or not hand.amount_cents:
        raise _refuse(
            f"The payout of {hand} is paid at the table, with its validation.", ProgressiveErrorCode.NOT_AT_CAGE
        )
    if not ProgressiveValidation.objects.filter(hand_id=hand.pk).exists():
        raise _refuse(
            f"The payout of {hand} is not validated yet: a floorperson or above validates it first "
            "(§655a.11(i)(4)(i)(C), §657a.11(e)(3)).",
            ProgressiveErrorCode.NOT_VALIDATED,
        )
    if ProgressivePayment.objects.filter(hand_id=hand.pk).exists():
        raise _refuse(
            f"The payout of {hand} is paid already; nothing was paid twice.", ProgressiveErrorCode.ALREADY_PAID
        )
