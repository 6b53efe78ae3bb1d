"""The equipment log and the deck log: each step a signed, insert-only row (see ``models``).

Devices: ``device_failure_record`` (the dealer or floorperson at the table: the device jammed,
stopped or did not complete its cycle, §637a.18(q), §655a.13(e)-(f), §657a.13(e)-(f)),
``device_out_of_order`` (a floorperson or above: it cannot be used, and was covered or signed before
any other method of shuffling or dealing, §637a.18(r), §655a.13(g), §657a.13(g)) and ``device_return``
(a floorperson or above returns it to service). A device out of order neither fails nor is taken out
of order again; only a device out of order is returned. Each write locks the table's row, so two steps
of one table's devices are taken one after the other.

Decks: ``deck_change`` (a deck put into play at a banked table, the dealer's inspection signed),
``deck_verify`` (the floorperson or above verifies it, §655a.4(a), §657a.4(a)) and
``decks_overdue_flag`` (the schedule: a deck in play past its limit, §655a.3(c), §657a.3(c)) and
``decks_missing_flag`` (a banked table open with no deck on the record, §655a.4(a), §657a.4(a)).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add
from casino_backoffice.staff.signing import SigningRule

from ..games import HOUSE_BANKED, Game
from ..models import Table
from ..selectors import gaming_day
from .exceptions import (
    DeckAlreadyVerified,
    DeckError,
    DeckVerifiedByInspector,
    DeviceNotOutOfOrder,
    DeviceOutOfOrder,
    EquipmentError,
)
from .models import (
    DealtFrom,
    DeckChange,
    DeckMissing,
    DeckOverdue,
    DeckVerification,
    Device,
    DeviceEvent,
    DeviceStep,
    Failure,
    Marking,
)
from .selectors import decks_overdue, device_latest, tables_without_deck

# The provision of each step at each chapter's tables: poker (§637a.18) names the shuffler only.
_BANKED_CHAPTER = {Game.MISSISSIPPI_STUD: "§655a.13", Game.CRAZY_4_POKER: "§657a.13"}
_SIGNING: dict[DeviceStep, SigningRule] = {
    DeviceStep.FAILED: DeviceEvent.RECORDER,
    DeviceStep.OUT_OF_ORDER: DeviceEvent.OUT_OF_ORDER_SIGNER,
    DeviceStep.RETURNED: DeviceEvent.RETURNER,
}
_ACTIONS: dict[DeviceStep, Action] = {
    DeviceStep.FAILED: Action.DEVICE_FAILURE_RECORD,
    DeviceStep.OUT_OF_ORDER: Action.DEVICE_OUT_OF_ORDER,
    DeviceStep.RETURNED: Action.DEVICE_RETURN,
}


def device_section(*, game: str, device: str, step: str) -> str:
    """The provision a step of ``device`` records at a table of ``game``."""
    chapter = _BANKED_CHAPTER.get(Game(game))
    if chapter is None:
        return "§637a.18(q)" if step == DeviceStep.FAILED else "§637a.18(r)"
    if step == DeviceStep.FAILED:
        return f"{chapter}({'e' if device == Device.SHUFFLER else 'f'})"
    return f"{chapter}(g)"


def _device_checked(*, table: Table, device: str, description: str, occurred_at: datetime | None) -> tuple:
    if device not in Device.values:
        raise EquipmentError(f"{device!r} is not a device; the devices are {', '.join(Device.values)}.")
    if device == Device.DEALING_SHOE and Game(table.game) not in HOUSE_BANKED:
        raise EquipmentError(
            f"Table {table.number} deals {Game(table.game).label}: the poker rules (§637a.18(q)-(r)) name an "
            "automated card shuffling device, not a dealing shoe."
        )
    description = (description or "").strip()
    if not description:
        raise EquipmentError("Describe what happened: the description stays on the record.")
    now = timezone.now()
    occurred_at = occurred_at or now
    if occurred_at > now:
        raise EquipmentError("A device's step cannot happen in the future.")
    return description, occurred_at


def _state_refusal(*, table: Table, device: str, step: DeviceStep) -> DeviceEvent | None:
    """Refuse a step the device's state does not allow; the out-of-order step a return ends."""
    latest = device_latest(table=table, device=device)
    out = latest is not None and latest.step == DeviceStep.OUT_OF_ORDER
    label = Device(device).label
    if step != DeviceStep.RETURNED and out:
        assert latest is not None
        raise DeviceOutOfOrder(
            f"The {label.lower()} of table {table.number} is out of order since "
            f"{local_text(latest.occurred_at, table.room, ZONED)} ({latest.recorded_by}); return it to service first. "
            "Nothing was recorded."
        )
    if step == DeviceStep.RETURNED and not out:
        raise DeviceNotOutOfOrder(
            f"The {label.lower()} of table {table.number} is not out of order: there is nothing to return to "
            "service. Nothing was recorded."
        )
    return latest if step == DeviceStep.RETURNED else None


