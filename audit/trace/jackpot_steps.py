"""The jackpots' part of a chain: the fund's official money, a Bad Beat claim with its verification,
distribution, shares and payments (§637a.15), a High Hand period with its boxes' counts, pool, award and
payment (§637a.16), a progressive hit with its validation and payment (§655a.11(i)(4), §657a.11(e)); each
payment ends at the patron (name, ID type, the last four of the ID number)."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count as Count_
from django.db.models import Sum

from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.money import display_cents
from jackpots.bad_beat.models import BadBeatClaim, BadBeatPayment
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot
from jackpots.funds.reports import id_number_masked
from jackpots.high_hand.models import HighHandAwardPayment, HighHandPeriod
from jackpots.progressive.models import ProgressiveHand, ProgressivePayment

from .cage_steps import count_add, counts_standing, drops_into
from .collect import Chain, person

# The verifications into a fund a trace names one by one; the rest are summed.
RECENT_VERIFICATIONS = 10


def _cents(cents: int | None) -> str:
    return "" if cents is None else display_cents(cents)


def patron(*, name: str, id_type: str, id_number: str) -> dict[str, str]:
    return {"patron": name, "ID": f"{id_type} {id_number_masked(id_number)}".strip()}


def fund_official(chain: Chain, jackpot: Jackpot, *, until: datetime) -> int:
    """The fund's official money up to ``until``: what cage verifications posted into it (summed in one
    query), the latest of them named with their counts."""
    account = Account.objects.filter(code=jackpot_fund_account(jackpot=jackpot).code).first()
    if account is None:
        return 0
    verified = Transfer.objects.filter(debit=account, kind=TransferKind.VERIFICATION, posted_at__lte=until)
    total = verified.aggregate(n=Count_("pk"), cents=Sum("amount_cents"))
    chain.add(
        "official",
        jackpot,
        f"{jackpot.name} fund ({account.code}): official money by cage verification",
        amount_cents=int(total["cents"] or 0),
        details={"verifications up to then": str(total["n"] or 0)},
    )
    return int(total["cents"] or 0)


def claim_add(chain: Chain, claim: BadBeatClaim, *, payment: BadBeatPayment | None = None) -> None:
    """A Bad Beat from its hand to each share's patron."""
    round_ = claim.round
    chain.add(
        "claim",
        claim,
        f"Bad Beat claim {claim.pk} at table {claim.table.number}: {claim.losing_hand} lost to {claim.winning_hand}",
        amount_cents=claim.pot_cents,
        at=claim.happened_at,
        details={
            "round": str(round_.pk) if round_ else "",
            "losing": f"seat {claim.losing_seat} {claim.losing_name}",
            "winning": f"seat {claim.winning_seat} {claim.winning_name}",
            "status": claim.get_status_display(),
        },
    )
    decision = getattr(claim, "decision", None)
    if decision is None:
        return
    official = fund_official(chain, claim.jackpot, until=decision.decided_at)
    chain.add(
        "decision",
        decision,
        f"Verified by {person(decision.decided_by)}: {decision.get_outcome_display()}",
        amount_cents=decision.payout_cents,
        at=decision.decided_at,
        details={
            "fund official then": display_cents(decision.official_cents),
            "payout": display_cents(decision.payout_cents),
        },
    )
    chain.check(
        "decision",
        "the fund's official money when the claim was verified, against the verifications into it",
        expected=official,
        actual=decision.official_cents,
        explanation="funds transferred or paid before the claim changed the fund"
        if official != decision.official_cents
        else "",
    )
    for adjustment in decision.display_adjustments.select_related("witnessed_by"):
        chain.add(
            "display",
            adjustment,
            f"Display adjusted to {display_cents(adjustment.amount_cents)}",
            amount_cents=adjustment.amount_cents,
            at=adjustment.witnessed_at or adjustment.adjusted_at,
            details={"witnessed by": person(adjustment.witnessed_by)},
        )
    distribution = getattr(claim, "distribution", None)
    if distribution is None:
        return
    _distribution_add(chain, claim, decision.payout_cents, payment=payment)


