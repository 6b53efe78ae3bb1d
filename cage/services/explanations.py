"""Explanations of variances: a shift supervisor or finance says why a count differs and signs
(§637a.15(e), §637a.16(e): the finance department's official record); a verification whose variances
are all explained is verified. Whoever counted, witnessed, carried, accounted for or verified the money
of a variance neither explains nor corrects it (``staff.segregation``)."""

from __future__ import annotations

from django.db import transaction

from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.segregation import independent_require
from casino_backoffice.staff.services import VerifiedSigner, pin_check, signature_add

from ..exceptions import CageError, CorrectionInvalid, WrongStatus
from ..models import Box, CageVerification, Variance, VerificationStatus
from .corrections import correction_post
from .segregation import money_documents


def variance_explain(
    *,
    variance: Variance,
    reason: str,
    actor: User,
    pin: str,
    correction_cents: int | None = None,
    box: Box | None = None,
) -> Variance:
    """A shift supervisor or finance explains a variance and signs; a verification whose variances
    are all explained is verified.

    With ``correction_cents``, finance corrects the official record too (§637a.15(e), §637a.16(e)):
    that much of the variance was not money in the box (``box``: which box of a container), posted by
    a signed ledger transfer (``corrections.correction_post``); the verification is not rewritten. A
    variance already explained may be corrected by finance, with its own reason. Whoever counted,
    witnessed, carried, accounted for or verified the money of the variance neither explains nor
    corrects it, whatever roles they hold (``staff.segregation``)."""
    if correction_cents is not None:
        # Finance corrects (and explains): the narrower action is asked first, so its rule is the refusal.
        action_require(actor=actor, action=Action.VARIANCE_CORRECT, of=variance)
    action_require(actor=actor, action=Action.VARIANCE_EXPLAIN, of=variance)
    if correction_cents is not None:
        if isinstance(correction_cents, bool) or not isinstance(correction_cents, int) or correction_cents <= 0:
            raise CorrectionInvalid(
                f"A correction is the part of the variance that was not money in the box, more than 0.00, "
                f"not {correction_cents!r}."
            )
    reason = reason.strip()
    if not reason:
        raise CageError("Say why the count differs.")
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        variance = (
            Variance.objects.select_for_update(of=("self",))
            .select_related("room", "count", "verification__transport", "verification__cashier", "explained_by")
            .get(pk=variance.pk)
        )
        if variance.superseded:
            assert variance.count is not None
            raise WrongStatus(
                f"Variance {variance.pk} is of count {variance.count.pk}, which a recount superseded: the recount "
                "stands instead, and any variance of it is the one to explain."
            )
        independent_require(
            person=actor,
            step="explanation of the variance" if correction_cents is None else "correction of the official record",
            earlier=money_documents(count=variance.count, verification=variance.verification),
            section="§637a.15(e)",
        )
        if correction_cents is None or variance.explained_at is None:
            _explain(variance=variance, reason=reason, actor=actor, signer=signer)
        if correction_cents is not None:
            correction_post(
                variance=variance, amount_cents=correction_cents, box=box, reason=reason, actor=actor, signer=signer
            )
    return variance


def verification_explain(*, verification: CageVerification, reason: str, actor: User, pin: str) -> CageVerification:
    """Explain every variance of a verification that awaits an explanation, with one signature each."""
    action_require(actor=actor, action=Action.VARIANCE_EXPLAIN, of=verification)
    reason = reason.strip()
    if not reason:
        raise CageError("Say why the count differs.")
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        verification = CageVerification.objects.select_for_update(of=("self",)).get(pk=verification.pk)
        pending = list(
            Variance.objects.select_for_update(of=("self",))
            .filter(verification=verification, needs_explanation=True, explained_at__isnull=True)
            .order_by("pk")
        )
        if not pending:
            explained = Variance.objects.filter(verification=verification, needs_explanation=True)
            if explained.exists() and not explained.exclude(explained_by=actor, explanation=reason).exists():
                return verification  # the same explanation signed again (a retry): the first answer
            raise WrongStatus(f"Verification {verification.pk} has no variance awaiting an explanation.")
        independent_require(
            person=actor,
            step="explanation of the variance",
            earlier=money_documents(verification=verification),
            section="§637a.15(e)",
        )
        for variance in pending:
            _explain(variance=variance, reason=reason, actor=actor, signer=signer)
        verification.refresh_from_db(fields=["status"])
    return verification


def _explain(*, variance: Variance, reason: str, actor: User, signer: VerifiedSigner) -> None:
    if variance.explained_at is not None:
        if variance.explained_by_id == actor.pk and variance.explanation == reason:
            return  # the same explanation signed again (a retry): the first answer
        raise WrongStatus(f"Variance {variance.pk} was explained by {variance.explained_by} already.")
    variance.explanation, variance.explained_by, variance.explained_at = reason, actor, signer.verified_at
    variance.save(update_fields=["explanation", "explained_by", "explained_at"])
    signature_add(document=variance, rule=Variance.EXPLAINER, signer=signer)
    verification_id = variance.verification_id
    if (
        verification_id is not None
        and not Variance.objects.filter(
            verification_id=verification_id, needs_explanation=True, explained_at__isnull=True
        ).exists()
    ):
        verification = CageVerification.objects.select_for_update().get(pk=verification_id)
        verification.status = VerificationStatus.VERIFIED
        verification.save(update_fields=["status"])
