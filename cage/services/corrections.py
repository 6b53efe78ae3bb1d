"""Finance's correction of the official record for a variance it explains after the cage verified.

§637a.15(e), §637a.16(e): 'The finance department shall maintain the official record of the amount
of ... contributions.' A verification is never rewritten: what it made official stays posted, and a
correction is a signed document of its own (``VarianceCorrection``) with one ledger transfer between
the box's official account (its jackpot's fund, or poker revenue) and the account that took the
variance (the cage's over/short for a container's aggregate, the room's variance account for a box).

Which way the correction moves money follows from what the verification made official:

- a container's aggregate against its table counts (``cage_vs_table``): each fund was credited its
  table count; when finance finds the cage's count right, the fund is given the difference (over) or
  gives it back (short), for the box finance names;
- a box counted at the cage, or a table count, against expected (``cage_count``, ``count``): the box's
  count was made official; when finance finds the ledger's expected content right, the official
  account gives back an overage or is given a shortage.

Finance says how much of the variance, at most all of it, was not money in the box.
"""

from __future__ import annotations

from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.money import display_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.services import VerifiedSigner, signature_add

from ..accounts import cage_over_short_account, variance_account
from ..exceptions import CorrectionInvalid, WrongStatus
from ..models import Box, CageVerification, Count, CountStatus, Variance, VarianceCorrection, VarianceKind
from ._common import move, official_account


def correction_post(
    *, variance: Variance, amount_cents: int, box: Box | None, reason: str, actor: User, signer: VerifiedSigner
) -> VarianceCorrection:
    """Post finance's correction of ``amount_cents`` (above zero; with the variance's other corrections,
    at most the variance) for one box of ``variance`` (locked by the caller, inside its transaction),
    and sign it. The same correction signed again (a retry) answers the first; another for the same
    box is refused: a box of a variance is corrected once."""
    count, verification = _corrected(variance=variance, box=box)
    earlier = list(VarianceCorrection.objects.filter(variance=variance).select_related("box"))
    existing = next((correction for correction in earlier if correction.box_id == count.box_id), None)
    if existing is not None:
        if existing.corrected_by_id == actor.pk and abs(existing.official_change_cents) == amount_cents:
            return existing
        raise WrongStatus(
            f"Box {existing.box.code} of variance {variance.pk} was corrected already (correction {existing.pk}, "
            f"{display_cents(existing.official_change_cents)}); a second correction is a ledger reversal of it."
        )
    left = abs(variance.amount_cents) - sum(abs(correction.official_change_cents) for correction in earlier)
    if amount_cents > left:
        raise CorrectionInvalid(
            f"Variance {variance.pk} is {display_cents(abs(variance.amount_cents))}, {display_cents(left)} of it not "
            f"corrected yet: a correction is at most that, not {display_cents(amount_cents)}. Enter the part of the "
            "variance that was not money in the box."
        )
    # The sign of what the official account gains: the table counts were made official for a container
    # (the cage's count was right), the box's own count otherwise (the ledger's expected was right).
    toward_cage = 1 if variance.kind == VarianceKind.CAGE_VS_TABLE else -1
    change = toward_cage * (amount_cents if variance.amount_cents > 0 else -amount_cents)
    correction = VarianceCorrection.objects.create(
        variance=variance,
        room=variance.room,
        gaming_day=verification.gaming_day,
        box=count.box,
        count=count,
        official_change_cents=change,
        reason=reason,
        counted_by=count.counted_by,
        cashier=verification.cashier,
        corrected_by=actor,
        corrected_at=signer.verified_at,
    )
    signature_add(document=correction, rule=VarianceCorrection.CORRECTOR, signer=signer)
    other = (
        cage_over_short_account(room=variance.room)
        if variance.kind == VarianceKind.CAGE_VS_TABLE
        else variance_account(room=variance.room)
    )
    move(
        source=other,
        destination=official_account(box=count.box),
        amount_cents=change,
        kind=TransferKind.ADJUSTMENT,
        key=f"variance-correction:{correction.pk}",
        actor=actor,
        reference=correction,
        memo=f"Variance {variance.pk} corrected for {count.box.code}: {reason}",
    )
    return correction


def _corrected(*, variance: Variance, box: Box | None) -> tuple[Count, CageVerification]:
    """The count whose money the correction puts right, and the verification that made it official."""
    if variance.kind == VarianceKind.CAGE_VS_TABLE:
        verification = variance.verification
        assert verification is not None
        items = list(verification.transport.items.select_related("box", "count__box", "count__counted_by"))
        if box is None and len(items) == 1:
            box = items[0].box
        codes = ", ".join(item.box.code for item in items)
        if box is None:
            raise CorrectionInvalid(
                f"Variance {variance.pk} is of seal {verification.transport.seal}'s aggregate: name the box whose "
                f"count was wrong ({codes})."
            )
        item = next((item for item in items if item.box_id == box.pk), None)
        if item is None or item.count is None:
            raise CorrectionInvalid(
                f"Box {box.code} was not in seal {verification.transport.seal}: name one of {codes}."
            )
        return item.count, verification
    count = variance.count
    assert count is not None and variance.box is not None
    if box is not None and box.pk != variance.box_id:
        raise CorrectionInvalid(f"Variance {variance.pk} is of box {variance.box.code}, not {box.code}.")
    if variance.kind == VarianceKind.CAGE_COUNT:
        assert variance.verification is not None
        return count, variance.verification
    if count.status != CountStatus.VERIFIED:
        raise CorrectionInvalid(
            f"Count {count.pk} of box {count.box.code} is {count.get_status_display().lower()}: its money is not "
            "official yet, so there is no official record to correct. A supervisor recounts a count still at the "
            "table; the cashier's verification decides one on its way."
        )
    return count, count.transport_item.transport.verification
