"""Reads of the cage: boxes and what they hold, the official record, variances, the custody log.

Every figure is a SQL aggregate over the ledger, never a sum in Python over rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import BigIntegerField, Case, F, OuterRef, Q, QuerySet, Subquery, Sum, When
from django.db.models.functions import Coalesce

from casino_backoffice.core.exports import Column, Kind
from casino_backoffice.ledger.checkpoints import balance_annotation
from casino_backoffice.ledger.models import Account, AccountKind, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balances
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import tables_listing
from jackpots.high_hand.accounts import high_hand_box_content_account
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus
from tables.models import PokerRoom

from .models import (
    Box,
    CageVerification,
    Count,
    CountSheet,
    CountStatus,
    MissingBox,
    Transport,
    TransportItem,
    Variance,
)


@dataclass(frozen=True)
class BoxContent:
    """A box and what its next count covers: ``expected_cents`` by the ledger; for a High Hand box,
    ``period`` is the qualifying period whose box content that is (§637a.16(d))."""

    box: Box
    expected_cents: int
    period: HighHandPeriod | None = None


def boxes_expected_queryset(*, boxes: QuerySet[Box]) -> QuerySet[Box]:
    """The boxes, each annotated with ``expected_cents``: what logged rounds and verified time
    charges put in since its last count (its ledger balance: a count or a transport empties it into
    custody). One query, whose cost does not grow with the boxes' histories (``ledger.checkpoints``);
    a queryset, so a paginated list computes only its page and ``values()`` reads it without models."""
    return boxes.select_related("room", "table__room", "jackpot", "account").annotate(
        expected_cents=balance_annotation(Box)
    )


def boxes_with_expected(*, boxes: QuerySet[Box]) -> list[BoxContent]:
    """Each box with what its next count covers (``boxes_expected_queryset``); a High Hand box with
    its next period's box content instead (``high_hand_next_counts``)."""
    rows = list(boxes_expected_queryset(boxes=boxes))
    next_counts = high_hand_next_counts(
        boxes=[box for box in rows if box.jackpot is not None and box.jackpot.kind == JackpotKind.HIGH_HAND]
    )
    contents = []
    for box in rows:
        if box.pk in next_counts:
            period, cents = next_counts[box.pk]
            contents.append(BoxContent(box=box, expected_cents=cents + int(box.expected_cents), period=period))  # type: ignore[attr-defined]
        else:
            contents.append(BoxContent(box=box, expected_cents=int(box.expected_cents)))  # type: ignore[attr-defined]
    return contents


def high_hand_contents_taken_whole(*, boxes: list[Box], periods: list[HighHandPeriod]) -> set[tuple[int, int]]:
    """The (box, period) pairs whose box content was counted or carried before the period ended (its
    table closed) and received nothing since: no count is left to make for it (§637a.16(d)), so the
    schedule makes it no sheet and the box's next count takes a later period. A fixed number of
    queries."""
    touched = set(
        # SQLite refuses an ORDER BY inside a UNION's parts: both sides drop their default ordering.
        Count.objects.filter(box__in=boxes, period__in=periods)
        .order_by()
        .values_list("box_id", "period_id")
        .union(
            TransportItem.objects.filter(box__in=boxes, period__in=periods)
            .order_by()
            .values_list("box_id", "period_id")
        )
    )
    codes = {
        (box.pk, period.pk): high_hand_box_content_account(
            table=box.table, jackpot=box.jackpot, starts_at=period.starts_at
        ).code
        for box in boxes
        for period in periods
        if (box.pk, period.pk) in touched and box.jackpot is not None
    }
    if not codes:
        return set()
    accounts = {account.code: account for account in Account.objects.filter(code__in=codes.values())}
    balances = account_balances(accounts=list(accounts.values())) if accounts else {}
    return {pair for pair, code in codes.items() if code not in accounts or balances[accounts[code].pk] == 0}


