"""Voiding a round of play already recorded: a signed void that returns what the round took.

§637a.18(i): 'If at any time during a round of play missing cards are discovered or additional cards
are found, the round of play shall be voided, all value chips, tournament chips and plaques in the pot
shall be returned to the appropriate player and the deck shall be replaced.' A voided round takes no
rake and no contribution (``compute``); a round recorded with its rake and drops before the cards were
found wrong is voided here, by a floorperson or above who signs: the round stays as it was logged, its
irregularity (``missing_or_extra_cards``) is recorded with the void, and each transfer the round
posted (``rounds._round_postings``: its rake into the drop box, each drop into its jackpot's box) is
reversed by a transfer from that box back to the room's pots, referencing the void.

Refused, and nothing changed: a round voided already (or logged void at the table); a round whose
hand stands as a jackpot's (a Bad Beat claim not denied, a High Hand entry not void: a voided round has
no winning hand, and a claim verified or paid cannot be undone by a void); a round whose box was
counted since (the money left the box: the count, custody and the cage's verification made it
official, and only finance corrects the official record); a round of a gaming day finance closed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Q

from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.ledger.services import transfer_post_within
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.bad_beat.models import BadBeatClaim, ClaimStatus
from jackpots.high_hand.models import HighHandEntry
from tables.irregularities.kinds import IrregularityKind
from tables.irregularities.services import irregularity_check, irregularity_record_within
from tables.locks import gaming_day_hold_open
from tables.models import Round

from ..exceptions import RakeError, RoundAlreadyVoid, RoundBoxCounted, RoundHasJackpotHand
from ..models import RoundVoid


def round_void(*, round: Round, reason: str, actor: User, pin: str, idempotency_key: str) -> RoundVoid:
    """A floorperson or above voids a round already recorded and signs (§637a.18(i)): its irregularity
    is recorded, its rake and drops are reversed in the ledger (see the module). The same key and
    reason answer the first void again; a second void of the round under another key is refused."""
    action_require(actor=actor, action=Action.ROUND_VOID, of=round)
    reason = (reason or "").strip()
    if not reason:
        raise RakeError("Say why the round is void (the missing or extra cards found): it stays on the record.")
    fingerprint = request_fingerprint({"round": round.pk, "reason": reason})
    once = DocumentOnce(model=RoundVoid, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(lambda: _void_write(once, round_=round, reason=reason, actor=actor, pin=pin))


def _void_write(once: DocumentOnce[RoundVoid], *, round_: Round, reason: str, actor: User, pin: str) -> RoundVoid:
    _void_refusal(round_, taken=round_taken(round_))  # before the PIN: a refused void counts no wrong PIN
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        round_ = Round.objects.select_for_update(of=("self",)).select_related("table__room").get(pk=round_.pk)
        once.replay_under_lock()
        table = round_.table
        gaming_day_hold_open(
            room=table.room, day=round_.gaming_day, what=f"Void of round {round_.pk} at table {table.number}"
        )
        taken = round_taken(round_)
        # The boxes the round paid into, locked before they are read: a count of one waits for the void.
        list(Account.objects.select_for_update().filter(pk__in=[t.debit_id for t in taken]).order_by("pk"))
        _void_refusal(round_, taken=taken)
        report = irregularity_check(
            table=table, kind=IrregularityKind.MISSING_OR_EXTRA_CARDS, description=reason, round=round_
        )
        irregularity = irregularity_record_within(
            report=report,
            signer=signer,
            # Not a key a sender's could be (theirs start with their id, ``sender_key``).
            idempotency_key=f"void:{once.idempotency_key}",
            fingerprint=report.fingerprint(),
        )
        void = RoundVoid.objects.create(
            round=round_,
            irregularity=irregularity,
            reason=reason,
            voided_by=actor,
            voided_at=signer.verified_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        signature_add(document=void, rule=RoundVoid.VOIDER, signer=signer)
        for original in taken:
            transfer_post_within(
                debit=original.credit,
                credit=original.debit,
                amount_cents=original.amount_cents,
                kind=TransferKind.REVERSAL,
                idempotency_key=f"reversal:{original.pk}",
                actor=actor,
                reference=void,
                memo=f"Round {round_.pk} void (§637a.18(i)): {reason}"[:300],
                reverses=original,
            )
    return void


def round_taken(round_: Round) -> list[Transfer]:
    """What the round took from its pot, as the ledger holds it: its rake and drop transfers, oldest first."""
    return list(
        Transfer.objects.filter(
            reference_type=ContentType.objects.get_for_model(Round),
            reference_id=str(round_.pk),
            kind__in=(TransferKind.RAKE, TransferKind.DROP),
        )
        .select_related("debit", "credit")
        .order_by("pk")
    )


def _void_refusal(round_: Round, *, taken: list[Transfer]) -> None:
    """Refuse the void of ``round_`` when a rule says no (see the module)."""
    room = round_.table.room
    void = RoundVoid.objects.filter(round_id=round_.pk).select_related("voided_by").first()
    if void is not None:
        raise RoundAlreadyVoid(
            f"Round {round_.pk} was voided by {void.voided_by} at {local_text(void.voided_at, room, ZONED)}: its rake "
            "and drops "
            "were returned then. Nothing was recorded."
        )
    if round_.voided:
        raise RoundAlreadyVoid(
            f"Round {round_.pk} was logged void at the table: it took no rake and no drop (§637a.18(i)), so there is "
            "nothing to return. Report its irregularity instead (POST /api/irregularities/). Nothing was recorded."
        )
    in_round = Q(round_id=round_.pk) | Q(round_link__round_id=round_.pk)
    claims = list(BadBeatClaim.objects.filter(in_round).exclude(status=ClaimStatus.DENIED).values_list("pk", flat=True))
    entries = list(HighHandEntry.objects.filter(in_round, void__isnull=True).values_list("pk", flat=True))
    if claims or entries:
        hands = [f"Bad Beat claim {pk}" for pk in claims] + [f"High Hand entry {pk}" for pk in entries]
        raise RoundHasJackpotHand(
            f"Round {round_.pk} holds a jackpot hand ({', '.join(hands)}): a voided round has no winning hand. A claim "
            "not yet verified is denied, a Tracking Slip entry voided, by the poker shift supervisor first; a claim "
            "verified or paid stands, and the round with it. Nothing was recorded."
        )
    for original in taken:
        if Transfer.objects.filter(credit_id=original.debit_id, pk__gt=original.pk).exists():
            raise RoundBoxCounted(
                f"{original.debit.name} was counted after round {round_.pk} paid into it: the money left the box "
                "for the cage and the official record, so a void cannot take it back from the box. Finance "
                "corrects the official record for the round instead. Nothing was recorded."
            )


@dataclass(frozen=True)
class VoidReturned:
    """What a void returned, as the ledger holds it: the rake, and each jackpot's drop by its code."""

    void: RoundVoid
    rake_cents: int
    drops_cents: dict[str, int]

    @property
    def total_cents(self) -> int:
        return self.rake_cents + sum(self.drops_cents.values())


