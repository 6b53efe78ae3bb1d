"""A recount: a count found wrong before the cage verifies it is superseded by a new count of the same
box content.

§637a.15(d)(1), §637a.16(d)(1): 'Documentation of the count shall be prepared and signed by both the
dealer and the floorperson or above who witnessed the count.' A house control corrects that
documentation while the contents are still at the table: the counter's supervisor (a poker shift
supervisor or above, never the counter) recounts the box content and signs the recount with the
reason; a floorperson or above who is not the recounter witnesses it, with the surveillance recording
reference, as every table count is (``count_witness``). Nothing is rewritten: the superseded count
keeps its signatures and moves to ``superseded``; the recount takes its sheet and period, and what
it counted is what the container declares and the cage expects. A count already carried to the cage
or verified there is not recounted: the cashier's count decides, and finance corrects the official
record for a variance it explains (``variance_explain`` with a correction).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.money import display_cents, format_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.segregation import independent_require
from casino_backoffice.staff.services import pin_check, signature_add
from tables.locks import gaming_day_hold_open

from ..accounts import custody_account, variance_account
from ..exceptions import CageError, CountNotRecountable
from ..models import RECOUNTABLE, Count, CountPlace, CountStatus, VarianceKind
from ._common import move
from .counts import _variance_record, denominations_check
from .segregation import counts_superseded


def count_recount(
    *,
    count: Count,
    counted_cents: int,
    reason: str,
    actor: User,
    pin: str,
    idempotency_key: str,
    denominations: dict[str, int] | None = None,
) -> Count:
    """A poker shift supervisor or above who is not the counter recounts a box whose count is still
    at the table and signs the recount with the reason; the recount supersedes the count (house
    control on §637a.15(d)(1), §637a.16(d)(1)). Not the counter nor the witness of the count, nor of
    any count it superseded, whatever roles they hold (``staff.segregation``). Custody takes the
    difference from the room's variance account, so it holds what the recount counted; the recount
    awaits its witness."""
    action_require(actor=actor, action=Action.COUNT_RECOUNT, of=count)
    if isinstance(counted_cents, bool) or not isinstance(counted_cents, int) or counted_cents < 0:
        raise CageError(f"A recount is zero or more whole cents, not {counted_cents!r}.")
    reason = reason.strip()
    if not reason:
        raise CageError("Say why the count is recounted: what was wrong with it (such as 'typed $79.00 for $7.90').")
    denominations = denominations or {}
    denominations_check(denominations=denominations, counted_cents=counted_cents)
    fingerprint = request_fingerprint(
        {
            "supersedes": count.pk,
            "counted_cents": counted_cents,
            "reason": reason,
            "denominations": denominations,
            "by": actor.pk,
        }
    )
    once = DocumentOnce(model=Count, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _recount_write(
            once,
            count=count,
            counted_cents=counted_cents,
            reason=reason,
            denominations=denominations,
            actor=actor,
            pin=pin,
        )
    )


def _recount_write(
    once: DocumentOnce[Count],
    *,
    count: Count,
    counted_cents: int,
    reason: str,
    denominations: dict[str, int],
    actor: User,
    pin: str,
) -> Count:
    """The recount's rule, once its key is new (``count_recount``)."""
    signer = pin_check(user=actor, pin=pin)
    now = timezone.now()
    with transaction.atomic(durable=True):
        # A closed gaming day stays closed (§637a.17): a recount of its count is refused, and the day
        # is held open until the recount commits, as a count is.
        gaming_day_hold_open(room=count.box.room, day=count.gaming_day, what=f"Recount of count {count.pk}")
        old = (
            Count.objects.select_for_update(of=("self",))
            .select_related("box__room", "box__table", "counted_by")
            .get(pk=count.pk)
        )
        _recountable(old)
        independent_require(
            person=actor, step="recount", earlier=[old, *counts_superseded(old)], section="§637a.15(d)(1)"
        )
        if counted_cents == old.counted_cents:
            raise CageError(
                f"The recount is what count {old.pk} says, {display_cents(counted_cents)}: there is nothing "
                "to correct. Enter what the box held, or leave the count as it is."
            )
        old.status = CountStatus.SUPERSEDED  # first, so the sheet's one current count is the recount
        old.save(update_fields=["status"])
        recount = Count.objects.create(
            box=old.box,
            sheet_id=old.sheet_id,
            period_id=old.period_id,
            supersedes=old,
            recount_reason=reason,
            place=CountPlace.TABLE,
            gaming_day=old.gaming_day,
            counted_cents=counted_cents,
            expected_cents=old.expected_cents,
            denominations=denominations,
            notice_id=old.notice_id,
            counted_by=actor,
            counted_at=now,
            status=CountStatus.COUNTED,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        signature_add(document=recount, rule=Count.RECOUNTER, signer=signer)
        # Custody holds what the superseded count counted: it takes (or gives back) the difference.
        move(
            source=variance_account(room=old.box.room),
            destination=custody_account(room=old.box.room),
            amount_cents=counted_cents - old.counted_cents,
            kind=TransferKind.VARIANCE,
            key=f"recount:{recount.pk}:variance",
            actor=actor,
            reference=recount,
            memo=f"Recount {recount.pk} of {old.box.code} supersedes count {old.pk}: "
            f"{format_cents(counted_cents)}, not {format_cents(old.counted_cents)} ({reason})",
        )
        if recount.variance_cents:
            _variance_record(count=recount, kind=VarianceKind.COUNT, found_at=now, actor=actor)
    return recount


def _recountable(count: Count) -> None:
    """Refuse a count that is no longer at the table, saying where it is and what corrects it instead."""
    if count.status in RECOUNTABLE and count.place == CountPlace.TABLE:
        return
    box = count.box.code
    if count.status == CountStatus.SUPERSEDED:
        recount = Count.objects.filter(supersedes=count).values_list("pk", flat=True).first()
        raise CountNotRecountable(
            f"Count {count.pk} of box {box} was superseded by recount {recount} already: recount {recount} instead."
        )
    if count.status == CountStatus.IN_TRANSIT:
        raise CountNotRecountable(
            f"Count {count.pk} of box {box} is in a locked container on its way to the cage: it is not recounted. "
            "The cashier verifies the container's aggregate; a difference is explained, and corrected, by finance."
        )
    raise CountNotRecountable(
        f"Count {count.pk} of box {box} was verified at the cage: it is not recounted. A variance is explained, "
        "and the official record corrected, by finance."
    )
