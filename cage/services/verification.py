"""Cage verification, variances and their explanations, and the close of a gaming day.

§637a.15(e), §637a.16(e): 'a cashier shall count the contents of each box or, if the contents of the
boxes were previously counted by Poker room personnel and combined in a locked container for
transport, verify the aggregate count. The finance department shall maintain the official record of
the amount of ... contributions.' What the cashier accepts becomes official here: a ledger transfer
from custody into the jackpot's fund (jackpot boxes) or the room's poker revenue (rake drop boxes).

Reading, for a container whose aggregate differs from its table counts: each fund is credited the
table count that the dealer and the witness signed (the players' contributions are not reduced by a
loss between the table and the cage); the difference is the house's, posted to the cage's over/short
account, and a variance to explain.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import Account, TransferKind
from casino_backoffice.money import display_cents, format_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.segregation import independent_require
from casino_backoffice.staff.services import VerifiedSigner, pin_check, signature_add

from ..accounts import cage_over_short_account, custody_account, variance_account
from ..exceptions import (
    CageError,
    CountMismatch,
    VarianceNotConfirmed,
    WrongStatus,
)
from ..models import (
    CageVerification,
    Count,
    CountPlace,
    CountSheet,
    CountStatus,
    Transport,
    TransportItem,
    TransportKind,
    TransportStatus,
    Variance,
    VarianceKind,
    VerificationStatus,
    display_variance,
)
from ._common import move, official_account, variance_threshold_cents, verification_transfer_key
from .counts import notice_for
from .schedule import schedule_lock_shared
from .segregation import transport_documents


def cage_verify(
    *,
    transport: Transport,
    counted: int | dict[str, int],
    actor: User,
    pin: str,
    idempotency_key: str,
    confirm_variance: bool = False,
) -> CageVerification:
    """A cage cashier verifies what a transport brought: the aggregate of a container of table counts
    (``counted`` in cents), or each uncounted box (``counted`` as {box code: cents}; a box excused as
    missing counts zero). The cashier is not the counter nor the witness of any count inside, nor the
    person who carried the transport or accounted for its boxes, whatever roles they hold
    (``staff.segregation``).

    A house control on §637a.15(e): a count that differs from what the container declares (or a box
    from what the ledger expected) by more than the room's variance threshold is refused
    (``VarianceNotConfirmed``, naming both amounts) until the cashier, having counted again,
    confirms it (``confirm_variance``); nothing is recorded before."""
    action_require(actor=actor, action=Action.CAGE_VERIFY, of=transport)
    amounts = counted if isinstance(counted, dict) else {"": counted}
    for code, cents in amounts.items():
        if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
            raise CageError(f"A count is zero or more whole cents{f' (box {code})' if code else ''}, not {cents!r}.")
    fingerprint = request_fingerprint({"transport": transport.pk, "counted": counted, "by": actor.pk})
    once = DocumentOnce(model=CageVerification, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _verify_write(
            once, transport=transport, counted=counted, actor=actor, pin=pin, confirm_variance=confirm_variance
        )
    )


def _verify_write(
    once: DocumentOnce[CageVerification],
    *,
    transport: Transport,
    counted: int | dict[str, int],
    actor: User,
    pin: str,
    confirm_variance: bool,
) -> CageVerification:
    """The verification's rule, once its key is new (``cage_verify``): under the transport's lock."""
    signer = pin_check(user=actor, pin=pin)
    now = timezone.now()
    with transaction.atomic(durable=True):
        schedule_lock_shared()
        transport = Transport.objects.select_for_update(of=("self",)).select_related("room").get(pk=transport.pk)
        if hasattr(transport, "verification"):
            raise WrongStatus(f"Seal {transport.seal} was already verified (verification {transport.verification.pk}).")
        independent_require(
            person=actor, step="cage verification", earlier=transport_documents(transport), section="§637a.15(e)"
        )
        room = transport.room
        items = list(
            transport.items.select_related("box__room", "box__jackpot", "box__account", "count").order_by("box__code")
        )
        verification = CageVerification(
            transport=transport,
            room=room,
            gaming_day=transport.gaming_day,
            cashier=actor,
            verified_at=now,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
            status=VerificationStatus.VERIFIED,
        )
        step = _Verifying(
            verification=verification,
            transport=transport,
            items=items,
            actor=actor,
            signer=signer,
            now=now,
            custody=custody_account(room=room),
            threshold_cents=variance_threshold_cents(room=room, at=now),
            confirm_variance=confirm_variance,
        )
        if transport.kind == TransportKind.TABLE_COUNTS:
            variances = _verify_container(step, counted=counted)
        else:
            variances = _verify_boxes(step, counted=counted, fingerprint=once.fingerprint)
        Variance.objects.bulk_create(variances)
        if any(variance.needs_explanation for variance in variances):
            verification.status = VerificationStatus.VARIANCE_UNRESOLVED
            verification.save(update_fields=["status"])
        transport.status = TransportStatus.VERIFIED
        transport.save(update_fields=["status"])
    return verification


@dataclass(frozen=True)
class _Verifying:
    """One verification under way, inside ``cage_verify``'s transaction, the transport locked."""

    verification: CageVerification
    transport: Transport
    items: list[TransportItem]
    actor: User
    signer: VerifiedSigner
    now: datetime
    custody: Account
    threshold_cents: int
    confirm_variance: bool

    def move(
        self, *, source: Account, destination: Account, amount_cents: int, kind: TransferKind, key: str, memo: str
    ) -> None:
        move(
            source=source,
            destination=destination,
            amount_cents=amount_cents,
            kind=kind,
            key=verification_transfer_key(verification_id=self.verification.pk, part=key),
            actor=self.actor,
            reference=self.verification,
            memo=memo,
        )

    def variance(self, *, kind: VarianceKind, amount_cents: int, gaming_day: date, **more: Any) -> Variance:
        return Variance(
            room=self.transport.room,
            gaming_day=gaming_day,
            kind=kind,
            verification=self.verification,
            amount_cents=amount_cents,
            threshold_cents=self.threshold_cents,
            needs_explanation=abs(amount_cents) > self.threshold_cents,
            cashier=self.actor,
            found_at=self.now,
            **more,
        )


