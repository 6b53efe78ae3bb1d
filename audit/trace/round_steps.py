"""A round of play and where its money went (§637a.17): the rake to the table's rake drop box and each
jackpot's drop to its box, each box on to its count, transport and cage verification, where the rake
becomes the poker revenue of its gaming day and a drop the fund's official money."""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.db.models import Q

from cage.models import Box, Count
from casino_backoffice.ledger.models import Transfer, TransferKind
from casino_backoffice.money import display_cents
from jackpots.funds.models import JackpotKind
from jackpots.high_hand.models import HighHandPeriod
from tables.models import Round

from .cage_steps import box_add, count_add, counts_standing, drops_into
from .collect import Chain


def round_add(chain: Chain, round_: Round) -> None:
    chain.add(
        "round",
        round_,
        f"Round {round_.pk} at table {round_.table.number}, gaming day {round_.gaming_day}",
        amount_cents=round_.pot_cents,
        at=round_.ended_at,
        details={
            "uncalled bet": display_cents(round_.uncalled_bet_cents),
            "refunded to a player": display_cents(round_.refund_cents) if round_.refund_cents else "",
            "players dealt in": str(round_.players_dealt_in),
            "rake": f"{display_cents(round_.rake_cents)} ({round_.rake_rule})",
            "voided when logged": "yes" if round_.voided else "",
        },
    )
    drops = list(round_.drops.select_related("jackpot").order_by("position"))
    for drop in drops:
        chain.add(
            "drop", drop, f"{drop.jackpot.name} drop ({drop.rule})", amount_cents=drop.amount_cents, at=round_.ended_at
        )
    posted = list(
        Transfer.objects.filter(
            reference_type=ContentType.objects.get_for_model(Round),
            reference_id=str(round_.pk),
            kind__in=(TransferKind.RAKE, TransferKind.DROP),
        )
    )
    left = round_.rake_cents + sum(drop.amount_cents for drop in drops)
    chain.check(
        "round",
        "the rake and drops taken, against what the round posted to its boxes",
        expected=left,
        actual=sum(t.amount_cents for t in posted),
    )
    void = getattr(round_, "void", None)
    if void is not None:
        chain.add("round", void, f"Void {void.pk}: {void.reason}", at=void.voided_at)
    # The table's boxes the round put money in: the rake drop box, and each jackpot's box of a drop
    # (a High Hand drop goes to its period's box content, an account of its own: the box is exchanged).
    into = Q(jackpot_id__in=[drop.jackpot_id for drop in drops])
    if round_.rake_cents:
        into |= Q(jackpot__isnull=True)
    for box in Box.objects.filter(into, table_id=round_.table_id).select_related("room", "table", "jackpot", "account"):
        box_add(chain, box)
        count = _count_covering(box, round_)
        if count is None:
            continue
        count_add(chain, count)
        rounds, dropped = drops_into(box, count)
        chain.check(
            "count",
            f"the {rounds} rounds' money into box {box.code} for what count {count.pk} covers, against its expected",
            expected=dropped,
            actual=count.expected_cents,
            explanation="time charges or voided rounds in the box" if dropped != count.expected_cents else "",
        )


def _count_covering(box: Box, round_: Round) -> Count | None:
    """The count that took the round's money out of ``box``: of the round's High Hand period for a High
    Hand box (the box is exchanged at each period's end), else of the round's gaming day."""
    counts = counts_standing([box]).prefetch_related("variances")
    if box.jackpot is not None and box.jackpot.kind == JackpotKind.HIGH_HAND:
        period = HighHandPeriod.objects.filter(
            jackpot=box.jackpot, starts_at__lte=round_.ended_at, ends_at__gt=round_.ended_at
        ).first()
        found = counts.filter(period=period).order_by("-pk").first() if period else None
        if found is not None:
            return found
    return counts.filter(gaming_day=round_.gaming_day).order_by("-pk").first()