def void_returned(void: RoundVoid) -> VoidReturned:
    """The reversals the void references, by what each reversed: the round's rake, or a jackpot's drop
    (named by the drop transfer's key, ``round:<key>:drop:<code>``, ``rounds._round_postings``)."""
    return _returned({void.pk: void})[void.pk]


def voids_returned(*, irregularity_ids: Iterable[int]) -> dict[int, VoidReturned]:
    """The voids recorded with the irregularities ``irregularity_ids`` and what each returned
    (``void_returned``), by irregularity id: two queries however many. The irregularity log (tables,
    below the rake) reads it through the setting ``IRREGULARITY_VOIDS_RETURNED``."""
    ids = list(irregularity_ids)
    if not ids:
        return {}
    voids = {void.pk: void for void in RoundVoid.objects.filter(irregularity_id__in=ids).select_related("voided_by")}
    return {returned.void.irregularity_id: returned for returned in _returned(voids).values()}


def _returned(voids: dict[int, RoundVoid]) -> dict[int, VoidReturned]:
    """What each of ``voids`` (by id) returned, from the reversals that reference them: one query."""
    if not voids:
        return {}
    rake_cents = dict.fromkeys(voids, 0)
    drops_cents: dict[int, dict[str, int]] = {pk: {} for pk in voids}
    reversals = Transfer.objects.filter(
        reference_type=ContentType.objects.get_for_model(RoundVoid),
        reference_id__in=[str(pk) for pk in voids],
        kind=TransferKind.REVERSAL,
    ).select_related("reverses")
    for reversal in reversals.order_by("pk"):
        original, pk = reversal.reverses, int(reversal.reference_id)
        assert original is not None
        if original.kind == TransferKind.RAKE:
            rake_cents[pk] += reversal.amount_cents
        else:
            code = original.idempotency_key.rsplit(":drop:", 1)[1]
            drops_cents[pk][code] = drops_cents[pk].get(code, 0) + reversal.amount_cents
    return {
        pk: VoidReturned(void=void, rake_cents=rake_cents[pk], drops_cents=drops_cents[pk])
        for pk, void in voids.items()
    }