def _verify_container(step: _Verifying, *, counted: int | dict[str, int]) -> list[Variance]:
    """A container of table counts: the cashier verifies its aggregate (§637a.15(e)). Each fund gets
    the table count both signers attested; a difference is the cage's over/short (module docstring)."""
    transport, verification, items, room = step.transport, step.verification, step.items, step.transport.room
    if transport.status != TransportStatus.IN_TRANSIT:
        raise WrongStatus(f"Seal {transport.seal} is {transport.get_status_display().lower()}.")
    if isinstance(counted, dict):
        raise CageError(f"Seal {transport.seal} holds table counts: give the aggregate you counted, one amount.")
    counts = [item.count for item in items if item.count is not None]
    declared = sum(count.counted_cents for count in counts)
    if abs(counted - declared) > step.threshold_cents and not step.confirm_variance:
        difference = counted - declared
        raise VarianceNotConfirmed(
            f"You counted {display_cents(counted)}; seal {transport.seal} declares {display_cents(declared)}, "
            f"the sum of its table counts: {display_variance(difference)}, more than the room's threshold of "
            f"{display_cents(step.threshold_cents)}. Count the container again; if your count stands, confirm "
            "the variance and sign again. Nothing was recorded.",
            counted_cents=counted,
            expected_cents=declared,
            threshold_cents=step.threshold_cents,
            declared=True,
        )
    verification.counted_cents, verification.official_cents = counted, declared
    verification.variance_cents = counted - declared
    verification.save(force_insert=True)
    signature_add(document=verification, rule=CageVerification.CASHIER, signer=step.signer)
    variances = []
    for item in items:
        assert item.count is not None
        step.move(
            source=step.custody,
            destination=official_account(box=item.box),
            amount_cents=item.count.counted_cents,
            kind=TransferKind.VERIFICATION,
            key=item.box.code,
            memo=f"{item.box.code} made official (count {item.count.pk}, seal {transport.seal})",
        )
        item.count.status = CountStatus.VERIFIED  # saved one by one so the audit trail records each step
        item.count.save(update_fields=["status"])
    if verification.variance_cents:
        variances.append(
            step.variance(
                kind=VarianceKind.CAGE_VS_TABLE,
                amount_cents=verification.variance_cents,
                gaming_day=verification.gaming_day,
            )
        )
        step.move(
            source=variance_account(room=room),
            destination=cage_over_short_account(room=room),
            amount_cents=verification.variance_cents,
            kind=TransferKind.VARIANCE,
            key="over_short",
            memo=f"Seal {transport.seal}: the cage counted {format_cents(counted)}, the tables {format_cents(declared)}",
        )
    return variances


def _verify_boxes(step: _Verifying, *, counted: int | dict[str, int], fingerprint: str) -> list[Variance]:
    """Uncounted boxes, accounted for at the cage: the cashier counts each (§637a.15(d)(2), (e)); a box
    excused as missing counts zero. Each box's count fills its open count sheet."""
    box_counts = _box_counts_checked(step, counted=counted)
    verification = step.verification
    verification.box_counts = box_counts
    verification.counted_cents = verification.official_cents = sum(box_counts.values())
    verification.variance_cents = verification.counted_cents - sum(item.expected_cents for item in step.items)
    verification.save(force_insert=True)
    signature_add(document=verification, rule=CageVerification.CASHIER, signer=step.signer)
    variances = (
        _box_made_official(step, item=item, cents=box_counts[item.box.code], fingerprint=fingerprint)
        for item in step.items
    )
    return [variance for variance in variances if variance is not None]