def device_failure_record(
    *,
    table: Table,
    device: str,
    failure: str,
    description: str,
    actor: User,
    pin: str,
    idempotency_key: str,
    serial_number: str = "",
    occurred_at: datetime | None = None,
) -> DeviceEvent:
    """The dealer or floorperson at the table records a device that jammed, stopped or did not complete
    its cycle, and signs: the cards are reshuffled (§637a.18(q), §655a.13(e), §657a.13(e)); a dealing
    shoe's round is void and its wagers returned (§655a.13(f), §657a.13(f))."""
    if failure not in Failure.values:
        raise EquipmentError(f"Say how the device failed: one of {', '.join(Failure.values)}.")
    return _device_step(
        table=table,
        device=device,
        step=DeviceStep.FAILED,
        description=description,
        actor=actor,
        pin=pin,
        idempotency_key=idempotency_key,
        failure=failure,
        serial_number=serial_number,
        occurred_at=occurred_at,
    )


def device_out_of_order(
    *,
    table: Table,
    device: str,
    marking: str,
    description: str,
    actor: User,
    pin: str,
    idempotency_key: str,
    serial_number: str = "",
    occurred_at: datetime | None = None,
) -> DeviceEvent:
    """A floorperson or above takes a device that cannot be used out of order, covered or signed, and
    signs (§637a.18(r), §655a.13(g), §657a.13(g))."""
    if marking not in Marking.values:
        raise EquipmentError(
            "Say how the device is shown out of order (§637a.18(r): 'covered or have a sign ... placed on the "
            f"device'): one of {', '.join(Marking.values)}."
        )
    return _device_step(
        table=table,
        device=device,
        step=DeviceStep.OUT_OF_ORDER,
        description=description,
        actor=actor,
        pin=pin,
        idempotency_key=idempotency_key,
        marking=marking,
        serial_number=serial_number,
        occurred_at=occurred_at,
    )


def device_return(
    *,
    table: Table,
    device: str,
    description: str,
    actor: User,
    pin: str,
    idempotency_key: str,
    serial_number: str = "",
    occurred_at: datetime | None = None,
) -> DeviceEvent:
    """A floorperson or above returns a device out of order to service, and signs (a house control)."""
    return _device_step(
        table=table,
        device=device,
        step=DeviceStep.RETURNED,
        description=description,
        actor=actor,
        pin=pin,
        idempotency_key=idempotency_key,
        serial_number=serial_number,
        occurred_at=occurred_at,
    )


