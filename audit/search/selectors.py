"""``chain_search``: the documents that start a trace, found by what compliance and finance know of
them, in the actor's rooms, at most ``SEARCH_LIMIT`` of them.

Each kind of document carries some of the criteria (a seal is a transport's, a patron a payment's); a
kind is searched only when it carries every criterion asked, so a search by seal and amount finds the
transports and verifications of that seal and amount, never a payment of that amount. Every lookup is
by key or by room first (the room and gaming day indexes of counts, transports, verifications and
claims), then narrowed; each kind reads at most ``SEARCH_LIMIT`` rows, newest first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.db.models import Model, Q, QuerySet

from cage.models import CageVerification, Count, CountStatus, Transport
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.money import display_cents
from casino_backoffice.staff.permissions import Action, action_require, may
from jackpots.bad_beat.models import BadBeatClaim, BadBeatPayment
from jackpots.high_hand.models import HighHandAward, HighHandAwardPayment
from jackpots.progressive.models import ProgressiveHand, ProgressivePayment
from tables.models import PokerRoom
from tables.selectors import gaming_day as day_of
from tables.selectors import gaming_day_bounds, visible_to

SEARCH_LIMIT = 50
# The kinds of document a cashier may find: the payments they made.
PAYMENT_KINDS = ("payment", "award_payment", "hit_payment")


def trace_url(kind: str, pk: int) -> str:
    """The trace page of a document: ``/audit/trace/?<kind>=<id>``."""
    return "/audit/trace/?" + urlencode({kind: pk})


@dataclass(frozen=True)
class SearchRow:
    """One document found: what starts its trace (``kind``, ``id``), in words, where and when, its amount."""

    kind: str
    id: int
    label: str
    room: str
    gaming_day: date | None
    amount_cents: int | None
    trace_url: str


@dataclass(frozen=True)
class Criteria:
    room: PokerRoom | None = None
    gaming_day: date | None = None
    table: str | None = None
    seal: str | None = None
    patron: str | None = None
    id_last4: str | None = None
    amount_cents: int | None = None
    transfer: int | None = None

    def asked(self) -> frozenset[str]:
        """The criteria given, the room aside (every kind has one)."""
        names = ("gaming_day", "table", "seal", "patron", "id_last4", "amount_cents", "transfer")
        return frozenset(name for name in names if getattr(self, name) not in (None, ""))


@dataclass(frozen=True)
class Kind:
    """A kind of document the search finds: its model, the path of each criterion it carries, and
    how a row of it reads."""

    name: str
    model: type[Model]
    paths: dict[str, str]  # criterion -> lookup
    room: str  # the lookup of its room
    related: tuple[str, ...]
    row: Callable[[Any], tuple[str, str, date | None, int | None]]  # label, room code, day, amount
    paid_by: str | None = None  # for a payment: the lookup of who paid it


# A High Hand award has no gaming day of its own (its period may cross the day's start): it is the day's
# when its period began in it, the rule of the day's package (``audit.package``).
PERIOD_BEGAN = "period_began:"


def _period_began_in(prefix: str, day: date, criteria: Criteria) -> Q:
    """The periods (at ``prefix``) that began in gaming ``day`` of their room: one range per room, each
    room's day starting at its own hour on its own clock."""
    rooms = [criteria.room] if criteria.room is not None else list(PokerRoom.objects.all())
    found = Q(pk__in=[])
    for room in rooms:
        start, end = gaming_day_bounds(room=room, day=day)
        found |= Q(**{f"{prefix}room": room, f"{prefix}starts_at__gte": start, f"{prefix}starts_at__lt": end})
    return found


def _lookups(kind: Kind, criteria: Criteria) -> Q:
    found = Q()
    for name in criteria.asked():
        value = getattr(criteria, name)
        path = kind.paths[name]
        if path.startswith(PERIOD_BEGAN):
            found &= _period_began_in(path.removeprefix(PERIOD_BEGAN), value, criteria)
        elif name == "patron":
            found &= Q(**{f"{path}__icontains": value.strip()})
        elif name == "id_last4":
            found &= Q(**{f"{path}__endswith": value.strip()})
        elif name == "seal":
            found &= Q(**{f"{path}__iexact": value.strip()})
        elif name == "table":
            found &= Q(**{f"{path}__iexact": value.strip()})
        else:
            found &= Q(**{path: value})
    return found