def _box_counts_checked(step: _Verifying, *, counted: int | dict[str, int]) -> dict[str, int]:
    """The cashier's count of each box carried, by code, once it names every box carried and no other,
    and a count beyond the room's threshold is confirmed; a box excused as missing counts zero."""
    transport, items = step.transport, step.items
    if transport.status != TransportStatus.ACCOUNTED:
        raise WrongStatus(
            f"Seal {transport.seal} is {transport.get_status_display().lower()}: a floorperson or above accounts for "
            "its boxes at the cage before they are counted (§637a.15(d)(2))."
        )
    if not isinstance(counted, dict):
        raise CageError(f"Seal {transport.seal} holds uncounted boxes: give what you counted in each, by box code.")
    excused = set(transport.missing_boxes.values_list("box__code", flat=True))
    carried = {item.box.code for item in items}
    unknown = sorted(set(counted) - carried)
    if unknown:
        raise CageError(f"Boxes {', '.join(unknown)} were not carried under seal {transport.seal}.")
    absent = sorted(carried - excused - set(counted))
    if absent:
        raise CountMismatch(
            f"Give the count of every box carried under seal {transport.seal}: {', '.join(absent)} missing."
        )
    box_counts = {code: counted.get(code, 0) for code in sorted(carried)}
    beyond = tuple(
        (item.box.code, box_counts[item.box.code], item.expected_cents)
        for item in items
        # A box excused as missing counts nothing by a supervisor's signed exception, not by a typo.
        if item.box.code not in excused and abs(box_counts[item.box.code] - item.expected_cents) > step.threshold_cents
    )
    if beyond and not step.confirm_variance:
        named = "; ".join(
            f"{code}: you counted {display_cents(cents)}, the ledger expected {display_cents(expected)} "
            f"({display_variance(cents - expected)})"
            for code, cents, expected in beyond
        )
        raise VarianceNotConfirmed(
            f"{named}: more than the room's threshold of {display_cents(step.threshold_cents)}. Count "
            f"{'that box' if len(beyond) == 1 else 'those boxes'} again; if your count stands, confirm the "
            "variance and sign again. Nothing was recorded.",
            counted_cents=sum(box_counts.values()),
            expected_cents=sum(item.expected_cents for item in items),
            threshold_cents=step.threshold_cents,
            declared=False,
            boxes=beyond,
        )
    return box_counts


def _box_sheet(item: TransportItem, *, now: datetime) -> CountSheet | None:
    """The count sheet a box counted at the cage fills. A High Hand box carried uncounted holds one
    period's box content: its count fills that period's sheet (§637a.16(d)), never the oldest open one;
    the open period's content has none yet (its sheet waits for the period's end)."""
    sheets = CountSheet.objects.select_for_update(of=("self",))
    if item.sheet_id is not None:
        return sheets.get(pk=item.sheet_id)
    if item.period_id is not None:
        return None
    return (
        sheets.filter(box=item.box, counts__isnull=True, transport_item__isnull=True, opens_at__lte=now)
        .order_by("opens_at")
        .first()
    )


def _box_made_official(step: _Verifying, *, item: TransportItem, cents: int, fingerprint: str) -> Variance | None:
    """One box's count at the cage, its money moved from custody to the box's official account with the
    variance account taking the difference, and its variance when the count differs from expected."""
    transport, verification, room, now = step.transport, step.verification, step.transport.room, step.now
    sheet = _box_sheet(item, now=now)
    day = sheet.gaming_day if sheet else transport.gaming_day
    count = Count.objects.create(
        box=item.box,
        sheet=sheet,
        period_id=item.period_id,
        place=CountPlace.CAGE,
        gaming_day=day,
        # A Bad Beat box is counted 'upon notice to a casino compliance representative' (§637a.15(d)),
        # at the cage as at a table: without one the whole verification is refused, nothing recorded.
        notice=notice_for(box=item.box, day=day, notice=None),
        counted_cents=cents,
        expected_cents=item.expected_cents,
        counted_by=step.actor,
        counted_at=now,
        status=CountStatus.VERIFIED,
        # The key of the transfer that makes this box's money official (``step.move`` below).
        idempotency_key=verification_transfer_key(verification_id=verification.pk, part=item.box.code),
        request_sha256=fingerprint,
    )
    memo = f"{item.box.code}: counted {format_cents(cents)}, expected {format_cents(item.expected_cents)}"
    # Over: the variance account gives what custody lacks; short: custody gives back what is missing.
    step.move(
        source=variance_account(room=room),
        destination=step.custody,
        amount_cents=max(count.variance_cents, 0),
        kind=TransferKind.VARIANCE,
        key=f"{item.box.code}:over",
        memo=memo,
    )
    step.move(
        source=step.custody,
        destination=official_account(box=item.box),
        amount_cents=cents,
        kind=TransferKind.VERIFICATION,
        key=item.box.code,
        memo=f"{item.box.code} counted at the cage (seal {transport.seal})",
    )
    step.move(
        source=step.custody,
        destination=variance_account(room=room),
        amount_cents=max(-count.variance_cents, 0),
        kind=TransferKind.VARIANCE,
        key=f"{item.box.code}:short",
        memo=memo,
    )
    if not count.variance_cents:
        return None
    return step.variance(
        kind=VarianceKind.CAGE_COUNT,
        amount_cents=count.variance_cents,
        gaming_day=count.gaming_day,
        box=item.box,
        count=count,
        counted_by=step.actor,
    )
