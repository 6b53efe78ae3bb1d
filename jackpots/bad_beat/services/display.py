"""Adjusting the displayed amount of a Bad Beat fund (§637a.15(h)) and moving a discontinued fund's
money to another Bad Beat (§637a.15(i)).

'(h) No less than once a day and immediately upon notification of a Bad Beat verification by the
Poker shift supervisor, a finance department employee shall: (1) In the presence of a floorperson or
above, adjust each Bad Beat payout amount displayed in the Poker area to reflect the current Bad Beat
payout amount. (2) Verify that the amount of any Bad Beat payout maintained by the finance department
corresponds to the amount being displayed to patrons.'

'(i) ... procedures for discontinuing any Bad Beat payout ... must address the method by which pot
contributions will be terminated or transferred to other Bad Beat payouts, or both, to ensure that
all payout amounts are paid to Poker patrons.'

An adjustment takes effect on the display when both have signed, the finance employee and the
floorperson or above present (``display_adjust``, then ``display_witness``); the time from the
verification it answers to that moment is recorded, and the schedule flags a verification whose
display was not adjusted within the limit the house posts (``display_late_flag``).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import Account, TransferKind
from casino_backoffice.ledger.services import account_open_as, transfer_post_within
from casino_backoffice.money import display_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.bad_beat.exceptions import (
    AboveOfficialBalance,
    AlreadyApproved,
    AlreadyWitnessed,
    DisplayError,
    DisplaySuperseded,
    FundTransferRefused,
)
from jackpots.bad_beat.models import (
    BadBeatDecision,
    DecisionOutcome,
    DisplayAdjustment,
    DisplayAdjustmentLate,
    DisplayOverdue,
    FundTransfer,
    FundTransferStatus,
)
from jackpots.bad_beat.rules import BadBeatRule
from jackpots.bad_beat.selectors import fund_position
from jackpots.bad_beat.services.claims import fund_locked
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import jackpot_collecting, jackpot_rule_of_version, local_time, tables_listing
from tables.models import PokerRoom
from tables.selectors import gaming_day, gaming_day_bounds, rules_version_in_effect


def display_adjust(*, jackpot: Jackpot, actor: User, pin: str, idempotency_key: str) -> DisplayAdjustment:
    """A finance employee sets the displayed amount of a Bad Beat fund to the current payout amount,
    the finance record (the official balance less what verified claims owe), and signs (§637a.15(h)(1)).
    It takes effect only when the floorperson or above present witnesses it (``display_witness``):
    until then the board shows what it showed, and the 'pending adjustment' notice stays. An earlier
    adjustment of the fund still awaiting its witness is superseded by this one and never takes effect."""
    action_require(actor=actor, action=Action.DISPLAY_ADJUST, of=jackpot)
    if jackpot.kind != JackpotKind.BAD_BEAT:
        raise DisplayError(
            f"{jackpot.name} is a {jackpot.get_kind_display()} fund: its display shows the pool of its qualifying "
            "period (§637a.16(g)), not an adjusted amount."
        )
    fingerprint = request_fingerprint({"jackpot": jackpot.pk, "by": actor.pk})
    once = DocumentOnce(model=DisplayAdjustment, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(lambda: _adjust_write(once, jackpot=jackpot, actor=actor, pin=pin))


def _adjust_write(
    once: DocumentOnce[DisplayAdjustment], *, jackpot: Jackpot, actor: User, pin: str
) -> DisplayAdjustment:
    """The adjustment's rule, once its key is new (``display_adjust``): under the fund's lock."""
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        fund_locked(jackpot)
        position = fund_position(jackpot=jackpot)
        if position.available_cents < 0:
            raise DisplayError(
                f"The fund holds {display_cents(position.official_cents)} and owes "
                f"{display_cents(position.owed_cents)}: the finance record must be reconciled before the display "
                "can show it."
            )
        adjustment = DisplayAdjustment.objects.create(
            room=jackpot.room,
            jackpot=jackpot,
            amount_cents=position.available_cents,
            previous_cents=position.displayed_cents,
            official_cents=position.official_cents,
            owed_cents=position.owed_cents,
            gaming_day=gaming_day(room=jackpot.room, at=signer.verified_at),
            adjusted_by=actor,
            adjusted_at=signer.verified_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        signature_add(document=adjustment, rule=DisplayAdjustment.ADJUSTER, signer=signer)
    return adjustment


def display_witness(*, adjustment: DisplayAdjustment, actor: User, pin: str) -> DisplayAdjustment:
    """The floorperson or above in whose presence the display was adjusted signs (§637a.15(h)(1));
    not the finance employee who adjusted it. The adjustment takes effect on the display now, with
    both signatures, and the time from the verification it answers to now is recorded (§637a.15(h)).
    An adjustment superseded by a newer one of the same fund is refused: it never takes effect."""
    action_require(actor=actor, action=Action.DISPLAY_WITNESS, of=adjustment)
    _unwitnessed(adjustment)
    _not_superseded(adjustment)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        adjustment = DisplayAdjustment.objects.select_for_update().get(pk=adjustment.pk)
        _unwitnessed(adjustment)
        _not_superseded(adjustment)
        verification = _verification_answered(adjustment)
        signature_add(document=adjustment, rule=DisplayAdjustment.WITNESS, signer=signer)
        adjustment.witnessed_by = actor
        adjustment.witnessed_at = signer.verified_at
        adjustment.verification = verification
        if verification is not None:
            adjustment.seconds_from_verification = int((signer.verified_at - verification.decided_at).total_seconds())
        adjustment.save(update_fields=["witnessed_by", "witnessed_at", "verification", "seconds_from_verification"])
    return adjustment


def _unwitnessed(adjustment: DisplayAdjustment) -> None:
    if adjustment.witnessed_by_id is not None:
        raise AlreadyWitnessed(
            f"Display adjustment {adjustment.pk} was witnessed already by {adjustment.witnessed_by}."
        )


def _not_superseded(adjustment: DisplayAdjustment) -> None:
    """Refuse the witness of an adjustment finance set again since: the display would show an older
    finance record than the latest one signed."""
    newer = (
        DisplayAdjustment.objects.filter(jackpot_id=adjustment.jackpot_id)
        .filter(Q(adjusted_at__gt=adjustment.adjusted_at) | Q(adjusted_at=adjustment.adjusted_at, pk__gt=adjustment.pk))
        .select_related("room")
        .order_by("-adjusted_at", "-pk")
        .first()
    )
    if newer is not None:
        raise DisplaySuperseded(
            f"Display adjustment {adjustment.pk} ({display_cents(adjustment.amount_cents)}) was superseded by "
            f"adjustment {newer.pk} ({display_cents(newer.amount_cents)}), set at "
            f"{local_time(newer.adjusted_at, newer.room.timezone)}: witness that one; this one never takes effect."
        )


def _verification_answered(adjustment: DisplayAdjustment) -> BadBeatDecision | None:
    """The earliest verification of a claim on the fund that ``adjustment`` answers: made after the
    adjustment before it that took effect was set, and not after this one was set (its amount counts
    what the claim owes). None when there is none (an adjustment of the day)."""
    previous = (
        DisplayAdjustment.objects.filter(jackpot_id=adjustment.jackpot_id, witnessed_at__isnull=False)
        .exclude(pk=adjustment.pk)
        .order_by("-adjusted_at", "-pk")
        .values_list("adjusted_at", flat=True)
        .first()
    )
    verifications = BadBeatDecision.objects.filter(
        claim__jackpot_id=adjustment.jackpot_id,
        outcome=DecisionOutcome.VERIFIED,
        decided_at__lte=adjustment.adjusted_at,
    )
    if previous is not None:
        verifications = verifications.filter(decided_at__gt=previous)
    return verifications.order_by("decided_at", "pk").first()


# The gaming days the schedule looks back over for a day without an adjustment (it may have been down).
OVERDUE_LOOK_BACK_DAYS = 7


def display_overdue_flag(*, room: PokerRoom, at: datetime) -> list[DisplayOverdue]:
    """Flag each Bad Beat fund collecting in ``room`` whose display was not adjusted on a gaming day
    that has ended (§637a.15(h): 'no less than once a day'): no adjustment took effect, witnessed, in
    that day. The schedule calls it every minute. One flag per fund and day (a unique key): running it
    again, late or twice, flags nothing new."""
    today = gaming_day(room=room, at=at)
    flagged = []
    for back in range(1, OVERDUE_LOOK_BACK_DAYS + 1):
        day = today - timedelta(days=back)
        flagged += _overdue_on(room=room, day=day, at=at)
    return flagged


def _overdue_on(*, room: PokerRoom, day: date, at: datetime) -> list[DisplayOverdue]:
    starts, ends = gaming_day_bounds(room=room, day=day)
    version = rules_version_in_effect(room=room, at=ends - timedelta(microseconds=1))
    if version is None:
        return []
    funds = Jackpot.objects.filter(room=room, kind=JackpotKind.BAD_BEAT, created_at__lt=ends)
    adjusted = set(
        DisplayAdjustment.objects.filter(room=room, witnessed_at__gte=starts, witnessed_at__lt=ends).values_list(
            "jackpot", flat=True
        )
    )
    already = set(DisplayOverdue.objects.filter(jackpot__room=room, gaming_day=day).values_list("jackpot", flat=True))
    flagged = []
    for jackpot in funds:
        if jackpot.pk in adjusted or jackpot.pk in already or not tables_listing(version=version, code=jackpot.code):
            continue
        flag, created = DisplayOverdue.objects.get_or_create(
            jackpot=jackpot, gaming_day=day, defaults={"flagged_at": at}
        )
        if created:
            flagged.append(flag)
    return flagged


def display_late_flag(*, room: PokerRoom, at: datetime) -> list[DisplayAdjustmentLate]:
    """Flag each verification of a Bad Beat in ``room`` whose display did not take the adjusted amount,
    witnessed, within the limit the house posts (``display_adjust_within_minutes`` of the rules in
    effect at the verification; §637a.15(h): 'immediately upon notification of a Bad Beat
    verification'), once that limit has passed at ``at``: the first adjustment set after it took effect
    late, or has not yet. A fund whose rules post no limit is not flagged this way. The schedule calls
    it every minute, over the verifications of the last ``OVERDUE_LOOK_BACK_DAYS``; one flag per
    verification (a unique key): running it again, late or twice, flags nothing new."""
    first_effective = (
        DisplayAdjustment.objects.filter(
            jackpot=OuterRef("claim__jackpot"), adjusted_at__gte=OuterRef("decided_at"), witnessed_at__isnull=False
        )
        .order_by("witnessed_at")
        .values("witnessed_at")[:1]
    )
    verifications = (
        BadBeatDecision.objects.filter(
            claim__room=room,
            outcome=DecisionOutcome.VERIFIED,
            decided_at__gte=at - timedelta(days=OVERDUE_LOOK_BACK_DAYS),
            decided_at__lt=at,
            display_late__isnull=True,
        )
        .select_related("claim__jackpot")
        .annotate(effective_at=Subquery(first_effective))
        .order_by("decided_at", "pk")
    )
    flagged = []
    for verification in verifications:
        minutes = _display_limit(room=room, jackpot=verification.claim.jackpot, at=verification.decided_at)
        if minutes is None:
            continue
        due_at = verification.decided_at + timedelta(minutes=minutes)
        effective_at = verification.effective_at
        if due_at >= at or (effective_at is not None and effective_at <= due_at):
            continue
        flag, created = DisplayAdjustmentLate.objects.get_or_create(
            verification=verification,
            defaults={
                "jackpot": verification.claim.jackpot,
                "within_minutes": minutes,
                "due_at": due_at,
                "flagged_at": at,
            },
        )
        if created:
            flagged.append(flag)
    return flagged


def _display_limit(*, room: PokerRoom, jackpot: Jackpot, at: datetime) -> int | None:
    """The minutes the rules in effect at ``at`` post for adjusting ``jackpot``'s display (None: none)."""
    version = rules_version_in_effect(room=room, at=at)
    rule = jackpot_rule_of_version(version=version, code=jackpot.code) if version is not None else None
    return rule.display_adjust_within_minutes if isinstance(rule, BadBeatRule) else None


# --- A discontinued fund (§637a.15(i)) ------------------------------------------------------------


def _transfer_check(*, source: Jackpot, destination: Jackpot, at: datetime) -> None:
    for fund in (source, destination):
        if fund.kind != JackpotKind.BAD_BEAT:
            raise FundTransferRefused(
                f"{fund.name} ({fund.code}) is a {fund.get_kind_display()} fund: a Bad Beat fund's money goes to "
                "patrons or to another Bad Beat payout, nowhere else (§637a.15(i))."
            )
    if source.pk == destination.pk:
        raise FundTransferRefused("A fund cannot be transferred to itself.")
    if jackpot_collecting(jackpot=source, at=at):
        version = rules_version_in_effect(room=source.room, at=at)
        assert version is not None
        tables = ", ".join(sorted(tables_listing(version=version, code=source.code)))
        raise FundTransferRefused(
            f"{source.name} ({source.code}) still collects at tables {tables} under rules version {version.number}: "
            "stop its collection with a new rules version first (§637a.15(c), (i))."
        )
    if not jackpot_collecting(jackpot=destination, at=at):
        raise FundTransferRefused(
            f"{destination.name} ({destination.code}) is not offered at any table now: its money would be paid to "
            "nobody. Transfer to a Bad Beat that is offered (§637a.15(i): 'paid to Poker patrons')."
        )


def _available_check(*, source: Jackpot, amount_cents: int) -> None:
    position = fund_position(jackpot=source)
    if amount_cents > position.available_cents:
        raise AboveOfficialBalance(
            f"{source.name} holds {display_cents(position.official_cents)} officially and owes "
            f"{display_cents(position.owed_cents)} to verified claims: at most "
            f"{display_cents(max(position.available_cents, 0))} can move, not {display_cents(amount_cents)}."
        )


def fund_transfer_prepare(
    *,
    source: Jackpot,
    destination: Jackpot,
    amount_cents: int,
    reason: str,
    actor: User,
    pin: str,
    idempotency_key: str,
) -> FundTransfer:
    """Finance prepares the transfer of a discontinued Bad Beat fund's money to another Bad Beat and
    signs; nothing moves until a second person approves it (``fund_transfer_approve``)."""
    action_require(actor=actor, action=Action.FUND_TRANSFER_PREPARE, of=source)
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int) or amount_cents <= 0:
        raise FundTransferRefused(f"A transfer is more than zero whole cents, not {amount_cents!r}.")
    reason = (reason or "").strip()
    if not reason:
        raise FundTransferRefused("Give the reason: the approved discontinuation procedure it follows.")
    now = timezone.now()
    _transfer_check(source=source, destination=destination, at=now)
    _available_check(source=source, amount_cents=amount_cents)
    fingerprint = request_fingerprint(
        {"source": source.pk, "destination": destination.pk, "amount_cents": amount_cents, "by": actor.pk}
    )
    once = DocumentOnce(model=FundTransfer, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _transfer_write(
            once, source=source, destination=destination, amount_cents=amount_cents, reason=reason, actor=actor, pin=pin
        )
    )