def high_hand_next_counts(*, boxes: list[Box]) -> dict[int, tuple[HighHandPeriod | None, int]]:
    """For each High Hand box: the qualifying period its next count covers, the oldest of its fund not
    announced yet whose rules listed the box's table and whose box content at it was neither counted
    nor carried (§637a.16(d): the box is exchanged at each period's end), and what that box content
    holds by the ledger. (None, 0) when no such period exists. A fixed number of queries."""
    if not boxes:
        return {}
    periods = list(
        HighHandPeriod.objects.filter(
            jackpot__in={box.jackpot_id for box in boxes}, status__in=(PeriodStatus.OPEN, PeriodStatus.CLOSED)
        )
        .select_related("rules_version")
        .order_by("starts_at")
    )
    taken = set(
        CountSheet.objects.filter(box__in=boxes, period__in=periods)
        .filter(Q(counts__isnull=False) | Q(transport_item__isnull=False))
        .values_list("box_id", "period_id")
    ) | high_hand_contents_taken_whole(boxes=boxes, periods=periods)
    chosen: dict[int, HighHandPeriod | None] = {}
    for box in boxes:
        assert box.jackpot is not None
        chosen[box.pk] = next(
            (
                period
                for period in periods
                if period.jackpot_id == box.jackpot_id
                and (box.pk, period.pk) not in taken
                and box.table.number in tables_listing(version=period.rules_version, code=box.jackpot.code)
            ),
            None,
        )
    codes = {
        box.pk: high_hand_box_content_account(table=box.table, jackpot=box.jackpot, starts_at=period.starts_at).code
        for box in boxes
        if (period := chosen[box.pk]) is not None and box.jackpot is not None
    }
    accounts = {account.code: account for account in Account.objects.filter(code__in=codes.values())}
    balances = account_balances(accounts=list(accounts.values())) if accounts else {}
    return {
        box.pk: (
            chosen[box.pk],
            balances.get(accounts[codes[box.pk]].pk, 0) if box.pk in codes and codes[box.pk] in accounts else 0,
        )
        for box in boxes
    }


def box_holds_cents(*, box: Box) -> int:
    """Everything ``box`` holds by the ledger, uncounted: its own account and, for a High Hand box, every
    period's box content not counted yet (``high_hand_box_content_account``: codes under the box's own)."""
    contents = list(Account.objects.filter(code__startswith=f"{box.account.code}:", kind=AccountKind.JACKPOT_BOX))
    balances = account_balances(accounts=[box.account, *contents])
    return sum(balances.values())


def jackpot_expected_in_boxes(*, jackpots: list[Jackpot]) -> dict[int, int]:
    """Expected money in the boxes of each jackpot, keyed by jackpot id: each box's account and, for a
    High Hand, every period's box content not yet counted (``high_hand_box_content_account``)."""
    boxes = list(Box.objects.filter(jackpot__in=jackpots).only("id", "jackpot_id", "account_id"))
    balances = account_balances(accounts=[Account(pk=box.account_id) for box in boxes])
    totals = dict.fromkeys((jackpot.pk for jackpot in jackpots), 0)
    for box in boxes:
        assert box.jackpot_id is not None
        totals[box.jackpot_id] += balances[box.account_id]
    high_hand = {
        (jackpot.room.code, jackpot.code): jackpot.pk for jackpot in jackpots if jackpot.kind == JackpotKind.HIGH_HAND
    }
    if high_hand:
        # Every period's box contents of these funds, in one query: table:<room>:<table>:<code>_box:<period>.
        rooms = "|".join(re.escape(room) for room, _ in high_hand)
        codes = "|".join(re.escape(code) for _, code in high_hand)
        contents = list(
            Account.objects.filter(
                code__regex=rf"^table:({rooms}):[^:]+:({codes})_box:", kind=AccountKind.JACKPOT_BOX
            ).only("id", "code")
        )
        balances = account_balances(accounts=contents) if contents else {}
        for account in contents:
            _, room_code, _, box_part, _ = account.code.split(":", 4)
            jackpot_id = high_hand.get((room_code, box_part.removesuffix("_box")))
            if jackpot_id is not None:
                totals[jackpot_id] += balances[account.pk]
    return totals


@dataclass(frozen=True)
class OfficialRow:
    account: Account
    gaming_day: date
    official_cents: int


def official_record(*, room: PokerRoom, start: date | None = None, end: date | None = None) -> list[OfficialRow]:
    """The finance department's official record (§637a.15(e), §637a.16(e)): what cage verifications
    made official, per fund (or poker revenue) and gaming day, less or plus finance's corrections of
    it, from the ledger: one aggregate over the transfers (``official_record_lines``)."""
    rows = list(
        official_record_lines(room=room, start=start, end=end)
        .values("official_account_id", "day")  # type: ignore[misc]  # annotations of official_record_lines
        .annotate(total=Sum("official_cents"))
        .order_by("day", "official_account_id")
    )
    accounts = Account.objects.in_bulk([row["official_account_id"] for row in rows])
    return [
        OfficialRow(
            account=accounts[row["official_account_id"]], gaming_day=row["day"], official_cents=int(row["total"])
        )
        for row in rows
    ]