def _claim_row(claim: BadBeatClaim) -> tuple[str, str, date | None, int | None]:
    return (
        f"Bad Beat claim {claim.pk} at {claim.table.number}: {claim.hand_name}",
        claim.room.code,
        claim.gaming_day,
        None,
    )


def _count_row(count: Count) -> tuple[str, str, date | None, int | None]:
    label = f"Count {count.pk} of box {count.box.code} ({count.get_place_display().lower()})"
    return label, count.box.room.code, count.gaming_day, count.counted_cents


def _transport_row(transport: Transport) -> tuple[str, str, date | None, int | None]:
    label = f"Transport {transport.pk}, seal {transport.seal} ({transport.get_status_display().lower()})"
    return label, transport.room.code, transport.gaming_day, transport.declared_cents


def _verification_row(verification: CageVerification) -> tuple[str, str, date | None, int | None]:
    label = f"Cage verification {verification.pk} of seal {verification.transport.seal}"
    return label, verification.room.code, verification.gaming_day, verification.counted_cents


def _payment_row(payment: BadBeatPayment) -> tuple[str, str, date | None, int | None]:
    claim = payment.share.distribution.claim
    label = f"Bad Beat payment {payment.pk} to {payment.patron_name} (ID …{payment.id_number[-4:]}), claim {claim.pk}"
    return label, claim.room.code, claim.gaming_day, payment.share.amount_cents


def _award_row(award: HighHandAward) -> tuple[str, str, date | None, int | None]:
    label = f"High Hand award {award.pk} to {award.entry.player_name} at {award.entry.table.number}"
    period = award.period
    return label, period.room.code, day_of(room=period.room, at=period.starts_at), award.amount_cents


def _award_payment_row(payment: HighHandAwardPayment) -> tuple[str, str, date | None, int | None]:
    award = payment.award
    label = f"High Hand award payment {payment.pk} to {award.entry.player_name} (ID …{payment.id_number[-4:]})"
    period = award.period
    return label, period.room.code, day_of(room=period.room, at=period.starts_at), award.amount_cents


def _hit_row(hand: ProgressiveHand) -> tuple[str, str, date | None, int | None]:
    round_ = hand.round
    label = f"Progressive hit {hand.pk} at {round_.table.number}, seat {hand.seat}: {hand.words}"
    return label, round_.table.room.code, round_.gaming_day, hand.amount_cents


def _hit_payment_row(payment: ProgressivePayment) -> tuple[str, str, date | None, int | None]:
    round_ = payment.hand.round
    label = f"Progressive payment {payment.pk} to {payment.patron_name} (ID …{payment.id_number[-4:]})"
    return label, round_.table.room.code, round_.gaming_day, payment.hand.amount_cents


def _transfer_row(transfer: Transfer) -> tuple[str, str, date | None, int | None]:
    room = transfer.debit.code.split(":")[1] if transfer.debit.code.count(":") >= 1 else ""
    label = f"Ledger transfer {transfer.pk}: {transfer.debit.code} → {transfer.credit.code}"
    return label, room, None, transfer.amount_cents