def _device_step(
    *,
    table: Table,
    device: str,
    step: DeviceStep,
    description: str,
    actor: User,
    pin: str,
    idempotency_key: str,
    failure: str = "",
    marking: str = "",
    serial_number: str = "",
    occurred_at: datetime | None = None,
) -> DeviceEvent:
    action_require(actor=actor, action=_ACTIONS[step], of=table)
    asked = occurred_at
    description, occurred_at = _device_checked(
        table=table, device=device, description=description, occurred_at=occurred_at
    )
    serial_number = (serial_number or "").strip()[:60]
    fingerprint = request_fingerprint(
        {
            "table": table.pk,
            "device": device,
            "step": step,
            "failure": failure,
            "marking": marking,
            "serial_number": serial_number,
            "description": description,
            "occurred_at": asked,
        }
    )
    once = DocumentOnce(model=DeviceEvent, idempotency_key=idempotency_key, fingerprint=fingerprint)

    def write() -> DeviceEvent:
        _state_refusal(table=table, device=device, step=step)  # before the PIN: a refusal counts no wrong PIN
        signer = pin_check(user=actor, pin=pin)
        with transaction.atomic(durable=True):
            locked = Table.objects.select_for_update(of=("self",)).select_related("room").get(pk=table.pk)
            once.replay_under_lock()
            ends = _state_refusal(table=locked, device=device, step=step)
            event = DeviceEvent.objects.create(
                room=locked.room,
                table=locked,
                gaming_day=gaming_day(room=locked.room, at=occurred_at),
                device=device,
                serial_number=serial_number,
                step=step,
                section=ends.section
                if ends is not None
                else device_section(game=locked.game, device=device, step=step),
                failure=failure,
                marking=marking,
                ends=ends,
                occurred_at=occurred_at,
                description=description,
                recorded_by=signer.user,
                recorded_at=signer.verified_at,
                idempotency_key=once.idempotency_key,
                request_sha256=once.fingerprint,
            )
            signature_add(document=event, rule=_SIGNING[step], signer=signer)
        return event

    return once.record(write)


# --- Decks ----------------------------------------------------------------------------------------


def deck_change(
    *,
    table: Table,
    dealt_from: str,
    actor: User,
    pin: str,
    idempotency_key: str,
    decks: int = 1,
    preinspected: bool = False,
    note: str = "",
    changed_at: datetime | None = None,
) -> DeckChange:
    """The dealer puts a deck into play at a banked table, having inspected it for defects, and signs
    (§655a.4(a), §657a.4(a)); a floorperson or above verifies the inspection (``deck_verify``). One deck,
    or two with a shuffler (§655a.3(a)-(b)): two are refused while the table's shuffler is out of order.
    The deck is changed at least every 4 hours dealt by hand, 8 hours from a shoe (§655a.3(c))."""
    action_require(actor=actor, action=Action.DECK_INSPECT, of=table)
    if Game(table.game) not in HOUSE_BANKED:
        raise DeckError(
            f"Table {table.number} deals {Game(table.game).label}: the deck log is the banked tables' "
            "(Mississippi Stud, §655a.3(c); Crazy 4 Poker, §657a.3(c))."
        )
    if dealt_from not in DealtFrom.values:
        raise DeckError(f"Say how the cards are dealt: one of {', '.join(DealtFrom.values)} (§655a.3(c)).")
    if decks not in (1, 2):
        raise DeckError("A banked table plays one deck, or two with a shuffler (§655a.3(a)-(b), §657a.3(a)-(b)).")
    now = timezone.now()
    if changed_at is not None and changed_at > now:
        raise DeckError("A deck cannot be put into play in the future.")
    note = (note or "").strip()
    fingerprint = request_fingerprint(
        {
            "table": table.pk,
            "dealt_from": dealt_from,
            "decks": decks,
            "preinspected": preinspected,
            "note": note,
            "changed_at": changed_at,
        }
    )
    once = DocumentOnce(model=DeckChange, idempotency_key=idempotency_key, fingerprint=fingerprint)

    def write() -> DeckChange:
        signer = pin_check(user=actor, pin=pin)
        with transaction.atomic(durable=True):
            locked = Table.objects.select_for_update(of=("self",)).select_related("room").get(pk=table.pk)
            once.replay_under_lock()
            shuffler = device_latest(table=locked, device=Device.SHUFFLER)
            if decks == 2 and shuffler is not None and shuffler.step == DeviceStep.OUT_OF_ORDER:
                raise DeckError(
                    f"Two decks are played only with a shuffler (§655a.3(b)); the shuffler of table {locked.number} "
                    "is out of order. Nothing was recorded."
                )
            at = changed_at or signer.verified_at
            deck = DeckChange.objects.create(
                room=locked.room,
                table=locked,
                gaming_day=gaming_day(room=locked.room, at=at),
                changed_at=at,
                dealt_from=dealt_from,
                decks=decks,
                preinspected=preinspected,
                inspected_by=signer.user,
                inspected_at=signer.verified_at,
                note=note,
                idempotency_key=once.idempotency_key,
                request_sha256=once.fingerprint,
            )
            signature_add(document=deck, rule=DeckChange.INSPECTOR, signer=signer)
        return deck

    return once.record(write)


