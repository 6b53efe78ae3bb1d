"""The earlier documents of the same money, for segregation of duties between people
(``casino_backoffice.staff.segregation``): whoever counted, witnessed, carried, accounted for or
verified a box's money at the cage signs no later step of it (§637a.15(d)-(e), §637a.16(d)-(e))."""

from __future__ import annotations

from django.db import models

from ..models import CageVerification, Count, MissingBox, Transport, TransportItem


def counts_superseded(count: Count) -> list[Count]:
    """The counts of the same box content that ``count`` (a recount) superseded, newest first: their
    counters and witnesses counted the same money."""
    found: list[Count] = []
    current = count
    while current.supersedes_id is not None:
        current = Count.objects.get(pk=current.supersedes_id)
        found.append(current)
    return found


def transport_documents(transport: Transport, *, missing_boxes: bool = True) -> list[models.Model]:
    """A transport, the table counts it carried (with the counts they superseded) and, with
    ``missing_boxes``, the exceptions for boxes missing from it: who excused a missing box neither
    accounts for the others nor counts them (§637a.15(d)(2))."""
    counts = list(Count.objects.filter(transport_item__transport=transport).order_by("pk"))
    missing = list(MissingBox.objects.filter(transport=transport).order_by("pk")) if missing_boxes else []
    return [transport, *counts, *(old for count in counts for old in counts_superseded(count)), *missing]


def money_documents(*, count: Count | None = None, verification: CageVerification | None = None) -> list[models.Model]:
    """Every signed document of the money of a count or a cage verification: the counts, the
    transport that carried them and the verification that made them official."""
    transport: Transport | None = verification.transport if verification is not None else None
    if transport is None and count is not None:
        item = TransportItem.objects.filter(count=count).select_related("transport").first()
        transport = item.transport if item is not None else None
    if transport is not None and verification is None:
        verification = CageVerification.objects.filter(transport=transport).first()
    documents: list[models.Model] = []
    if count is not None:
        documents += [count, *counts_superseded(count)]
    if transport is not None:
        # The supervisor who excused a missing box may explain the variance its absence made: the
        # exception is what the explanation rests on, not a step of the money counted.
        documents += transport_documents(transport, missing_boxes=False)
    if verification is not None:
        documents.append(verification)
    return documents
