"""The display check of every fund: what the board shows beside the finance department's record, the
difference, and why they differ (issue 27, item 2).

§637a.15(h)(2): 'The amount displayed ... shall correspond to the amount in the finance department's
record'; §637a.16(g): a High Hand's pool is announced and displayed once counted; §655a.12(c),
§657a.12(d): a progressive meter shows its amount. Each fund reads as:

- a Bad Beat: shown, what finance's last adjustment that took effect set (§637a.15(h)(1)); official,
  the fund's record less what verified claims owe (``FundPosition.available_cents``). They differ while
  a verified claim waits for finance's adjustment ('pending adjustment', §637a.15(f)(1)) or until
  finance adjusts the display to the record;
- a High Hand: shown, the open period's pool estimated from its drops, not counted yet; official, the
  fund's ledger balance (counted contributions not yet announced, with what rolled over), beside what
  was announced and waits to be collected. The estimate becomes official only when the period's boxes
  are counted and verified at the cage, so the two differ by design until then;
- a progressive meter: shown and official are the same ledger balance; 'Pending' after a 100% payout
  until the meter is reset.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from casino_backoffice.core.exports import Column, Kind, Report
from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.selectors import account_balances
from casino_backoffice.money import display_cents
from jackpots.bad_beat.selectors import FundPosition, fund_positions
from jackpots.board.selectors import HighHandOnBoard, high_hands_on_board
from jackpots.funds.accounts import jackpot_awards_account, jackpot_fund_account
from jackpots.funds.models import Jackpot, JackpotKind
from jackpots.progressive.selectors import MeterStanding, meters_standing
from tables.models import PokerRoom

BAD_BEAT, HIGH_HAND, PROGRESSIVE = "Bad Beat", "High Hand", "Progressive meter"


@dataclass(frozen=True)
class CheckLine:
    """One fund: what the board shows (None: nothing shown), the official record, and why they differ."""

    room: PokerRoom
    product: str
    name: str
    code: str
    shown_cents: int | None
    official_cents: int
    why: tuple[str, ...]

    @property
    def difference_cents(self) -> int | None:
        return None if self.shown_cents is None else self.shown_cents - self.official_cents

    @property
    def state(self) -> str:
        if self.shown_cents is None:
            return "not shown"
        return "matches" if self.shown_cents == self.official_cents else "differs"


def display_check_lines(*, rooms: Iterable[PokerRoom], at: datetime) -> list[CheckLine]:
    """Every fund of ``rooms``, by room and product: a fixed number of queries per room."""
    lines: list[CheckLine] = []
    for room in rooms:
        funds = list(Jackpot.objects.filter(room=room).select_related("room").order_by("kind", "code"))
        bad_beats = [fund for fund in funds if fund.kind == JackpotKind.BAD_BEAT]
        high_hands = [fund for fund in funds if fund.kind == JackpotKind.HIGH_HAND]
        positions = fund_positions(jackpots=bad_beats)
        lines += [_bad_beat_line(room, positions[fund.pk]) for fund in bad_beats]
        boards = high_hands_on_board(jackpots=high_hands, at=at)
        balances = _balances(high_hands)
        lines += [_high_hand_line(room, fund, boards[fund.pk], balances) for fund in high_hands]
        lines += [_meter_line(room, standing) for standing in meters_standing(room=room, at=at)]
    return lines


def _bad_beat_line(room: PokerRoom, position: FundPosition) -> CheckLine:
    fund, shown, available = position.jackpot, position.displayed_cents, position.available_cents
    why = [
        f"Official record {display_cents(position.official_cents)}, less {display_cents(position.owed_cents)} "
        f"owed to verified claims: {display_cents(available)} to display (§637a.15(h)(1))."
    ]
    if shown is None:
        why.append("Never displayed: finance has not set the display yet.")
    elif position.pending:
        why.append(
            "Pending adjustment: a claim was verified after finance's last adjustment; the board says so "
            "until finance adjusts it and a floorperson or above witnesses (§637a.15(f)(1))."
        )
    elif shown != available:
        why.append(
            f"Finance's last adjustment set {display_cents(shown)}: adjust the display to the record (§637a.15(h)(2))."
        )
    else:
        why.append("The display corresponds to the record (§637a.15(h)(2)).")
    return CheckLine(room, BAD_BEAT, fund.name, fund.code, shown, available, tuple(why))


def _balances(funds: list[Jackpot]) -> dict[str, int]:
    """The ledger balance of each High Hand fund's and awards' account, by account code (0: none yet)."""
    codes = [spec(jackpot=fund).code for fund in funds for spec in (jackpot_fund_account, jackpot_awards_account)]
    accounts = {account.pk: account.code for account in Account.objects.filter(code__in=codes)}
    by_id = account_balances(accounts=Account.objects.filter(pk__in=accounts))
    return {code: 0 for code in codes} | {accounts[pk]: cents for pk, cents in by_id.items()}


def _high_hand_line(room: PokerRoom, fund: Jackpot, board: HighHandOnBoard, balances: dict[str, int]) -> CheckLine:
    official = balances[jackpot_fund_account(jackpot=fund).code]
    awards = balances[jackpot_awards_account(jackpot=fund).code]
    shown = board.estimated_cents if board.open else None
    why = [
        f"Official record {display_cents(official)}: the counted contributions not yet announced as a pool, "
        "with what rolled over (§637a.16(e), (h))."
    ]
    if board.open:
        why.append(
            f"The board shows the open period's pool estimated from its drops, {display_cents(board.estimated_cents)}, "
            "labelled 'not counted yet': it is official once the period's boxes are counted and verified at the "
            "cage (§637a.16(g))."
        )
    else:
        why.append("No period open: the board shows no pool.")
    if awards:
        why.append(f"{display_cents(awards)} announced and waiting to be collected by the winners (§637a.16(g), (i)).")
    return CheckLine(room, HIGH_HAND, fund.name, fund.code, shown, official, tuple(why))


def _meter_line(room: PokerRoom, standing: MeterStanding) -> CheckLine:
    meter = standing.meter
    why = ["The meter is the balance of its ledger account: the board and the record are one figure."]
    if standing.is_pending:
        why.append("The board reads 'Pending' after a 100% payout until the meter is reset (§655a.12(c)(4)).")
    shown = None if standing.is_pending else standing.amount_cents
    return CheckLine(room, PROGRESSIVE, meter.name, meter.code, shown, standing.amount_cents, tuple(why))


def display_check_report(*, lines: Iterable[CheckLine], at: datetime) -> Report:
    """The display check as CSV or XLSX: one row per fund, machine-readable money (cents-exact decimals)
    under human headers, as every export."""
    columns = [
        Column("Room"),
        Column("Product"),
        Column("Fund"),
        Column("Code"),
        Column("Shown on the board", Kind.MONEY),
        Column("Official record", Kind.MONEY),
        Column("Difference", Kind.MONEY),
        Column("State"),
        Column("Why"),
    ]
    rows = [
        [
            line.room.code,
            line.product,
            line.name,
            line.code,
            line.shown_cents,
            line.official_cents,
            line.difference_cents,
            line.state,
            " ".join(line.why),
        ]
        for line in lines
    ]
    return Report(columns=columns, rows=rows, title="Display check", filename=f"display-check-{at:%Y-%m-%d}")