# The official record line by line (its export): one row per transfer a verification made official,
# and one per correction finance posted (its official amount negative when the fund gave money back).
OFFICIAL_RECORD_COLUMNS: tuple[Column, ...] = (
    Column("gaming_day", Kind.DATE),
    Column("account"),
    Column("fund"),
    Column("official", Kind.MONEY),
    Column("verification", Kind.INTEGER),
    Column("seal"),
    Column("cashier"),
    Column("cashier_credential"),
    Column("verified_at", Kind.DATETIME),
    Column("transfer", Kind.INTEGER),
    Column("memo"),
)


def _gave_back() -> Q:
    # A correction that takes money off the official account credits it (the ledger's debit is where money goes).
    return Q(variance_correction__official_change_cents__lt=0)


def official_record_lines(*, room: PokerRoom, start: date | None = None, end: date | None = None) -> QuerySet[Transfer]:
    """Each ledger transfer a cage verification of ``room`` made official (§637a.15(e),
    §637a.16(e)), and each of finance's corrections of it (``VarianceCorrection``), by gaming day of
    the verification, in the order posted; annotated with ``day``, ``official_account_id`` and the
    signed ``official_cents``."""
    lines = Transfer.objects.filter(
        Q(kind=TransferKind.VERIFICATION, cage_verification__room=room) | Q(variance_correction__room=room)
    ).annotate(
        day=Coalesce("cage_verification__gaming_day", "variance_correction__gaming_day"),
        official_account_id=Case(
            When(_gave_back(), then=F("credit_id")), default=F("debit_id"), output_field=BigIntegerField()
        ),
        official_cents=Case(
            When(_gave_back(), then=-F("amount_cents")), default=F("amount_cents"), output_field=BigIntegerField()
        ),
    )
    if start is not None:
        lines = lines.filter(day__gte=start)
    if end is not None:
        lines = lines.filter(day__lte=end)
    return lines.order_by("day", "pk")


def official_record_rows_iter(
    *,
    room: PokerRoom,
    start: date | None = None,
    end: date | None = None,
    chunk_size: int = 2000,
) -> Iterator[tuple[Any, ...]]:
    """The rows of ``OFFICIAL_RECORD_COLUMNS``, read ``chunk_size`` at a time from a server-side
    cursor: an export of years of record streams in flat memory
    (``casino_backoffice.core.exports.csv_streaming_response``). A correction's row names finance's
    signer where a verification's names the cashier."""
    rows = (
        official_record_lines(room=room, start=start, end=end)
        .annotate(
            account_code=Case(When(_gave_back(), then=F("credit__code")), default=F("debit__code")),
            account_name=Case(When(_gave_back(), then=F("credit__name")), default=F("debit__name")),
            verification_id=Coalesce("cage_verification__id", "variance_correction__variance__verification_id"),
            signer=Coalesce("cage_verification__cashier__username", "variance_correction__corrected_by__username"),
            signer_credential=Coalesce(
                "cage_verification__cashier__credential_number",
                "variance_correction__corrected_by__credential_number",
            ),
            signed_at=Coalesce("cage_verification__verified_at", "variance_correction__corrected_at"),
        )
        .values_list(
            "day",
            "account_code",
            "account_name",
            "official_cents",
            "verification_id",
            "cage_verification__transport__seal",
            "signer",
            "signer_credential",
            "signed_at",
            "pk",
            "memo",
        )
    )
    yield from rows.iterator(chunk_size=chunk_size)


def variances(*, room: PokerRoom, unresolved_only: bool = False) -> QuerySet[Variance]:
    rows = Variance.objects.filter(room=room).select_related("box", "count", "verification", "explained_by")
    if unresolved_only:
        rows = rows.filter(unresolved_filter())
    return rows.order_by("-found_at", "-pk")


@dataclass(frozen=True)
class CustodyEvent:
    at: datetime
    box: str
    step: str
    person: str
    document: str


