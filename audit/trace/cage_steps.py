"""The cage's part of a chain: a box, its count (witnessed, recorded by surveillance), the transport
that carried it under seal, the cage's verification that made it official, and any variance with its
explanation or correction (§637a.15(d)-(e), §637a.16(d)-(e))."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count as Count_
from django.db.models import Q, QuerySet, Sum

from cage.models import Box, CageVerification, Count, CountStatus, Transport, TransportItem, Variance
from casino_backoffice.money import display_cents
from jackpots.funds.models import RoundDrop
from tables.models import Round
from tables.selectors import gaming_day

from .collect import Chain, person

COUNT_RELATED = ("box__room", "box__table", "box__jackpot", "counted_by", "witnessed_by", "period", "sheet")


def counts_standing(boxes: QuerySet[Box] | list[Box]) -> QuerySet[Count]:
    """The counts of ``boxes`` a recount did not supersede."""
    return Count.objects.filter(box__in=boxes).exclude(status=CountStatus.SUPERSEDED).select_related(*COUNT_RELATED)


def box_add(chain: Chain, box: Box) -> None:
    where = f"table {box.table.number}" if box.table_id else "the room"
    what = f"{box.jackpot.name} box" if box.jackpot is not None else "rake drop box"
    chain.add("box", box, f"Box {box.code}: {what} at {where}", details={"ledger account": box.account.code})


def count_add(chain: Chain, count: Count) -> None:
    """A count and what follows it: its variance, the transport, the verification."""
    box_add(chain, count.box)
    chain.add(
        "count",
        count,
        f"Count {count.pk} of box {count.box.code}, gaming day {count.gaming_day}",
        amount_cents=count.counted_cents,
        at=count.counted_at,
        details={
            "expected (the drops logged)": display_cents(count.expected_cents),
            "counted": display_cents(count.counted_cents),
            "counted by": person(count.counted_by),
            "witnessed by": person(count.witnessed_by),
            "surveillance": count.surveillance_reference,
            "status": count.get_status_display(),
        },
    )
    variance_total = sum(variance.amount_cents for variance in count.variances.all())
    explanations = "; ".join(v.explanation for v in count.variances.all() if v.explanation)
    chain.check(
        "count",
        f"count {count.pk}: counted against the drops logged into box {count.box.code}",
        expected=count.expected_cents,
        actual=count.counted_cents,
        # Only an explained variance is an explanation: one awaiting it leaves the trace not reconciled.
        explanation=(f"variance of {display_cents(variance_total)}: {explanations}" if explanations else ""),
    )
    variances_add(chain, count.variances.select_related("explained_by"))
    if count.supersedes_id is not None:
        old = Count.objects.select_related("counted_by").get(pk=count.supersedes_id)
        chain.add(
            "count",
            old,
            f"Count {old.pk} of box {count.box.code}, superseded by recount {count.pk}",
            amount_cents=old.counted_cents,
            at=old.counted_at,
            details={"counted by": person(old.counted_by), "recounted because": count.recount_reason},
        )
    # A count at the table is carried as a count; a box carried to the cage uncounted is counted there,
    # on the sheet its transport item carried.
    carried = Q(count=count) | Q(count__isnull=True, sheet_id=count.sheet_id) if count.sheet_id else Q(count=count)
    item = TransportItem.objects.filter(carried).select_related("transport").first()
    if item is not None:
        transport_add(chain, item.transport, focus=False)


def variances_add(chain: Chain, variances: QuerySet[Variance]) -> None:
    for variance in variances:
        chain.add(
            "variance",
            variance,
            f"Variance {variance.pk} ({variance.get_kind_display()})",
            amount_cents=variance.amount_cents,
            at=variance.found_at,
            details={
                "explanation": variance.explanation
                or ("awaiting an explanation" if variance.needs_explanation else ""),
                "explained by": person(variance.explained_by),
            },
        )
        for correction in variance.corrections.select_related("corrected_by"):
            chain.add(
                "variance",
                correction,
                f"Correction {correction.pk} of variance {variance.pk}",
                amount_cents=correction.official_change_cents,
                at=correction.corrected_at,
                details={"reason": correction.reason, "corrected by": person(correction.corrected_by)},
            )


def transport_add(chain: Chain, transport: Transport, *, focus: bool) -> None:
    """A transport under seal and its verification; ``focus``: every count it carried too."""
    chain.add(
        "transport",
        transport,
        f"Transport {transport.pk}, seal {transport.seal} to the {transport.destination}",
        amount_cents=transport.declared_cents,
        at=transport.carried_at,
        details={"carried by": person(transport.carried_by), "status": transport.get_status_display()},
    )
    if focus:
        for item in transport.items.select_related("count__box__table", "count__box__jackpot", "box__table"):
            if item.count is not None:
                count_add(chain, item.count)
            else:
                box_add(chain, item.box)
    verification = CageVerification.objects.filter(transport=transport).select_related("cashier").first()
    if verification is not None:
        verification_add(chain, verification)


def verification_add(chain: Chain, verification: CageVerification) -> None:
    chain.add(
        "verification",
        verification,
        f"Cage verification {verification.pk} of seal {verification.transport.seal}",
        amount_cents=verification.official_cents,
        at=verification.verified_at,
        details={
            "counted at the cage": display_cents(verification.counted_cents),
            "official": display_cents(verification.official_cents),
            "cashier": person(verification.cashier),
            "status": verification.get_status_display(),
        },
    )
    expected = verification.transport.items.aggregate(total=Sum("expected_cents"))["total"] or 0
    explained = "; ".join(v.explanation for v in verification.variances.all() if v.explanation)
    chain.check(
        "verification",
        f"verification {verification.pk}: counted at the cage against the table counts carried",
        expected=verification.transport.declared_cents if verification.transport.declared_cents else expected,
        actual=verification.counted_cents,
        explanation=(f"variance of {display_cents(verification.variance_cents)}: {explained}" if explained else ""),
    )
    variances_add(chain, verification.variances.select_related("explained_by"))


def drops_into(box: Box, count: Count) -> tuple[int, int]:
    """The number of rounds and the cents they left in ``box`` for what ``count`` covers: its High Hand
    period, else its gaming day; rounds logged voided or voided since are out (their money went back to
    the pot). One aggregate query, whatever the room's size."""
    if box.jackpot_id is None:
        rounds = Round.objects.filter(table_id=box.table_id, gaming_day=count.gaming_day, voided=False)
        total = rounds.filter(void__isnull=True).aggregate(n=Count_("pk"), cents=Sum("rake_cents"))
        return int(total["n"] or 0), int(total["cents"] or 0)
    drops = RoundDrop.objects.filter(
        jackpot_id=box.jackpot_id, round__table_id=box.table_id, round__voided=False, round__void__isnull=True
    )
    if count.period is not None:
        period = count.period
        # The gaming days the period spans as well: the rounds' index is by table and gaming day, and a
        # round's gaming day is its end's (one function), so the sum is the same, read from the index.
        days = (
            gaming_day(room=box.room, at=period.starts_at),
            gaming_day(room=box.room, at=period.ends_at - timedelta(microseconds=1)),
        )
        drops = drops.filter(
            round__gaming_day__range=days, round__ended_at__gte=period.starts_at, round__ended_at__lt=period.ends_at
        )
    else:
        drops = drops.filter(round__gaming_day=count.gaming_day)
    total = drops.aggregate(n=Count_("pk"), cents=Sum("amount_cents"))
    return int(total["n"] or 0), int(total["cents"] or 0)
