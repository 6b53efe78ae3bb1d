"""A High Hand award paid at the cage (§637a.16(h)), and an award not collected within the time limit
(§637a.16(i)): prepared by the schedule and approved by finance, into the posted destination."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.ledger.services import account_locked, account_open_as, transfer_post_within
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.segregation import independent_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.funds.accounts import jackpot_awards_account, jackpot_fund_account, jackpot_paid_account
from jackpots.funds.selectors import jackpot_rule_of_version, local_time
from jackpots.high_hand.exceptions import HighHandErrorCode, HighHandRefused
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandPeriod,
    HighHandUnclaimed,
)
from jackpots.high_hand.rules import HighHandRule
from jackpots.high_hand.selectors import unclaimed_next_period
from jackpots.high_hand.services._common import _refuse
from tables.models import PokerRoom


def award_pay(
    *, award: HighHandAward, id_type: str, id_number: str, actor: User, pin: str, idempotency_key: str
) -> HighHandAwardPayment:
    """A cage cashier pays an award and signs (§637a.16(h)), against the identification recorded with
    the hand (§637a.16(b)(7)); the winner need not have been present at the close (b)(6). Paid once;
    not after it went where the rules send uncollected awards. Not the floorperson or above who
    verified and recorded the hand on the Tracking Slip (§637a.16(f)), whatever roles they hold."""
    action_require(actor=actor, action=Action.HIGH_HAND_PAY, of=award)
    id_type, id_number = (id_type or "").strip(), (id_number or "").strip()
    fingerprint = request_fingerprint({"award": award.pk, "id_type": id_type, "id_number": id_number, "by": actor.pk})
    once = DocumentOnce(model=HighHandAwardPayment, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _award_payment_write(once, award=award, id_type=id_type, id_number=id_number, actor=actor, pin=pin),
        race_refusal=lambda: _refuse(
            f"Award {award.pk} is paid already; nothing was paid twice.", HighHandErrorCode.AWARD_ALREADY_PAID
        ),
    )


def _award_payment_write(
    once: DocumentOnce[HighHandAwardPayment],
    *,
    award: HighHandAward,
    id_type: str,
    id_number: str,
    actor: User,
    pin: str,
) -> HighHandAwardPayment:
    """The payment's rule, once its key is new (``award_pay``): the identification of the slip, under the award's lock."""
    award = HighHandAward.objects.select_related("entry", "period__jackpot__room").get(pk=award.pk)
    if (id_type.casefold(), id_number.casefold()) != (
        award.entry.id_type.casefold(),
        award.entry.id_number.casefold(),
    ):
        raise _refuse(
            "The identification presented is not the one recorded with the hand on the Tracking Slip "
            "(§637a.16(b)(7)); nothing was paid.",
            HighHandErrorCode.ID_MISMATCH,
        )
    _payable(award)
    independent_require(person=actor, step="payment of the award", earlier=[award.entry], section="§637a.16(h)")
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        award = (
            HighHandAward.objects.select_for_update(of=("self",))
            .select_related("entry", "period__jackpot__room")
            .get(pk=award.pk)
        )
        once.replay_under_lock()
        _payable(award)
        awards = account_locked(jackpot_awards_account(jackpot=award.period.jackpot))
        payment = HighHandAwardPayment.objects.create(
            award=award,
            id_type=id_type,
            id_number=id_number,
            paid_by=actor,
            paid_at=signer.verified_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        transfer_post_within(
            debit=account_open_as(jackpot_paid_account(jackpot=award.period.jackpot)),
            credit=awards,
            amount_cents=award.amount_cents,
            kind=TransferKind.PAYOUT,
            idempotency_key=f"high-hand:award:{award.pk}:paid",
            actor=actor,
            reference=payment,
            memo=f"High Hand award {award.pk} to {award.entry.player_name}"[:300],
        )
        signature_add(document=payment, rule=HighHandAwardPayment.PAYER, signer=signer)
    return payment


def _payable(award: HighHandAward) -> None:
    if HighHandAwardPayment.objects.filter(award_id=award.pk).exists():
        raise HighHandRefused(
            f"Award {award.pk} is paid already; nothing was paid twice.", code=HighHandErrorCode.AWARD_ALREADY_PAID
        )
    # Past its time limit the award is not collected (§637a.16(b)(6), (i)), whether or not the schedule
    # has prepared where it goes yet (it runs every minute; a cashier's page may be older than that).
    if HighHandUnclaimed.objects.filter(award_id=award.pk).exists() or timezone.now() > award.collect_by:
        raise HighHandRefused(
            f"Award {award.pk} was not collected by {local_time(award.collect_by, award.period.jackpot.room.timezone)} "
            "and goes where the posted rules send it (§637a.16(i)); nothing was paid.",
            code=HighHandErrorCode.AWARD_EXPIRED,
        )


def unclaimed_prepare(*, room: PokerRoom, at: datetime) -> list[HighHandUnclaimed]:
    """The schedule prepares the transfer of each award not collected by its time limit (§637a.16(i));
    finance approves it (``unclaimed_approve``). One per award (a unique key)."""
    prepared = []
    for award in HighHandAward.objects.filter(
        period__room=room, collect_by__lte=at, payment__isnull=True, unclaimed__isnull=True
    ).select_related("period__rules_version", "period__jackpot"):
        rule = jackpot_rule_of_version(version=award.period.rules_version, code=award.period.jackpot.code)
        assert isinstance(rule, HighHandRule)
        try:
            with transaction.atomic():
                prepared.append(
                    HighHandUnclaimed.objects.create(award=award, destination=rule.unclaimed, prepared_at=at)
                )
        except IntegrityError:
            continue
    return prepared


def unclaimed_approve(*, unclaimed: HighHandUnclaimed, actor: User, pin: str) -> HighHandUnclaimed:
    """Finance approves and signs the transfer of an uncollected award (§637a.16(i): 'the procedure for
    distributing High Hand Jackpot payouts which have not been collected within the time period'); its
    money moves back from the awards to collect to the fund, and then where the posted rules say:

    - ``next_period``: into the pool of the qualifying period open when the time limit ends
      (``selectors.unclaimed_next_period``), at once;
    - ``fund``: kept in the fund, and added to the pool of the next period to close after the approval,
      at its close (``periods_run`` attaches it; until then the award's ``into_period`` is empty)."""
    action_require(actor=actor, action=Action.HIGH_HAND_UNCLAIMED_APPROVE, of=unclaimed)
    if unclaimed.approved_by_id is not None:
        raise _refuse(
            f"The transfer of award {unclaimed.award_id} was approved already.", HighHandErrorCode.ALREADY_APPROVED
        )
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        unclaimed = (
            HighHandUnclaimed.objects.select_for_update(of=("self",))
            .select_related("award__period__jackpot__room")
            .get(pk=unclaimed.pk)
        )
        if unclaimed.approved_by_id is not None:
            raise _refuse(
                f"The transfer of award {unclaimed.award_id} was approved already.", HighHandErrorCode.ALREADY_APPROVED
            )
        award = unclaimed.award
        into = None
        if unclaimed.destination == "next_period":
            found = unclaimed_next_period(unclaimed)
            if found is None:
                raise _refuse(
                    "No qualifying period open at or after the award's time limit is there to take it; try again "
                    "when one opens (§637a.16(i)).",
                    HighHandErrorCode.NO_PERIOD,
                )
            into = HighHandPeriod.objects.select_for_update(of=("self",)).get(pk=found.pk)
        awards = account_locked(jackpot_awards_account(jackpot=award.period.jackpot))
        fund = account_locked(jackpot_fund_account(jackpot=award.period.jackpot))
        signature_add(document=unclaimed, rule=HighHandUnclaimed.APPROVER, signer=signer)
        transfer_post_within(
            debit=fund,
            credit=awards,
            amount_cents=award.amount_cents,
            kind=TransferKind.AWARD,
            idempotency_key=f"high-hand:award:{award.pk}:unclaimed",
            actor=actor,
            reference=unclaimed,
            memo=(
                f"Award {award.pk} not collected: into {into} (§637a.16(i))"
                if into is not None
                else f"Award {award.pk} not collected: kept in the fund, into the next pool at its close (§637a.16(i))"
            )[:300],
        )
        if into is not None:
            into.rolled_in_cents += award.amount_cents
            into.save(update_fields=["rolled_in_cents"])
        unclaimed.approved_by = actor
        unclaimed.approved_at = signer.verified_at
        unclaimed.into_period = into
        unclaimed.save(update_fields=["approved_by", "approved_at", "into_period"])
    return unclaimed
