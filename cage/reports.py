"""Reads of the cage for reports: what the cage made official as poker revenue, and the count sheets
with every signature on them (for their PDF)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db.models import CharField, F, OuterRef, Q, Subquery, Sum, Value, prefetch_related_objects
from django.db.models.functions import Cast, Coalesce, Concat

from casino_backoffice.core.natural import natural_key
from casino_backoffice.ledger.models import Transfer, TransferKind
from casino_backoffice.staff.selectors import SignatureLine, signature_lines
from tables.models import PokerRoom

from .models import (
    BoxKind,
    CageVerification,
    ComplianceNotice,
    Count,
    CountPlace,
    CountSheet,
    CountStatus,
    MissingBox,
    Transport,
    TransportItem,
    Variance,
    VarianceCorrection,
)


def revenue_counted(
    *,
    room: PokerRoom,
    date_from: date | None = None,
    date_to: date | None = None,
    table_number: str | None = None,
) -> dict[tuple[str, date], int]:
    """What cage verifications made official as poker revenue (§637a.15(e)), in cents by (table
    number, gaming day of the verification), from the ledger: each drop box's verification transfer
    into the room's revenue, less its reversal if the ledger reversed it, plus or minus finance's
    corrections of it (``VarianceCorrection``).

    The poker revenue report (``rake.selectors.poker_revenue``) reads it through the setting
    ``POKER_REVENUE_COUNTED``. Two queries: one row per drop box verified, one per table and day corrected."""
    # A verification moves each box's official money under the key "verification:<id>:<box code>".
    key = Concat(
        Value("verification:"),
        Cast("transport__verification__id", CharField()),
        Value(":"),
        F("box__code"),
        output_field=CharField(),
    )
    official = (
        Transfer.objects.filter(idempotency_key=OuterRef("key"), kind=TransferKind.VERIFICATION)
        .annotate(net=F("amount_cents") - Coalesce(F("reversed_by__amount_cents"), Value(0)))
        .values("net")[:1]
    )
    items = TransportItem.objects.filter(box__room=room, box__kind=BoxKind.RAKE, transport__verification__isnull=False)
    if date_from is not None:
        items = items.filter(transport__verification__gaming_day__gte=date_from)
    if date_to is not None:
        items = items.filter(transport__verification__gaming_day__lte=date_to)
    if table_number:
        items = items.filter(box__table__number=table_number)
    counted: dict[tuple[str, date], int] = defaultdict(int)
    rows = (
        items.annotate(key=key)
        .annotate(official=Subquery(official))
        .values_list("box__table__number", "transport__verification__gaming_day", "official")
    )
    for number, day, cents in rows:
        counted[(number, day)] += int(cents or 0)
    # Finance's corrections of the official record for a drop box (``VarianceCorrection``), by the
    # gaming day of the verification they correct.
    corrections = VarianceCorrection.objects.filter(box__room=room, box__kind=BoxKind.RAKE)
    if date_from is not None:
        corrections = corrections.filter(gaming_day__gte=date_from)
    if date_to is not None:
        corrections = corrections.filter(gaming_day__lte=date_to)
    if table_number:
        corrections = corrections.filter(box__table__number=table_number)
    for number, day, cents in corrections.values_list("box__table__number", "gaming_day").annotate(
        total=Sum("official_change_cents")
    ):
        counted[(number, day)] += int(cents)
    return dict(counted)


# --- Count sheets with their signatures (the PDF) -------------------------------------------------


@dataclass
class SheetDocument:
    """One count sheet, or a count without a sheet, with every signed step of its box's count."""

    box_code: str
    table: str
    box_kind: str
    jackpot: str
    sheet: CountSheet | None
    count: Count | None
    notice: ComplianceNotice | None = None
    transport: Transport | None = None
    missing: MissingBox | None = None
    verification: CageVerification | None = None
    variances: list[Variance] = field(default_factory=list)
    # Counts a recount superseded before the cage verified (oldest first), with their variances: kept
    # on the sheet, struck through.
    superseded: list[Count] = field(default_factory=list)
    superseded_variances: list[Variance] = field(default_factory=list)
    corrections: list[VarianceCorrection] = field(default_factory=list)
    signatures: list[tuple[str, SignatureLine]] = field(default_factory=list)  # (step, signature)

    def steps(self) -> list[tuple[str, Any]]:
        """The signed documents of the count, in the order they happen."""
        found = [
            ("Notice to compliance", self.notice),
            *((f"Count {count.pk}, superseded", count) for count in self.superseded),
            ("Recount" if self.count is not None and self.count.supersedes_id else "Count", self.count),
            ("Custody", self.transport),
            ("Missing box", self.missing),
            ("Cage verification", self.verification),
            *(("Variance", variance) for variance in self.variances),
            *(("Correction of the official record", correction) for correction in self.corrections),
        ]
        return [(step, document) for step, document in found if document is not None]


