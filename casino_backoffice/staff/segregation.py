"""Segregation of duties is between people, not roles.

Every signing rule that says 'not the counter', 'not the preparer', 'not the validator' names a
person: one person holding two roles (a floorperson who is also a cage cashier, a security officer
who is also a cashier, finance who is also a cashier) is still one person. Whoever counted,
witnessed, carried, accounted for, verified, validated, prepared or approved money may not sign the
next step of the same money:

- the count, its witness, the custody of the container, its accounting and the cage's verification
  (§637a.15(d)-(e), §637a.16(d)-(e): 'a cashier shall count ... or ... verify the aggregate count' of
  what poker room personnel counted and security carried);
- the Bad Beat claim, its verification by the shift supervisor, finance's distribution and the
  payment of each share (§637a.15(f)-(g));
- the progressive payout's hand, its validation by a floorperson or above and its payment at the
  cage (§655a.11(i)(4)(i)(C)-(D), §657a.11(e)(3)-(4) as amended).

A service names the earlier documents of the money it signs for; ``independent_require`` reads who
signed them (their ``Signature`` rows, and the fields of the documents that name who did a step)
and refuses the same person, naming the step they already took.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q

from .exceptions import SignerNotIndependent
from .models import Signature, User

# What a person did, by the purpose of the signature they gave.
DID_BY_PURPOSE: dict[str, str] = {
    "counter": "counted",
    "witness": "witnessed the count of",
    "custody": "carried",
    "accounted": "accounted for",
    "cashier": "verified at the cage",
    "supervisor": "signed the missing box exception of",
    "explainer": "explained the variance of",
    "corrector": "corrected the official record of",
    "opener": "opened the claim to",
    "verifier": "verified the claim to",
    "preparer": "prepared",
    "approver": "approved",
    "validator": "validated",
    "payer": "paid",
    "recorder": "recorded the hand of",
    "adjuster": "adjusted the display of",
}

# The fields of a document that name who did its step, beside (or, for a step nobody signs, such as
# the dealer's record of a progressive hand, instead of) a signature: the purpose they stand for.
PURPOSE_BY_FIELD: dict[str, str] = {
    "counted_by": "counter",
    "witnessed_by": "witness",
    "carried_by": "custody",
    "accounted_by": "accounted",
    "cashier": "cashier",
    "opened_by": "opener",
    "decided_by": "verifier",
    "prepared_by": "preparer",
    "approved_by": "approver",
    "validated_by": "validator",
    "paid_by": "payer",
    "recorded_by": "recorder",
    "adjusted_by": "adjuster",
    "explained_by": "explainer",
    "corrected_by": "corrector",
}


@dataclass(frozen=True)
class Signed:
    """One person's step on one document: who, what they did, and which document ('count 12')."""

    person_id: int
    purpose: str
    document: str

    @property
    def did(self) -> str:
        return DID_BY_PURPOSE.get(self.purpose, f"signed as {self.purpose}")


def _document_name(document: models.Model) -> str:
    return f"{document._meta.verbose_name} {document.pk}"


def _person_fields(document: models.Model) -> list[tuple[str, str]]:
    names = {field.name for field in document._meta.get_fields() if isinstance(field, models.ForeignKey)}
    return [(name, purpose) for name, purpose in PURPOSE_BY_FIELD.items() if name in names]


def signers_of(*documents: models.Model | None) -> list[Signed]:
    """Everyone who took a step on ``documents``, in the order given: their signatures (one query),
    then the document fields naming who did a step; each step of a person once per document."""
    present = [document for document in documents if document is not None and document.pk is not None]
    if not present:
        return []
    by_key: dict[tuple[int, str], models.Model] = {}
    for document in present:
        by_key[(ContentType.objects.get_for_model(type(document)).pk, str(document.pk))] = document
    wanted = Q()
    for type_id, document_id in by_key:
        wanted |= Q(document_type_id=type_id, document_id=document_id)
    rows = Signature.objects.filter(wanted).order_by("signed_at", "id")
    signed: dict[tuple[int, str], list[tuple[int, str]]] = {}
    for row in rows.values_list("document_type_id", "document_id", "signer_id", "purpose"):
        type_id, document_id, signer_id, purpose = row
        signed.setdefault((type_id, document_id), []).append((signer_id, purpose))
    found: list[Signed] = []
    for key, document in by_key.items():
        steps = list(signed.get(key, []))
        steps += [
            (person_id, purpose)
            for name, purpose in _person_fields(document)
            if (person_id := getattr(document, f"{name}_id", None)) is not None
        ]
        seen: set[tuple[int, str]] = set()
        for person_id, purpose in steps:
            if (person_id, purpose) not in seen:
                seen.add((person_id, purpose))
                found.append(Signed(person_id=person_id, purpose=purpose, document=_document_name(document)))
    return found


def independent_require(
    *,
    person: User,
    step: str,
    earlier: Iterable[models.Model | None],
    section: str,
    purposes: Collection[str] | None = None,
) -> None:
    """Refuse ``person`` the ``step`` (its name, 'cage verification', and the ``section`` that asks
    for it) of money whose ``earlier`` documents they signed or are named on, whatever their roles
    (module docstring); ``purposes``,
    when given, are the only earlier steps that bar them. A signature is never removed; where an
    earlier document may still gain one (a count awaiting its witness), call it under that
    document's lock, inside the signing transaction."""
    for signed in signers_of(*earlier):
        if signed.person_id == person.pk and (purposes is None or signed.purpose in purposes):
            raise SignerNotIndependent(
                f"You {signed.did} this money ({signed.document}): the {step} of the same money is signed by "
                f"someone else ({section})."
            )
