"""The High Hand's qualifying periods (§637a.16(b)(1), (g)-(h)): opened and closed on the room's clock
by the schedule (``periods_run``), the box content a round's contribution goes to
(``period_box_content``), and the announcement of a period's pool, awarded to its high hand or rolled
over into the next period (``period_announce``), or the reason it waits (``period_wait``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, connection, transaction

from casino_backoffice.ledger.models import Account, TransferKind
from casino_backoffice.ledger.selectors import account_balances
from casino_backoffice.ledger.services import account_locked, account_open_as, transfer_post_within
from casino_backoffice.money import display_cents, split_evenly
from jackpots.funds.accounts import jackpot_awards_account, jackpot_fund_account
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import jackpot_rule_of_version, local_time, tables_listing
from jackpots.high_hand.accounts import high_hand_box_content_account
from jackpots.high_hand.exceptions import HighHandErrorCode
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    PeriodStatus,
)
from jackpots.high_hand.periods import period_at, qualifying_periods
from jackpots.high_hand.rules import HighHandRule
from jackpots.high_hand.services._common import _refuse
from jackpots.high_hand.services.slip import current_high_hand
from tables.models import PokerRoom, Table
from tables.selectors import rules_version_in_effect

# How far back the schedule looks for periods it should have opened and closed after downtime.
PERIOD_CATCH_UP = timedelta(days=7)
# A period closed more than this after its end says it was closed late, and why.
CLOSE_GRACE = timedelta(minutes=2)


# --- The schedule ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PeriodsRun:
    opened: int
    closed: int


def periods_run(*, room: PokerRoom, at: datetime) -> PeriodsRun:
    """Open and close the qualifying periods of each High Hand fund of ``room`` up to ``at``, exactly as
    the rules in effect say, in the room's time zone (§637a.16(b)(1)). Called every minute by the
    schedule (``cage.services.schedule_run``); safe to run again, late or twice at once: one period per
    fund and start (a unique key), and a closed period stays closed. A period that should have closed
    while the schedule was down is closed now and says so; one the schedule missed altogether is
    recorded opened and closed at once, so its contributions still have a period."""
    opened = closed = 0
    version = rules_version_in_effect(room=room, at=at)
    for jackpot in Jackpot.objects.filter(room=room, kind=JackpotKind.HIGH_HAND).select_related("room"):
        for period in HighHandPeriod.objects.filter(
            jackpot=jackpot, status=PeriodStatus.OPEN, ends_at__lte=at
        ).order_by("starts_at"):
            with transaction.atomic():  # the close and the uncollected awards it takes in, together
                _unclaimed_kept_in_the_fund_join(period=period)
                period.status = PeriodStatus.CLOSED
                period.closed_at = at
                if at - period.ends_at > CLOSE_GRACE:
                    period.close_note = (
                        f"Closed at {local_time(at, room.timezone)}, {_minutes(at - period.ends_at)} after its end: "
                        "the schedule was not running when it ended."
                    )[:300]
                period.save(update_fields=["status", "closed_at", "close_note", "rolled_in_cents"])  # audited
            closed += 1
        rule = jackpot_rule_of_version(version=version, code=jackpot.code) if version is not None else None
        if version is None or not isinstance(rule, HighHandRule):
            continue
        if not tables_listing(version=version, code=jackpot.code):
            continue  # no table collects for it: no period to open (§637a.16(c))
        # The first run opens the current period only; a later run catches up on what it missed. Periods a
        # round opened late are not the schedule's: it still opens those around them it missed.
        latest = (
            HighHandPeriod.objects.filter(jackpot=jackpot, opened_late=False)
            .order_by("-ends_at")
            .values_list("ends_at", flat=True)
            .first()
        )
        after = at if latest is None else max(latest, version.effective_from, at - PERIOD_CATCH_UP)
        for start, end in qualifying_periods(
            zone=room.timezone,
            every_minutes=rule.period.every_minutes,
            first_starts=rule.period.first_starts,
            after=after,
            until=at,
        ):
            if latest is not None and start < latest:
                continue
            missed = end <= at
            try:
                with transaction.atomic():
                    HighHandPeriod.objects.create(
                        room=room,
                        jackpot=jackpot,
                        rules_version=version,
                        starts_at=start,
                        ends_at=end,
                        status=PeriodStatus.CLOSED if missed else PeriodStatus.OPEN,
                        opened_at=at,
                        closed_at=at if missed else None,
                        close_note=(
                            f"Opened and closed at {local_time(at, room.timezone)}: the schedule was not running "
                            "during this period."
                            if missed
                            else ""
                        ),
                    )
            except IntegrityError:
                continue  # another run made it first
            opened += 1
            closed += missed
    return PeriodsRun(opened=opened, closed=closed)


def period_box_content(
    *, table: Table, jackpot_id: int, rule: HighHandRule, version_id: int, ended_at: datetime, now: datetime
) -> int:
    """The ledger account (its id) a round's High Hand drop goes to: the table's box content of the
    qualifying period the round ended in (§637a.16(c), (d)). Inside the round's transaction.

    §637a.16(d): the box 'shall be counted at the end of each qualifying period', so the box is
    exchanged at the period's end and each period's drops are a box content of their own
    (``high_hand_box_content_account``): a round that ends after a period, before its box is counted,
    goes to the next period's pool, and a count made late still covers exactly its period. Every drop
    belongs to a period that exists: a round that ends in a period the schedule has not opened yet
    (it opens only the current period when it first runs, or it was down) opens it, marked late.
    A period whose box content at this table was counted already takes no more drops: the round is
    refused (``period_box_counted``), the count stands."""
    period = _period_of_round(
        table=table, jackpot_id=jackpot_id, rule=rule, version_id=version_id, ended_at=ended_at, now=now
    )
    account = account_open_as(high_hand_box_content_account(table=table, jackpot=rule, starts_at=period.starts_at))
    # FOR SHARE: a count of this box content (which locks it FOR UPDATE and closes it) waits for this
    # round's commit and counts its drop, or this round waits for the count and sees it closed.
    closed_at = (
        Account.objects.select_for_update().filter(pk=account.pk).values_list("closed_at", flat=True).get()
        if connection.vendor != "postgresql"
        else _closed_at_for_share(account.pk)
    )
    if closed_at is not None:
        raise _refuse(
            f"The {rule.name} box of table {table.number} for the period of "
            f"{local_time(period.starts_at, table.room.timezone)} was counted at "
            f"{local_time(closed_at, table.room.timezone)}: a round that ended in that period cannot add to it "
            "(§637a.16(d)); record the chips as a variance of that count.",
            HighHandErrorCode.PERIOD_BOX_COUNTED,
        )
    return account.pk


def _closed_at_for_share(account_id: int) -> datetime | None:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT closed_at FROM {Account._meta.db_table} WHERE id = %s FOR SHARE", [account_id])  # noqa: S608
        return cursor.fetchone()[0]


def _period_of_round(
    *, table: Table, jackpot_id: int, rule: HighHandRule, version_id: int, ended_at: datetime, now: datetime
) -> HighHandPeriod:
    """The period ``ended_at`` falls in, opened now (late) when no period of the fund covers it yet."""
    found = HighHandPeriod.objects.filter(jackpot_id=jackpot_id, starts_at__lte=ended_at, ends_at__gt=ended_at).first()
    if found is not None:
        return found
    room = table.room
    starts_at, ends_at = period_at(
        zone=room.timezone,
        every_minutes=rule.period.every_minutes,
        first_starts=rule.period.first_starts,
        at=ended_at,
    )
    ended = ends_at <= now
    try:
        with transaction.atomic():
            return HighHandPeriod.objects.create(
                room=room,
                jackpot_id=jackpot_id,
                rules_version_id=version_id,
                starts_at=starts_at,
                ends_at=ends_at,
                status=PeriodStatus.CLOSED if ended else PeriodStatus.OPEN,
                opened_at=now,
                closed_at=now if ended else None,
                opened_late=True,
                open_note=(
                    f"Opened at {local_time(now, room.timezone)} by a round of table {table.number} that ended in it "
                    "before the schedule had opened it." + (" Closed at once: its end had passed." if ended else "")
                )[:300],
            )
    except IntegrityError:
        # Another round or the schedule opened it meanwhile (one period per fund and start).
        return HighHandPeriod.objects.get(jackpot_id=jackpot_id, starts_at=starts_at)


def _minutes(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}" if minutes < 120 else f"{minutes // 60} hours"


# --- The pool, the awards and their payment -----------------------------------------------------------


def period_announce(*, period: HighHandPeriod, contributions_cents: int, at: datetime) -> HighHandPeriod:
    """Announce a closed period's pool once its boxes are counted and verified (§637a.16(g)): its
    official contributions plus what rolled into it. The highest hand wins; tied hands share equally,
    the odd cents one each to the tied hands in the order they were recorded (``rules.TIE_RULE``, as
    posted); each award's money
    moves from the fund to the awards to collect. With no qualifying hand the whole pool rolls into the
    next period (§637a.16(h)). Periods of a fund are announced in order; runs inside the caller's
    transaction (the schedule's)."""
    period = (
        HighHandPeriod.objects.select_for_update(of=("self",))
        .select_related("jackpot__room", "rules_version")
        .get(pk=period.pk)
    )
    if period.status != PeriodStatus.CLOSED:
        return period
    earlier = HighHandPeriod.objects.filter(
        jackpot=period.jackpot, starts_at__lt=period.starts_at, status__in=(PeriodStatus.OPEN, PeriodStatus.CLOSED)
    )
    if earlier.exists():
        return period  # an earlier period is announced first: what it rolls over joins this pool
    pool = contributions_cents + period.rolled_in_cents
    best = current_high_hand(period=period)
    period.contributions_cents = contributions_cents
    period.pool_cents = pool
    period.announced_at = at
    if best is None:
        # Into the next period whose pool is not announced yet: a period opened late by a round (and
        # announced after the periods that followed it) rolls into the first one still open or closed.
        following = (
            HighHandPeriod.objects.select_for_update()
            .filter(
                jackpot=period.jackpot,
                starts_at__gte=period.ends_at,
                status__in=(PeriodStatus.OPEN, PeriodStatus.CLOSED),
            )
            .order_by("starts_at")
            .first()
        )
        if following is None:
            return period  # the next period is not open yet: announced when it is
        following.rolled_in_cents += pool
        following.save(update_fields=["rolled_in_cents"])
        period.status = PeriodStatus.ROLLED_OVER
        period.waiting_note = ""
        period.save(update_fields=["contributions_cents", "pool_cents", "announced_at", "status", "waiting_note"])
        return period
    winners = list(
        HighHandEntry.objects.filter(period=period, void__isnull=True, strength=best.strength).order_by(
            "recorded_at", "pk"
        )
    )
    rule = jackpot_rule_of_version(version=period.rules_version, code=period.jackpot.code)
    assert isinstance(rule, HighHandRule)
    fund = account_locked(jackpot_fund_account(jackpot=period.jackpot))
    awards = account_locked(jackpot_awards_account(jackpot=period.jackpot))
    for entry, amount in zip(winners, split_evenly(pool, len(winners)), strict=True):
        if amount <= 0:
            continue
        award = HighHandAward.objects.create(
            period=period,
            entry=entry,
            amount_cents=amount,
            # The posted time limit counts from the end of the period the hand was won in (§637a.16(b)(6)).
            collect_by=period.ends_at + timedelta(days=rule.claim_within_days),
        )
        transfer_post_within(
            debit=awards,
            credit=fund,
            amount_cents=amount,
            kind=TransferKind.AWARD,
            idempotency_key=f"high-hand:award:{award.pk}",
            actor=entry.recorded_by,
            reference=award,
            memo=f"{period}: {entry.words}, {entry.player_name} (table {entry.table_id}, seat {entry.seat})"[:300],
        )
    period.status = PeriodStatus.AWARDED
    period.waiting_note = ""
    period.save(update_fields=["contributions_cents", "pool_cents", "announced_at", "status", "waiting_note"])
    return period


def period_wait(*, period: HighHandPeriod, contributions_cents: int, uncounted_cents: int = 0) -> bool:
    """Say on a closed period why it is not announced although its boxes are counted and verified:
    its pool (§637a.16(g): its official contributions plus what rolled in) is more than the fund
    holds, because a correction took back, after an earlier period rolled over into this one, money
    the pool counts; or (``uncounted_cents``) some of its contributions are still in box contents no
    count took out. The note shows in the period's list and page and in the API until the
    announcement clears it; finance puts the fund right and the next run of the schedule announces.
    Written when it changes, not every minute the schedule retries (True when written now; the
    period's history says when); runs inside the caller's transaction (the schedule's)."""
    period = HighHandPeriod.objects.select_for_update(of=("self",)).select_related("jackpot__room").get(pk=period.pk)
    if period.status != PeriodStatus.CLOSED:
        return False
    if uncounted_cents:
        note = (
            f"Not announced: {display_cents(uncounted_cents)} of this period's contributions are still in boxes "
            "not counted (§637a.16(d), (g)); count them and the schedule announces it."
        )[:300]
    else:
        pool = contributions_cents + period.rolled_in_cents
        fund = Account.objects.filter(code=jackpot_fund_account(jackpot=period.jackpot).code).first()
        held = 0 if fund is None else account_balances(accounts=[fund])[fund.pk]
        note = (
            f"Not announced: the pool of {display_cents(pool)} ({display_cents(contributions_cents)} counted, "
            f"{display_cents(period.rolled_in_cents)} rolled in) is more than the fund holds ({display_cents(held)}); "
            f"a correction took back money the pool counts. Put the fund right and the schedule announces it."
        )[:300]
    if period.waiting_note == note:
        return False
    period.waiting_note = note
    period.save(update_fields=["waiting_note"])
    return True


def _unclaimed_kept_in_the_fund_join(*, period: HighHandPeriod) -> None:
    """At a period's close, the uncollected awards kept in the fund since their approval join its pool:
    the posted destination ``fund``, 'added to the next qualifying period's pool when that period closes'
    (§637a.16(i)); the first close the schedule makes after the approval takes them. Inside the
    schedule's transaction."""
    for unclaimed in (
        HighHandUnclaimed.objects.select_for_update(of=("self",))
        .filter(
            award__period__jackpot_id=period.jackpot_id,
            destination="fund",
            approved_at__isnull=False,
            into_period__isnull=True,
        )
        .select_related("award")
    ):
        period.rolled_in_cents += unclaimed.award.amount_cents
        unclaimed.into_period = period
        unclaimed.save(update_fields=["into_period"])
