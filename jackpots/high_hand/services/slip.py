"""The High Hand Tracking Slip (§637a.16(f)): a full house or better verified by a floorperson or above
and recorded on the period's slip, the period's high hand so far, and a shift supervisor's void of a
wrong entry."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.poker import InvalidCards, best_high, parse_cards
from casino_backoffice.poker.cards import format_cards
from casino_backoffice.poker.hands import HandValue
from casino_backoffice.poker.qualifiers import LOWEST_FULL_HOUSE
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.funds.hand_rounds import hand_round_lock, round_disagreement
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import jackpot_rule_of_version, local_time, tables_listing
from jackpots.high_hand.exceptions import HighHandErrorCode
from jackpots.high_hand.hand_rounds import entry_round_find, entry_round_window
from jackpots.high_hand.models import (
    HighHandEntry,
    HighHandPeriod,
    HighHandVoid,
    PeriodStatus,
)
from jackpots.high_hand.rules import HighHandRule
from jackpots.high_hand.services._common import _refuse
from tables.models import Round, Table

# --- The Tracking Slip -----------------------------------------------------------------------------


def current_high_hand(*, period: HighHandPeriod) -> HighHandEntry | None:
    """The best entry of the period not voided (the first recorded among equals), or None."""
    return (
        HighHandEntry.objects.filter(period=period, void__isnull=True)
        .select_related("table")
        .order_by("-strength", "recorded_at", "pk")
        .first()
    )


def entry_record(  # noqa: PLR0913 - the Tracking Slip's columns, each a keyword the API, the tablet and the demo name
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
    once = DocumentOnce(model=HighHandEntry, idempotency_key=idempotency_key, fingerprint=fingerprint)
    asked = _EntryAsked(
        jackpot=jackpot,
        table=table,
        seat=seat,
        values=values,
        dealer=dealer,
        players_dealt_in=players_dealt_in,
        pot_cents=pot_cents,
        cards=cards,
        made_at=made_at,
        round=round,
    )
    return once.record(lambda: _entry_write(once, asked, actor=actor, pin=pin))


@dataclass(frozen=True)
class _EntryAsked:
    """What ``entry_record`` was asked to record (the player's fields stripped, in ``values``)."""

    jackpot: Jackpot
    table: Table
    seat: int
    values: dict[str, str]  # player_name, player_phone, id_type, id_number
    dealer: User
    players_dealt_in: int
    pot_cents: int
    cards: str
    made_at: datetime
    round: Round | None


def _entry_write(once: DocumentOnce[HighHandEntry], asked: _EntryAsked, *, actor: User, pin: str) -> HighHandEntry:
    """The entry's rule, once its key is new (``entry_record``): checked, signed, and written under the
    table's hand lock and the period's lock, higher than or equal to the period's high hand."""
    _player_check(asked, actor=actor)
    hand = _slip_hand_of(asked)
    period = _period_open_for(asked)
    _round_agrees(asked)
    table, seat, round = asked.table, asked.seat, asked.round
    credential = asked.dealer.credential_number
    assert credential  # a dealer without one was refused (_player_check)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        # The table's hand lock first (hand_rounds): a round posted meanwhile is seen here or sees this entry.
        hand_round_lock(table=table)
        if round is None:
            round = entry_round_find(
                table=table, players_dealt_in=asked.players_dealt_in, pot_cents=asked.pot_cents, made_at=asked.made_at
            )
        period = HighHandPeriod.objects.select_for_update().get(pk=period.pk)
        if period.status != PeriodStatus.OPEN:
            raise _refuse("The qualifying period closed meanwhile.", HighHandErrorCode.PERIOD_CLOSED)
        current = _high_hand_met(asked, period=period, hand=hand)
        entry = HighHandEntry.objects.create(
            period=period,
            table=table,
            seat=seat,
            **asked.values,
            cards=format_cards(hand.cards),
            words=str(hand),
            strength=hand[0],
            dealer=asked.dealer,
            dealer_name=asked.dealer.get_full_name() or asked.dealer.username,
            dealer_credential_number=credential,
            players_dealt_in=asked.players_dealt_in,
            pot_cents=asked.pot_cents,
            made_at=asked.made_at,
            round=round,
            tie=current is not None and hand[0] == current.strength,
            recorded_by=actor,
            recorded_at=signer.verified_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        signature_add(document=entry, rule=HighHandEntry.RECORDER, signer=signer)
    return entry


def _player_check(asked: _EntryAsked, *, actor: User) -> None:
    """The player named and identified (§637a.16(f)(1), (b)(7)), the hand's dealer a dealer with a Board
    credential number who is not the verifier (§637a.16(f)(4)), and a seat of the table."""
    values, dealer, table, seat = asked.values, asked.dealer, asked.table, asked.seat
    if not values["player_name"] or not values["player_phone"]:
        raise _refuse("Record the player's name and phone number (§637a.16(f)(1)).", HighHandErrorCode.PLAYER_REQUIRED)
    if not values["id_type"] or not values["id_number"]:
        raise _refuse(
            "Record the player's identification: valid identification is presented for a hand to qualify "
            "(§637a.16(b)(7)).",
            HighHandErrorCode.ID_REQUIRED,
        )
    if Role.DEALER not in dealer.roles:
        raise _refuse(
            f"{dealer} is not a dealer: name the dealer of the hand (§637a.16(f)(4)).",
            HighHandErrorCode.DEALER_REQUIRED,
        )
    if not dealer.credential_number:
        raise _refuse(
            f"Dealer {dealer} has no Board credential number (§637a.16(f)(4)).", HighHandErrorCode.CREDENTIAL_REQUIRED
        )
    if dealer.pk == actor.pk:
        raise _refuse(
            "The dealer calls a floorperson or above, who verifies the hand (§637a.16(f)).",
            HighHandErrorCode.DEALER_IS_VERIFIER,
        )
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= table.seats:
        raise _refuse(
            f"Table {table.number} has seats 1 to {table.seats}, not {seat!r}.", HighHandErrorCode.SEAT_INVALID
        )


def _slip_hand_of(asked: _EntryAsked) -> HandValue:
    """The five cards' hand, made in the past, a full house or better (§637a.16(f))."""
    if asked.made_at > timezone.now():
        raise _refuse("A hand cannot be made in the future.", HighHandErrorCode.MADE_IN_FUTURE)
    try:
        hand_cards = parse_cards(asked.cards)
        if len(hand_cards) != 5:
            raise InvalidCards(f"a hand on the slip is five cards, not {len(hand_cards)}")
        hand = best_high(hand_cards)
    except InvalidCards as error:
        raise _refuse(f"The hand: {error}.", HighHandErrorCode.CARDS_INVALID) from None
    if hand < LOWEST_FULL_HOUSE:
        raise _refuse(
            f"{hand} is below a full house: the slip records a full house or better (§637a.16(f)).",
            HighHandErrorCode.BELOW_MINIMUM,
        )
    return hand


def _period_open_for(asked: _EntryAsked) -> HighHandPeriod:
    """The open qualifying period of the jackpot at the moment the hand was made, at a table that offers
    it, with the posted minimum of players dealt in (§637a.16(b)(4))."""
    jackpot, table = asked.jackpot, asked.table
    if jackpot.kind != JackpotKind.HIGH_HAND or table.room_id != jackpot.room_id:
        raise _refuse(
            f"Table {table.number} does not offer a High Hand as {jackpot.name}.", HighHandErrorCode.NOT_OFFERED
        )
    period = (
        HighHandPeriod.objects.filter(jackpot=jackpot, starts_at__lte=asked.made_at, ends_at__gt=asked.made_at)
        .select_related("rules_version")
        .first()
    )
    if period is None or period.status != PeriodStatus.OPEN:
        raise _refuse(
            f"No qualifying period of {jackpot.name} is open for a hand made at "
            f"{local_time(asked.made_at, jackpot.room.timezone)}.",
            HighHandErrorCode.PERIOD_CLOSED,
        )
    rule = jackpot_rule_of_version(version=period.rules_version, code=jackpot.code)
    assert isinstance(rule, HighHandRule)
    if table.number not in tables_listing(version=period.rules_version, code=jackpot.code):
        raise _refuse(f"Table {table.number} does not offer the {jackpot.name}.", HighHandErrorCode.NOT_OFFERED)
    if asked.players_dealt_in < rule.minimum.min_players_dealt:
        raise _refuse(
            f"Only {asked.players_dealt_in} players were dealt in; at least {rule.minimum.min_players_dealt} are "
            "required (§637a.16(b)(4)).",
            HighHandErrorCode.TOO_FEW_PLAYERS,
        )
    return period


def _round_agrees(asked: _EntryAsked) -> None:
    """A round given is not voided (§637a.18(i)) and agrees with the entry (``round_disagreement``)."""
    round = asked.round
    if round is None:
        return
    if round.voided:
        raise _refuse(
            f"Round {round.pk} was voided (§637a.18(i)): it has no winning hand.", HighHandErrorCode.ROUND_VOIDED
        )
    differs = round_disagreement(
        round=round,
        table=asked.table,
        players_dealt_in=asked.players_dealt_in,
        pot_cents=asked.pot_cents,
        window=entry_round_window(asked.made_at),
    )
    if differs is not None:
        raise _refuse(f"{differs} Nothing was recorded.", HighHandErrorCode.ROUND_MISMATCH)


def _high_hand_met(asked: _EntryAsked, *, period: HighHandPeriod, hand: HandValue) -> HighHandEntry | None:
    """Under the period's lock: the period's high hand, which the entry is not lower than (§637a.16(f));
    an equal hand ties it, unless the same player (same seat, same ID) is on the slip with it already."""
    table, seat = asked.table, asked.seat
    current = current_high_hand(period=period)
    if current is not None and hand[0] < current.strength:
        raise _refuse(
            f"{hand} is lower than the period's high hand, {current.words} (table {current.table.number}, "
            f"seat {current.seat}): only a higher or equal hand is recorded (§637a.16(f)).",
            HighHandErrorCode.NOT_HIGHER,
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
            id_number=asked.values["id_number"],
        ).exists()
    ):
        # The same player (same seat, same ID) again: a new player in that seat may still tie.
        raise _refuse(
            f"The player at table {table.number}, seat {seat} (the same ID) is on the slip already with "
            f"{current.words}: an equal hand of theirs ties nobody new.",
            HighHandErrorCode.ALREADY_RECORDED,
        )
    return current


def entry_void(*, entry: HighHandEntry, reason: str, actor: User, pin: str) -> HighHandVoid:
    """A shift supervisor voids a wrong entry with a reason and signs; the entry stays on the slip and
    the period's high hand falls back to the best entry left. Refused once the period's pool was
    announced (its awards stand)."""
    action_require(actor=actor, action=Action.HIGH_HAND_VOID, of=entry)
    reason = (reason or "").strip()
    if not reason:
        raise _refuse("Say why the entry is void: the reason stays on the slip.", HighHandErrorCode.REASON_REQUIRED)
    if HighHandVoid.objects.filter(entry_id=entry.pk).exists():
        raise _refuse(f"Entry {entry.pk} is void already.", HighHandErrorCode.ALREADY_VOID)
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        period = HighHandPeriod.objects.select_for_update().get(pk=entry.period_id)
        if period.status in (PeriodStatus.AWARDED, PeriodStatus.ROLLED_OVER):
            raise _refuse(f"The pool of {period} was announced: its slip is final.", HighHandErrorCode.PERIOD_ANNOUNCED)
        if HighHandVoid.objects.filter(entry_id=entry.pk).exists():
            raise _refuse(f"Entry {entry.pk} is void already.", HighHandErrorCode.ALREADY_VOID)
        void = HighHandVoid.objects.create(
            entry_id=entry.pk,
            entry_recorded_by_id=entry.recorded_by_id,
            reason=reason,
            voided_by=actor,
            voided_at=signer.verified_at,
        )
        signature_add(document=void, rule=HighHandVoid.VOIDER, signer=signer)
    return void
