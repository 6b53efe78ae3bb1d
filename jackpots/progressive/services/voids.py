"""Voiding a banked round already recorded: a signed void that returns its Progressive Payout Wagers.

Mississippi Stud, §655a.13: '(a) ... If more than one card is found face up in the shoe or the deck
during the dealing of the cards, all hands shall be void, all wagers shall be returned to the players
and the cards shall be reshuffled. ... (c) If any player or the area designated for the placement of
the community cards is dealt an incorrect number of cards, all hands shall be void, all wagers shall be
returned to the players and the cards shall be reshuffled. (d) If any of the community cards are
exposed prior to the dealer revealing the community cards in accordance with § 655a.11(c), (e) and (g)
..., all hands shall be void, all wagers shall be returned to the players and the cards shall be
reshuffled. ... (f) If an automated dealing shoe is being used and the device jams, stops dealing cards
or fails to deal cards during a round of play, the round of play shall be void, all wagers shall be
returned to the players and the cards shall be removed from the device and reshuffled with any cards
already dealt.' Crazy 4 Poker, §657a.13, says the same, (c) of 'any player or the dealer' and (d) of
'the dealer's cards ... inadvertently exposed prior to each player having either folded or placed a
Play Wager'.

A round recorded with its Progressive Payout Wagers (``rounds``) before the error was found is voided
here by a floorperson or above who signs: the round stays as it was recorded, its irregularity
(``banked_card_error``) is recorded with the void, and each transfer the round posted (its increment to
the meter, the house's share) is reversed by a transfer back to the wagers collected, referencing the
void: the wagers are returned, and the meter shows what it would without the round.

Refused, and nothing changed: a round voided already; a round with a progressive hand recorded (a
voided round has no winning hand, and a payout recorded, validated or paid stands, §655a.11(i)(4),
§657a.11(e)); a round whose meter has paid a share of itself since the round added to it (that payout
was the meter with the round's increment in it, §655a.12(c)(4), §657a.12(d)(4): taking the increment
back would leave the meter at what no play made it); a round of a gaming day finance closed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.contenttypes.models import ContentType
from django.db import transaction

from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.ledger.services import transfer_post_within
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.progressive.accounts import meter_account
from jackpots.progressive.exceptions import ProgressiveErrorCode
from jackpots.progressive.models import PayoutPlace, ProgressiveHand, ProgressiveRound, ProgressiveRoundVoid
from jackpots.progressive.services._common import _refuse
from jackpots.progressive.services.meters import meter_lock
from tables.games import Game
from tables.irregularities.kinds import IrregularityKind
from tables.irregularities.services import irregularity_check, irregularity_record_within
from tables.locks import gaming_day_hold_open


def banked_round_void(
    *, round: ProgressiveRound, reason: str, actor: User, pin: str, idempotency_key: str
) -> ProgressiveRoundVoid:
    """A floorperson or above voids a banked round already recorded and signs (§655a.13(a), (c), (d),
    (f), §657a.13(a), (c), (d), (f)): its irregularity is recorded, its increment and house share are
    reversed in the ledger (see the module). The same key and reason answer the first void again; a
    second void of the round under another key is refused."""
    action_require(actor=actor, action=Action.PROGRESSIVE_ROUND_VOID, of=round)
    reason = (reason or "").strip()
    if not reason:
        raise _refuse(
            "Say why the round is void (the cards dealt in error, the cards exposed, the shoe that jammed): it "
            "stays on the record.",
            ProgressiveErrorCode.REASON_REQUIRED,
        )
    fingerprint = request_fingerprint({"round": round.pk, "reason": reason})
    once = DocumentOnce(model=ProgressiveRoundVoid, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(lambda: _void_write(once, round_=round, reason=reason, actor=actor, pin=pin))


def _void_write(
    once: DocumentOnce[ProgressiveRoundVoid], *, round_: ProgressiveRound, reason: str, actor: User, pin: str
) -> ProgressiveRoundVoid:
    round_ = ProgressiveRound.objects.select_related("table__room", "meter__room").get(pk=round_.pk)
    _void_refusal(round_, taken=banked_round_taken(round_))  # before the PIN: a refused void counts no wrong PIN
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        # The meter first, as every change of its money (``meter_lock``): a hand or a round of the meter
        # waits for the void, and the void for them.
        meter_lock(round_.meter)
        round_ = (
            ProgressiveRound.objects.select_for_update(of=("self",))
            .select_related("table__room", "meter__room")
            .get(pk=round_.pk)
        )
        once.replay_under_lock()
        table = round_.table
        gaming_day_hold_open(
            room=table.room,
            day=round_.gaming_day,
            what=f"Void of progressive round {round_.pk} at table {table.number}",
        )
        taken = banked_round_taken(round_)
        accounts = sorted({t.debit_id for t in taken} | {t.credit_id for t in taken})
        list(Account.objects.select_for_update().filter(pk__in=accounts).order_by("pk"))
        _void_refusal(round_, taken=taken)
        report = irregularity_check(
            table=table,
            kind=IrregularityKind.BANKED_CARD_ERROR,
            description=reason,
            occurred_at=round_.ended_at,
            now=signer.verified_at,
        )
        irregularity = irregularity_record_within(
            report=report,
            signer=signer,
            # Not a key a sender's could be (theirs start with their id), nor the poker void's.
            idempotency_key=f"progressive-void:{once.idempotency_key}",
            fingerprint=report.fingerprint(),
        )
        void = ProgressiveRoundVoid.objects.create(
            round=round_,
            irregularity=irregularity,
            reason=reason,
            voided_by=actor,
            voided_at=signer.verified_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        signature_add(document=void, rule=ProgressiveRoundVoid.VOIDER, signer=signer)
        _void_post(void, taken=taken, actor=actor)
    return void


def _void_post(void: ProgressiveRoundVoid, *, taken: list[Transfer], actor: User) -> None:
    """Each transfer of the round reversed, referencing the void: the wagers returned to the players."""
    section = "§655a.13" if void.round.table.game == Game.MISSISSIPPI_STUD.value else "§657a.13"
    for original in taken:
        transfer_post_within(
            debit=original.credit,
            credit=original.debit,
            amount_cents=original.amount_cents,
            kind=TransferKind.REVERSAL,
            idempotency_key=f"reversal:{original.pk}",
            actor=actor,
            reference=void,
            memo=f"Progressive round {void.round_id} void ({section}): {void.reason}"[:300],
            reverses=original,
        )


def banked_round_taken(round_: ProgressiveRound) -> list[Transfer]:
    """What the round's Progressive Payout Wagers posted, as the ledger holds it: its increment to the
    meter and the house's share, oldest first."""
    return list(
        Transfer.objects.filter(
            reference_type=ContentType.objects.get_for_model(ProgressiveRound),
            reference_id=str(round_.pk),
            kind=TransferKind.PROGRESSIVE_WAGER,
        )
        .select_related("debit", "credit")
        .order_by("pk")
    )


