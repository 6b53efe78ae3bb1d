"""The distribution of a verified Bad Beat payout and the payment of each share (§637a.15(f)(2), (g)).

'(g) The finance department shall prepare a Bad Beat payout distribution in cash or a recognized cash
equivalent in accordance with the certificate holder's approved internal controls. Notwithstanding
subsection (f)(2), a certificate holder may elect to pay a Bad Beat payout at the main cage or
satellite cage.'

The distribution splits the payout fixed at verification by the posted shares; each share is paid
once, by one ledger transfer from the fund to the fund's payouts, under the fund's lock, so that two
clicks, two tablets or a retried request pay once and the fund never goes below zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.ledger.services import account_open_as, transfer_post_within
from casino_backoffice.money import display_cents, percent_floor, split_evenly
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require, places_of
from casino_backoffice.staff.segregation import independent_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.bad_beat.exceptions import (
    AboveOfficialBalance,
    AlreadyDistributed,
    BadBeatErrorCode,
    ShareAlreadyPaid,
)
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    ClaimStatus,
    PayoutMethod,
    ShareName,
)
from jackpots.bad_beat.selectors import bad_beat_hand_of, fund_position
from jackpots.bad_beat.services.claims import claim_require_first, claim_require_status, fund_locked
from jackpots.funds.accounts import jackpot_paid_account
from jackpots.funds.exceptions import JackpotError
from jackpots.funds.models import PaymentPlace
from jackpots.funds.selectors import local_time

# Where the odd cents go, as the distribution records it and docs/jackpots.md states it.
LEFTOVER_RULE = (
    "Each share is its posted percentage of the total, rounded down to the cent; the cents left over go to the "
    "losing hand (or, when the rules give it no share, to the first share they list). The table share is split "
    "equally among the other players dealt in, by seat number from the lowest, the lowest seats taking one cent "
    "more until none is left."
)


@dataclass(frozen=True)
class ShareLine:
    share: ShareName
    seat: int
    name: str
    amount_cents: int


def distribution_split(
    *,
    total_cents: int,
    shares_bp: Mapping[str, int],
    losing: tuple[int, str],
    winning: tuple[int, str],
    others: Sequence[tuple[int, str]],
) -> list[ShareLine]:
    """Split ``total_cents`` by the posted shares (§637a.15(b)(3): the payouts), to the cent, by
    ``LEFTOVER_RULE``. ``losing``/``winning``: (seat, name); ``others``: every other player dealt in.
    The lines add up to the total exactly; a player whose part of the table share rounds to nothing
    gets no line (their cent went to a lower seat).

    >>> [line.amount_cents for line in distribution_split(total_cents=1001, shares_bp={"losing_hand": 5000,
    ...  "winning_hand": 2500, "table_share": 2500}, losing=(3, "A"), winning=(7, "B"), others=[(2, "C"), (1, "D")])]
    [501, 250, 125, 125]
    """
    unknown = set(shares_bp) - set(ShareName.values)
    if unknown:
        raise JackpotError(f"The posted share {sorted(unknown)[0]!r} names no player of the hand.")
    names = [name for name in ShareName.values if name in shares_bp]  # losing, winning, then the table
    parts: dict[str, int] = {name: percent_floor(total_cents, bp) for name, bp in shares_bp.items()}
    leftover = total_cents - sum(parts.values())
    parts["losing_hand" if "losing_hand" in parts else names[0]] += leftover
    lines: list[ShareLine] = []
    for name in names:
        if name == ShareName.LOSING_HAND:
            lines.append(ShareLine(ShareName.LOSING_HAND, losing[0], losing[1], parts[name]))
        elif name == ShareName.WINNING_HAND:
            lines.append(ShareLine(ShareName.WINNING_HAND, winning[0], winning[1], parts[name]))
        else:
            seated = sorted(others)
            if not seated:
                raise JackpotError("The posted rules give a table share, and no other player was dealt in.")
            for (seat, player), amount in zip(seated, split_evenly(parts[name], len(seated)), strict=True):
                lines.append(ShareLine(ShareName.TABLE_SHARE, seat, player, amount))
    return [line for line in lines if line.amount_cents > 0]


def distribution_prepare(
    *,
    claim: BadBeatClaim,
    actor: User,
    pin: str,
    idempotency_key: str,
    method: PayoutMethod | str = PayoutMethod.CASH,
) -> BadBeatDistribution:
    """Finance prepares the distribution of a verified claim's payout and signs (§637a.15(g)): the
    payout fixed at verification, split by the posted shares; refused above what the fund holds
    officially less what other verified claims owe from it. Not the person who opened the claim nor
    the shift supervisor who verified it (§637a.15(f)), whatever roles they hold."""
    action_require(actor=actor, action=Action.BAD_BEAT_DISTRIBUTE, of=claim)
    if method not in PayoutMethod.values:
        raise JackpotError(f"A payout is in {' or a '.join(PayoutMethod.labels).lower()}, not {method!r}.")
    fingerprint = request_fingerprint({"claim": claim.pk, "method": method, "by": actor.pk})
    once = DocumentOnce(model=BadBeatDistribution, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(lambda: _distribution_write(once, claim=claim, method=method, actor=actor, pin=pin))


def _distribution_write(
    once: DocumentOnce[BadBeatDistribution], *, claim: BadBeatClaim, method: str, actor: User, pin: str
) -> BadBeatDistribution:
    """The distribution's rule, once its key is new (``distribution_prepare``): under the claim's and the fund's locks."""
    claim = BadBeatClaim.objects.select_related("decision").get(pk=claim.pk)  # as it stands now
    _distributable(claim)
    independent_require(person=actor, step="distribution", earlier=[claim, claim.decision], section="§637a.15(g)")
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        claim = (
            BadBeatClaim.objects.select_for_update(of=("self",))
            .select_related("jackpot__room", "rules_version")
            .get(pk=claim.pk)
        )
        _distributable(claim)
        total = claim.decision.payout_cents
        fund_locked(claim.jackpot)
        position = fund_position(jackpot=claim.jackpot)
        # This claim's payout is already in what the fund owes: what is left for it is the rest.
        left_for_it = position.official_cents - (position.owed_cents - total)
        if total > left_for_it:
            raise AboveOfficialBalance(
                f"The payout {display_cents(total)} is more than the fund holds for it: official "
                f"{display_cents(position.official_cents)}, owed to other verified claims "
                f"{display_cents(position.owed_cents - total)}. Nothing was distributed."
            )
        _, hand = bad_beat_hand_of(claim)
        lines = distribution_split(
            total_cents=total,
            shares_bp=hand.shares_bp,
            losing=(claim.losing_seat, claim.losing_name),
            winning=(claim.winning_seat, claim.winning_name),
            others=[(other["seat"], other["name"]) for other in claim.others],
        )
        distribution = BadBeatDistribution.objects.create(
            claim=claim,
            total_cents=total,
            method=method,
            leftover_rule=LEFTOVER_RULE,
            prepared_by=actor,
            prepared_at=signer.verified_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        threshold = settings.TAX_REPORTING_THRESHOLD_CENTS
        BadBeatShare.objects.bulk_create(
            BadBeatShare(
                distribution=distribution,
                position=position_number,
                share=line.share,
                seat=line.seat,
                name=line.name,
                amount_cents=line.amount_cents,
                tax_reportable=line.amount_cents >= threshold,
            )
            for position_number, line in enumerate(lines, start=1)
        )
        signature_add(document=distribution, rule=BadBeatDistribution.PREPARER, signer=signer)
        claim.status = ClaimStatus.DISTRIBUTED
        claim.save(update_fields=["status"])
    return distribution


def _distributable(claim: BadBeatClaim) -> None:
    if claim.status in (ClaimStatus.DISTRIBUTED, ClaimStatus.PAID):
        raise AlreadyDistributed(f"Claim {claim.pk} already has its distribution; nothing was changed.")
    claim_require_status(claim, ClaimStatus.VERIFIED)
    claim_require_first(claim)
    if claim.decision.payout_cents <= 0:
        raise AboveOfficialBalance(
            f"The fund held nothing official to pay when claim {claim.pk} was verified: there is nothing to distribute."
        )


def payment_places(actor: User) -> frozenset[str]:
    """Where ``actor`` pays a share: at the table, at the cage, or either (finance), as the table of
    actions says (``ACTION_PLACES``)."""
    return places_of(actor, Action.BAD_BEAT_PAY)


def _place_for(actor: User, place: str | None) -> str:
    allowed = payment_places(actor)
    if place is None:
        if len(allowed) == 1:
            return next(iter(allowed))
        return PaymentPlace.TABLE
    if place not in PaymentPlace.values:
        raise JackpotError(f"A share is paid at the {' or the '.join(PaymentPlace.values)}, not {place!r}.")
    if place not in allowed:
        raise JackpotError(
            f"{actor} pays at the {' or the '.join(sorted(allowed))}, not at the {place} "
            "(security delivers to the table, a cage cashier pays at the cage).",
            code=BadBeatErrorCode.WRONG_PLACE,
        )
    return place


def share_pay(
    *,
    share: BadBeatShare,
    id_type: str,
    id_number: str,
    actor: User,
    pin: str,
    idempotency_key: str,
    place: str | None = None,
) -> BadBeatPayment:
    """Pay one share to its patron and sign, recording the patron's identification: one transfer from
    the fund to its payouts. A share is paid once (a second payment is a 409; the same request
    retried with its key answers the first payment); the fund never goes below zero. Not the person
    who opened the claim, verified it (§637a.15(f)) or prepared its distribution (§637a.15(g)),
    whatever roles they hold."""
    action_require(actor=actor, action=Action.BAD_BEAT_PAY, of=share)
    id_type, id_number = (id_type or "").strip(), (id_number or "").strip()
    if not id_type or not id_number:
        raise JackpotError(
            "Record the patron's identification: its type and its number.", code=BadBeatErrorCode.ID_REQUIRED
        )
    place = _place_for(actor, place)
    fingerprint = request_fingerprint(
        {"share": share.pk, "id_type": id_type, "id_number": id_number, "place": place, "by": actor.pk}
    )
    once = DocumentOnce(model=BadBeatPayment, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _payment_write(
            once, share=share, id_type=id_type, id_number=id_number, place=place, actor=actor, pin=pin
        ),
        race_refusal=lambda: ShareAlreadyPaid(f"Share {share.pk} is already paid; nothing was paid twice."),
    )


def _payment_write(
    once: DocumentOnce[BadBeatPayment],
    *,
    share: BadBeatShare,
    id_type: str,
    id_number: str,
    place: str,
    actor: User,
    pin: str,
) -> BadBeatPayment:
    """The payment's rule, once its key is new (``share_pay``): under the claim's, the share's and the fund's locks."""
    _unpaid(share)
    _payer_independent(share=share, actor=actor)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        claim = (
            BadBeatClaim.objects.select_for_update(of=("self",))
            .select_related("jackpot__room")
            .get(pk=share.distribution.claim_id)
        )
        share = BadBeatShare.objects.select_for_update().get(pk=share.pk)
        # A retry of this very request that waited for the lock answers the payment it made.
        once.replay_under_lock()
        _unpaid(share)
        claim_require_first(claim)
        fund = fund_locked(claim.jackpot)
        balance = account_balance(account=fund)
        if share.amount_cents > balance:
            raise AboveOfficialBalance(
                f"The fund's official balance is {display_cents(balance)}, less than the share "
                f"{display_cents(share.amount_cents)}: nothing was paid."
            )
        payment = BadBeatPayment.objects.create(
            share=share,
            place=place,
            patron_name=share.name,
            id_type=id_type,
            id_number=id_number,
            tax_reportable=share.tax_reportable,
            paid_by=actor,
            paid_at=signer.verified_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        transfer_post_within(
            debit=account_open_as(jackpot_paid_account(jackpot=claim.jackpot)),
            credit=fund,
            amount_cents=share.amount_cents,
            kind=TransferKind.PAYOUT,
            idempotency_key=f"bad-beat:share:{share.pk}:paid",
            actor=actor,
            reference=payment,
            memo=f"{share.get_share_display()} of Bad Beat claim {claim.pk}, seat {share.seat}, {share.name}"[:300],
        )
        signature_add(document=payment, rule=BadBeatPayment.PAYER, signer=signer)
        if not BadBeatShare.objects.filter(distribution__claim=claim, payment__isnull=True).exists():
            claim.status = ClaimStatus.PAID
            claim.save(update_fields=["status"])
    return payment


def _payer_independent(*, share: BadBeatShare, actor: User) -> None:
    distribution = BadBeatDistribution.objects.select_related("claim__decision").get(pk=share.distribution_id)
    claim = distribution.claim
    independent_require(
        person=actor, step="payment of a share", earlier=[claim, claim.decision, distribution], section="§637a.15(g)"
    )


def _unpaid(share: BadBeatShare) -> None:
    payment = (
        BadBeatPayment.objects.filter(share=share).select_related("paid_by", "share__distribution__claim__room").first()
    )
    if payment is not None:
        room = payment.share.distribution.claim.room
        raise ShareAlreadyPaid(
            f"Share {share.pk} ({share.name}, {display_cents(share.amount_cents)}) was paid already, by "
            f"{payment.paid_by} at {local_time(payment.paid_at, room.timezone)}; nothing was paid twice."
        )
