"""A round's Progressive Payout Wagers: the wagers of each seat and the chips
collected, recorded once, their money to the meter and to the house's share; a mismatch of the wager
count is a ``WagerCountException``, explained by a supervisor's signature."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.ledger.services import (
    Posting,
    account_open_as,
    transfers_post_within,
)
from casino_backoffice.money import display_cents
from casino_backoffice.poker import InvalidCards, parse_cards
from casino_backoffice.poker.cards import format_cards
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.progressive.accounts import (
    meter_account,
    meter_house_account,
    meter_wagers_account,
)
from jackpots.progressive.exceptions import ProgressiveErrorCode
from jackpots.progressive.models import (
    ProgressiveRound,
    ProgressiveWager,
    WagerCountException,
    WagerCountExplanation,
)
from jackpots.progressive.selectors import MeterAtTable, documentation_open, meter_at_table
from jackpots.progressive.services._common import _refuse
from jackpots.progressive.services.meters import meter_lock
from tables.games import Game
from tables.locks import gaming_day_hold_open
from tables.models import Table
from tables.selectors import gaming_day

# --- A round's wagers -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatWager:
    seat: int
    amount_cents: int


def community_read(value: str, game: str) -> str:
    """Mississippi Stud's three community cards as recorded (§655a.8(d)(2)); blank when not given."""
    if not value:
        return ""
    if game != Game.MISSISSIPPI_STUD.value:
        raise _refuse(
            "Community cards are dealt at Mississippi Stud only (§655a.8(d)(2)).", ProgressiveErrorCode.CARDS_INVALID
        )
    try:
        cards = parse_cards(value)
    except InvalidCards as error:
        raise _refuse(f"Community cards {value!r}: {error}", ProgressiveErrorCode.CARDS_INVALID) from None
    if len(cards) != 3:
        raise _refuse(
            f"Three community cards are dealt (§655a.8(d)(2)), not {len(cards)}.", ProgressiveErrorCode.CARDS_INVALID
        )
    return format_cards(cards)


def progressive_round_record(
    *,
    table: Table,
    ended_at: datetime,
    wagers: list[SeatWager],
    chips_collected: int,
    actor: User,
    idempotency_key: str,
    community_cards: str = "",
) -> ProgressiveRound:
    """Record the Progressive Payout Wagers the progressive table game system accepted in a round and
    the value chips the dealer collected (§655a.8(b), §657a.8(b)). The meter rises by the rate of
    progression of each wager; the rest of the wager is the house's share.

    A count of chips that differs from the wagers accepted is recorded with the round as an exception,
    open until a supervisor explains it (``wager_count_explain``); the meter rises by what the system
    accepted. Wager sizes are those the meter accepts (the Envy Bonus schedules, §655a.12(c)(5),
    §657a.12(d)(5)); a seat places one Progressive Payout Wager a round (§655a.7(d), §657a.7(d)(3)); a closed table records no round; a
    table whose payout through the cage is not yet validated records none either (409
    ``payout_documentation_open``: the cards stay on the table, §655a.11(i)(4)(i)(D), §657a.11(e)(4))."""
    action_require(actor=actor, action=Action.PROGRESSIVE_ROUND_RECORD, of=table)
    fingerprint = request_fingerprint(
        {
            "table": table.pk,
            "ended_at": ended_at,
            "wagers": sorted((w.seat, w.amount_cents) for w in wagers),
            "chips": chips_collected,
            "community": community_cards,
            "by": actor.pk,
        }
    )
    once = DocumentOnce(model=ProgressiveRound, idempotency_key=idempotency_key, fingerprint=fingerprint)
    return once.record(
        lambda: _round_write(
            once,
            table=table,
            ended_at=ended_at,
            wagers=wagers,
            chips_collected=chips_collected,
            community_cards=community_cards,
            actor=actor,
        )
    )