def _verification_of_cage_count(count: Count) -> int | None:
    # A count at the cage is made by the verification, under the key "verification:<id>:<box code>".
    parts = count.idempotency_key.split(":")
    return int(parts[1]) if count.place == CountPlace.CAGE and len(parts) == 3 and parts[1].isdigit() else None


def _superseded_attach(documents: list[SheetDocument], *, related: tuple[str, ...]) -> None:
    """Each document's counts that recounts superseded, oldest first: one query per recount of a
    recount (a chain is rarely longer than one)."""
    current = {d.count.supersedes_id: d for d in documents if d.count is not None and d.count.supersedes_id}
    while current:
        older = Count.objects.filter(pk__in=list(current)).select_related(*related)
        following: dict[int, SheetDocument] = {}
        for count in older:
            document = current[count.pk]
            document.superseded.insert(0, count)
            if count.supersedes_id:
                following[count.supersedes_id] = document
        current = following


def count_sheets_document(*, sheets: list[CountSheet], counts: Sequence[Count] = ()) -> list[SheetDocument]:
    """The count sheets (and counts without a sheet) with each step of their count: the notice to
    compliance, the count, the witness, custody, the accounting at the cage, a missing-box exception,
    the cage's verification and the variances, each with its signatures (name, role, Board credential
    number, time, hash of what was signed). A fixed number of queries, whatever the number of sheets.
    The documents come by gaming day, then box in natural order (T1, T2, ..., T10), as a cashier
    files them."""
    prefetch_related_objects(sheets, "period")
    related = (
        "box__table",
        "box__jackpot",
        "notice",
        "counted_by",
        "witnessed_by",
        "transport_item__transport__verification",
    )
    documents = _documents_of(sheets, counts, related=related)
    _superseded_attach(documents, related=related)
    _custody_attach(documents)
    _variances_attach(documents)
    _signatures_attach(documents)
    return sorted(documents, key=filed_order)


def filed_order(document: SheetDocument) -> tuple[Any, ...]:
    """A count sheet's place in its PDF: gaming day, box in natural order, sheet, count."""
    sheet, count = document.sheet, document.count
    day = sheet.gaming_day if sheet is not None else count.gaming_day  # type: ignore[union-attr]
    return (day, natural_key(document.box_code), sheet.key if sheet is not None else "", count.pk if count else 0)


@dataclass
class FundSummary:
    """A count-sheet PDF's first page, one line per fund (or box kind): how many sheets, how many
    counted, and the counted, expected and variance totals of the counts that stand (a count a recount
    superseded is left out, as it is of the official record)."""

    name: str
    sheets: int = 0
    counted: int = 0
    recounted: int = 0
    counted_cents: int = 0
    expected_cents: int = 0
    variance_cents: int = 0

    @property
    def not_counted(self) -> int:
        return self.sheets - self.counted


def count_sheets_summary(documents: Sequence[SheetDocument]) -> list[FundSummary]:
    """The documents summed up by fund (a drop box by its kind), in the order they first appear, then
    a line "All funds"."""
    lines: dict[str, FundSummary] = {}
    everything = FundSummary("All funds")
    for document in documents:
        line = lines.setdefault(
            document.jackpot or document.box_kind, FundSummary(document.jackpot or document.box_kind)
        )
        for summary in (line, everything):
            summary.sheets += 1
            if document.count is not None:
                summary.counted += 1
                summary.recounted += bool(document.superseded)
                summary.counted_cents += document.count.counted_cents
                summary.expected_cents += document.count.expected_cents
                summary.variance_cents += document.count.variance_cents
    return [*lines.values(), everything]


