"""Reads of the progressive meters: the posted rules of a meter and a banked table in a rules version,
the tables linked to a meter, each meter's amount and whether it is pending a reset."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from django.utils import timezone

from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.selectors import account_balances
from casino_backoffice.money import display_cents
from jackpots.progressive.accounts import meter_account
from jackpots.progressive.models import PayoutPlace, ProgressiveHand, ProgressiveMeter
from jackpots.progressive.rules import BankedTableRule, ProgressiveRule
from tables.models import PokerRoom, RulesVersion, Table
from tables.selectors import rules_version_in_effect, rules_version_parsed


class _TableRule(Protocol):
    @property
    def banked(self) -> BankedTableRule | None: ...


class _ProgressiveRules(Protocol):
    """What the meters read of a version's posted rules (``tables.selectors.rules_version_parsed``)."""

    @property
    def progressives(self) -> Mapping[str, ProgressiveRule]: ...

    @property
    def tables(self) -> Mapping[str, _TableRule]: ...


def _rules_of(version: RulesVersion) -> _ProgressiveRules:
    rules: _ProgressiveRules = rules_version_parsed(version_id=version.pk, content=version.content)
    return rules


def progressive_rule_of_version(*, version: RulesVersion, code: str) -> ProgressiveRule | None:
    """A meter's posted rules in a rules version (None when the version does not name it): its part of
    the version's one parsed, cached rules (``tables.selectors.rules_version_parsed``; versions never change)."""
    return _rules_of(version).progressives.get(code)


def banked_table_of_version(*, version: RulesVersion, number: str) -> BankedTableRule | None:
    """What a rules version posts for a banked table (limits, paytables, meter); None when the version
    does not list the table or the table is not banked."""
    table = _rules_of(version).tables.get(number)
    return table.banked if table is not None else None


def tables_linked(*, version: RulesVersion, code: str) -> list[str]:
    """The numbers of the tables a rules version links to meter ``code``."""
    return [entry["number"] for entry in version.content.get("tables", []) if entry.get("progressive") == code]


@dataclass(frozen=True)
class MeterAtTable:
    """A banked table's meter as the rules in effect post it."""

    version: RulesVersion
    meter: ProgressiveMeter
    rule: ProgressiveRule
    table_rule: BankedTableRule


def meter_at_table(*, table: Table, at: datetime) -> MeterAtTable | None:
    """The meter a banked table plays into at ``at`` by the rules in effect; None when it plays into none."""
    version = rules_version_in_effect(room=table.room, at=at)
    if version is None:
        return None
    table_rule = banked_table_of_version(version=version, number=table.number)
    if table_rule is None or table_rule.progressive is None:
        return None
    rule = progressive_rule_of_version(version=version, code=table_rule.progressive)
    meter = ProgressiveMeter.objects.filter(room_id=table.room_id, code=table_rule.progressive).first()
    if rule is None or meter is None:
        return None
    return MeterAtTable(version=version, meter=meter, rule=rule, table_rule=table_rule)


def pending_hand(*, meter: ProgressiveMeter) -> ProgressiveHand | None:
    """The 100% payout the meter waits to be reset after; None when it is not pending."""
    return (
        ProgressiveHand.objects.filter(round__meter=meter, meter_bp=10_000, amount_cents__gt=0, reset__isnull=True)
        .select_related("round__table")
        .order_by("recorded_at", "id")
        .first()
    )


def documentation_open(*, table: Table) -> ProgressiveHand | None:
    """The payout won at ``table`` that is not paid from the table inventory and whose validation is
    not signed yet: 'the cards of that player shall remain on the table until the necessary
    documentation has been completed' (§655a.11(i)(4)(i)(D), §657a.11(e)(4)), so the table deals no
    next progressive round meanwhile. None when nothing holds the table."""
    return (
        ProgressiveHand.objects.filter(
            round__table=table, place=PayoutPlace.CAGE, amount_cents__gt=0, validation__isnull=True
        )
        .select_related("round")
        .order_by("recorded_at", "id")
        .first()
    )


@dataclass(frozen=True)
class MeterStanding:
    """A meter as the display board and the floor read it."""

    meter: ProgressiveMeter
    rule: ProgressiveRule | None
    amount_cents: int
    pending: ProgressiveHand | None
    tables: list[str]

    @property
    def is_pending(self) -> bool:
        return self.pending is not None

    @property
    def amount(self) -> str:
        return display_cents(self.amount_cents)

    @property
    def wagers_cents(self) -> tuple[int, ...]:
        """The wager sizes the posted rules accept; none when no rules in effect post the meter."""
        return self.rule.wagers_cents if self.rule is not None else ()


def meters_standing(*, room: PokerRoom, at: datetime | None = None) -> list[MeterStanding]:
    """Every meter of a room with its amount (the ledger's balance of the meter), whether it is pending
    a reset, and its linked tables by the rules in effect: a fixed number of queries, however many
    meters and rounds."""
    meters = list(ProgressiveMeter.objects.filter(room=room).select_related("room"))
    if not meters:
        return []
    at = at or timezone.now()
    version = rules_version_in_effect(room=room, at=at)
    pending_hands = ProgressiveHand.objects.filter(
        meter_bp=10_000, amount_cents__gt=0, reset__isnull=True
    ).select_related("round__table")
    codes = {meter_account(meter=meter).code: meter for meter in meters}
    accounts = {account.code: account for account in Account.objects.filter(code__in=codes)}
    balances = account_balances(accounts=accounts.values())
    pending_by_meter: dict[int, ProgressiveHand] = {}
    for hand in pending_hands.filter(round__meter__in=meters).order_by("recorded_at", "id"):
        pending_by_meter.setdefault(hand.round.meter_id, hand)
    standing = []
    for code, meter in codes.items():
        account = accounts.get(code)
        rule = progressive_rule_of_version(version=version, code=meter.code) if version else None
        standing.append(
            MeterStanding(
                meter=meter,
                rule=rule,
                amount_cents=balances.get(account.pk, 0) if account else 0,
                pending=pending_by_meter.get(meter.pk),
                tables=tables_linked(version=version, code=meter.code) if version else [],
            )
        )
    return standing
