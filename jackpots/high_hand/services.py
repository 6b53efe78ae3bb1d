"""The High Hand Jackpot (§637a.16): the schedule of qualifying periods, the Tracking Slip, the
announcement of a period's pool and its awards, their payment at the cage, and uncollected awards.

'(f) At the start of each qualifying period, dealers shall begin tracking hands. When a player has a
full house ... the dealer shall call a floorperson or above who shall verify the hand and record the
value on the High Hand Tracking Slip. As the value of the hands increase during the qualifying period,
the value of the next higher hand shall be announced and the floorperson or above shall record on the
High Hand Tracking Slip the next higher value hand.'

'(h) The player or players with the highest Qualifying High Hand during the qualifying period shall be
awarded the High Hand Jackpot payout. High Hand Jackpot payouts shall be paid from the main cage or
satellite cage. If, however, a full house was not made by any player during the qualifying period, the
High Hand Jackpot payout contribution amounts shall be added to the next High Hand Jackpot payout
qualifying period.'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.idempotency import document_replay, document_replay_after, request_fingerprint
from casino_backoffice.ledger.models import Account, TransferKind
from casino_backoffice.ledger.selectors import account_balances
from casino_backoffice.ledger.services import account_locked, account_open_as, transfer_post_within
from casino_backoffice.money import display_cents, split_evenly
from casino_backoffice.poker import InvalidCards, best_high, parse_cards
from casino_backoffice.poker.cards import format_cards
from casino_backoffice.poker.qualifiers import LOWEST_FULL_HOUSE
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.segregation import independent_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.funds.accounts import jackpot_awards_account, jackpot_fund_account, jackpot_paid_account
from jackpots.funds.hand_rounds import hand_round_lock, round_disagreement
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import jackpot_rule_of_version, local_time, tables_listing
from jackpots.high_hand.accounts import high_hand_box_content_account
from jackpots.high_hand.exceptions import HighHandRefused
from jackpots.high_hand.hand_rounds import entry_round_find, entry_round_window
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    HighHandVoid,
    PeriodStatus,
)
from jackpots.high_hand.periods import period_at, qualifying_periods
from jackpots.high_hand.rules import HighHandRule
from jackpots.high_hand.selectors import unclaimed_next_period
from tables.models import PokerRoom, Round, Table
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
            "period_box_counted",
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


# --- The Tracking Slip -----------------------------------------------------------------------------


def current_high_hand(*, period: HighHandPeriod) -> HighHandEntry | None:
    """The best entry of the period not voided (the first recorded among equals), or None."""
    return (
        HighHandEntry.objects.filter(period=period, void__isnull=True)
        .select_related("table")
        .order_by("-strength", "recorded_at", "pk")
        .first()
    )


def _refuse(message: str, code: str) -> HighHandRefused:
    return HighHandRefused(message, code=code)


def entry_record(
    *,
    jackpot: Jackpot,
    table: Table,
    seat: int,
    player_name: str,
    player_phone: str,
    id_type: str,
    id_number: str,
    dealer: User,
    players_dealt_in: int,
    pot_cents: int,
    cards: str,
    made_at: datetime,
    actor: User,
    pin: str,
    idempotency_key: str,
    round: Round | None = None,
) -> HighHandEntry:
    """The floorperson or above who verified a hand records it on the period's High Hand Tracking Slip
    and signs (§637a.16(f)). Refused, with the rule named: a hand below a full house
    (``below_minimum``), one lower than the period's current high hand (``not_higher``; an equal hand
    is recorded as a tie), a moment outside an open period (``period_closed``), too few players dealt
    in (``too_few_players``), a missing identification (§637a.16(b)(7)) or a dealer without a Board
    credential number.

    The pot is recorded, never a reason to refuse: the posted minimum pot is 'the minimum pot amount
    required before the contribution to the High Hand Jackpot is collected' (§637a.16(b)(3)), a
    threshold of the contribution measured after the rake, not a restriction on qualifying
    (§637a.16(b)(7)); a hand of a pot too small to contribute still qualifies, as the posted rules say.

    The hand belongs to its round (``jackpots.high_hand.hand_rounds``): a ``round`` given must agree
    with the entry (its table, its players dealt in, its pot, and its end from a minute before
    ``made_at`` to 10 minutes after: a hand is made during its round), else the entry is refused naming
    what differs (``round_mismatch``), or a voided round (``round_voided``). Without one, the entry takes
    the one logged round that agrees with it; with none yet, it is linked when its round is logged."""
    action_require(actor=actor, action=Action.HIGH_HAND_RECORD, of=table)
    values = {
        "player_name": (player_name or "").strip(),
        "player_phone": (player_phone or "").strip(),
        "id_type": (id_type or "").strip(),
        "id_number": (id_number or "").strip(),
    }
    fingerprint = request_fingerprint(
        {
            "jackpot": jackpot.pk,
            "table": table.pk,
            "seat": seat,
            **values,
            "dealer": dealer.pk,
            "players_dealt_in": players_dealt_in,
            "pot_cents": pot_cents,
            "cards": cards,
            "made_at": made_at,
            "round": round.pk if round is not None else None,
            "by": actor.pk,
        }
    )
    replayed = document_replay(model=HighHandEntry, idempotency_key=idempotency_key, fingerprint=fingerprint)
    if replayed is not None:
        return replayed
    if not values["player_name"] or not values["player_phone"]:
        raise _refuse("Record the player's name and phone number (§637a.16(f)(1)).", "player_required")
    if not values["id_type"] or not values["id_number"]:
        raise _refuse(
            "Record the player's identification: valid identification is presented for a hand to qualify "
            "(§637a.16(b)(7)).",
            "id_required",
        )
    if Role.DEALER not in dealer.roles:
        raise _refuse(f"{dealer} is not a dealer: name the dealer of the hand (§637a.16(f)(4)).", "dealer_required")
    if not dealer.credential_number:
        raise _refuse(f"Dealer {dealer} has no Board credential number (§637a.16(f)(4)).", "credential_required")
    if dealer.pk == actor.pk:
        raise _refuse(
            "The dealer calls a floorperson or above, who verifies the hand (§637a.16(f)).", "dealer_is_verifier"
        )
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= table.seats:
        raise _refuse(f"Table {table.number} has seats 1 to {table.seats}, not {seat!r}.", "seat_invalid")
    now = timezone.now()
    if made_at > now:
        raise _refuse("A hand cannot be made in the future.", "made_in_future")
    try:
        hand_cards = parse_cards(cards)
        if len(hand_cards) != 5:
            raise InvalidCards(f"a hand on the slip is five cards, not {len(hand_cards)}")
        hand = best_high(hand_cards)
    except InvalidCards as error:
        raise _refuse(f"The hand: {error}.", "cards_invalid") from None
    if hand < LOWEST_FULL_HOUSE:
        raise _refuse(
            f"{hand} is below a full house: the slip records a full house or better (§637a.16(f)).", "below_minimum"
        )
    if jackpot.kind != JackpotKind.HIGH_HAND or table.room_id != jackpot.room_id:
        raise _refuse(f"Table {table.number} does not offer a High Hand as {jackpot.name}.", "not_offered")
    period = (
        HighHandPeriod.objects.filter(jackpot=jackpot, starts_at__lte=made_at, ends_at__gt=made_at)
        .select_related("rules_version")
        .first()
    )
    if period is None or period.status != PeriodStatus.OPEN:
        raise _refuse(
            f"No qualifying period of {jackpot.name} is open for a hand made at "
            f"{local_time(made_at, jackpot.room.timezone)}.",
            "period_closed",
        )
    rule = jackpot_rule_of_version(version=period.rules_version, code=jackpot.code)
    assert isinstance(rule, HighHandRule)
    if table.number not in tables_listing(version=period.rules_version, code=jackpot.code):
        raise _refuse(f"Table {table.number} does not offer the {jackpot.name}.", "not_offered")
    if players_dealt_in < rule.minimum.min_players_dealt:
        raise _refuse(
            f"Only {players_dealt_in} players were dealt in; at least {rule.minimum.min_players_dealt} are required "
            "(§637a.16(b)(4)).",
            "too_few_players",
        )
    if round is not None:
        if round.voided:
            raise _refuse(f"Round {round.pk} was voided (§637a.18(i)): it has no winning hand.", "round_voided")
        differs = round_disagreement(
            round=round,
            table=table,
            players_dealt_in=players_dealt_in,
            pot_cents=pot_cents,
            window=entry_round_window(made_at),
        )
        if differs is not None:
            raise _refuse(f"{differs} Nothing was recorded.", "round_mismatch")
    signer = pin_check(user=actor, pin=pin)
    try:
        with transaction.atomic(durable=True):
            # The table's hand lock first (hand_rounds): a round posted meanwhile is seen here or sees this entry.
            hand_round_lock(table=table)
            if round is None:
                round = entry_round_find(
                    table=table, players_dealt_in=players_dealt_in, pot_cents=pot_cents, made_at=made_at
                )
            period = HighHandPeriod.objects.select_for_update().get(pk=period.pk)
            if period.status != PeriodStatus.OPEN:
                raise _refuse("The qualifying period closed meanwhile.", "period_closed")
            current = current_high_hand(period=period)
            if current is not None and hand[0] < current.strength:
                raise _refuse(
                    f"{hand} is lower than the period's high hand, {current.words} (table {current.table.number}, "
                    f"seat {current.seat}): only a higher or equal hand is recorded (§637a.16(f)).",
                    "not_higher",
                )
            if (
                current is not None
                and hand[0] == current.strength
                and HighHandEntry.objects.filter(
                    period=period,
                    void__isnull=True,
                    table=table,
                    seat=seat,
                    strength=hand[0],
                    id_number=values["id_number"],
                ).exists()
            ):
                # The same player (same seat, same ID) again: a new player in that seat may still tie.
                raise _refuse(
                    f"The player at table {table.number}, seat {seat} (the same ID) is on the slip already with "
                    f"{current.words}: an equal hand of theirs ties nobody new.",
                    "already_recorded",
                )
            entry = HighHandEntry.objects.create(
                period=period,
                table=table,
                seat=seat,
                **values,
                cards=format_cards(hand.cards),
                words=str(hand),
                strength=hand[0],
                dealer=dealer,
                dealer_name=dealer.get_full_name() or dealer.username,
                dealer_credential_number=dealer.credential_number,
                players_dealt_in=players_dealt_in,
                pot_cents=pot_cents,
                made_at=made_at,
                round=round,
                tie=current is not None and hand[0] == current.strength,
                recorded_by=actor,
                recorded_at=signer.verified_at,
                idempotency_key=idempotency_key,
                request_sha256=fingerprint,
            )
            signature_add(document=entry, rule=HighHandEntry.RECORDER, signer=signer)
    except (IntegrityError, DomainError) as error:
        return document_replay_after(
            error, model=HighHandEntry, idempotency_key=idempotency_key, fingerprint=fingerprint
        )
    return entry


def entry_void(*, entry: HighHandEntry, reason: str, actor: User, pin: str) -> HighHandVoid:
    """A shift supervisor voids a wrong entry with a reason and signs; the entry stays on the slip and
    the period's high hand falls back to the best entry left. Refused once the period's pool was
    announced (its awards stand)."""
    action_require(actor=actor, action=Action.HIGH_HAND_VOID, of=entry)
    reason = (reason or "").strip()
    if not reason:
        raise _refuse("Say why the entry is void: the reason stays on the slip.", "reason_required")
    if HighHandVoid.objects.filter(entry_id=entry.pk).exists():
        raise _refuse(f"Entry {entry.pk} is void already.", "already_void")
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        period = HighHandPeriod.objects.select_for_update().get(pk=entry.period_id)
        if period.status in (PeriodStatus.AWARDED, PeriodStatus.ROLLED_OVER):
            raise _refuse(f"The pool of {period} was announced: its slip is final.", "period_announced")
        if HighHandVoid.objects.filter(entry_id=entry.pk).exists():
            raise _refuse(f"Entry {entry.pk} is void already.", "already_void")
        void = HighHandVoid.objects.create(
            entry_id=entry.pk,
            entry_recorded_by_id=entry.recorded_by_id,
            reason=reason,
            voided_by=actor,
            voided_at=signer.verified_at,
        )
        signature_add(document=void, rule=HighHandVoid.VOIDER, signer=signer)
    return void


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


def award_pay(
    *, award: HighHandAward, id_type: str, id_number: str, actor: User, pin: str, idempotency_key: str
) -> HighHandAwardPayment:
    """A cage cashier pays an award and signs (§637a.16(h)), against the identification recorded with
    the hand (§637a.16(b)(7)); the winner need not have been present at the close (b)(6). Paid once;
    not after it went where the rules send uncollected awards. Not the floorperson or above who
    verified and recorded the hand on the Tracking Slip (§637a.16(f)), whatever roles they hold."""
    action_require(actor=actor, action=Action.HIGH_HAND_PAY, of=award)
    id_type, id_number = (id_type or "").strip(), (id_number or "").strip()
    fingerprint = request_fingerprint({"award": award.pk, "id_type": id_type, "id_number": id_number, "by": actor.pk})
    replayed = document_replay(model=HighHandAwardPayment, idempotency_key=idempotency_key, fingerprint=fingerprint)
    if replayed is not None:
        return replayed
    try:
        award = HighHandAward.objects.select_related("entry", "period__jackpot__room").get(pk=award.pk)
        if (id_type.casefold(), id_number.casefold()) != (
            award.entry.id_type.casefold(),
            award.entry.id_number.casefold(),
        ):
            raise _refuse(
                "The identification presented is not the one recorded with the hand on the Tracking Slip "
                "(§637a.16(b)(7)); nothing was paid.",
                "id_mismatch",
            )
        _payable(award)
        independent_require(person=actor, step="payment of the award", earlier=[award.entry], section="§637a.16(h)")
        signer = pin_check(user=actor, pin=pin)
        with transaction.atomic(durable=True):
            award = (
                HighHandAward.objects.select_for_update(of=("self",))
                .select_related("entry", "period__jackpot__room")
                .get(pk=award.pk)
            )
            again = document_replay(
                model=HighHandAwardPayment, idempotency_key=idempotency_key, fingerprint=fingerprint
            )
            if again is not None:
                return again
            _payable(award)
            awards = account_locked(jackpot_awards_account(jackpot=award.period.jackpot))
            payment = HighHandAwardPayment.objects.create(
                award=award,
                id_type=id_type,
                id_number=id_number,
                paid_by=actor,
                paid_at=signer.verified_at,
                idempotency_key=idempotency_key,
                request_sha256=fingerprint,
            )
            transfer_post_within(
                debit=account_open_as(jackpot_paid_account(jackpot=award.period.jackpot)),
                credit=awards,
                amount_cents=award.amount_cents,
                kind=TransferKind.PAYOUT,
                idempotency_key=f"high-hand:award:{award.pk}:paid",
                actor=actor,
                reference=payment,
                memo=f"High Hand award {award.pk} to {award.entry.player_name}"[:300],
            )
            signature_add(document=payment, rule=HighHandAwardPayment.PAYER, signer=signer)
    except DomainError as error:
        return document_replay_after(
            error, model=HighHandAwardPayment, idempotency_key=idempotency_key, fingerprint=fingerprint
        )
    except IntegrityError:
        replayed = document_replay(model=HighHandAwardPayment, idempotency_key=idempotency_key, fingerprint=fingerprint)
        if replayed is None:
            raise _refuse(f"Award {award.pk} is paid already; nothing was paid twice.", "award_already_paid") from None
        return replayed
    return payment


def _payable(award: HighHandAward) -> None:
    if HighHandAwardPayment.objects.filter(award_id=award.pk).exists():
        raise HighHandRefused(f"Award {award.pk} is paid already; nothing was paid twice.", code="award_already_paid")
    if HighHandUnclaimed.objects.filter(award_id=award.pk).exists():
        raise HighHandRefused(
            f"Award {award.pk} was not collected by {local_time(award.collect_by, award.period.jackpot.room.timezone)} "
            "and went where the posted rules send it (§637a.16(i)).",
            code="award_expired",
        )


def unclaimed_prepare(*, room: PokerRoom, at: datetime) -> list[HighHandUnclaimed]:
    """The schedule prepares the transfer of each award not collected by its time limit (§637a.16(i));
    finance approves it (``unclaimed_approve``). One per award (a unique key)."""
    prepared = []
    for award in HighHandAward.objects.filter(
        period__room=room, collect_by__lte=at, payment__isnull=True, unclaimed__isnull=True
    ).select_related("period__rules_version", "period__jackpot"):
        rule = jackpot_rule_of_version(version=award.period.rules_version, code=award.period.jackpot.code)
        assert isinstance(rule, HighHandRule)
        try:
            with transaction.atomic():
                prepared.append(
                    HighHandUnclaimed.objects.create(award=award, destination=rule.unclaimed, prepared_at=at)
                )
        except IntegrityError:
            continue
    return prepared


def unclaimed_approve(*, unclaimed: HighHandUnclaimed, actor: User, pin: str) -> HighHandUnclaimed:
    """Finance approves and signs the transfer of an uncollected award (§637a.16(i): 'the procedure for
    distributing High Hand Jackpot payouts which have not been collected within the time period'); its
    money moves back from the awards to collect to the fund, and then where the posted rules say:

    - ``next_period``: into the pool of the qualifying period open when the time limit ends
      (``selectors.unclaimed_next_period``), at once;
    - ``fund``: kept in the fund, and added to the pool of the next period to close after the approval,
      at its close (``periods_run`` attaches it; until then the award's ``into_period`` is empty)."""
    action_require(actor=actor, action=Action.HIGH_HAND_UNCLAIMED_APPROVE, of=unclaimed)
    if unclaimed.approved_by_id is not None:
        raise _refuse(f"The transfer of award {unclaimed.award_id} was approved already.", "already_approved")
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        unclaimed = (
            HighHandUnclaimed.objects.select_for_update(of=("self",))
            .select_related("award__period__jackpot__room")
            .get(pk=unclaimed.pk)
        )
        if unclaimed.approved_by_id is not None:
            raise _refuse(f"The transfer of award {unclaimed.award_id} was approved already.", "already_approved")
        award = unclaimed.award
        into = None
        if unclaimed.destination == "next_period":
            found = unclaimed_next_period(unclaimed)
            if found is None:
                raise _refuse(
                    "No qualifying period open at or after the award's time limit is there to take it; try again "
                    "when one opens (§637a.16(i)).",
                    "no_period",
                )
            into = HighHandPeriod.objects.select_for_update(of=("self",)).get(pk=found.pk)
        awards = account_locked(jackpot_awards_account(jackpot=award.period.jackpot))
        fund = account_locked(jackpot_fund_account(jackpot=award.period.jackpot))
        signature_add(document=unclaimed, rule=HighHandUnclaimed.APPROVER, signer=signer)
        transfer_post_within(
            debit=fund,
            credit=awards,
            amount_cents=award.amount_cents,
            kind=TransferKind.AWARD,
            idempotency_key=f"high-hand:award:{award.pk}:unclaimed",
            actor=actor,
            reference=unclaimed,
            memo=(
                f"Award {award.pk} not collected: into {into} (§637a.16(i))"
                if into is not None
                else f"Award {award.pk} not collected: kept in the fund, into the next pool at its close (§637a.16(i))"
            )[:300],
        )
        if into is not None:
            into.rolled_in_cents += award.amount_cents
            into.save(update_fields=["rolled_in_cents"])
        unclaimed.approved_by = actor
        unclaimed.approved_at = signer.verified_at
        unclaimed.into_period = into
        unclaimed.save(update_fields=["approved_by", "approved_at", "into_period"])
    return unclaimed


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