_CLAIM = "share__distribution__claim__"
_HIT = "hand__round__"
KINDS: tuple[Kind, ...] = (
    Kind(
        "count",
        Count,
        {"gaming_day": "gaming_day", "table": "box__table__number", "amount_cents": "counted_cents"},
        room="box__room",
        related=("box__room",),
        row=_count_row,
    ),
    Kind(
        "transport",
        Transport,
        {"gaming_day": "gaming_day", "seal": "seal", "amount_cents": "declared_cents"},
        room="room",
        related=("room",),
        row=_transport_row,
    ),
    Kind(
        "verification",
        CageVerification,
        {"gaming_day": "gaming_day", "seal": "transport__seal", "amount_cents": "counted_cents"},
        room="room",
        related=("room", "transport"),
        row=_verification_row,
    ),
    Kind(
        "claim",
        BadBeatClaim,
        {"gaming_day": "gaming_day", "table": "table__number"},
        room="room",
        related=("room", "table"),
        row=_claim_row,
    ),
    Kind(
        "payment",
        BadBeatPayment,
        {
            "gaming_day": f"{_CLAIM}gaming_day",
            "table": f"{_CLAIM}table__number",
            "patron": "patron_name",
            "id_last4": "id_number",
            "amount_cents": "share__amount_cents",
        },
        room=f"{_CLAIM}room",
        related=(f"{_CLAIM}room", "share"),
        row=_payment_row,
        paid_by="paid_by",
    ),
    Kind(
        "award",
        HighHandAward,
        {
            "gaming_day": f"{PERIOD_BEGAN}period__",
            "table": "entry__table__number",
            "patron": "entry__player_name",
            "id_last4": "entry__id_number",
            "amount_cents": "amount_cents",
        },
        room="period__room",
        related=("period__room", "entry__table"),
        row=_award_row,
    ),
    Kind(
        "award_payment",
        HighHandAwardPayment,
        {
            "gaming_day": f"{PERIOD_BEGAN}award__period__",
            "table": "award__entry__table__number",
            "patron": "award__entry__player_name",
            "id_last4": "id_number",
            "amount_cents": "award__amount_cents",
        },
        room="award__period__room",
        related=("award__period__room", "award__entry"),
        row=_award_payment_row,
        paid_by="paid_by",
    ),
    Kind(
        "hit",
        ProgressiveHand,
        {"gaming_day": "round__gaming_day", "table": "round__table__number", "amount_cents": "amount_cents"},
        room="round__table__room",
        related=("round__table__room",),
        row=_hit_row,
    ),
    Kind(
        "hit_payment",
        ProgressivePayment,
        {
            "gaming_day": f"{_HIT}gaming_day",
            "table": f"{_HIT}table__number",
            "patron": "patron_name",
            "id_last4": "id_number",
            "amount_cents": "hand__amount_cents",
        },
        room=f"{_HIT}table__room",
        related=(f"{_HIT}table__room", "hand"),
        row=_hit_payment_row,
        paid_by="paid_by",
    ),
    Kind("transfer", Transfer, {"transfer": "pk"}, room="", related=("debit", "credit"), row=_transfer_row),
)


def _rows_of(kind: Kind, criteria: Criteria, *, actor: Any, own_payments: bool) -> QuerySet[Any]:
    rows = kind.model._default_manager.filter(_lookups(kind, criteria))
    if kind.name == "count":
        rows = rows.exclude(status=CountStatus.SUPERSEDED)  # a recount's trace tells the superseded count
    if own_payments and kind.paid_by:
        rows = rows.filter(**{kind.paid_by: actor})
    if criteria.room is not None:
        rows = (
            rows.filter(**{kind.room: criteria.room})
            if kind.room
            else rows.filter(
                Q(debit__code__contains=f":{criteria.room.code}:") | Q(debit__code__endswith=f":{criteria.room.code}")
            )
        )
    scoped = visible_to(actor, rows, path=kind.room or None)
    return scoped.select_related(*kind.related).order_by("-pk")[:SEARCH_LIMIT]


def chain_search(
    *,
    actor: Any,
    room: PokerRoom | None = None,
    gaming_day: date | None = None,
    table: str | None = None,
    seal: str | None = None,
    patron: str | None = None,
    id_last4: str | None = None,
    amount_cents: int | None = None,
    transfer: int | None = None,
) -> list[SearchRow]:
    """The documents of the actor's rooms (and of ``room`` when given) that match every criterion
    given, each with the URL of its trace: for compliance and finance every kind
    (``Action.TRACE_SEARCH``), for a cage cashier only the payments they made
    (``Action.OWN_PAYMENTS_SEARCH``); anyone else is refused (``ActionNotPermitted``). No criterion but
    the room finds nothing: a search names what it looks for. At most ``SEARCH_LIMIT`` rows, by kind
    then newest first."""
    own_payments = may(actor, Action.OWN_PAYMENTS_SEARCH) and not may(actor, Action.TRACE_SEARCH)
    action_require(actor=actor, action=Action.OWN_PAYMENTS_SEARCH if own_payments else Action.TRACE_SEARCH)
    criteria = Criteria(room, gaming_day, table, seal, patron, id_last4, amount_cents, transfer)
    asked = criteria.asked()
    if not asked:
        return []
    found: list[SearchRow] = []
    for kind in KINDS:
        if not asked <= set(kind.paths) or (own_payments and kind.name not in PAYMENT_KINDS):
            continue
        for document in _rows_of(kind, criteria, actor=actor, own_payments=own_payments):
            label, room_code, day, cents = kind.row(document)
            found.append(
                SearchRow(kind.name, document.pk, label, room_code, day, cents, trace_url(kind.name, document.pk))
            )
            if len(found) >= SEARCH_LIMIT:
                return found
    return found


def amount_words(row: SearchRow) -> str:
    return "" if row.amount_cents is None else display_cents(row.amount_cents)
