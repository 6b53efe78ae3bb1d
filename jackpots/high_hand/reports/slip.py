"""An award of the High Hand and what became of it, and the High Hand Tracking Slip of a period with its
voids, awards and every signature (§637a.16(f))."""

from __future__ import annotations

from dataclasses import dataclass, field

from casino_backoffice.money import display_cents
from casino_backoffice.staff.selectors import SignatureLine, signature_key, signature_lines
from jackpots.funds.models import Jackpot
from jackpots.funds.reports import card_words, id_number_masked
from jackpots.funds.selectors import jackpot_rule_of_version
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    HighHandVoid,
)
from jackpots.high_hand.rules import HighHandRule
from jackpots.high_hand.selectors import unclaimed_next_period


def id_words(id_type: str, id_number: str) -> str:
    """'Driver's license, number ending in 5678'."""
    return f"{id_type}, number ending in {id_number[-4:]}" if len(id_number) > 4 else f"{id_type}, number not shown"


# --- An award and what became of it ---------------------------------------------------------------


def award_state(award: HighHandAward) -> str:
    """'paid', 'not collected: to approve', 'not collected: moved', or 'to collect' (its payment and
    unclaimed transfer read from the award: select them with it)."""
    if getattr(award, "payment", None) is not None:
        return "paid"
    unclaimed = getattr(award, "unclaimed", None)
    if unclaimed is not None:
        return "not collected: moved" if unclaimed.approved_by_id else "not collected: to approve"
    return "to collect"


def unclaimed_words(destination: str) -> str:
    """Where the posted rules send an award not collected in time (§637a.16(i)), in words."""
    if destination == "next_period":
        return "into the pool of the qualifying period open when its time limit ended"
    if destination == "fund":
        return "back into the fund, added to the pool of the next period to close"
    return destination


def unclaimed_into(unclaimed: HighHandUnclaimed) -> HighHandPeriod | None:
    """The period an uncollected award went into, or would go into if approved now: under
    ``next_period`` the period open when its time limit ended (``unclaimed_next_period``); under
    ``fund`` none until the next period closes after the approval (``unclaimed_approve``)."""
    if unclaimed.into_period_id is not None:
        return unclaimed.into_period
    if unclaimed.destination == "next_period":
        return unclaimed_next_period(unclaimed)
    return None


# --- The Tracking Slip (§637a.16(f)) -------------------------------------------------------------


@dataclass(frozen=True)
class SlipLine:
    """One entry of the slip with its number on the slip, its signatures and what became of it."""

    number: int
    entry: HighHandEntry
    verified_by: SignatureLine | None  # §637a.16(f)(5): the floorperson or above who verified and recorded it
    void: HighHandVoid | None
    voided_by: SignatureLine | None
    award: HighHandAward | None

    @property
    def cards_in_words(self) -> str:
        return card_words(self.entry.cards)

    @property
    def id_number_masked(self) -> str:
        return id_number_masked(self.entry.id_number)

    @property
    def payment(self) -> HighHandAwardPayment | None:
        return getattr(self.award, "payment", None) if self.award is not None else None

    @property
    def unclaimed(self) -> HighHandUnclaimed | None:
        return getattr(self.award, "unclaimed", None) if self.award is not None else None


@dataclass
class TrackingSlip:
    """The High Hand Tracking Slip of one qualifying period: every entry in the order recorded, with
    the five items of §637a.16(f), the player's identification (b)(7), the players dealt in and the
    pot (the posted minimums), the voids with their reasons, the awards and their payments, and every
    signature (name, role, Board credential number, time)."""

    period: HighHandPeriod
    rule: HighHandRule | None
    lines: list[SlipLine]
    signatures: list[tuple[str, SignatureLine]] = field(default_factory=list)  # (step, signature)

    @property
    def jackpot(self) -> Jackpot:
        return self.period.jackpot

    @property
    def awards(self) -> list[SlipLine]:
        return [line for line in self.lines if line.award is not None]

    @property
    def high_hand(self) -> SlipLine | None:
        """The period's highest hand not voided (the first recorded among equals)."""
        standing = [line for line in self.lines if line.void is None]
        return max(standing, key=lambda line: (line.entry.strength, -line.number), default=None)

    @property
    def minimums(self) -> str:
        """The posted minimums a hand met to be recorded, in words."""
        if self.rule is None:
            return ""
        return (
            f"{self.rule.minimum.minimum} or better; at least {self.rule.minimum.min_players_dealt} players dealt "
            f"in; a pot of at least {display_cents(self.rule.contribution.min_pot_cents)}"
        )


def tracking_slip(*, period: HighHandPeriod) -> TrackingSlip:
    """The Tracking Slip of ``period`` (§637a.16(f)): three queries whatever its length."""
    period = HighHandPeriod.objects.select_related("room", "jackpot", "rules_version").get(pk=period.pk)
    rule = jackpot_rule_of_version(version=period.rules_version, code=period.jackpot.code)
    entries = list(
        HighHandEntry.objects.filter(period=period)
        .select_related(
            "table",
            "dealer",
            "recorded_by",
            "void__voided_by",
            "award__payment__paid_by",
            "award__unclaimed__approved_by",
            "award__unclaimed__into_period",
        )
        .order_by("recorded_at", "pk")
    )
    voids = {entry.pk: entry.void for entry in entries if hasattr(entry, "void")}
    awards = {entry.pk: entry.award for entry in entries if hasattr(entry, "award")}
    steps: list[tuple[str, object]] = []
    for number, entry in enumerate(entries, start=1):
        steps.append((f"Entry {number} verified and recorded", entry))
        if entry.pk in voids:
            steps.append((f"Entry {number} voided", voids[entry.pk]))
    for number, entry in enumerate(entries, start=1):
        award = awards.get(entry.pk)
        payment = getattr(award, "payment", None)
        unclaimed = getattr(award, "unclaimed", None)
        if payment is not None:
            steps.append((f"Award of entry {number} paid at the cage", payment))
        if unclaimed is not None and unclaimed.approved_by_id:
            steps.append((f"Award of entry {number} not collected: transfer approved", unclaimed))
    lines_by = signature_lines(document for _, document in steps)
    signatures = [(step, line) for step, document in steps for line in lines_by.get(signature_key(document), [])]

    def first(document: object | None) -> SignatureLine | None:
        found = lines_by.get(signature_key(document), []) if document is not None else []
        return found[0] if found else None

    lines = [
        SlipLine(
            number=number,
            entry=entry,
            verified_by=first(entry),
            void=voids.get(entry.pk),
            voided_by=first(voids.get(entry.pk)),
            award=awards.get(entry.pk),
        )
        for number, entry in enumerate(entries, start=1)
    ]
    return TrackingSlip(
        period=period, rule=rule if isinstance(rule, HighHandRule) else None, lines=lines, signatures=signatures
    )