def custody_log(*, room: PokerRoom, day: date) -> list[CustodyEvent]:
    """Who held each box when, from the table to the cage, on one gaming day: every step a signed
    event (count, witness, custody, accounting, missing-box exception, verification)."""
    events: list[CustodyEvent] = []
    for count in Count.objects.filter(box__room=room, gaming_day=day).select_related(
        "box", "counted_by", "witnessed_by"
    ):
        events.append(
            CustodyEvent(
                count.counted_at,
                count.box.code,
                f"counted ({count.get_place_display().lower()})",
                str(count.counted_by),
                f"count {count.pk}",
            )
        )
        if count.witnessed_by is not None and count.witnessed_at is not None:
            events.append(
                CustodyEvent(
                    count.witnessed_at,
                    count.box.code,
                    f"witnessed ({count.surveillance_reference})",
                    str(count.witnessed_by),
                    f"count {count.pk}",
                )
            )
    transports = (
        Transport.objects.filter(room=room, gaming_day=day)
        .select_related("carried_by", "accounted_by")
        .prefetch_related("items__box")
    )
    for transport in transports:
        for item in transport.items.all():
            events.append(
                CustodyEvent(
                    transport.carried_at,
                    item.box.code,
                    f"carried under seal {transport.seal} to the {transport.destination}",
                    str(transport.carried_by),
                    f"transport {transport.pk}",
                )
            )
            if transport.accounted_by is not None and transport.accounted_at is not None:
                events.append(
                    CustodyEvent(
                        transport.accounted_at,
                        item.box.code,
                        "accounted for at the cage",
                        str(transport.accounted_by),
                        f"transport {transport.pk}",
                    )
                )
    for missing in MissingBox.objects.filter(transport__room=room, transport__gaming_day=day).select_related(
        "box", "recorded_by"
    ):
        events.append(
            CustodyEvent(
                missing.recorded_at,
                missing.box.code,
                f"missing at the cage: {missing.reason}",
                str(missing.recorded_by),
                f"exception {missing.pk}",
            )
        )
    for verification in CageVerification.objects.filter(room=room, transport__gaming_day=day).select_related(
        "cashier", "transport"
    ):
        for item in verification.transport.items.select_related("box"):
            events.append(
                CustodyEvent(
                    verification.verified_at,
                    item.box.code,
                    "verified at the cage",
                    str(verification.cashier),
                    f"verification {verification.pk}",
                )
            )
    return sorted(events, key=lambda event: (event.at, event.box))


def unresolved_filter() -> Q:
    """Variances awaiting an explanation: over the threshold, unexplained, and not of a count a
    recount superseded (the recount stands instead)."""
    return Q(needs_explanation=True, explained_at__isnull=True) & ~Q(count__status=CountStatus.SUPERSEDED)


@dataclass(frozen=True)
class BoxState:
    """Where a box stands for the person about to count it: ``key`` one of due, counted, witnessed,
    carried, verified, empty; ``words`` what the box list says. The amount is never said: the dealer
    counts blind (§637a.15(d)(1)); "empty" says only that no round dropped into it since its last count."""

    key: str
    words: str


_COUNT_STATE = {
    CountStatus.COUNTED: ("counted", "Counted, awaiting the witness"),
    CountStatus.WITNESSED: ("witnessed", "Witnessed, awaiting transport"),
    CountStatus.IN_TRANSIT: ("carried", "Carried to the cage"),
    CountStatus.VERIFIED: ("verified", "Verified at the cage"),
}


def box_states(*, boxes: QuerySet[Box], today: dict[int, date]) -> dict[int, BoxState]:
    """Each box's state (``BoxState``), in three queries: what it holds since its last count
    (``boxes_with_expected``: a High Hand box, its next period's content) and its last standing count.
    A box holding money is due, whatever an earlier count of the day said; an empty one shows where its
    last count stands, dated when that was another gaming day than ``today[room_id]`` (a verified count
    of another day says no more than empty)."""
    contents = {content.box.pk: content for content in boxes_with_expected(boxes=boxes)}
    standing = Count.objects.exclude(status=CountStatus.SUPERSEDED)
    last_ids = Box.objects.filter(pk__in=list(contents)).annotate(
        last_count=Subquery(standing.filter(box=OuterRef("pk")).order_by("-counted_at", "-pk").values("pk")[:1])
    )
    last_counts = {
        count.box_id: count
        for count in Count.objects.filter(pk__in=last_ids.values("last_count")).only("box_id", "status", "gaming_day")
    }
    states = {}
    for box_id, content in contents.items():
        last = last_counts.get(box_id)
        on = "" if last is None or last.gaming_day == today.get(content.box.room_id) else f" ({last.gaming_day})"
        if content.expected_cents > 0:
            again = " again: dropped into since counted today" if last is not None and not on else ""
            states[box_id] = BoxState("due", f"Due{again}")
        elif last is not None and last.status in _COUNT_STATE and (on == "" or last.status != CountStatus.VERIFIED):
            key, words = _COUNT_STATE[CountStatus(last.status)]
            states[box_id] = BoxState(key, f"{words}{on}")
        else:
            states[box_id] = BoxState("empty", "Empty: nothing dropped")
    return states
