"""The files of a room's gaming day, one at a time, each ``(name, bytes)``: the cage's, the jackpots'
and the irregularities' own reports and PDFs, rendered as their admin pages render them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet
from django.template.loader import render_to_string
from django.utils import timezone

from cage.exports import custody_log_report, official_record_report, variances_report
from cage.models import CageVerification, Count, CountSheet, Transport, TransportItem, Variance
from cage.reports import count_sheets_document, count_sheets_summary
from cage.selectors import custody_log, official_record
from casino_backoffice.core.clock import zone_of
from casino_backoffice.core.exports import Column, Kind, Report, csv_bytes, pdf_bytes
from casino_backoffice.staff.models import User
from jackpots.bad_beat.exports import claims_report
from jackpots.bad_beat.models import BadBeatClaim
from jackpots.bad_beat.reports.claims import claim_file, claims_with_amounts
from jackpots.funds.exports import credential, person
from jackpots.funds.reports import id_number_masked
from jackpots.high_hand.models import HighHandAward, HighHandPeriod
from jackpots.progressive.models import ProgressiveHand
from tables.irregularities.models import Irregularity
from tables.irregularities.reports import irregularity_file, log_report
from tables.irregularities.selectors import IRREGULARITY_RELATED
from tables.models import PokerRoom
from tables.selectors import gaming_day_bounds

DayFile = tuple[str, bytes]

TRANSPORT_COLUMNS = [
    Column("id", Kind.INTEGER),
    Column("kind"),
    Column("seal"),
    Column("destination"),
    Column("boxes"),
    Column("declared", Kind.MONEY),
    Column("carried_by"),
    Column("carried_by_credential"),
    Column("carried_at", Kind.DATETIME),
    Column("accounted_by"),
    Column("accounted_at", Kind.DATETIME),
    Column("status"),
]
VERIFICATION_COLUMNS = [
    Column("id", Kind.INTEGER),
    Column("transport", Kind.INTEGER),
    Column("seal"),
    Column("counted", Kind.MONEY),
    Column("official", Kind.MONEY),
    Column("variance", Kind.MONEY),
    Column("status"),
    Column("cashier"),
    Column("cashier_credential"),
    Column("verified_at", Kind.DATETIME),
]
PERIOD_COLUMNS = [
    Column("id", Kind.INTEGER),
    Column("jackpot"),
    Column("starts_at", Kind.DATETIME),
    Column("ends_at", Kind.DATETIME),
    Column("status"),
    Column("contributions", Kind.MONEY),
    Column("rolled_in", Kind.MONEY),
    Column("pool", Kind.MONEY),
]
AWARD_COLUMNS = [
    Column("id", Kind.INTEGER),
    Column("period", Kind.INTEGER),
    Column("table"),
    Column("seat", Kind.INTEGER),
    Column("player"),
    Column("hand"),
    Column("amount", Kind.MONEY),
    Column("collect_by", Kind.DATETIME),
    Column("paid_at", Kind.DATETIME),
    Column("paid_by"),
]


HIT_COLUMNS = [
    Column("id", Kind.INTEGER),
    Column("round", Kind.INTEGER),
    Column("table"),
    Column("seat", Kind.INTEGER),
    Column("hand"),
    Column("line"),
    Column("payout"),
    Column("amount", Kind.MONEY),
    Column("place"),
    Column("envy_qualifying"),
    Column("validated_by"),
    Column("validated_by_credential"),
    Column("validated_at", Kind.DATETIME),
    Column("patron"),
    Column("id_type"),
    Column("id_number_last4"),
    Column("paid_by"),
    Column("paid_at", Kind.DATETIME),
]


def day_files(*, room: PokerRoom, day: date, actor: User, pdfs: bool = True) -> Iterator[DayFile]:
    """Every file of the day's package but the manifest, in the order a reader goes through them;
    one is rendered at a time, so memory holds one file, never the package. ``pdfs=False``: the data
    files only (the seal's, ``seal``)."""
    yield from _cage_files(room=room, day=day, actor=actor, pdfs=pdfs)
    yield from _jackpot_files(room=room, day=day, actor=actor, pdfs=pdfs)
    yield from _irregularity_files(room=room, day=day, actor=actor, pdfs=pdfs)


def _pdf(template_name: str, context: dict[str, Any], actor: User) -> bytes:
    printed = {"printed_at": timezone.now(), "printed_by": actor, **context}
    return pdf_bytes(render_to_string(template_name, printed))


def _cage_files(*, room: PokerRoom, day: date, actor: User, pdfs: bool) -> Iterator[DayFile]:
    rows = official_record(room=room, start=day, end=day)
    yield "official-record.csv", csv_bytes(official_record_report(room=room, rows=rows, start=day, end=day))
    if pdfs:
        yield "count-sheets.pdf", _count_sheets_pdf(room=room, day=day, actor=actor)
    yield "custody-log.csv", csv_bytes(custody_log_report(room=room, day=day, events=custody_log(room=room, day=day)))
    yield "transports.csv", csv_bytes(_transports_report(room=room, day=day))
    yield "verifications.csv", csv_bytes(_verifications_report(room=room, day=day))
    variances = Variance.objects.filter(room=room, gaming_day=day).order_by("found_at", "pk")
    yield "variances.csv", csv_bytes(variances_report(variances=variances, filename=f"variances-{room.code}-{day}"))


def _count_sheets_pdf(*, room: PokerRoom, day: date, actor: User) -> bytes:
    """The count sheets of the day, as the admin prints them (``cage.admin.verifications``)."""
    sheets = list(
        CountSheet.objects.filter(room=room, gaming_day=day)
        .select_related("room", "box__table", "box__jackpot")
        .order_by("box__code", "key")
    )
    counts = list(
        Count.objects.filter(box__room=room, gaming_day=day, sheet__isnull=True).select_related(
            "box__table",
            "box__jackpot",
            "notice",
            "counted_by",
            "witnessed_by",
            "transport_item__transport__verification",
        )
    )
    documents = count_sheets_document(sheets=sheets, counts=counts)
    context = {
        "title": f"Count sheets of {room.name}, gaming day {day}",
        "documents": documents,
        "summary": count_sheets_summary(documents),
        "zone": zone_of(room),
    }
    return _pdf("cage/count_sheets.html", context, actor)


def _transports_of(*, room: PokerRoom, day: date) -> QuerySet[Transport]:
    """The transports carried in the gaming day, and those that carried the day's counts to the cage
    (a day's boxes are counted and carried the next morning, in the next gaming day)."""
    return Transport.objects.filter(
        Q(gaming_day=day) | Q(pk__in=TransportItem.objects.filter(count__gaming_day=day).values("transport")),
        room=room,
    )


def _transports_report(*, room: PokerRoom, day: date) -> Report:
    transports = (
        _transports_of(room=room, day=day)
        .select_related("carried_by", "accounted_by")
        .prefetch_related("items__box")
        .order_by("carried_at", "pk")
    )
    rows = [
        [
            t.pk,
            t.get_kind_display(),
            t.seal,
            t.destination,
            " ".join(item.box.code for item in t.items.all()),
            t.declared_cents,
            person(t.carried_by),
            credential(t.carried_by),
            t.carried_at,
            person(t.accounted_by),
            t.accounted_at,
            t.get_status_display(),
        ]
        for t in transports
    ]
    return Report(columns=TRANSPORT_COLUMNS, rows=rows, title="Transports", time_zone=zone_of(room))


def _verifications_report(*, room: PokerRoom, day: date) -> Report:
    verifications = (
        CageVerification.objects.filter(
            Q(gaming_day=day) | Q(transport__in=_transports_of(room=room, day=day).values("pk")), room=room
        )
        .select_related("transport", "cashier")
        .order_by("verified_at", "pk")
    )
    rows = [
        [
            v.pk,
            v.transport_id,
            v.transport.seal,
            v.counted_cents,
            v.official_cents,
            v.variance_cents,
            v.get_status_display(),
            person(v.cashier),
            credential(v.cashier),
            v.verified_at,
        ]
        for v in verifications
    ]
    return Report(columns=VERIFICATION_COLUMNS, rows=rows, title="Cage verifications", time_zone=zone_of(room))


def _jackpot_files(*, room: PokerRoom, day: date, actor: User, pdfs: bool) -> Iterator[DayFile]:
    claims = claims_with_amounts(
        BadBeatClaim.objects.filter(room=room, gaming_day=day).select_related("room", "table", "jackpot")
    ).order_by("opened_at", "pk")
    yield "bad-beat-claims.csv", csv_bytes(claims_report(claims=claims, filename=f"bad-beat-claims-{room.code}-{day}"))
    for claim in claims if pdfs else ():
        yield (
            f"bad-beat-claims/claim-{claim.pk}.pdf",
            _pdf("jackpots/reports/claim_file.html", {"file": claim_file(claim=claim)}, actor),
        )
    start, end = gaming_day_bounds(room=room, day=day)
    periods = list(
        HighHandPeriod.objects.filter(room=room, starts_at__gte=start, starts_at__lt=end)
        .select_related("jackpot")
        .order_by("starts_at", "pk")
    )
    yield "high-hand-periods.csv", csv_bytes(_periods_report(room=room, periods=periods))
    awards = (
        HighHandAward.objects.filter(period__in=periods)
        .select_related("entry__table", "payment__paid_by")
        .order_by("period", "pk")
    )
    yield "high-hand-awards.csv", csv_bytes(_awards_report(room=room, awards=awards))
    yield "progressive-hits.csv", csv_bytes(_hits_report(room=room, hits=day_hits(room=room, day=day)))


def day_hits(*, room: PokerRoom, day: date) -> QuerySet[ProgressiveHand]:
    """The hands of the room's banked rounds of ``day`` that won a payout or an Envy Bonus (§655a.11(i)(4),
    §657a.11(e)), with their validation and payment."""
    return (
        ProgressiveHand.objects.filter(round__table__room=room, round__gaming_day=day)
        .select_related("round__table", "validation__validated_by", "payment__paid_by")
        .order_by("round__ended_at", "round_id", "seat")
    )


def _hits_report(*, room: PokerRoom, hits: QuerySet[ProgressiveHand]) -> Report:
    rows = []
    for hit in hits:
        validation, payment = getattr(hit, "validation", None), getattr(hit, "payment", None)
        rows.append(
            [
                hit.pk,
                hit.round_id,
                hit.round.table.number,
                hit.seat,
                hit.words,
                hit.line,
                hit.payout,
                hit.amount_cents,
                hit.get_place_display(),
                "yes" if hit.envy_qualifying else "no",
                person(validation.validated_by) if validation else "",
                credential(validation.validated_by) if validation else "",
                validation.validated_at if validation else None,
                payment.patron_name if payment else "",
                payment.id_type if payment else "",
                id_number_masked(payment.id_number) if payment else "",
                person(payment.paid_by) if payment else "",
                payment.paid_at if payment else None,
            ]
        )
    return Report(columns=HIT_COLUMNS, rows=rows, title="Progressive hits", time_zone=zone_of(room))


def _periods_report(*, room: PokerRoom, periods: list[HighHandPeriod]) -> Report:
    rows = [
        [
            p.pk,
            p.jackpot.name,
            p.starts_at,
            p.ends_at,
            p.get_status_display(),
            p.contributions_cents,
            p.rolled_in_cents,
            p.pool_cents,
        ]
        for p in periods
    ]
    return Report(columns=PERIOD_COLUMNS, rows=rows, title="High Hand periods", time_zone=zone_of(room))


def _awards_report(*, room: PokerRoom, awards: Any) -> Report:
    rows = []
    for award in awards:
        payment = getattr(award, "payment", None)
        entry = award.entry
        rows.append(
            [
                award.pk,
                award.period_id,
                entry.table.number,
                entry.seat,
                entry.player_name,
                entry.words,
                award.amount_cents,
                award.collect_by,
                payment.paid_at if payment else None,
                person(payment.paid_by) if payment else "",
            ]
        )
    return Report(columns=AWARD_COLUMNS, rows=rows, title="High Hand awards", time_zone=zone_of(room))


def _irregularity_files(*, room: PokerRoom, day: date, actor: User, pdfs: bool) -> Iterator[DayFile]:
    irregularities = list(
        Irregularity.objects.filter(room=room, gaming_day=day)
        .select_related(*IRREGULARITY_RELATED)
        .order_by("occurred_at", "pk")
    )
    yield "irregularities.csv", csv_bytes(log_report(irregularities, filename=f"irregularities-{room.code}-{day}"))
    for irregularity in irregularities if pdfs else ():
        file = irregularity_file(irregularity=irregularity)
        yield (
            f"irregularities/irregularity-{irregularity.pk}.pdf",
            _pdf("tables/irregularity_file.html", {"file": file}, actor),
        )