def _transfer_write(
    once: DocumentOnce[FundTransfer],
    *,
    source: Jackpot,
    destination: Jackpot,
    amount_cents: int,
    reason: str,
    actor: User,
    pin: str,
) -> FundTransfer:
    """The prepared transfer and its signature, once its key is new (``fund_transfer_prepare``)."""
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        transfer = FundTransfer.objects.create(
            source=source,
            destination=destination,
            amount_cents=amount_cents,
            reason=reason,
            prepared_by=actor,
            prepared_at=signer.verified_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        signature_add(document=transfer, rule=FundTransfer.PREPARER, signer=signer)
    return transfer


def fund_transfer_approve(*, transfer: FundTransfer, actor: User, pin: str) -> FundTransfer:
    """Another finance employee or an administrator approves a prepared transfer and signs; the
    ledger transfer from fund to fund is posted then, under both funds' locks."""
    action_require(actor=actor, action=Action.FUND_TRANSFER_APPROVE, of=transfer)
    if transfer.status != FundTransferStatus.PREPARED:
        raise AlreadyApproved(f"Transfer {transfer.pk} was approved already.")
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        transfer = (
            FundTransfer.objects.select_for_update(of=("self",))
            .select_related("source__room", "destination__room")
            .get(pk=transfer.pk)
        )
        if transfer.status != FundTransferStatus.PREPARED:
            raise AlreadyApproved(f"Transfer {transfer.pk} was approved already.")
        _transfer_check(source=transfer.source, destination=transfer.destination, at=signer.verified_at)
        # Both funds locked, in the order of their accounts' keys (as every service locks accounts).
        accounts = {
            fund.pk: account_open_as(jackpot_fund_account(jackpot=fund))
            for fund in (transfer.source, transfer.destination)
        }
        locked = {
            fund_id: Account.objects.select_for_update().get(pk=account.pk)
            for fund_id, account in sorted(accounts.items(), key=lambda item: item[1].pk)
        }
        _available_check(source=transfer.source, amount_cents=transfer.amount_cents)
        signature_add(document=transfer, rule=FundTransfer.APPROVER, signer=signer)
        transfer_post_within(
            debit=locked[transfer.destination_id],
            credit=locked[transfer.source_id],
            amount_cents=transfer.amount_cents,
            kind=TransferKind.FUND_TRANSFER,
            idempotency_key=f"fund-transfer:{transfer.pk}",
            actor=actor,
            reference=transfer,
            memo=f"{transfer.source.code} discontinued: to {transfer.destination.code} (§637a.15(i))",
        )
        transfer.approved_by = actor
        transfer.approved_at = signer.verified_at
        transfer.status = FundTransferStatus.APPROVED
        transfer.save(update_fields=["approved_by", "approved_at", "status"])
    return transfer