def _verify_refusal(deck: DeckChange, *, actor: User) -> None:
    if deck.preinspected:
        raise DeckError(
            f"Deck {deck.pk} was received preinspected and preshuffled: §655a.4(a)-(d) do not apply (§655a.4(e)). "
            "Nothing was recorded."
        )
    if actor.pk == deck.inspected_by_id:
        raise DeckVerifiedByInspector(
            f"{actor} inspected deck {deck.pk} and cannot verify their own inspection: the floorperson assigned "
            "to the table does (§655a.4(a)). Nothing was recorded."
        )
    done = DeckVerification.objects.filter(deck_id=deck.pk).select_related("verified_by").first()
    if done is not None:
        raise DeckAlreadyVerified(
            f"Deck {deck.pk} was verified by {done.verified_by} at {local_text(done.verified_at, deck.room, ZONED)}. "
            "Nothing was recorded."
        )


def deck_verify(*, deck: DeckChange, actor: User, pin: str, idempotency_key: str) -> DeckVerification:
    """The floorperson or above verifies the dealer's inspection of a deck and signs (§655a.4(a),
    §657a.4(a): 'The floorperson assigned to the table shall verify the inspection'): never the
    inspector, once, and not for decks received preinspected (§655a.4(e))."""
    action_require(actor=actor, action=Action.DECK_VERIFY, of=deck)
    once = DocumentOnce(
        model=DeckVerification, idempotency_key=idempotency_key, fingerprint=request_fingerprint({"deck": deck.pk})
    )

    def write() -> DeckVerification:
        _verify_refusal(deck, actor=actor)  # before the PIN
        signer = pin_check(user=actor, pin=pin)
        with transaction.atomic(durable=True):
            locked = DeckChange.objects.select_for_update(of=("self",)).select_related("room").get(pk=deck.pk)
            once.replay_under_lock()
            _verify_refusal(locked, actor=actor)
            verification = DeckVerification.objects.create(
                deck=locked,
                inspected_by_id=locked.inspected_by_id,
                verified_by=signer.user,
                verified_at=signer.verified_at,
                idempotency_key=once.idempotency_key,
                request_sha256=once.fingerprint,
            )
            signature_add(document=verification, rule=DeckVerification.VERIFIER, signer=signer)
        return verification

    return once.record(write)


def decks_overdue_flag(*, at: datetime | None = None) -> list[DeckOverdue]:
    """Flag each deck in play at an open banked table past its limit at ``at`` (now by default;
    ``selectors.decks_overdue``, §655a.3(c), §657a.3(c)). The schedule calls it every minute. One flag
    per deck (a unique key): running it again, late or twice, flags nothing new."""
    at = at or timezone.now()
    overdue = decks_overdue(at=at)
    if not overdue:
        return []
    already = set(DeckOverdue.objects.filter(deck__in=overdue).values_list("deck_id", flat=True))
    new = [
        DeckOverdue(deck=deck, table_id=deck.table_id, due_by=deck.due_by, flagged_at=at)
        for deck in overdue
        if deck.pk not in already
    ]
    with transaction.atomic():
        DeckOverdue.objects.bulk_create(new, ignore_conflicts=True)
    return new


def decks_missing_flag(*, at: datetime | None = None) -> list[DeckMissing]:
    """Flag each banked table open with no deck on the record ``DECK_FIRST_WITHIN`` after it opened
    (``selectors.tables_without_deck``; §655a.4(a), §657a.4(a)). The schedule calls it with
    ``decks_overdue_flag``. One flag per opening (a unique key): running it again flags nothing new."""
    at = at or timezone.now()
    missing = tables_without_deck(at=at)
    if not missing:
        return []
    already = set(
        DeckMissing.objects.filter(table__in=[row.table for row in missing]).values_list("table_id", "opened_at")
    )
    new = [
        DeckMissing(room_id=row.table.room_id, table=row.table, opened_at=row.opened_at, flagged_at=at)
        for row in missing
        if (row.table.pk, row.opened_at) not in already
    ]
    with transaction.atomic():
        DeckMissing.objects.bulk_create(new, ignore_conflicts=True)
    return new
