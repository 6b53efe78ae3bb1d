"""Counts at a closed table: the compliance notice, the dealer's count, the witness.

§637a.15(d)(1) and §637a.16(d)(1): 'the counting shall be performed by a Poker dealer in the
presence of a floorperson or above and recorded by the surveillance department. Documentation of the
count shall be prepared and signed by both the dealer and the floorperson or above who witnessed the
count.' A Bad Beat box is counted 'upon notice to a casino compliance representative' (§637a.15(d)).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.money import format_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.segregation import independent_require
from casino_backoffice.staff.services import VerifiedSigner, pin_check, signature_add
from jackpots.funds.models import JackpotKind
from tables.models import PokerRoom
from tables.selectors import gaming_day

from ..accounts import custody_account, variance_account
from ..exceptions import BoxAlreadyCounted, CageError, NoticeRequired, WrongStatus
from ..models import Box, ComplianceNotice, Count, CountPlace, CountStatus, Variance, VarianceKind
from ._common import move, variance_threshold_cents
from .boxes import box_content_close, box_content_locked
from .contents import count_target
from .gaming_days import count_day_hold_open
from .schedule import schedule_lock_shared
from .segregation import counts_superseded


def notice_record(
    *,
    room: PokerRoom,
    notified: str,
    method: str,
    actor: User,
    pin: str,
    idempotency_key: str,
    notified_at: datetime | None = None,
) -> ComplianceNotice:
    """Record, and sign, the notice to the compliance representative before Bad Beat boxes are counted."""
    action_require(actor=actor, action=Action.NOTICE_RECORD, of=room)
    notified, method = notified.strip(), method.strip()
    if not notified or not method:
        raise CageError("Say who at compliance was notified and how (phone, radio, in person).")
    now = timezone.now()
    notified_at = notified_at or now
    if notified_at > now:
        raise CageError("A notice cannot be given in the future.")
    fingerprint = request_fingerprint({"room": room.pk, "notified": notified, "method": method, "by": actor.pk})
    once = DocumentOnce(model=ComplianceNotice, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _notice_write(
            once, room=room, notified=notified, method=method, notified_at=notified_at, actor=actor, pin=pin
        )
    )


def _notice_write(
    once: DocumentOnce[ComplianceNotice],
    *,
    room: PokerRoom,
    notified: str,
    method: str,
    notified_at: datetime,
    actor: User,
    pin: str,
) -> ComplianceNotice:
    """The notice's record and signature, once its key is new (``notice_record``)."""
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        notice = ComplianceNotice.objects.create(
            room=room,
            gaming_day=gaming_day(room=room, at=notified_at),
            notified=notified,
            method=method,
            notified_at=notified_at,
            recorded_by=actor,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        signature_add(document=notice, rule=ComplianceNotice.RECORDER, signer=signer)
    return notice


def notice_for(*, box: Box, day: date, notice: ComplianceNotice | None) -> ComplianceNotice | None:
    """The notice to compliance a count of ``box`` on gaming day ``day`` is made upon (§637a.15(d)):
    ``notice`` when given (of the box's room), else the day's latest; None for a box that holds no Bad
    Beat money. Refused (``NoticeRequired``) when a Bad Beat box has none."""
    if box.jackpot is None or box.jackpot.kind != JackpotKind.BAD_BEAT:
        return notice
    if notice is not None:
        if notice.room_id != box.room_id:
            raise NoticeRequired(f"Notice {notice.pk} was given for another room.")
        return notice
    found = ComplianceNotice.objects.filter(room=box.room, gaming_day=day).order_by("-notified_at").first()
    if found is None:
        raise NoticeRequired(
            f"Box {box.code} holds Bad Beat money: record the notice to the casino compliance representative "
            f"for gaming day {day} before counting it (§637a.15(d))."
        )
    return found


def count_record(
    *,
    box: Box,
    counted_cents: int,
    actor: User,
    pin: str,
    idempotency_key: str,
    notice: ComplianceNotice | None = None,
    denominations: dict[str, int] | None = None,
) -> Count:
    """A dealer counts a box at a closed table and signs (§637a.15(d)(1), §637a.16(d)(1)).

    The count fills the box's oldest open count sheet (a box is counted once per sheet). What the
    box held by the ledger is its expected content (a High Hand box: what it held of that sheet's
    qualifying period, §637a.16(d), ``box_content_locked``); it moves into custody at once (the box is empty),
    and ``counted - expected``, when not zero, is a variance posted to the room's variance account.
    """
    action_require(actor=actor, action=Action.COUNT_RECORD, of=box)
    if isinstance(counted_cents, bool) or not isinstance(counted_cents, int) or counted_cents < 0:
        raise CageError(f"A count is zero or more whole cents, not {counted_cents!r}.")
    denominations = denominations or {}
    denominations_check(denominations=denominations, counted_cents=counted_cents)
    fingerprint = request_fingerprint(
        {
            "box": box.pk,
            "counted_cents": counted_cents,
            "notice": notice.pk if notice else None,
            "denominations": denominations,
            "by": actor.pk,
        }
    )
    once = DocumentOnce(model=Count, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _count_write(
            once, box=box, counted_cents=counted_cents, denominations=denominations, notice=notice, actor=actor, pin=pin
        )
    )


def _count_write(
    once: DocumentOnce[Count],
    *,
    box: Box,
    counted_cents: int,
    denominations: dict[str, int],
    notice: ComplianceNotice | None,
    actor: User,
    pin: str,
) -> Count:
    """The count's rule, once its key is new (``count_record``): at a closed table, under the box's lock."""
    if box.table.is_open:
        raise CageError(f"Table {box.table.number} is open: boxes are counted at a closed table (§637a.15(d)(1)).")
    now = timezone.now()
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        count_day_hold_open(box=box, now=now)  # a closed gaming day stays closed (§637a.17)
        schedule_lock_shared()
        box = (
            Box.objects.select_for_update(of=("self",))
            .select_related("room", "table", "jackpot", "account")
            .get(pk=box.pk)
        )
        sheet, period = count_target(box=box, now=now)
        if sheet is None and period is None:
            last = Count.objects.filter(box=box).order_by("-counted_at").first()
            when = f" at {timezone.localtime(last.counted_at):%H:%M} (count {last.pk})" if last else ""
            raise BoxAlreadyCounted(
                f"Box {box.code} was already counted for its open count sheet{when}; no count is due."
            )
        day = sheet.gaming_day if sheet is not None else gaming_day(room=box.room, at=now)
        used_notice = notice_for(box=box, day=day, notice=notice)
        content = box_content_locked(box=box, period=period)
        expected = account_balance(account=content)
        count = Count.objects.create(
            box=box,
            sheet=sheet,
            period=period,
            place=CountPlace.TABLE,
            gaming_day=day,
            counted_cents=counted_cents,
            expected_cents=expected,
            denominations=denominations,
            notice=used_notice,
            counted_by=actor,
            counted_at=now,
            status=CountStatus.COUNTED,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        signature_add(document=count, rule=Count.COUNTER, signer=signer)
        custody = custody_account(room=box.room)
        box_content_close(account=content, box=box, period=period, at=now)
        move(
            source=content,
            destination=custody,
            amount_cents=expected,
            kind=TransferKind.COUNT,
            key=f"count:{count.pk}:box",
            actor=actor,
            reference=count,
            memo=f"Count {count.pk} of {box.code}",
        )
        if count.variance_cents:
            _variance_record(count=count, kind=VarianceKind.COUNT, found_at=now, actor=actor)
            move(
                source=variance_account(room=box.room),
                destination=custody,
                amount_cents=count.variance_cents,
                kind=TransferKind.VARIANCE,
                key=f"count:{count.pk}:variance",
                actor=actor,
                reference=count,
                memo=f"Count {count.pk} of {box.code}: counted {format_cents(counted_cents)}, expected {format_cents(expected)}",
            )
    return count


def denominations_check(*, denominations: dict[str, int], counted_cents: int) -> None:
    """The pieces of each denomination, when given, add up to the amount counted."""
    if denominations:
        total = sum(int(value) * int(pieces) for value, pieces in denominations.items())
        if total != counted_cents:
            raise CageError(
                f"The denominations add up to {format_cents(total)}, not the {format_cents(counted_cents)} counted."
            )


def _variance_record(
    *, count: Count, kind: VarianceKind, found_at: datetime, actor: User, amount_cents: int | None = None
) -> Variance:
    amount = count.variance_cents if amount_cents is None else amount_cents
    threshold = variance_threshold_cents(room=count.box.room, at=found_at)
    return Variance.objects.create(
        room=count.box.room,
        gaming_day=count.gaming_day,
        kind=kind,
        box=count.box,
        count=count,
        amount_cents=amount,
        threshold_cents=threshold,
        needs_explanation=abs(amount) > threshold,
        counted_by=count.counted_by,
        found_at=found_at,
    )


def _reference_given(surveillance_reference: str) -> str:
    reference = surveillance_reference.strip()
    if not reference:
        raise CageError(
            "Give the surveillance recording reference of the count (§637a.15(d)(1): recorded by surveillance)."
        )
    return reference


def _witness_locked(count: Count, *, actor: User, signer: VerifiedSigner, reference: str) -> Count:
    """The witness's signature on one locked count: the rule of ``count_witness`` and ``counts_witness``."""
    if count.status != CountStatus.COUNTED:
        if (
            count.status == CountStatus.WITNESSED
            and count.witnessed_by_id == actor.pk
            and count.surveillance_reference == reference
        ):
            return count  # the same witness signing again: the first answer
        raise WrongStatus(
            f"Count {count.pk} is {count.get_status_display().lower()}; it is witnessed once, right after it is counted."
        )
    # The dealer whose count a recount corrects does not attest the recount; the floorperson who
    # witnessed the count superseded may watch its recount too.
    independent_require(
        person=actor,
        step="witness of the recount",
        earlier=counts_superseded(count),
        section="§637a.15(d)(1)",
        purposes={"counter"},
    )
    signature_add(document=count, rule=Count.WITNESS, signer=signer)
    count.witnessed_by, count.witnessed_at = actor, signer.verified_at
    count.surveillance_reference, count.status = reference, CountStatus.WITNESSED
    count.save(update_fields=["witnessed_by", "witnessed_at", "surveillance_reference", "status"])
    return count


def count_witness(*, count: Count, actor: User, pin: str, surveillance_reference: str) -> Count:
    """A floorperson or above who is not the counter witnesses the count and signs, with the
    surveillance department's recording reference (§637a.15(d)(1)). The witness of a recount is not
    the counter of a count it superseded either, whatever roles they hold."""
    action_require(actor=actor, action=Action.COUNT_WITNESS, of=count)
    reference = _reference_given(surveillance_reference)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        count = Count.objects.select_for_update(of=("self",)).select_related("box").get(pk=count.pk)
        return _witness_locked(count, actor=actor, signer=signer, reference=reference)


def counts_witness(*, counts: Sequence[Count], actor: User, pin: str, surveillance_reference: str) -> list[Count]:
    """The counts of one table witnessed in one signing: one PIN, one recording reference, and each
    count its own witness signature, as ``count_witness`` signs it (§637a.15(d)(1): each count
    "witnessed ... by a floorperson or above"). All or none: a count the witness may not sign (their
    own count, one witnessed already by another) refuses them all, naming it, and nothing is recorded.
    The counts must be of one table, the witness watching that table's count."""
    if not counts:
        raise CageError("Pick the counts to witness.")
    tables = {count.box.table_id for count in counts}
    if len(tables) != 1:
        raise CageError("Witness in one signing the counts of one table; sign each table's counts apart.")
    for count in counts:
        action_require(actor=actor, action=Action.COUNT_WITNESS, of=count)
    reference = _reference_given(surveillance_reference)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        locked = (
            Count.objects.select_for_update(of=("self",))
            .select_related("box")
            .filter(pk__in=[count.pk for count in counts])
            .order_by("pk")
        )
        return [_witness_locked(count, actor=actor, signer=signer, reference=reference) for count in locked]