def _void_refusal(round_: ProgressiveRound, *, taken: list[Transfer]) -> None:
    """Refuse the void of ``round_`` when a rule says no (see the module)."""
    void = ProgressiveRoundVoid.objects.filter(round_id=round_.pk).select_related("voided_by").first()
    if void is not None:
        raise _refuse(
            f"Progressive round {round_.pk} was voided by {void.voided_by} at "
            f"{local_text(void.voided_at, round_.table.room, ZONED)}: its wagers were returned then. Nothing was "
            "recorded.",
            ProgressiveErrorCode.ROUND_ALREADY_VOID,
        )
    hands = list(
        ProgressiveHand.objects.filter(round_id=round_.pk).select_related("validation", "payment").order_by("-seat")
    )
    if hands:
        raise _refuse(
            f"Progressive round {round_.pk} has a progressive hand recorded ({'; '.join(_hand_words(h) for h in hands)}"
            "): a voided round has no winning hand, and a payout recorded, validated or paid stands with its "
            "round (§655a.11(i)(4), §657a.11(e)). Nothing was recorded.",
            ProgressiveErrorCode.ROUND_HAS_PAYOUT,
        )
    _meter_not_paid_since(round_, taken=taken)


def _hand_words(hand: ProgressiveHand) -> str:
    """A hand of the round and how far its payout went: recorded, validated, paid."""
    if hasattr(hand, "payment"):
        step = "paid at the cage"
    elif hasattr(hand, "validation"):
        step = (
            "validated and paid at the table"
            if hand.place == PayoutPlace.TABLE
            else "validated, to be paid at the cage"
        )
    else:
        step = "recorded, not validated yet"
    return f"the {hand.words} at seat {hand.seat}, hand {hand.pk}: {step}"


def _meter_not_paid_since(round_: ProgressiveRound, *, taken: list[Transfer]) -> None:
    """Refuse when the meter paid a share of itself after the round's increment reached it: that payout
    was 'a percentage of the amount on the progressive meter' as it stood (§655a.12(c)(4),
    §657a.12(d)(4)), the increment in it."""
    meter = meter_account(meter=round_.meter).code
    increment = next((t for t in taken if t.debit.code == meter), None)
    if increment is None:
        return
    paid = (
        Transfer.objects.filter(credit_id=increment.debit_id, kind=TransferKind.PROGRESSIVE_WIN, pk__gt=increment.pk)
        .order_by("pk")
        .first()
    )
    if paid is not None:
        raise _refuse(
            f"{round_.meter.name} paid a share of itself after progressive round {round_.pk} added to it "
            f"({paid.memo}): that payout was the meter as it stood, this round's increment in it (§655a.12(c)(4), "
            "§657a.12(d)(4)), so a void cannot take the increment back from the meter. The round stands; the "
            "casino's accounting corrects the record. Nothing was recorded.",
            ProgressiveErrorCode.METER_PAID_SINCE,
        )


@dataclass(frozen=True)
class BankedVoidReturned:
    """What a banked void returned, as the ledger holds it, in the poker void's shape: no rake (a banked
    round takes none), the meter's increment by the meter's code, and the house's share."""

    void: ProgressiveRoundVoid
    rake_cents: int
    drops_cents: dict[str, int]
    house_cents: int


def banked_void_returned(void: ProgressiveRoundVoid) -> BankedVoidReturned:
    """The reversals the void references: the increment back out of the meter, the house's share."""
    meter_code = meter_account(meter=void.round.meter).code
    drops_cents, house_cents = dict[str, int](), 0
    reversals = Transfer.objects.filter(
        reference_type=ContentType.objects.get_for_model(ProgressiveRoundVoid),
        reference_id=str(void.pk),
        kind=TransferKind.REVERSAL,
    ).select_related("credit")
    for reversal in reversals.order_by("pk"):
        if reversal.credit.code == meter_code:
            code = void.round.meter.code
            drops_cents[code] = drops_cents.get(code, 0) + reversal.amount_cents
        else:
            house_cents += reversal.amount_cents
    return BankedVoidReturned(void=void, rake_cents=0, drops_cents=drops_cents, house_cents=house_cents)