def _distribution_add(chain: Chain, claim: BadBeatClaim, payout_cents: int, *, payment: BadBeatPayment | None) -> None:
    distribution = claim.distribution
    chain.add(
        "distribution",
        distribution,
        f"Distribution {distribution.pk} prepared by {person(distribution.prepared_by)}",
        amount_cents=distribution.total_cents,
        at=distribution.prepared_at,
        details={"method": distribution.method},
    )
    chain.check(
        "distribution",
        "the distribution against the payout verified",
        expected=payout_cents,
        actual=distribution.total_cents,
    )
    shares = list(distribution.shares.select_related("payment__paid_by").order_by("position"))
    chain.check(
        "share",
        "the shares against the distribution",
        expected=distribution.total_cents,
        actual=sum(share.amount_cents for share in shares),
    )
    for share in shares:
        paid = getattr(share, "payment", None)
        if payment is not None and paid is not None and paid.pk != payment.pk:
            continue  # a payment's trace follows its own share to its patron
        chain.add(
            "share",
            share,
            f"{share.get_share_display()}, seat {share.seat}: {share.name}",
            amount_cents=share.amount_cents,
        )
        if paid is not None:
            chain.add(
                "payment",
                paid,
                f"Paid {paid.get_place_display().lower()} by {person(paid.paid_by)}",
                amount_cents=share.amount_cents,
                at=paid.paid_at,
                details=patron(name=paid.patron_name or share.name, id_type=paid.id_type, id_number=paid.id_number),
            )


def period_add(chain: Chain, period: HighHandPeriod, *, payment: HighHandAwardPayment | None = None) -> None:
    """A High Hand period: its boxes' counts, its pool, its award and the award's payment."""
    chain.add(
        "period",
        period,
        f"{period.jackpot.name} period {chain.when(period.starts_at)} to {chain.when(period.ends_at)}",
        amount_cents=period.pool_cents,
        at=period.ends_at,
        details={
            "contributions": _cents(period.contributions_cents),
            "rolled in": _cents(period.rolled_in_cents),
            "status": period.get_status_display(),
        },
    )
    if period.pool_cents is not None:
        chain.check(
            "period",
            "the pool against the period's contributions and the pool rolled in",
            expected=(period.contributions_cents or 0) + (period.rolled_in_cents or 0),
            actual=period.pool_cents,
        )
    counts = list(counts_standing(period.jackpot.boxes.all()).filter(period=period).prefetch_related("variances"))
    for count in counts:
        rounds, dropped = drops_into(count.box, count)
        count_add(chain, count)
        chain.check(
            "drop",
            f"the drops of {rounds} rounds of the period into box {count.box.code}, against its count",
            expected=dropped,
            actual=count.expected_cents,
        )
    for award in period.awards.select_related("entry__table").order_by("pk"):
        chain.add(
            "award",
            award,
            f"Award {award.pk}: {award.entry.words} at table {award.entry.table.number}, {award.entry.player_name}",
            amount_cents=award.amount_cents,
            details={"collect by": chain.when(award.collect_by)},
        )
        paid = HighHandAwardPayment.objects.filter(award=award).select_related("paid_by").first()
        if paid is not None and (payment is None or paid.pk == payment.pk):
            chain.add(
                "payment",
                paid,
                f"Award {award.pk} paid at the cage by {person(paid.paid_by)}",
                amount_cents=award.amount_cents,
                at=paid.paid_at,
                details=patron(name=award.entry.player_name, id_type=paid.id_type, id_number=paid.id_number),
            )


def hit_add(chain: Chain, hand: ProgressiveHand) -> None:
    """A progressive payout from its round to its patron."""
    round_ = hand.round
    chain.add(
        "round",
        round_,
        f"Progressive round {round_.pk} at table {round_.table.number}",
        amount_cents=round_.wagers_cents,
        at=round_.ended_at,
        details={
            "increment to the meter": display_cents(round_.increment_cents),
            "house": display_cents(round_.house_cents),
        },
    )
    chain.add(
        "hit",
        hand,
        f"Seat {hand.seat}: {hand.words} ({hand.line})",
        amount_cents=hand.amount_cents,
        at=hand.recorded_at,
        details={"meter before": display_cents(hand.meter_before_cents), "payout": hand.payout, "place": hand.place},
    )
    validation = getattr(hand, "validation", None)
    if validation is not None:
        chain.add("hit", validation, f"Validated by {person(validation.validated_by)}", at=validation.validated_at)
    paid = ProgressivePayment.objects.filter(hand=hand).select_related("paid_by").first()
    if paid is not None:
        chain.add(
            "payment",
            paid,
            f"Paid at the cage by {person(paid.paid_by)}",
            amount_cents=hand.amount_cents,
            at=paid.paid_at,
            details=patron(name=paid.patron_name, id_type=paid.id_type, id_number=paid.id_number),
        )
