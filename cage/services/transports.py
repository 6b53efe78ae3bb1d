"""Chain of custody from the tables to the cage.

A security officer signs for and carries a locked container of witnessed table counts with their
documentation (§637a.15(d)(1), §637a.16(d)(1)), or locked uncounted boxes (§637a.15(d)(2),
§637a.16(d)(2)); at the cage 'a floorperson or above shall account for all locked ... boxes
transported from the Poker tables to the cage'. A box missing from what was carried is refused
unless a supervisor signs an exception naming it.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from casino_backoffice.core.idempotency import DocumentOnce, replay_note, request_fingerprint
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.segregation import independent_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.funds.models import JackpotKind
from jackpots.high_hand.models import HighHandPeriod
from tables.models import PokerRoom
from tables.selectors import gaming_day

from ..accounts import custody_account
from ..exceptions import BoxMissing, CageError, UnknownBox, WrongStatus
from ..models import (
    Box,
    Count,
    CountSheet,
    CountStatus,
    MissingBox,
    Transport,
    TransportItem,
    TransportKind,
    TransportStatus,
)
from ._common import move
from .boxes import box_content_close, box_content_locked
from .contents import count_target
from .schedule import schedule_lock_shared
from .segregation import counts_superseded, transport_documents


def transport_create(
    *,
    room: PokerRoom,
    seal: str,
    actor: User,
    pin: str,
    idempotency_key: str,
    counts: list[Count] | None = None,
    boxes: list[Box] | None = None,
    destination: str = "main cage",
) -> Transport:
    """Security signs for custody of a sealed container of witnessed table counts (``counts``), or of
    locked uncounted boxes (``boxes``), and carries it to the cage. Uncounted boxes move from the box
    into custody in the ledger now, at what the box held (their expected content). Not the counter
    nor the witness of a count inside (§637a.15(d)(1)), whatever roles they hold."""
    action_require(actor=actor, action=Action.TRANSPORT_CREATE, of=room)
    seal = seal.strip()
    if not seal:
        raise CageError("Give the seal number of the locked container.")
    if bool(counts) == bool(boxes):
        raise CageError("A transport carries either a container of table counts or uncounted boxes, and at least one.")
    destination = destination.strip() or "main cage"
    fingerprint = request_fingerprint(
        {
            "room": room.pk,
            "seal": seal,
            "destination": destination,
            "by": actor.pk,
            "counts": sorted(c.pk for c in counts or []),
            "boxes": sorted(b.pk for b in boxes or []),
        }
    )
    once = DocumentOnce(model=Transport, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _transport_write(
            once, room=room, seal=seal, destination=destination, counts=counts, boxes=boxes, actor=actor, pin=pin
        )
    )


def _transport_write(
    once: DocumentOnce[Transport],
    *,
    room: PokerRoom,
    seal: str,
    destination: str,
    counts: list[Count] | None,
    boxes: list[Box] | None,
    actor: User,
    pin: str,
) -> Transport:
    """The container's custody, once its key is new (``transport_create``): one seal per container,
    what it carries locked in primary-key order, signed by security."""
    signer = pin_check(user=actor, pin=pin)
    now = timezone.now()
    with transaction.atomic(durable=True):
        if boxes:
            schedule_lock_shared()  # it may create count sheets, as a count does (the schedule's lock first)
        if Transport.objects.filter(room=room, seal=seal).exists():
            raise CageError(f"Seal {seal} was already used for another container; use the seal on this one.")
        transport = Transport(
            room=room,
            seal=seal,
            destination=destination,
            gaming_day=gaming_day(room=room, at=now),
            carried_by=actor,
            carried_at=now,
            status=TransportStatus.IN_TRANSIT,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        if counts:
            _counts_carry(transport, counts=counts, actor=actor)
        else:
            assert boxes is not None
            _boxes_carry(transport, boxes=boxes, actor=actor, now=now)
        signature_add(document=transport, rule=Transport.CUSTODY, signer=signer)
    return transport


def _counts_carry(transport: Transport, *, counts: list[Count], actor: User) -> None:
    """A container of witnessed table counts of the room (§637a.15(d)(1)): security is not the counter
    nor the witness of a count inside; each count goes in transit, one by one."""
    room = transport.room
    locked = list(
        Count.objects.select_for_update(of=("self",))
        .filter(pk__in=[c.pk for c in counts])
        .select_related("box")
        .order_by("pk")
    )
    independent_require(
        person=actor,
        step="custody of the container",
        earlier=[*locked, *(old for count in locked for old in counts_superseded(count))],
        section="§637a.15(d)(1)",
    )
    for count in locked:
        if count.box.room_id != room.pk:
            raise UnknownBox(f"Count {count.pk} is of room {count.box.room_id}, not {room.code}.")
        if count.status != CountStatus.WITNESSED:
            raise WrongStatus(
                f"Count {count.pk} of {count.box.code} is {count.get_status_display().lower()}: only witnessed counts go into the container."
            )
    transport.kind = TransportKind.TABLE_COUNTS
    transport.declared_cents = sum(count.counted_cents for count in locked)
    transport.save(force_insert=True)
    TransportItem.objects.bulk_create(
        [
            TransportItem(transport=transport, box=count.box, count=count, expected_cents=count.expected_cents)
            for count in locked
        ]
    )
    for count in locked:  # saved one by one so the audit trail records each step
        count.status = CountStatus.IN_TRANSIT
        count.save(update_fields=["status"])


def _boxes_carry(transport: Transport, *, boxes: list[Box], actor: User, now: datetime) -> None:
    """Locked uncounted boxes of the room (§637a.15(d)(2)): each moves from its box content into
    custody now, at what the box held (its expected content)."""
    room = transport.room
    locked_boxes = list(
        Box.objects.select_for_update(of=("self",))
        .filter(pk__in=[b.pk for b in boxes])
        .select_related("account", "room", "table__room", "jackpot")
        .order_by("pk")
    )
    foreign = [box.code for box in locked_boxes if box.room_id != room.pk]
    if foreign:
        raise UnknownBox(f"Boxes {', '.join(foreign)} are not boxes of room {room.code}.")
    transport.kind = TransportKind.BOXES
    transport.save(force_insert=True)
    custody = custody_account(room=room)
    for box in locked_boxes:
        period, sheet = _period_carried(box=box, now=now)
        content = box_content_locked(box=box, period=period)
        expected = account_balance(account=content)
        TransportItem.objects.create(transport=transport, box=box, expected_cents=expected, sheet=sheet, period=period)
        box_content_close(account=content, box=box, period=period, at=now)
        move(
            source=content,
            destination=custody,
            amount_cents=expected,
            kind=TransferKind.CUSTODY,
            key=f"transport:{transport.pk}:{box.code}",
            actor=actor,
            reference=transport,
            memo=f"{box.code} carried under seal {transport.seal}",
        )


def _period_carried(*, box: Box, now: datetime) -> tuple[HighHandPeriod | None, CountSheet | None]:
    """Which qualifying period's box content a High Hand box carried uncounted holds, and that
    period's sheet (``count_target``); (None, None) for a Bad Beat or rake drop box, carried whole
    (its sheet is filled at the cage)."""
    if box.jackpot is None or box.jackpot.kind != JackpotKind.HIGH_HAND:
        return None, None
    sheet, period = count_target(box=box, now=now)
    return period, sheet


def missing_box_record(*, transport: Transport, box: Box, reason: str, actor: User, pin: str) -> MissingBox:
    """A supervisor signs an exception naming a box that was carried but is not at the cage; not the
    person who carried it (§637a.15(d)(2)), whatever roles they hold."""
    action_require(actor=actor, action=Action.MISSING_BOX_RECORD, of=transport)
    reason = reason.strip()
    if not reason:
        raise CageError("Say what is known of the missing box.")
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        transport = Transport.objects.select_for_update(of=("self",)).get(pk=transport.pk)
        if transport.kind != TransportKind.BOXES or transport.status != TransportStatus.IN_TRANSIT:
            raise WrongStatus(f"Transport {transport.seal} is not a transport of boxes awaiting its accounting.")
        independent_require(person=actor, step="missing box exception", earlier=[transport], section="§637a.15(d)(2)")
        if not transport.items.filter(box=box).exists():
            raise UnknownBox(f"Box {box.code} was not carried under seal {transport.seal}.")
        existing = MissingBox.objects.filter(transport=transport, box=box).first()
        if existing is not None:
            replay_note(existing)  # one exception per box and transport: a second answers the first
            return existing
        missing = MissingBox.objects.create(
            transport=transport, box=box, reason=reason, recorded_by=actor, recorded_at=signer.verified_at
        )
        signature_add(document=missing, rule=MissingBox.SUPERVISOR, signer=signer)
    return missing


def transport_account(*, transport: Transport, box_codes: list[str], actor: User, pin: str) -> Transport:
    """At the cage a floorperson or above accounts for every box that was carried, and signs
    (§637a.15(d)(2)); not the person who carried them nor the supervisor who excused a box missing
    from them, whatever roles they hold."""
    action_require(actor=actor, action=Action.TRANSPORT_ACCOUNT, of=transport)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        transport = Transport.objects.select_for_update(of=("self",)).get(pk=transport.pk)
        if transport.kind != TransportKind.BOXES:
            raise WrongStatus(
                f"Seal {transport.seal} is a container of table counts: the cashier verifies it; there are no boxes to account for."
            )
        if transport.status != TransportStatus.IN_TRANSIT:
            if transport.status == TransportStatus.ACCOUNTED and transport.accounted_by_id == actor.pk:
                return transport
            raise WrongStatus(f"Seal {transport.seal} is {transport.get_status_display().lower()}.")
        independent_require(
            person=actor,
            step="accounting at the cage",
            earlier=transport_documents(transport),
            section="§637a.15(d)(2)",
        )
        carried = set(transport.items.values_list("box__code", flat=True))
        given = {code.strip() for code in box_codes}
        unknown = sorted(given - carried)
        if unknown:
            raise UnknownBox(f"Boxes {', '.join(unknown)} were not carried under seal {transport.seal}.")
        excused = set(transport.missing_boxes.values_list("box__code", flat=True))
        missing = sorted(carried - given - excused)
        if missing:
            raise BoxMissing(
                f"Boxes {', '.join(missing)} were carried under seal {transport.seal} but are not accounted for; "
                "a supervisor signs an exception naming each missing box first."
            )
        signature_add(document=transport, rule=Transport.ACCOUNTED, signer=signer)
        transport.accounted_by, transport.accounted_at, transport.status = (
            actor,
            signer.verified_at,
            TransportStatus.ACCOUNTED,
        )
        transport.save(update_fields=["accounted_by", "accounted_at", "status"])
    return transport