def _documents_of(
    sheets: list[CountSheet], counts: Sequence[Count], *, related: tuple[str, ...]
) -> list[SheetDocument]:
    """One document per sheet with its current count, then one per count without a sheet."""
    # Each sheet's one current count; those recounts superseded are attached after, struck through.
    current = Count.objects.filter(sheet__in=sheets).exclude(status=CountStatus.SUPERSEDED).select_related(*related)
    counted: dict[int | None, Count] = {count.sheet_id: count for count in current}
    documents: list[SheetDocument] = []
    pairs: list[tuple[CountSheet | None, Count | None]] = [(sheet, counted.get(sheet.pk)) for sheet in sheets]
    pairs += [(None, c) for c in counts if c.sheet_id is None and c.status != CountStatus.SUPERSEDED]
    for sheet, count in pairs:
        box = sheet.box if sheet is not None else count.box  # type: ignore[union-attr]
        documents.append(
            SheetDocument(
                box_code=box.code,
                table=box.table.number,
                box_kind=box.get_kind_display(),
                jackpot=box.jackpot.name if box.jackpot else "",
                sheet=sheet,
                count=count,
            )
        )
    return documents


def _custody_attach(documents: list[SheetDocument]) -> None:
    """Each count's notice, the transport that carried its box and the cage's verification: through the
    transport, or for a count made at the cage, the verification that made it."""
    at_cage = {d.count.pk: _verification_of_cage_count(d.count) for d in documents if d.count is not None}
    cage_verifications = CageVerification.objects.filter(pk__in={pk for pk in at_cage.values() if pk}).select_related(
        "transport"
    )
    verifications = {verification.pk: verification for verification in cage_verifications}
    for document in documents:
        if document.count is None:
            continue
        document.notice = document.count.notice
        item = getattr(document.count, "transport_item", None)
        if item is not None:
            document.transport = item.transport
            document.verification = getattr(item.transport, "verification", None)
        elif (verification := verifications.get(at_cage[document.count.pk] or 0)) is not None:
            document.verification, document.transport = verification, verification.transport


def _variances_attach(documents: list[SheetDocument]) -> None:
    """Each document's missing-box exception, its variances (of the count, and of the container when the
    cage verified it as one), those of the counts a recount superseded, and the corrections."""
    transport_ids = {d.transport.pk for d in documents if d.transport is not None}
    missing = {
        (m.transport_id, m.box.code): m
        for m in MissingBox.objects.filter(transport_id__in=transport_ids).select_related("box")
    }
    count_ids = [d.count.pk for d in documents if d.count is not None]
    count_ids += [old.pk for d in documents for old in d.superseded]
    verification_ids = [d.verification.pk for d in documents if d.verification is not None]
    of_count: dict[int, list[Variance]] = defaultdict(list)
    of_container: dict[int, list[Variance]] = defaultdict(list)
    for variance in Variance.objects.filter(
        Q(count_id__in=count_ids) | Q(verification_id__in=verification_ids, count__isnull=True)
    ).select_related("count"):
        if variance.count_id is not None:
            of_count[variance.count_id].append(variance)
        elif variance.verification_id is not None:
            of_container[variance.verification_id].append(variance)
    for document in documents:
        if document.transport is not None:
            document.missing = missing.get((document.transport.pk, document.box_code))
        if document.count is not None:
            document.variances = list(of_count.get(document.count.pk, []))
        if document.verification is not None:
            document.variances += of_container.get(document.verification.pk, [])
        document.superseded_variances = [variance for old in document.superseded for variance in of_count[old.pk]]
    corrections: dict[int, list[VarianceCorrection]] = defaultdict(list)
    for correction in VarianceCorrection.objects.filter(count_id__in=count_ids).select_related("corrected_by"):
        corrections[correction.count_id].append(correction)
    for document in documents:
        if document.count is not None:
            document.corrections = corrections.get(document.count.pk, [])


def _signatures_attach(documents: list[SheetDocument]) -> None:
    """Every signature of every step of each document, in the order the steps happen."""
    lines = signature_lines([signed for document in documents for _, signed in document.steps()])
    for document in documents:
        for step, signed in document.steps():
            type_id = ContentType.objects.get_for_model(type(signed)).pk
            document.signatures += [(step, line) for line in lines.get((type_id, str(signed.pk)), [])]
