"""Reads of the boxes: what each holds by the ledger, what its next count covers (a High Hand box,
its period's content), and where each stands for the dealer about to count it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from django.db.models import OuterRef, Q, QuerySet, Subquery

from casino_backoffice.ledger.checkpoints import balance_annotation
from casino_backoffice.ledger.models import Account, AccountKind
from casino_backoffice.ledger.selectors import account_balances
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.funds.selectors import tables_listing
from jackpots.high_hand.accounts import high_hand_box_content_account
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus

from ..models import (
    Box,
    Count,
    CountSheet,
    CountStatus,
    TransportItem,
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
