"""The statement of a Bad Beat fund over a period: each movement of its account, with the balances."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Q, Sum

from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from jackpots.bad_beat.models import DisplayAdjustment
from jackpots.funds.accounts import jackpot_fund_account
from jackpots.funds.models import Jackpot
from tables.selectors import gaming_day, gaming_day_bounds

# --- The fund statement ---------------------------------------------------------------------------


class Movement:
    """What a movement of a fund's official money is, on the statement."""

    CONTRIBUTION = "Contribution made official"
    PAYOUT = "Payout to a patron"
    TRANSFER_IN = "Transfer in from a discontinued fund"
    TRANSFER_OUT = "Transfer out to another Bad Beat"
    OTHER = "Other movement"


@dataclass(frozen=True)
class StatementLine:
    transfer: Transfer
    gaming_day: date
    movement: str
    cents: int  # into the fund (+) or out of it (-)
    balance_cents: int  # the fund's official balance after it

    @property
    def into_cents(self) -> int | None:
        return self.cents if self.cents > 0 else None

    @property
    def out_cents(self) -> int | None:
        return -self.cents if self.cents < 0 else None

    @property
    def document(self) -> str:
        transfer = self.transfer
        if transfer.reference_type is None:
            return ""
        return f"{transfer.reference_type.name} {transfer.reference_id}"


@dataclass(frozen=True)
class FundStatement:
    """A fund's official money over the gaming days ``start`` to ``end`` (inclusive): what it held
    when the first began, each movement, what it held when the last ended; and the display's
    adjustments over the same days (§637a.15(h))."""

    jackpot: Jackpot
    account_code: str
    start: date
    end: date
    starts_at: datetime
    ends_at: datetime
    opening_cents: int
    lines: tuple[StatementLine, ...]
    adjustments: tuple[DisplayAdjustment, ...]

    def _total(self, movement: str) -> int:
        return sum(line.cents for line in self.lines if line.movement == movement)

    @property
    def contributions_cents(self) -> int:
        return self._total(Movement.CONTRIBUTION)

    @property
    def payouts_cents(self) -> int:
        return self._total(Movement.PAYOUT)

    @property
    def transfers_in_cents(self) -> int:
        return self._total(Movement.TRANSFER_IN)

    @property
    def transfers_out_cents(self) -> int:
        return self._total(Movement.TRANSFER_OUT)

    @property
    def other_cents(self) -> int:
        return self._total(Movement.OTHER)

    @property
    def movements_cents(self) -> int:
        return sum(line.cents for line in self.lines)

    @property
    def closing_cents(self) -> int:
        return self.opening_cents + self.movements_cents

    def summary(self) -> list[tuple[str, int]]:
        """The statement in one column: opening, each kind of movement, closing."""
        return [
            ("Opening balance", self.opening_cents),
            ("Contributions made official (cage verifications)", self.contributions_cents),
            ("Payouts to patrons", self.payouts_cents),
            ("Transfers in from discontinued funds", self.transfers_in_cents),
            ("Transfers out to other Bad Beats", self.transfers_out_cents),
            ("Other movements (reversals, adjustments)", self.other_cents),
            ("Closing balance", self.closing_cents),
        ]


def _movement(transfer: Transfer, account: Account) -> tuple[str, int]:
    into = transfer.debit_id == account.pk
    cents = transfer.amount_cents if into else -transfer.amount_cents
    if transfer.kind == TransferKind.VERIFICATION and into:
        return Movement.CONTRIBUTION, cents
    if transfer.kind == TransferKind.PAYOUT and not into:
        return Movement.PAYOUT, cents
    if transfer.kind == TransferKind.FUND_TRANSFER:
        return (Movement.TRANSFER_IN if into else Movement.TRANSFER_OUT), cents
    return Movement.OTHER, cents


def fund_statement(*, jackpot: Jackpot, start: date, end: date) -> FundStatement:
    """The statement of ``jackpot``'s official money (its fund account in the ledger) over the gaming
    days ``start`` to ``end``: the opening balance, every transfer into or out of the fund in order
    with the balance after it (contributions made official by cage verifications, payouts, transfers
    between funds, and anything else such as a reversal), the closing balance (opening plus the
    movements, which is the ledger's balance at the end), and the display adjustments of those days.
    Four queries."""
    room = jackpot.room
    starts_at, _ = gaming_day_bounds(room=room, day=start)
    _, ends_at = gaming_day_bounds(room=room, day=end)
    code = jackpot_fund_account(jackpot=jackpot).code
    account = Account.objects.filter(code=code).first()
    opening = 0
    lines: list[StatementLine] = []
    if account is not None:
        touching = Transfer.objects.filter(Q(debit=account) | Q(credit=account))
        before = touching.filter(posted_at__lt=starts_at).aggregate(
            into=Sum("amount_cents", filter=Q(debit=account), default=0),
            out=Sum("amount_cents", filter=Q(credit=account), default=0),
        )
        opening = int(before["into"]) - int(before["out"])
        balance = opening
        for transfer in (
            touching.filter(posted_at__gte=starts_at, posted_at__lt=ends_at)
            .select_related("debit", "credit", "posted_by", "reference_type")
            .order_by("posted_at", "pk")
        ):
            movement, cents = _movement(transfer, account)
            balance += cents
            lines.append(
                StatementLine(
                    transfer=transfer,
                    gaming_day=gaming_day(room=room, at=transfer.posted_at),
                    movement=movement,
                    cents=cents,
                    balance_cents=balance,
                )
            )
    adjustments = tuple(
        DisplayAdjustment.objects.filter(jackpot=jackpot, adjusted_at__gte=starts_at, adjusted_at__lt=ends_at)
        .select_related("adjusted_by", "witnessed_by")
        .order_by("adjusted_at", "pk")
    )
    return FundStatement(
        jackpot=jackpot,
        account_code=code,
        start=start,
        end=end,
        starts_at=starts_at,
        ends_at=ends_at,
        opening_cents=opening,
        lines=tuple(lines),
        adjustments=adjustments,
    )