def _round_write(
    once: DocumentOnce[ProgressiveRound],
    *,
    table: Table,
    ended_at: datetime,
    wagers: list[SeatWager],
    chips_collected: int,
    community_cards: str,
    actor: User,
) -> ProgressiveRound:
    """The round's rule, once its key is new (``progressive_round_record``): checked, then written
    under the meter's lock with its wagers, its exception and its postings."""
    at, community = _round_check(
        table=table, ended_at=ended_at, wagers=wagers, chips_collected=chips_collected, community_cards=community_cards
    )
    total = sum(w.amount_cents for w in wagers)
    increment = sum(at.rule.increment_cents(wager_cents=w.amount_cents) for w in wagers)
    with transaction.atomic(durable=True):
        meter = meter_lock(at.meter)
        once.replay_under_lock()
        _table_not_held(table)
        # The banked house share is on the revenue report of its day: a closed day stays closed (§637a.17).
        day = gaming_day(room=table.room, at=ended_at)
        gaming_day_hold_open(room=table.room, day=day, what=f"Progressive round at table {table.number}")
        now = timezone.now()
        round_ = ProgressiveRound.objects.create(
            meter=meter,
            table=table,
            rules_version=at.version,
            ended_at=ended_at,
            gaming_day=day,
            wagers_accepted=len(wagers),
            chips_collected=chips_collected,
            wagers_cents=total,
            increment_cents=increment,
            house_cents=total - increment,
            community_cards=community,
            recorded_by=actor,
            recorded_at=now,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        ProgressiveWager.objects.bulk_create(
            [ProgressiveWager(round=round_, seat=w.seat, amount_cents=w.amount_cents) for w in wagers]
        )
        if len(wagers) != chips_collected:
            WagerCountException.objects.create(
                round=round_, wagers_accepted=len(wagers), chips_collected=chips_collected, recorded_at=now
            )
        wagers_account = account_open_as(meter_wagers_account(meter=meter)).pk
        postings = [
            Posting(
                debit_id=account_open_as(spec(meter=meter)).pk,
                credit_id=wagers_account,
                amount_cents=amount,
                kind=TransferKind.PROGRESSIVE_WAGER,
                idempotency_key=f"progressive:round:{round_.pk}:{part}",
                memo=f"Table {table.number}: {len(wagers)} wagers, {part}",
            )
            for spec, amount, part in (
                (meter_account, increment, "meter"),
                (meter_house_account, total - increment, "house"),
            )
            if amount > 0
        ]
        transfers_post_within(postings=postings, actor=actor, reference=round_)
    return round_


def _round_check(
    *, table: Table, ended_at: datetime, wagers: list[SeatWager], chips_collected: int, community_cards: str
) -> tuple[MeterAtTable, str]:
    """The meter the table plays into when the round ended and the community cards as recorded, once
    the table is open and the wagers and chips are what a round of it records; refused naming the rule."""
    if timezone.is_naive(ended_at):
        raise _refuse("ended_at needs its time zone.", ProgressiveErrorCode.INVALID)
    if ended_at > timezone.now() + timedelta(minutes=5):
        raise _refuse("A round is recorded after it ended: ended_at is in the future.", ProgressiveErrorCode.INVALID)
    at = meter_at_table(table=table, at=ended_at)
    if at is None:
        raise _refuse(
            f"Table {table.number} plays into no progressive meter by the rules in effect at {ended_at.isoformat()}.",
            ProgressiveErrorCode.NOT_PROGRESSIVE,
        )
    if not table.is_open:
        raise _refuse(
            f"Table {table.number} is closed; a floorperson opens it before rounds are recorded.",
            ProgressiveErrorCode.TABLE_CLOSED,
        )
    community = community_read(community_cards, table.game)
    _wagers_check(table=table, at=at, wagers=wagers, chips_collected=chips_collected)
    return at, community


def _wagers_check(*, table: Table, at: MeterAtTable, wagers: list[SeatWager], chips_collected: int) -> None:
    """One Progressive Payout Wager a seat (§655a.7(d), §657a.7(d)(3)), of a size the meter accepts
    (§655a.12(c)(5), §657a.12(d)(5)), and the value chips collected (§655a.8(b), §657a.8(b))."""
    seats = [w.seat for w in wagers]
    if len(set(seats)) != len(seats):
        raise _refuse(
            "A seat places one Progressive Payout Wager a round (§655a.7(d), §657a.7(d)(3)).",
            ProgressiveErrorCode.INVALID,
        )
    for wager in wagers:
        if not 1 <= wager.seat <= table.seats:
            raise _refuse(
                f"Seat {wager.seat} is not a seat of table {table.number} (1-{table.seats}).",
                ProgressiveErrorCode.INVALID,
            )
        if wager.amount_cents not in at.rule.wagers_cents:
            sizes = " or ".join(display_cents(c) for c in at.rule.wagers_cents)
            raise _refuse(
                f"A Progressive Payout Wager of {display_cents(wager.amount_cents)} is not accepted by {at.meter.name}: "
                f"it accepts {sizes} ({at.rule.envy_section}).",
                ProgressiveErrorCode.WAGER_SIZE,
            )
    if not isinstance(chips_collected, int) or chips_collected < 0:
        raise _refuse(
            "chips_collected is the number of value chips the dealer collected: 0 or more.",
            ProgressiveErrorCode.INVALID,
        )
    if not wagers and chips_collected == 0:
        raise _refuse(
            "The round has no Progressive Payout Wager and no chip collected: nothing to record.",
            ProgressiveErrorCode.INVALID,
        )


def _table_not_held(table: Table) -> None:
    """Refuse the next round of a table whose payout not paid from the table inventory is not yet
    validated: 'the cards of that player shall remain on the table until the necessary documentation
    has been completed' (§655a.11(i)(4)(i)(D), §657a.11(e)(4)). Read under the meter's lock, which the
    hand's record takes too. Only that player's table is held: the rule keeps the cards on the table
    where they were dealt, and says nothing of the other tables linked to the meter."""
    held = documentation_open(table=table)
    if held is not None:
        raise _refuse(
            f"Table {table.number} is held: the {held.words} at seat {held.seat} (hand {held.pk}, round "
            f"{held.round_id}) is paid through the cage and its validation is not signed. The cards stay on the "
            "table until the documentation is completed (§655a.11(i)(4)(i)(D), §657a.11(e)(4)); a floorperson "
            "or above validates the payout before the next round.",
            ProgressiveErrorCode.PAYOUT_DOCUMENTATION_OPEN,
        )


def wager_count_explain(
    *, exception: WagerCountException, explanation: str, actor: User, pin: str
) -> WagerCountExplanation:
    """A supervisor explains why the chips collected differ from the wagers accepted, and signs (a
    house control over §655a.8(b), §657a.8(b)). Once."""
    action_require(actor=actor, action=Action.PROGRESSIVE_EXPLAIN, of=exception)
    explanation = (explanation or "").strip()
    if not explanation:
        raise _refuse("Say what happened: the explanation stays with the round.", ProgressiveErrorCode.REASON_REQUIRED)
    if WagerCountExplanation.objects.filter(exception_id=exception.pk).exists():
        raise _refuse("This exception is explained already.", ProgressiveErrorCode.ALREADY_EXPLAINED)
    signer = pin_check(user=actor, pin=pin)
    try:
        with transaction.atomic(durable=True):
            exception = WagerCountException.objects.select_for_update().get(pk=exception.pk)
            document = WagerCountExplanation.objects.create(
                exception=exception, explanation=explanation, explained_by=actor, explained_at=signer.verified_at
            )
            signature_add(document=document, rule=WagerCountExplanation.EXPLAINER, signer=signer)
    except IntegrityError:
        raise _refuse("This exception is explained already.", ProgressiveErrorCode.ALREADY_EXPLAINED) from None
    return document
