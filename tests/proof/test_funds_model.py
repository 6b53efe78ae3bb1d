"""A stateful property test of a room's money against a plain model of it (hypothesis).

One room, two Hold'em tables (T1 raked by ``nl10``, T2 by ``lim``), each collecting for a Bad Beat
(``bb``, 10% reserve) and a High Hand (``hh``, hourly periods). The machine drives the real services
on PostgreSQL, in any order the rules allow:

- rounds of random pots (uncalled bets, no flop, voided rounds, closed tables refused); the model
  computes the rake and both drops with its own arithmetic from the posted rules;
- counts at a closed table, their witness, containers of counts carried and verified at the cage with
  or without a difference; uncounted boxes carried, accounted for (a missing box excused by the
  supervisor) and counted at the cage;
- Bad Beat claims that qualify or not, verified or denied, distributed, each share paid at the table
  or the cage; display adjustments with their witness;
- High Hand entries on the Tracking Slip (ties, lower hands, too few players, small pots, a closed
  period), voids, the end of a period and the schedule's steps for the room (sheets, announcement of
  the pool, awards or roll-over), awards paid at the cage, uncollected awards returned to the pool;
- ledger corrections of drops and cage verifications, prepared and approved by two finance people;
- every write retried with its idempotency key, and refusals (the wrong role, paying twice, paying
  more than the fund holds, a key reused for another request), each of which must change nothing.

After every step each account of the room (pots, boxes, custody, variance, cage over/short, revenue,
each fund, the High Hand's awards, each payouts account) equals the model to the cent, the ledger
sums to zero, no box, container, fund, revenue or payout account is below zero, each Bad Beat's
finance record (official, owed, displayed, pending) and the display board equal the model's, and each
High Hand period's status, pool and roll-over are the model's.

Time: the High Hand's periods run on a simulated clock a day and an hour a step in the past (rounds and
hands are logged late, as table systems may); ``periods_run``, ``sheets_create`` and ``high_hand_pools_settle``
are called for this room as ``cage.services.schedule_run`` calls them for every room. Left out of the
model: the schedule's daily count sheets of the simulated days (a table count creates the sheet of the
current gaming day, as it does when the schedule is down), fund transfers of a discontinued Bad Beat,
explanations of variances and the close of a gaming day (they move no money), and wrong PINs.

Each example plays in a room of its own inside a savepoint rolled back at its end, so examples share
nothing but the staff. Two hypothesis profiles, both from ``PROOF_SEED`` (default 20261201): ``proof-fast``
(12 examples of up to 40 steps, in ``make test``) and ``proof-exhaustive``, the test marked ``exhaustive``
that runs only when ``PROOF_EXAMPLES`` is set (``PROOF_EXAMPLES=2000``, ``PROOF_STEPS``, default 40;
``PROOF_REPORT=path`` writes the figures so far every 25 examples). A failure prints its seed and
hypothesis's reproduction blob (``@reproduce_failure``).
"""

from __future__ import annotations

import itertools
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pytest
import yaml
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, seed, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from cage.exceptions import BoxAlreadyCounted
from cage.models import Box, CageVerification, Count, CountSheet, Transport
from cage.services import (
    boxes_sync,
    cage_verify,
    count_record,
    count_witness,
    missing_box_record,
    notice_record,
    transport_account,
    transport_create,
)
from cage.services.schedule import sheets_create
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.idempotency import IdempotencyKeyReused
from casino_backoffice.ledger.exceptions import AlreadyReversed, BelowZero, LedgerError
from casino_backoffice.ledger.models import Account, Correction, Transfer
from casino_backoffice.ledger.selectors import account_balances, ledger_total
from casino_backoffice.ledger.services import correction_approve, correction_prepare
from casino_backoffice.money import display_cents
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.exceptions import AboveOfficialBalance, AlreadyClaimed, ClaimDoesNotQualify, DisplayError
from jackpots.bad_beat.models import (
    BadBeatClaim,
    BadBeatDecision,
    BadBeatDistribution,
    BadBeatPayment,
    BadBeatShare,
    DisplayAdjustment,
)
from jackpots.bad_beat.selectors import fund_position
from jackpots.bad_beat.services.claims import SeatedHand, SeatedPlayer, claim_deny, claim_open, claim_verify
from jackpots.bad_beat.services.display import display_adjust, display_witness
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from jackpots.board.selectors import displayed_jackpots
from jackpots.funds.models import Jackpot
from jackpots.high_hand.accounts import high_hand_box_content_account
from jackpots.high_hand.exceptions import HighHandRefused
from jackpots.high_hand.models import (
    HighHandAward,
    HighHandAwardPayment,
    HighHandEntry,
    HighHandPeriod,
    HighHandUnclaimed,
    HighHandVoid,
    PeriodStatus,
)
from jackpots.high_hand.services.awards import award_pay, unclaimed_approve, unclaimed_prepare
from jackpots.high_hand.services.periods import periods_run
from jackpots.high_hand.services.settlement import high_hand_pools_settle
from jackpots.high_hand.services.slip import entry_record, entry_void
from rake.exceptions import InvalidRound
from rake.services import round_record
from tables.models import PokerRoom, Round, Table
from tables.selectors import gaming_day
from tables.services import table_set_open
from tests.conftest import PIN
from tests.rake.factories import RULES, load

pytestmark = pytest.mark.django_db

SEED = int(os.environ.get("PROOF_SEED", "20261201"))
_COMMON = {
    "database": None,  # a failure replays from its seed and blob, not from a local directory
    "print_blob": True,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}
# The fast run of ``make test``; the exhaustive one takes its size from the environment.
settings.register_profile("proof-fast", max_examples=12, stateful_step_count=40, **_COMMON)
settings.register_profile(
    "proof-exhaustive",
    max_examples=int(os.environ.get("PROOF_EXAMPLES", "2000")),
    stateful_step_count=int(os.environ.get("PROOF_STEPS", "40")),
    **_COMMON,
)

_rooms = itertools.count(1)
_keys = itertools.count(1)

# --- The posted rules, and the model's own arithmetic of them --------------------------------------

TABLES = ("T1", "T2")
POLICY = {"T1": "nl10", "T2": "lim"}
SEATS = {"T1": 10, "T2": 9}
BB_RESERVE_BP = 1_000  # reserve_percent: 10
BB_SHARES_BP = {"losing_hand": 5_000, "winning_hand": 2_500, "table_share": 2_500}
HH_MIN_PLAYERS = 6
# A hand is claimed once (§637a.15(f)-(g)): each claim of an example is a hand of its own, four sevens
# beating aces full of kings, queens, jacks or tens (at least the posted aces full of tens) in each
# order of the suits.
_SUIT_ORDERS = list(itertools.permutations("cdhs"))


def bad_beat_hand(n: int) -> dict[str, str]:
    """The ``n``-th hand the model claims: its board and both hands' hole cards."""
    suits = dict(zip("cdhs", _SUIT_ORDERS[n % len(_SUIT_ORDERS)], strict=True))
    pair = "KQJT"[n // len(_SUIT_ORDERS) % 4]

    def cards(text: str) -> str:
        return " ".join(card[0].replace("K", pair) + suits[card[1]] for card in text.split())

    return {"board": cards("Ad Ac Kc 7s 7h"), "losing": cards("As Ks"), "winning": cards("7d 7c")}


def rules_for(room: str) -> str:
    """The tests' rules (tests.rake.factories.RULES) in a room of its own: T1 and T2 both collect for
    the Bad Beat and the High Hand, and the Bad Beat keeps 10% back for the next one."""
    jackpots = [
        {**jackpot, "reserve_percent": 10} if jackpot["code"] == "bb" else jackpot for jackpot in RULES["jackpots"]
    ]
    tables = [
        {"number": "T1", "game": "holdem", "seats": 10, "rake_policy": "nl10", "jackpots": ["bb", "hh"]},
        {"number": "T2", "game": "holdem", "seats": 9, "rake_policy": "lim", "jackpots": ["bb", "hh"]},
    ]
    data = {**RULES, "room": room, "name": f"Proof room {room}", "jackpots": jackpots, "tables": tables}
    return yaml.safe_dump(data, sort_keys=False)


def pot_outcome(*, policy: str, pot: int, uncalled: int, flop: bool, voided: bool) -> tuple[int, int, int]:
    """(rake, Bad Beat drop, High Hand drop) of one pot under the posted rules, in plain arithmetic:
    nl10 takes 10% in $1.00 chips up to $5.00 from pots of $10.00 (no flop, no drop); lim takes $1, $2,
    $3 at $10, $30, $60 up to $4.00; after the rake bb takes $1.00 from $20.00 and hh 5% up to $2.00
    from $30.00, never more than is left; a voided round takes nothing."""
    if voided:
        return 0, 0, 0
    rakeable = pot - uncalled
    no_flop = policy == "nl10" and not flop
    if policy == "nl10":
        rake = 0 if no_flop or rakeable < 10_00 else min(rakeable * 10 // 100 // 100 * 100, 5_00)
    else:
        rake = min(next((r for at, r in ((60_00, 3_00), (30_00, 2_00), (10_00, 1_00)) if rakeable >= at), 0), 4_00)
    left = after_rake = rakeable - rake
    bb = 0 if no_flop or after_rake < 20_00 else min(1_00, left)
    left -= bb
    hh = 0 if no_flop or after_rake < 30_00 else min(after_rake * 5 // 100, 2_00, left)
    return rake, bb, hh


def bad_beat_payout(available: int) -> int:
    """The payout fixed at verification: the reserve keeps 10% (rounded up), the hand pays 100% of the rest."""
    available = max(available, 0)
    reserve = available - available * (10_000 - BB_RESERVE_BP) // 10_000
    return available - reserve


def bad_beat_split(total: int, others: list[int]) -> list[int]:
    """The shares of a payout: 50/25/25 rounded down, the odd cents to the losing hand, the table share
    split among the other seats from the lowest; shares of nothing are left out."""
    parts = {name: total * bp // 10_000 for name, bp in BB_SHARES_BP.items()}
    parts["losing_hand"] += total - sum(parts.values())
    base, extra = divmod(parts["table_share"], len(others))
    table = [base + (1 if n < extra else 0) for n in range(len(others))]
    return [amount for amount in [parts["losing_hand"], parts["winning_hand"], *table] if amount > 0]


# Hands for the Tracking Slip, weakest first; the model compares them by this order alone.
HANDS = (
    "Kh Kd Kc 2s 2h",  # kings full of twos
    "Ah Ad Ac Kh Ks",  # aces full of kings
    "9s 9h 9d 9c Kd",  # four nines
    "As Ah Ad Ac 2d",  # four aces
    "8h 7h 6h 5h 4h",  # an eight-high straight flush
)
BELOW_MINIMUM = "Ah Ad Ac Kh Qs"  # three aces
ID_TYPE = "Driver's license"


def content_name(table: str, period: int) -> str:
    """The model's name of a table's High Hand box content of one period (by its index)."""
    return f"{table}-hh@{period}"


def player_id(table: str, seat: int) -> str:
    return f"PA-{table}-{seat:02d}"


# --- The model's records ------------------------------------------------------------------------------


@dataclass
class Sheet:
    """A High Hand box's count sheet of one ended period: what filled it, whether its box content was
    carried to the cage uncounted, and whether it is verified."""

    box: str
    counted: int | None = None
    carried: bool = False
    verified: bool = False


@dataclass
class Entry:
    pk: int
    table: str
    seat: int
    rank: int
    voided: bool = False


@dataclass
class Period:
    pk: int
    starts_at: datetime
    ends_at: datetime
    status: str = PeriodStatus.OPEN
    rolled_in: int = 0
    drops: int = 0  # the High Hand drops of rounds that ended in it: the estimated pool
    pool: int | None = None
    entries: list[Entry] = field(default_factory=list)
    sheets: list[Sheet] = field(default_factory=list)
    # Its box contents (§637a.16(d)): counts and carries of them made, those not verified yet, what
    # their verifications made official, and the tables whose content was taken before the period ended.
    counts: int = 0
    unverified: int = 0
    official: int = 0
    taken: set[str] = field(default_factory=set)

    def best(self) -> int | None:
        ranks = [entry.rank for entry in self.entries if not entry.voided]
        return max(ranks) if ranks else None


@dataclass
class Award:
    pk: int
    entry: Entry
    amount: int
    collect_by: datetime  # the posted 7 days from the end of its period
    paid: bool = False
    prepared: bool = False  # not collected in time: prepared for finance (no longer payable)
    returned: bool = False


@dataclass
class CountDoc:
    box: str
    counted: int
    status: str
    sheet: Sheet | None
    period: int | None = None  # a High Hand box: the index of the period whose box content it took


@dataclass
class TransportDoc:
    kind: str  # "counts" | "boxes"
    status: str
    counts: list[int] = field(default_factory=list)
    expected: dict[str, int] = field(default_factory=dict)  # boxes carried: what each held
    missing: set[str] = field(default_factory=set)
    periods: dict[str, int] = field(default_factory=dict)  # High Hand boxes carried: the period of their content
    sheets: dict[str, Sheet] = field(default_factory=dict)  # ... and its sheet, when the period had ended


@dataclass
class Share:
    pk: int
    amount: int
    paid: bool = False


@dataclass
class Claim:
    pk: int
    qualifies: bool
    others: list[int]
    status: str = "claimed"
    payout: int = 0
    shares: list[Share] = field(default_factory=list)


@dataclass
class Movement:
    """A transfer the model may ask finance to correct: ``amount`` into ``debit`` from ``credit``."""

    transfer_id: int
    debit: str
    credit: str
    amount: int


BOXES = tuple(f"{table}-{kind}" for table in TABLES for kind in ("drop", "bb", "hh"))
NEVER_BELOW_ZERO = (*BOXES, "custody", "revenue", "bb:fund", "bb:paid", "hh:fund", "hh:awards", "hh:paid")


def official_of(box: str) -> str:
    kind = box.split("-")[1]
    return "revenue" if kind == "drop" else f"{kind}:fund"


def _snapshot_sql() -> str:
    """One SELECT of how many rows each document has, and the state of those that move on."""
    counted = (Transfer, Signature, Round, CountSheet, CageVerification, BadBeatDecision, BadBeatDistribution)
    counted += (BadBeatShare, BadBeatPayment, HighHandEntry, HighHandVoid, HighHandAward, HighHandAwardPayment)
    stated = (
        (Count, ("status",)),
        (Transport, ("status",)),
        (BadBeatClaim, ("status",)),
        (DisplayAdjustment, ("witnessed_by",)),
        (HighHandPeriod, ("status", "pool_cents", "rolled_in_cents")),
        (HighHandUnclaimed, ("approved_by",)),
        (Correction, ("reversal",)),
        (User, ("failed_pin_attempts",)),
    )
    # Table and column names come from the models; nothing here comes from outside.
    parts = [f"(SELECT count(*) FROM {model._meta.db_table})" for model in counted]  # noqa: S608
    for model, fields in stated:
        columns = ", ".join(["id", *(model._meta.get_field(name).column for name in fields)])
        table = model._meta.db_table
        parts.append(f"(SELECT string_agg(concat_ws(':', {columns}), ',' ORDER BY id) FROM {table})")  # noqa: S608
    return "SELECT " + ", ".join(parts)


SNAPSHOT_SQL = _snapshot_sql()


class FundsMachine(RuleBasedStateMachine):
    # Set by the test: the staff every example works with. ``taken`` counts what the examples did, all
    # together, so the test can say each step was taken.
    people: dict[str, User] = {}
    taken: Counter[str] = Counter()
    steps_at_most = 40

    def __init__(self) -> None:
        super().__init__()
        # Each example in a savepoint of its own, rolled back at its end as a test case's transaction is
        # (its services' durable blocks nest in it as they do in a test's).
        self.savepoint = transaction.atomic()
        self.savepoint._from_testcase = True
        self.savepoint.__enter__()
        self.money: Counter[str] = Counter()
        self.counts: dict[int, CountDoc] = {}
        self.transports: dict[int, TransportDoc] = {}
        self.day_counted: set[tuple[str, object]] = set()
        self.claims: list[Claim] = []
        self.hands = itertools.count()
        self.owed = 0
        self.displayed: int | None = None
        self.pending = False
        self.periods: list[Period] = []
        self.awards: list[Award] = []
        self.movements: list[Movement] = []
        self.reversals: list[int] = []
        self.replays: list[tuple[str, Callable[[], int], int]] = []
        self.seals = itertools.count(1)
        self.tried: Counter[str] = Counter()
        FundsMachine.taken["examples"] += 1

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self.savepoint.__exit__(None, None, None)
        report = os.environ.get("PROOF_REPORT")
        if report and self.taken["examples"] % 25 == 0:  # figures so far, for a long run
            with open(report, "w") as out:
                out.writelines(f"{count:8d}  {name}\n" for name, count in sorted(self.taken.items()))

    # --- Setting up -------------------------------------------------------------------------------------

    @initialize()
    def open_the_room(self) -> None:
        code = f"proof{next(_rooms)}"
        load(rules_for(code))
        self.code = code
        self.room = PokerRoom.objects.get(code=code)
        self.tables = {
            number: table_set_open(
                table=Table.objects.get(room=self.room, number=number), is_open=True, actor=self.people["floor"]
            )
            for number in TABLES
        }
        self.boxes = {box.code: box for box in boxes_sync(room=self.room)}
        assert set(self.boxes) == set(BOXES)
        self.jackpots = {jackpot.code: jackpot for jackpot in Jackpot.objects.filter(room=self.room)}
        self.names = {box.account.code: code for code, box in self.boxes.items()}
        for part, name in (("pots", "pots"), ("custody", "custody"), ("variance", "variance")):
            self.names[f"room:{code}:{part}"] = name
        self.names[f"room:{code}:cage_over_short"] = "over_short"
        self.names[f"room:{code}:revenue"] = "revenue"
        for jackpot, parts in (("bb", ("fund", "paid")), ("hh", ("fund", "awards", "paid"))):
            for part in parts:
                self.names[f"jackpot:{code}:{jackpot}:{part}"] = f"{jackpot}:{part}"
        # The simulated clock: far enough back for one period a step, a minute into an hourly period.
        back = timedelta(hours=self.steps_at_most + 24)
        self.clock = (timezone.now() - back).replace(minute=1, second=0, microsecond=0)
        self.schedule_at = self.clock
        periods_run(room=self.room, at=self.clock)
        self._period_opened()
        self.notice_day = None

    def _period_opened(self) -> None:
        period = HighHandPeriod.objects.get(jackpot=self.jackpots["hh"], status=PeriodStatus.OPEN)
        assert not self.periods or period.starts_at == self.periods[-1].ends_at
        # Each table's High Hand box content of the period is an account of its own (§637a.16(d)).
        for number, table in self.tables.items():
            spec = high_hand_box_content_account(table=table, jackpot=self.jackpots["hh"], starts_at=period.starts_at)
            self.names[spec.code] = content_name(number, len(self.periods))
        self.periods.append(Period(pk=period.pk, starts_at=period.starts_at, ends_at=period.ends_at))

    def _next_content(self, code: str) -> tuple[int, Sheet | None]:
        """What the next count or carry of High Hand box ``code`` takes: the oldest ended period whose
        sheet of the box is neither filled nor carried, with that sheet; else the open period's content."""
        for n, period in enumerate(self.periods[:-1]):
            for sheet in period.sheets:
                if sheet.box == code and sheet.counted is None and not sheet.carried:
                    return n, sheet
        return len(self.periods) - 1, None

    def _at(self) -> datetime:
        """The next moment of the simulated clock, inside the open period."""
        self.clock += timedelta(seconds=1)
        assert self.periods[-1].starts_at <= self.clock < self.periods[-1].ends_at
        return self.clock

    def _box(self, code: str) -> Box:
        """The box as it stands now (its table open or closed)."""
        return Box.objects.select_related("room", "table", "jackpot", "account").get(pk=self.boxes[code].pk)

    def _key(self, what: str) -> str:
        return f"{self.code}-{what}-{next(_keys)}"

    def _move(self, *, debit: str, credit: str, amount: int) -> None:
        self.money[debit] += amount
        self.money[credit] -= amount

    def _replayable(self, what: str, call: Callable[[], int], pk: int) -> None:
        self.replays.append((what, call, pk))

    def _snapshot(self) -> tuple:
        """Everything a refused action or a retry must leave as it was, read in one statement."""
        with connection.cursor() as cursor:
            cursor.execute(SNAPSHOT_SQL)
            return cursor.fetchone()

    def _refused(
        self,
        what: str,
        call: Callable[[], object],
        error: type[Exception],
        code: str | None = None,
        *,
        sometimes: bool = False,
    ) -> None:
        """``call`` is refused with ``error`` (its ``code``) and changes nothing. A refusal tried beside
        the step it goes with (``sometimes``) is tried its first time in an example and every third
        time after, to keep the steps quick."""
        self.tried[what] += 1
        if sometimes and self.tried[what] % 3 != 1:
            return
        before = self._snapshot()
        with pytest.raises(error) as refused:
            call()
        if code is not None:
            assert getattr(refused.value, "code", None) == code, (what, refused.value)
        assert self._snapshot() == before, what
        self.taken[f"refused: {what}"] += 1

    # --- Rounds -------------------------------------------------------------------------------------------

    @rule(
        number=st.sampled_from(TABLES),
        pot=st.one_of(st.integers(0, 25_000), st.sampled_from([10_00, 20_00, 30_00, 40_00, 120_00])),
        uncalled=st.sampled_from([0, 0, 0, 5_00, 20_00]),
        flop=st.booleans(),
        voided=st.sampled_from([False] * 9 + [True]),
        players=st.integers(2, 9),
    )
    def play_a_round(self, number: str, pot: int, uncalled: int, flop: bool, voided: bool, players: int) -> None:
        table = self.tables[number]
        uncalled = min(uncalled, pot)
        key = self._key("round")
        arguments = {
            "table": table,
            "ended_at": self._at(),
            "players_dealt_in": players,
            "pot_cents": pot,
            "uncalled_bet_cents": uncalled,
            "flop_dealt": flop,
            "voided": voided,
            "actor": self.people["dealer"],
            "idempotency_key": key,
            # The model's day is played in the past: each round is logged late, the shift supervisor signing (issue 24).
            "late_entry_by": self.people["supervisor"],
            "pin": PIN,
        }
        if not table.is_open:
            self._refused("a round at a closed table", lambda: round_record(**arguments), InvalidRound)
            return
        recorded = round_record(**arguments)
        rake, bb, hh = pot_outcome(policy=POLICY[number], pot=pot, uncalled=uncalled, flop=flop, voided=voided)
        assert recorded.round.rake_cents == rake
        assert {drop.jackpot_code: drop.amount_cents for drop in recorded.drops} == {"bb": bb, "hh": hh}
        for box, cents, suffix in (
            (f"{number}-drop", rake, "rake"),
            (f"{number}-bb", bb, "drop:bb"),
            (content_name(number, len(self.periods) - 1), hh, "drop:hh"),
        ):
            if cents:
                self._move(debit=box, credit="pots", amount=cents)
                transfer = Transfer.objects.get(idempotency_key=f"round:{key}:{suffix}")
                self.movements.append(Movement(transfer.pk, box, "pots", cents))
        self.periods[-1].drops += hh
        self._replayable("round", lambda: round_record(**arguments).round.pk, recorded.round.pk)
        # The same key for another round is refused.
        self._refused(
            "a round's key reused for another pot",
            lambda: round_record(**{**arguments, "pot_cents": pot + 1}),
            IdempotencyKeyReused,
            sometimes=True,
        )
        self.taken["play a round"] += 1

    @rule(number=st.sampled_from(TABLES), pots=st.lists(st.integers(20_00, 250_00), min_size=1, max_size=8))
    def play_a_busy_hour(self, number: str, pots: list[int]) -> None:
        """Rounds of ordinary pots one after another (the table opened first if need be)."""
        if not self.tables[number].is_open:
            self.open_or_close_a_table(number)
        for pot in pots:
            self.play_a_round(number=number, pot=pot, uncalled=0, flop=True, voided=False, players=9)
        self.taken["flow: a busy hour"] += 1

    @rule(number=st.sampled_from(TABLES))
    def open_or_close_a_table(self, number: str) -> None:
        table = self.tables[number]
        self.tables[number] = table_set_open(table=table, is_open=not table.is_open, actor=self.people["floor"])
        self.taken["open or close a table"] += 1

    # --- Counts, custody and the cage ---------------------------------------------------------------------

    def _countable(self) -> list[str]:
        # A High Hand box at a closed table is always countable: its oldest ended period's content, or
        # the open period's so far.
        return [box for box in BOXES if not self.tables[box[:2]].is_open]

    @precondition(lambda self: self._countable())
    @rule(pick=st.integers(0, 99), difference=st.sampled_from([0, 0, 0, -1_00, 50, -1]))
    def count_a_box_at_its_table(self, pick: int, difference: int) -> None:
        countable = self._countable()
        code = countable[pick % len(countable)]
        daily = not code.endswith("-hh")
        index, sheet = (None, None) if daily else self._next_content(code)
        holder = code if index is None else content_name(code[:2], index)
        expected = self.money[holder]
        counted = max(expected + difference, 0)
        day = gaming_day(room=self.room, at=timezone.now())
        if code.endswith("-bb"):
            self._notice_today()

        def count() -> Count:
            return count_record(
                box=self._box(code), counted_cents=counted, actor=self.people["dealer"], pin=PIN, idempotency_key=key
            )

        key = self._key("count")
        if daily and (code, day) in self.day_counted:
            self._refused("a box counted twice for its sheet", count, BoxAlreadyCounted)
            return
        done = count()
        assert done.expected_cents == expected
        self._move(debit="custody", credit=holder, amount=expected)
        self._move(debit="custody", credit="variance", amount=counted - expected)
        if daily:
            self.day_counted.add((code, day))
        else:
            assert index is not None and done.period_id == self.periods[index].pk
            self._content_taken(code, index, sheet)
            if sheet is not None:
                sheet.counted = counted
        self.counts[done.pk] = CountDoc(box=code, counted=counted, status="counted", sheet=sheet, period=index)
        self._replayable("count", lambda: count().pk, done.pk)
        self.taken["count a box at its table"] += 1

    def _content_taken(self, code: str, index: int, sheet: Sheet | None) -> None:
        """A High Hand box content of period ``index`` counted or carried: the period waits for its
        verification; taken before the period ended (no sheet), its table needs no sheet of it unless
        more is dropped in after."""
        period = self.periods[index]
        period.counts += 1
        period.unverified += 1
        if sheet is None:
            period.taken.add(code[:2])

    def _content_verified(self, index: int | None, cents: int) -> None:
        if index is not None:
            self.periods[index].unverified -= 1
            self.periods[index].official += cents

    def _notice_today(self) -> None:
        """The notice to compliance a Bad Beat box is counted upon (§637a.15(d)), once a gaming day."""
        day = gaming_day(room=self.room, at=timezone.now())
        if self.notice_day != day:
            notice_record(
                room=self.room,
                notified="Proof Compliance",
                method="phone",
                actor=self.people["floor"],
                pin=PIN,
                idempotency_key=self._key("notice"),
            )
            self.notice_day = day

    def _counts(self, status: str) -> list[int]:
        return [pk for pk, doc in self.counts.items() if doc.status == status]

    @precondition(lambda self: self._counts("counted"))
    @rule(pick=st.integers(0, 99))
    def witness_a_count(self, pick: int) -> None:
        counted = self._counts("counted")
        pk = counted[pick % len(counted)]
        count = Count.objects.get(pk=pk)
        self._refused(
            "a count witnessed by its dealer",
            lambda: count_witness(count=count, actor=self.people["dealer"], pin=PIN, surveillance_reference="CAM-1"),
            ActionNotPermitted,
            sometimes=True,
        )
        count_witness(count=count, actor=self.people["floor"], pin=PIN, surveillance_reference=f"CAM-{pk}")
        self.counts[pk].status = "witnessed"
        self.taken["witness a count"] += 1

    @precondition(lambda self: self._counts("witnessed"))
    @rule(mask=st.integers(1, 2**12))
    def carry_a_container_of_counts(self, mask: int) -> None:
        witnessed = self._counts("witnessed")
        self._carry_counts([pk for n, pk in enumerate(witnessed) if mask >> (n % 12) & 1] or witnessed[:1])

    def _carry_counts(self, chosen: list[int]) -> int:
        key, seal = self._key("transport"), f"S-{next(self.seals)}"
        counts = list(Count.objects.filter(pk__in=chosen))

        def carry() -> int:
            return transport_create(
                room=self.room, seal=seal, counts=counts, actor=self.people["security"], pin=PIN, idempotency_key=key
            ).pk

        pk = carry()
        for count in chosen:
            self.counts[count].status = "in_transit"
        self.transports[pk] = TransportDoc(kind="counts", status="in_transit", counts=chosen)
        self._replayable("transport", carry, pk)
        self.taken["carry a container of counts"] += 1
        return pk

    def _transports(self, kind: str, status: str) -> list[int]:
        return [pk for pk, doc in self.transports.items() if doc.kind == kind and doc.status == status]

    def _official(self, verification: CageVerification, box: str, cents: int) -> None:
        """What a verification made official, and the transfer finance may correct."""
        self._move(debit=official_of(box), credit="custody", amount=cents)
        if cents:
            transfer = Transfer.objects.get(idempotency_key=f"verification:{verification.pk}:{box}")
            self.movements.append(Movement(transfer.pk, official_of(box), "custody", cents))

    @precondition(lambda self: self._transports("counts", "in_transit"))
    @rule(pick=st.integers(0, 99), difference=st.sampled_from([0, 0, -50, 25]))
    def verify_a_container_at_the_cage(self, pick: int, difference: int) -> None:
        waiting = self._transports("counts", "in_transit")
        pk = waiting[pick % len(waiting)]
        doc = self.transports[pk]
        declared = sum(self.counts[count].counted for count in doc.counts)
        counted = max(declared + difference, 0)
        transport = Transport.objects.get(pk=pk)
        key = self._key("verification")
        self._refused(
            "a container verified by security",
            lambda: cage_verify(
                transport=transport, counted=counted, actor=self.people["security"], pin=PIN, idempotency_key=key
            ),
            ActionNotPermitted,
            sometimes=True,
        )

        def verify() -> CageVerification:
            # The cashier has counted again and confirms a difference beyond the threshold (issue 24).
            return cage_verify(
                transport=transport,
                counted=counted,
                actor=self.people["cashier"],
                pin=PIN,
                idempotency_key=key,
                confirm_variance=True,
            )

        verification = verify()
        for count in doc.counts:
            count_doc = self.counts[count]
            self._official(verification, count_doc.box, count_doc.counted)
            count_doc.status = "verified"
            self._content_verified(count_doc.period, count_doc.counted)
            if count_doc.sheet is not None:
                count_doc.sheet.verified = True
        self._move(debit="over_short", credit="variance", amount=counted - declared)
        doc.status = "verified"
        self._replayable("cage verification", lambda: verify().pk, verification.pk)
        self.taken["verify a container at the cage"] += 1

    @rule(mask=st.integers(1, 2**6 - 1))
    def carry_uncounted_boxes(self, mask: int) -> None:
        self._carry_boxes([code for n, code in enumerate(BOXES) if mask >> n & 1])

    def _carry_boxes(self, codes: list[str]) -> int:
        key, seal = self._key("transport"), f"S-{next(self.seals)}"
        boxes = [self.boxes[code] for code in codes]

        def carry() -> int:
            return transport_create(
                room=self.room, seal=seal, boxes=boxes, actor=self.people["security"], pin=PIN, idempotency_key=key
            ).pk

        pk = carry()
        doc = TransportDoc(kind="boxes", status="in_transit")
        for code in codes:
            holder = code
            if code.endswith("-hh"):
                index, sheet = self._next_content(code)
                holder = content_name(code[:2], index)
                doc.periods[code] = index
                self._content_taken(code, index, sheet)
                if sheet is not None:
                    doc.sheets[code] = sheet
                    sheet.carried = True
            doc.expected[code] = self.money[holder]
            self._move(debit="custody", credit=holder, amount=doc.expected[code])
        self.transports[pk] = doc
        self._replayable("transport", carry, pk)
        self.taken["carry uncounted boxes"] += 1
        return pk

    @precondition(lambda self: self._transports("boxes", "in_transit"))
    @rule(pick=st.integers(0, 99), one_missing=st.sampled_from([False, False, False, True]))
    def account_for_the_boxes_at_the_cage(self, pick: int, one_missing: bool) -> None:
        waiting = self._transports("boxes", "in_transit")
        pk = waiting[pick % len(waiting)]
        doc = self.transports[pk]
        transport = Transport.objects.get(pk=pk)
        carried = sorted(doc.expected)
        if one_missing:
            missing = carried[pick % len(carried)]
            missing_box_record(
                transport=transport,
                box=self.boxes[missing],
                reason="Not in the cart at the cage.",
                actor=self.people["supervisor"],
                pin=PIN,
            )
            doc.missing.add(missing)
            self.taken["a missing box excused"] += 1
        transport_account(
            transport=transport,
            box_codes=[code for code in carried if code not in doc.missing],
            actor=self.people["floor"],
            pin=PIN,
        )
        doc.status = "accounted"
        self.taken["account for the boxes at the cage"] += 1

    @precondition(lambda self: self._transports("boxes", "accounted"))
    @rule(pick=st.integers(0, 99), differences=st.lists(st.sampled_from([0, 0, 0, -25, 10]), min_size=6, max_size=6))
    def count_the_boxes_at_the_cage(self, pick: int, differences: list[int]) -> None:
        waiting = self._transports("boxes", "accounted")
        pk = waiting[pick % len(waiting)]
        doc = self.transports[pk]
        counted = {
            code: max(cents + differences[n], 0)
            for n, (code, cents) in enumerate(sorted(doc.expected.items()))
            if code not in doc.missing
        }
        transport = Transport.objects.get(pk=pk)
        key = self._key("verification")
        if any(code.endswith("-bb") for code in doc.expected):
            self._notice_today()  # the cage counts a Bad Beat box upon notice too (§637a.15(d))

        def verify() -> CageVerification:
            # The cashier has counted again and confirms a difference beyond the threshold (issue 24).
            return cage_verify(
                transport=transport,
                counted=counted,
                actor=self.people["cashier"],
                pin=PIN,
                idempotency_key=key,
                confirm_variance=True,
            )

        verification = verify()
        for code in sorted(doc.expected):
            cents = counted.get(code, 0)
            self._move(debit="variance", credit="custody", amount=doc.expected[code] - cents)
            self._official(verification, code, cents)
            self._content_verified(doc.periods.get(code), cents)
            if (sheet := doc.sheets.get(code)) is not None:
                sheet.counted, sheet.verified = cents, True
        doc.status = "verified"
        self._replayable("cage verification", lambda: verify().pk, verification.pk)
        self.taken["count the boxes at the cage"] += 1

    # --- The Bad Beat -------------------------------------------------------------------------------------

    @rule(number=st.sampled_from(TABLES), qualifies=st.sampled_from([True, True, True, False]))
    def open_a_bad_beat_claim(self, number: str, qualifies: bool) -> None:
        others = [1, 2, 5, 9] if qualifies else [1]  # 6 players dealt in, or 3 (the rules want 4)
        key = self._key("claim")
        hand = bad_beat_hand(next(self.hands))

        def claim(key: str = key) -> int:
            return claim_open(
                jackpot=self.jackpots["bb"],
                table=self.tables[number],
                players_dealt_in=len(others) + 2,
                board=hand["board"],
                losing=SeatedHand(seat=3, name="Ann Loser", hole=hand["losing"]),
                winning=SeatedHand(seat=7, name="Walt Winner", hole=hand["winning"]),
                others=[SeatedPlayer(seat=seat, name=f"Seat {seat}") for seat in others],
                actor=self.people["floor"],
                pin=PIN,
                idempotency_key=key,
            ).pk

        pk = claim()
        assert BadBeatClaim.objects.get(pk=pk).qualifies == qualifies
        self.claims.append(Claim(pk=pk, qualifies=qualifies, others=others))
        self._replayable("claim", claim, pk)
        self._refused(
            "a hand claimed again with another key",
            lambda: claim(self._key("claim")),
            AlreadyClaimed,
            "already_claimed",
            sometimes=True,
        )
        self.taken["open a Bad Beat claim"] += 1

    def _claims(self, status: str) -> list[Claim]:
        return [claim for claim in self.claims if claim.status == status]

    @precondition(lambda self: self._claims("claimed"))
    @rule(pick=st.integers(0, 99))
    def verify_a_claim(self, pick: int) -> None:
        claimed = self._claims("claimed")
        claim = claimed[pick % len(claimed)]
        record = BadBeatClaim.objects.get(pk=claim.pk)
        self._refused(
            "a claim verified by a floorperson",
            lambda: claim_verify(claim=record, actor=self.people["floor"], pin=PIN),
            ActionNotPermitted,
            sometimes=True,
        )
        if not claim.qualifies:
            self._refused(
                "a claim that does not qualify verified",
                lambda: claim_verify(claim=record, actor=self.people["supervisor"], pin=PIN),
                ClaimDoesNotQualify,
            )
            return
        decision = claim_verify(claim=record, actor=self.people["supervisor"], pin=PIN)
        claim.payout = bad_beat_payout(self.money["bb:fund"] - self.owed)
        assert decision.payout_cents == claim.payout
        claim.status = "verified"
        self.owed += claim.payout
        self.pending = True
        self.taken["verify a claim"] += 1

    @precondition(lambda self: self._claims("claimed"))
    @rule(pick=st.integers(0, 99))
    def deny_a_claim(self, pick: int) -> None:
        claimed = self._claims("claimed")
        claim = claimed[pick % len(claimed)]
        claim_deny(
            claim=BadBeatClaim.objects.get(pk=claim.pk),
            reason="Surveillance shows another hand.",
            actor=self.people["supervisor"],
            pin=PIN,
        )
        claim.status = "denied"
        self.taken["deny a claim"] += 1

    @precondition(lambda self: self._claims("verified"))
    @rule(pick=st.integers(0, 99))
    def distribute_a_payout(self, pick: int) -> None:
        verified = self._claims("verified")
        claim = verified[pick % len(verified)]
        record = BadBeatClaim.objects.get(pk=claim.pk)
        key = self._key("distribution")

        def distribute() -> int:
            return distribution_prepare(claim=record, actor=self.people["finance"], pin=PIN, idempotency_key=key).pk

        self._refused(
            "a distribution prepared by a cashier",
            lambda: distribution_prepare(claim=record, actor=self.people["cashier"], pin=PIN, idempotency_key=key),
            ActionNotPermitted,
            sometimes=True,
        )
        left_for_it = self.money["bb:fund"] - (self.owed - claim.payout)
        if claim.payout <= 0 or claim.payout > left_for_it:
            self._refused("a distribution above what the fund holds", distribute, AboveOfficialBalance)
            return
        pk = distribute()
        shares = list(BadBeatShare.objects.filter(distribution_id=pk).order_by("position"))
        assert [share.amount_cents for share in shares] == bad_beat_split(claim.payout, claim.others)
        claim.shares = [Share(pk=share.pk, amount=share.amount_cents) for share in shares]
        claim.status = "distributed"
        self._replayable("distribution", distribute, pk)
        self.taken["distribute a payout"] += 1

    def _shares(self, *, paid: bool) -> list[tuple[Claim, Share]]:
        return [(claim, share) for claim in self.claims for share in claim.shares if share.paid == paid]

    @precondition(lambda self: self._shares(paid=False))
    @rule(pick=st.integers(0, 99), payer=st.sampled_from(["security", "cashier", "finance2"]))  # not the preparer
    def pay_a_share(self, pick: int, payer: str) -> None:
        unpaid = self._shares(paid=False)
        claim, share = unpaid[pick % len(unpaid)]
        record = BadBeatShare.objects.get(pk=share.pk)
        key = self._key("share")

        def pay() -> int:
            return share_pay(
                share=record, id_type=ID_TYPE, id_number="PA-1", actor=self.people[payer], pin=PIN, idempotency_key=key
            ).pk

        if share.amount > self.money["bb:fund"]:
            self._refused("a share above the fund's official balance", pay, AboveOfficialBalance)
            return
        pk = pay()
        self._move(debit="bb:paid", credit="bb:fund", amount=share.amount)
        self.owed -= share.amount
        share.paid = True
        if all(each.paid for each in claim.shares):
            claim.status = "paid"
        self._replayable("share payment", pay, pk)
        self.taken[f"pay a share ({payer})"] += 1

    @precondition(lambda self: self._shares(paid=True))
    @rule(pick=st.integers(0, 99))
    def pay_a_share_twice(self, pick: int) -> None:
        paid = self._shares(paid=True)
        _, share = paid[pick % len(paid)]
        record = BadBeatShare.objects.get(pk=share.pk)
        self._refused(
            "a share paid twice",
            lambda: share_pay(
                share=record,
                id_type=ID_TYPE,
                id_number="PA-1",
                actor=self.people["cashier"],
                pin=PIN,
                idempotency_key=self._key("share"),
            ),
            DomainError,
            "share_already_paid",
        )

    @rule()
    def adjust_the_display(self) -> None:
        key = self._key("display")

        def adjust() -> DisplayAdjustment:
            return display_adjust(
                jackpot=self.jackpots["bb"], actor=self.people["finance"], pin=PIN, idempotency_key=key
            )

        available = self.money["bb:fund"] - self.owed
        if available < 0:
            self._refused("a display adjusted while the fund owes more than it holds", adjust, DisplayError)
            return
        self._refused(
            "a display adjusted by a floorperson",
            lambda: display_adjust(
                jackpot=self.jackpots["bb"], actor=self.people["floor"], pin=PIN, idempotency_key=key
            ),
            ActionNotPermitted,
            sometimes=True,
        )
        adjustment = adjust()
        assert adjustment.amount_cents == available
        display_witness(adjustment=adjustment, actor=self.people["floor"], pin=PIN)
        self.displayed, self.pending = available, False
        self._replayable("display adjustment", lambda: adjust().pk, adjustment.pk)
        self.taken["adjust the display"] += 1

    # --- The High Hand ------------------------------------------------------------------------------------

    @rule(
        number=st.sampled_from(TABLES),
        seat=st.integers(1, 9),
        rank=st.integers(-1, len(HANDS) - 1),
        players=st.sampled_from([5, 6, 8]),
        pot=st.sampled_from([25_00, 30_00, 120_00]),
        late=st.sampled_from([False] * 9 + [True]),
    )
    def record_a_high_hand(self, number: str, seat: int, rank: int, players: int, pot: int, late: bool) -> None:
        period = self.periods[-1]
        made_at = self.periods[-2].starts_at if late and len(self.periods) > 1 else self._at()
        key = self._key("entry")

        def record(actor: str = "floor") -> int:
            return entry_record(
                jackpot=self.jackpots["hh"],
                table=self.tables[number],
                seat=seat,
                player_name=f"Player {number}-{seat}",
                player_phone="215-555-0100",
                id_type=ID_TYPE,
                id_number=player_id(number, seat),
                dealer=self.people["dealer"],
                players_dealt_in=players,
                pot_cents=pot,
                cards=HANDS[rank] if rank >= 0 else BELOW_MINIMUM,
                made_at=made_at,
                actor=self.people[actor],
                pin=PIN,
                idempotency_key=key,
            ).pk

        best = period.best()
        refusal = (
            "below_minimum"
            if rank < 0
            else "period_closed"
            if made_at < period.starts_at
            else "too_few_players"
            if players < HH_MIN_PLAYERS
            else "not_higher"
            if best is not None and rank < best
            else "already_recorded"
            if rank == best
            and any(e.table == number and e.seat == seat and e.rank == rank and not e.voided for e in period.entries)
            else None
        )
        if refusal is not None:
            self._refused(f"a High Hand entry ({refusal})", record, HighHandRefused, refusal)
            return
        self._refused("a High Hand entry by the dealer", lambda: record("dealer"), ActionNotPermitted, sometimes=True)
        pk = record()
        assert HighHandEntry.objects.get(pk=pk).tie == (rank == best)
        period.entries.append(Entry(pk=pk, table=number, seat=seat, rank=rank))
        self._replayable("High Hand entry", record, pk)
        self.taken["record a High Hand"] += 1

    def _voidable(self) -> list[tuple[Period, Entry]]:
        return [(period, entry) for period in self.periods for entry in period.entries if not entry.voided]

    @precondition(lambda self: self._voidable())
    @rule(pick=st.integers(0, 99))
    def void_a_high_hand(self, pick: int) -> None:
        voidable = self._voidable()
        period, entry = voidable[pick % len(voidable)]
        record = HighHandEntry.objects.get(pk=entry.pk)

        def void() -> object:
            return entry_void(entry=record, reason="Wrong seat.", actor=self.people["supervisor"], pin=PIN)

        if period.status in (PeriodStatus.AWARDED, PeriodStatus.ROLLED_OVER):
            self._refused("a void after the pool was announced", void, HighHandRefused, "period_announced")
            return
        void()
        entry.voided = True
        self._refused("an entry voided twice", void, HighHandRefused, "already_void", sometimes=True)
        self.taken["void a High Hand"] += 1

    @rule()
    def end_the_period(self) -> None:
        """The clock reaches the end of the open period: the schedule closes it, opens the next and
        gives the period's High Hand boxes their count sheets."""
        period = self.periods[-1]
        self.clock = period.ends_at + timedelta(minutes=1)
        self._schedule()
        period.status = PeriodStatus.CLOSED
        # A sheet for each table's box content, but one taken before the end with nothing dropped since.
        index = len(self.periods) - 1
        period.sheets = [
            Sheet(box=f"{number}-hh")
            for number in TABLES
            if number not in period.taken or self.money[content_name(number, index)]
        ]
        self._period_opened()
        self._settle()
        self.taken["end the period"] += 1

    @rule()
    def run_the_schedule(self) -> None:
        self._schedule()
        self._settle()
        self.taken["run the schedule"] += 1

    def _schedule(self) -> None:
        """What ``cage.services.schedule_run`` does for this room at the simulated moment."""
        at = self.clock
        with transaction.atomic():
            periods_run(room=self.room, at=at)
            high_hand_boxes = [self.boxes[f"{number}-hh"] for number in TABLES]
            sheets_create(boxes=high_hand_boxes, after=self.schedule_at, until=at)
            high_hand_pools_settle(room=self.room, at=at)
        self.schedule_at = at

    def _settle(self) -> None:
        """The model's announcement: the closed periods in order, each once its sheets are verified."""
        for n, period in enumerate(self.periods):
            if period.status == PeriodStatus.OPEN:
                break
            if period.status != PeriodStatus.CLOSED:
                continue
            if (
                not (period.sheets or period.counts)
                or not all(sheet.verified for sheet in period.sheets)
                or period.unverified
                or any(self.money[content_name(number, n)] for number in TABLES)
            ):
                break
            period.pool = period.official + period.rolled_in
            best = period.best()
            if best is None:
                self.periods[n + 1].rolled_in += period.pool
                period.status = PeriodStatus.ROLLED_OVER
                self.taken["a pool rolled over"] += 1
                continue
            winners = [entry for entry in period.entries if entry.rank == best and not entry.voided]
            base, extra = divmod(period.pool, len(winners))
            for m, entry in enumerate(winners):
                amount = base + (1 if m < extra else 0)
                if amount > 0:
                    award = HighHandAward.objects.get(entry_id=entry.pk)
                    collect_by = period.ends_at + timedelta(days=7)
                    assert (award.amount_cents, award.collect_by) == (amount, collect_by)
                    self.awards.append(Award(pk=award.pk, entry=entry, amount=amount, collect_by=collect_by))
                    self._move(debit="hh:awards", credit="hh:fund", amount=amount)
            period.status = PeriodStatus.AWARDED
            self.taken["a pool awarded"] += 1

    def _payable(self) -> list[Award]:
        return [award for award in self.awards if not award.paid and not award.prepared]

    @precondition(lambda self: self._payable())
    @rule(pick=st.integers(0, 99), right_id=st.sampled_from([True, True, True, False]))
    def pay_an_award(self, pick: int, right_id: bool) -> None:
        payable = self._payable()
        award = payable[pick % len(payable)]
        record = HighHandAward.objects.get(pk=award.pk)
        key = self._key("award")
        id_number = player_id(award.entry.table, award.entry.seat) if right_id else "PA-00000000"

        def pay(actor: str = "cashier") -> int:
            return award_pay(
                award=record,
                id_type=ID_TYPE,
                id_number=id_number,
                actor=self.people[actor],
                pin=PIN,
                idempotency_key=key,
            ).pk

        if not right_id:
            self._refused("an award paid against another ID", pay, HighHandRefused, "id_mismatch")
            return
        self._refused("an award paid by security", lambda: pay("security"), ActionNotPermitted, sometimes=True)
        pk = pay()
        self._move(debit="hh:paid", credit="hh:awards", amount=award.amount)
        award.paid = True
        self._replayable("award payment", pay, pk)
        self._refused(
            "an award paid twice",
            lambda: award_pay(
                award=record,
                id_type=ID_TYPE,
                id_number=id_number,
                actor=self.people["cashier"],
                pin=PIN,
                idempotency_key=self._key("award"),
            ),
            HighHandRefused,
            "award_already_paid",
            sometimes=True,
        )
        self.taken["pay an award"] += 1

    @precondition(lambda self: self._payable())
    @rule(pick=st.integers(0, 99))
    def let_an_award_go_uncollected(self, pick: int) -> None:
        payable = self._payable()
        award = payable[pick % len(payable)]
        record = HighHandAward.objects.get(pk=award.pk)
        prepared = unclaimed_prepare(room=self.room, at=record.collect_by)
        expired = {each.pk for each in self._payable() if each.collect_by <= award.collect_by}
        assert {item.award_id for item in prepared} == expired
        for each in self.awards:
            if each.pk in expired:
                each.prepared = True
        self._refused(
            "an uncollected award paid",
            lambda: award_pay(
                award=record,
                id_type=ID_TYPE,
                id_number=player_id(award.entry.table, award.entry.seat),
                actor=self.people["cashier"],
                pin=PIN,
                idempotency_key=self._key("award"),
            ),
            HighHandRefused,
            "award_expired",
            sometimes=True,
        )
        self.taken["let an award go uncollected"] += 1

    @precondition(lambda self: any(award.prepared and not award.returned for award in self.awards))
    @rule()
    def return_an_uncollected_award(self) -> None:
        award = next(award for award in self.awards if award.prepared and not award.returned)
        unclaimed = HighHandUnclaimed.objects.get(award_id=award.pk)
        # The posted destination next_period: the period open when the time limit ended (§637a.16(i)).
        into = next(
            (
                period
                for period in self.periods
                if period.ends_at > award.collect_by and period.status in (PeriodStatus.OPEN, PeriodStatus.CLOSED)
            ),
            None,
        )
        if into is None:
            # The simulated clock runs in the past: no period open when the time limit ends exists yet.
            self._refused(
                "an uncollected award with no period open at its time limit",
                lambda: unclaimed_approve(unclaimed=unclaimed, actor=self.people["finance"], pin=PIN),
                HighHandRefused,
                "no_period",
            )
            award.returned = True  # it waits in the awards to collect; the model tries it once
            return
        approved = unclaimed_approve(unclaimed=unclaimed, actor=self.people["finance"], pin=PIN)
        assert approved.into_period_id == into.pk
        into.rolled_in += award.amount
        self._move(debit="hh:fund", credit="hh:awards", amount=award.amount)
        award.returned = True
        self._refused(
            "an uncollected award returned twice",
            lambda: unclaimed_approve(unclaimed=unclaimed, actor=self.people["finance"], pin=PIN),
            HighHandRefused,
            "already_approved",
            sometimes=True,
        )
        self.taken["return an uncollected award"] += 1

    # --- Whole flows in one step (so that short examples reach deep states too) ----------------------------

    @rule(number=st.sampled_from(TABLES), difference=st.sampled_from([0, 0, -1_00, 50]))
    def count_a_table_through_the_cage(self, number: str, difference: int) -> None:
        """A table closed, each of its boxes due counted and witnessed, the container carried and verified."""
        if self.tables[number].is_open:
            self.open_or_close_a_table(number)
        day = gaming_day(room=self.room, at=timezone.now())
        before = set(self.counts)
        for code in [code for code in self._countable() if code.startswith(number)]:
            if code.endswith("-hh") or (code, day) not in self.day_counted:
                self.count_a_box_at_its_table(pick=self._countable().index(code), difference=difference)
        new = [pk for pk in self.counts if pk not in before]
        for pk in new:
            self.witness_a_count(pick=self._counts("counted").index(pk))
        if new:
            transport = self._carry_counts(new)
            self.verify_a_container_at_the_cage(
                pick=self._transports("counts", "in_transit").index(transport), difference=difference
            )
        self.taken["flow: a table counted through the cage"] += 1

    @rule()
    def count_the_high_hand_boxes_at_the_cage(self) -> None:
        """The High Hand boxes carried uncounted, accounted for, counted at the cage; the schedule runs."""
        transport = self._carry_boxes([f"{number}-hh" for number in TABLES])
        self.account_for_the_boxes_at_the_cage(
            pick=self._transports("boxes", "in_transit").index(transport), one_missing=False
        )
        self.count_the_boxes_at_the_cage(
            pick=self._transports("boxes", "accounted").index(transport), differences=[0] * 6
        )
        self.run_the_schedule()
        self.taken["flow: the High Hand boxes counted at the cage"] += 1

    @rule(number=st.sampled_from(TABLES), seat=st.integers(1, 9), rank=st.integers(0, len(HANDS) - 1))
    def play_a_high_hand_period_to_its_awards(self, number: str, seat: int, rank: int) -> None:
        """Rounds, a hand on the slip (or refused), the period's end, its boxes counted at the cage, the
        awards paid."""
        self.play_a_busy_hour(number=number, pots=[120_00, 80_00, 45_00])
        self.record_a_high_hand(number=number, seat=seat, rank=rank, players=6, pot=120_00, late=False)
        self.end_the_period()
        self.count_the_high_hand_boxes_at_the_cage()
        while self._payable():
            self.pay_an_award(pick=0, right_id=True)
        self.taken["flow: a High Hand period to its awards"] += 1

    @rule(number=st.sampled_from(TABLES))
    def pay_a_bad_beat_in_full(self, number: str) -> None:
        """A table's boxes counted through the cage, then a qualifying claim opened, verified,
        distributed and each share paid (or refused)."""
        self.count_a_table_through_the_cage(number=number, difference=0)
        self.open_a_bad_beat_claim(number=number, qualifies=True)
        claim = self.claims[-1]
        self.verify_a_claim(pick=self._claims("claimed").index(claim))
        if claim.status == "verified":
            self.distribute_a_payout(pick=self._claims("verified").index(claim))
        payers = itertools.cycle(["security", "cashier", "finance2"])  # not the preparer
        for share in list(claim.shares):
            self.pay_a_share(pick=self._shares(paid=False).index((claim, share)), payer=next(payers))
        self.taken["flow: a Bad Beat paid in full"] += 1

    # --- Corrections ----------------------------------------------------------------------------------

    def _free(self, account: str) -> int:
        """What a correction may take back out of ``account`` without taking it below zero, or the High
        Hand's fund below what its periods not yet announced have counted and verified, or rolled in."""
        if account != "hh:fund":
            return self.money[account]
        committed = sum(
            period.official + period.rolled_in
            for period in self.periods
            if period.status in (PeriodStatus.OPEN, PeriodStatus.CLOSED)
        )
        return self.money[account] - committed

    @precondition(lambda self: self.movements)
    @rule(pick=st.integers(0, 999))
    def correct_a_transfer(self, pick: int) -> None:
        movement = self.movements[pick % len(self.movements)]
        transfer = Transfer.objects.get(pk=movement.transfer_id)
        if self.money[movement.debit] < movement.amount:
            # The money went on (counted, paid, awarded): the ledger refuses the reversal, which would
            # take the account below zero; the correction stays prepared, unapproved.
            correction = correction_prepare(
                transfer=transfer, reason="Posted in error.", actor=self.people["finance"], pin=PIN
            )
            self._refused(
                "a correction that would take an account below zero",
                lambda: correction_approve(correction=correction, actor=self.people["finance2"], pin=PIN),
                BelowZero,
            )
            self.movements.remove(movement)
            return
        if self._free(movement.debit) < movement.amount:
            # A High Hand verification whose count a period not yet announced still counts in its pool:
            # reversing it is accepted, and the announcement then fails (test below, xfail).
            self.taken["correction left out: a High Hand pool still counts it"] += 1
            return
        self._refused(
            "a correction prepared by a cashier",
            lambda: correction_prepare(
                transfer=transfer, reason="Posted in error.", actor=self.people["cashier"], pin=PIN
            ),
            ActionNotPermitted,
            sometimes=True,
        )
        correction = correction_prepare(
            transfer=transfer, reason="Posted in error.", actor=self.people["finance"], pin=PIN
        )
        self._refused(
            "a correction approved by its preparer",
            lambda: correction_approve(correction=correction, actor=self.people["finance"], pin=PIN),
            DomainError,
            sometimes=True,
        )
        reversal = correction_approve(correction=correction, actor=self.people["finance2"], pin=PIN)
        assert (reversal.debit_id, reversal.credit_id, reversal.amount_cents) == (
            transfer.credit_id,
            transfer.debit_id,
            movement.amount,
        )
        self._move(debit=movement.credit, credit=movement.debit, amount=movement.amount)
        self.movements.remove(movement)
        self.reversals.append(reversal.pk)
        self._refused(
            "a transfer corrected twice",
            lambda: correction_prepare(transfer=transfer, reason="Again.", actor=self.people["finance"], pin=PIN),
            AlreadyReversed,
            sometimes=True,
        )
        self._refused(
            "a reversal corrected",
            lambda: correction_prepare(transfer=reversal, reason="Undo.", actor=self.people["finance"], pin=PIN),
            LedgerError,
            sometimes=True,
        )
        self.taken[f"correct a transfer into {movement.debit.split('-')[-1]}"] += 1

    # --- Retries ----------------------------------------------------------------------------------------

    @precondition(lambda self: self.replays)
    @rule(pick=st.integers(0, 999))
    def retry_a_write(self, pick: int) -> None:
        what, call, pk = self.replays[pick % len(self.replays)]
        before = self._snapshot()
        assert call() == pk, what
        assert self._snapshot() == before, what
        self.taken[f"retry: {what}"] += 1

    # --- After every step -------------------------------------------------------------------------------

    @invariant()
    def the_ledger_is_the_model(self) -> None:
        if not hasattr(self, "code"):
            return
        accounts = list(Account.objects.filter(code__contains=f":{self.code}:"))
        balances = account_balances(accounts=accounts)
        real: Counter[str] = Counter()
        for account in accounts:
            assert account.code in self.names, f"an account the model does not know: {account.code}"
            real[self.names[account.code]] = balances[account.pk]
        names = set(self.names.values())
        assert {name: real[name] for name in names} == {name: self.money[name] for name in names}
        assert sum(self.money.values()) == 0
        assert ledger_total() == 0
        assert all(self.money[name] >= 0 for name in NEVER_BELOW_ZERO), self.money
        assert all(cents >= 0 for name, cents in self.money.items() if "-hh@" in name), self.money

    @invariant()
    def the_displays_are_the_model(self) -> None:
        if not hasattr(self, "code"):
            return
        position = fund_position(jackpot=self.jackpots["bb"])
        assert (position.official_cents, position.owed_cents, position.displayed_cents, position.pending) == (
            self.money["bb:fund"],
            self.owed,
            self.displayed,
            self.pending,
        )
        assert position.display_matches == (self.displayed == self.money["bb:fund"] - self.owed)
        board = {shown.kind: shown for shown in displayed_jackpots(room=self.room, at=self.clock)}
        assert (board["Bad Beat"].amount_cents, board["Bad Beat"].pending) == (self.displayed or 0, self.pending)
        current = self.periods[-1]
        assert board["High Hand"].amount_cents == current.drops + current.rolled_in

    @invariant()
    def the_periods_are_the_model(self) -> None:
        if not hasattr(self, "code"):
            return
        periods = list(
            HighHandPeriod.objects.filter(jackpot=self.jackpots["hh"])
            .order_by("starts_at")
            .values_list("pk", "status", "pool_cents", "rolled_in_cents")
        )
        assert periods == [(p.pk, p.status, p.pool, p.rolled_in) for p in self.periods]


PEOPLE = {
    "dealer": Role.DEALER,
    "floor": Role.FLOORPERSON,
    "supervisor": Role.SHIFT_SUPERVISOR,
    "security": Role.SECURITY,
    "cashier": Role.CAGE_CASHIER,
    "finance": Role.FINANCE,
    "finance2": Role.FINANCE,
}

# Every step the fast run must have taken at least once, so it cannot pass having tried nothing.
STEPS_TAKEN = {
    "play a round",
    "count a box at its table",
    "witness a count",
    "carry a container of counts",
    "verify a container at the cage",
    "carry uncounted boxes",
    "account for the boxes at the cage",
    "count the boxes at the cage",
    "open a Bad Beat claim",
    "verify a claim",
    "distribute a payout",
    "adjust the display",
    "record a High Hand",
    "end the period",
    "a pool awarded",
    "pay an award",
    "refused: a round at a closed table",
    "refused: a box counted twice for its sheet",
}
# Not required of the fast run: a High Hand entry refused as not higher. Its runs do not take the same
# path each time (18 examples one run, 14 another), and that refusal needs a slip already holding a
# better hand, so some runs never reach it. tests/jackpots/test_high_hand_services.py refuses it by name.


def _run(make_staff, profile: str) -> None:
    chosen = settings.get_profile(profile)
    FundsMachine.people = {name: make_staff(role, username=f"proof-{name}") for name, role in PEOPLE.items()}
    FundsMachine.taken.clear()
    FundsMachine.steps_at_most = chosen.stateful_step_count
    started = time.monotonic()
    try:
        run_state_machine_as_test(seed(SEED)(FundsMachine), settings=chosen)
    except BaseException as failure:
        failure.add_note(
            f"Replay: PROOF_SEED={SEED} PROOF_EXAMPLES={chosen.max_examples} PROOF_STEPS={chosen.stateful_step_count} "
            f"(profile {profile}), or the @reproduce_failure blob above."
        )
        raise
    taken = FundsMachine.taken
    steps_run = sum(count for name, count in taken.items() if name != "examples")
    print(
        f"\nfunds model, profile {profile}, seed {SEED}: {taken['examples']} examples, {steps_run} steps and "
        f"refusals, 0 divergences, {time.monotonic() - started:.0f} s"
    )
    for name, count in sorted(taken.items()):
        print(f"  {count:8d}  {name}")


def test_the_room_s_money_matches_a_plain_model_in_every_order_the_rules_allow(make_staff) -> None:
    _run(make_staff, "proof-fast")
    missing = STEPS_TAKEN - set(FundsMachine.taken)
    assert not missing, missing


@pytest.mark.exhaustive
@pytest.mark.skipif("PROOF_EXAMPLES" not in os.environ, reason="the exhaustive run: PROOF_EXAMPLES=2000")
def test_thousands_of_seeded_runs_match_the_model(make_staff) -> None:
    _run(make_staff, "proof-exhaustive")


# --- What the model found -------------------------------------------------------------------------------


def _machine(make_staff) -> FundsMachine:
    FundsMachine.people = {name: make_staff(role, username=f"proof-{name}") for name, role in PEOPLE.items()}
    machine = FundsMachine()
    machine.open_the_room()
    return machine


def test_a_correction_that_would_take_a_fund_below_zero_is_refused_and_changes_nothing(make_staff) -> None:
    """Five rounds of $120 drop $5.00 into T1's Bad Beat box; counted and verified, the claim pays $4.50
    of it (the reserve keeps $0.50). Finance reversing the $5.00 verification would leave the fund at
    -$4.50: the ledger refuses it, and every account is as the model says."""
    machine = _machine(make_staff)
    try:
        _reverse_a_paid_out_verification(machine)
    finally:
        machine.teardown()


def _reverse_a_paid_out_verification(machine: FundsMachine) -> None:
    machine.play_a_busy_hour(number="T1", pots=[120_00] * 5)
    machine.pay_a_bad_beat_in_full(number="T1")
    assert (machine.money["bb:fund"], machine.money["bb:paid"]) == (50, 450)
    verification = next(movement for movement in machine.movements if movement.debit == "bb:fund")
    machine.correct_a_transfer(pick=machine.movements.index(verification))
    assert machine.taken["refused: a correction that would take an account below zero"] >= 1
    machine.the_ledger_is_the_model()
    machine.the_displays_are_the_model()


def test_a_corrected_high_hand_verification_leaves_the_period_s_pool_payable(make_staff) -> None:
    """$10.00 of High Hand drops counted at the cage for the period that just ended, with a hand on its
    slip; finance reverses the verification. Either the correction is refused, or the schedule then
    announces a pool the fund can pay: the schedule runs, and the fund is never below zero."""
    machine = _machine(make_staff)
    try:
        _reverse_a_pooled_verification(machine)
    finally:
        machine.teardown()


def _reverse_a_pooled_verification(machine: FundsMachine) -> None:
    machine.play_a_busy_hour(number="T1", pots=[120_00] * 5)
    machine.record_a_high_hand(number="T1", seat=3, rank=1, players=6, pot=120_00, late=False)
    machine.end_the_period()
    transport = machine._carry_boxes(["T1-hh", "T2-hh"])
    machine.account_for_the_boxes_at_the_cage(pick=0, one_missing=False)
    machine.count_the_boxes_at_the_cage(pick=0, differences=[0] * 6)
    assert machine.transports[transport].status == "verified" and machine.money["hh:fund"] == 10_00
    verification = next(movement for movement in machine.movements if movement.debit == "hh:fund")
    transfer = Transfer.objects.get(pk=verification.transfer_id)
    correction = correction_prepare(
        transfer=transfer, reason="Posted in error.", actor=machine.people["finance"], pin=PIN
    )
    try:
        correction_approve(correction=correction, actor=machine.people["finance2"], pin=PIN)
    except DomainError:
        pass  # refused: the fund keeps what the period's pool counts
    fund = Account.objects.get(code=f"jackpot:{machine.code}:hh:fund")
    official = account_balances(accounts=[fund])[fund.pk]
    assert official == 10_00 - transfer.amount_cents  # the reversal took the count's money back out
    machine._schedule()  # was BelowZero: the pool still counted the reversed verification
    period = HighHandPeriod.objects.filter(jackpot=machine.jackpots["hh"], announced_at__isnull=False).latest(
        "starts_at"
    )
    assert (period.status, period.contributions_cents, period.pool_cents) == ("awarded", official, official)
    assert account_balances(accounts=[fund])[fund.pk] == 0


def test_a_reversal_after_a_period_rolled_over_leaves_the_next_pool_waiting_and_the_schedule_running(
    make_staff, caplog
) -> None:
    """A period with no qualifying hand rolls its pool into the next; finance then reverses one of its
    verifications, so the next pool counts money the fund no longer holds. That announcement waits,
    closed, with an error in the log; the schedule still runs (it used to fail with below_zero every
    minute, for every room) and the fund is never below zero."""
    machine = _machine(make_staff)
    try:
        machine.play_a_busy_hour(number="T1", pots=[120_00] * 5)
        machine.end_the_period()  # no hand on the slip: the pool rolls into the next period
        machine._carry_boxes(["T1-hh", "T2-hh"])
        machine.account_for_the_boxes_at_the_cage(pick=0, one_missing=False)
        machine.count_the_boxes_at_the_cage(pick=0, differences=[0] * 6)
        machine._schedule()
        jackpot = machine.jackpots["hh"]
        first = HighHandPeriod.objects.filter(jackpot=jackpot, announced_at__isnull=False).get()
        assert (first.status, first.pool_cents) == ("rolled_over", 10_00)
        verification = next(movement for movement in machine.movements if movement.debit == "hh:fund")
        correction = correction_prepare(
            transfer=Transfer.objects.get(pk=verification.transfer_id),
            reason="Posted in error.",
            actor=machine.people["finance"],
            pin=PIN,
        )
        correction_approve(correction=correction, actor=machine.people["finance2"], pin=PIN)
        fund = Account.objects.get(code=f"jackpot:{machine.code}:hh:fund")
        official = account_balances(accounts=[fund])[fund.pk]
        assert official < 10_00

        machine.record_a_high_hand(number="T1", seat=3, rank=1, players=6, pot=120_00, late=False)
        machine.end_the_period()
        machine._carry_boxes(["T1-hh", "T2-hh"])
        machine.account_for_the_boxes_at_the_cage(pick=0, one_missing=False)
        machine.count_the_boxes_at_the_cage(pick=0, differences=[0] * 6)
        machine.clock += timedelta(minutes=1)
        with caplog.at_level("ERROR", logger="jackpots.high_hand.services.settlement"):
            machine._schedule()

        second = HighHandPeriod.objects.get(
            pk=HighHandPeriod.objects.filter(jackpot=jackpot).order_by("starts_at")[1].pk
        )
        assert (second.status, second.announced_at, second.rolled_in_cents) == ("closed", None, 10_00)
        assert "is not announced" in caplog.text and "below" in caplog.text
        assert account_balances(accounts=[fund])[fund.pk] == official
        # Finance reads why on the period's page, in its list and in the API; written once, not each run.
        assert second.waiting_note.startswith("Not announced: the pool of $")
        assert f"more than the fund holds ({display_cents(official)})" in second.waiting_note
        history = second.history.count()
        caplog.clear()
        machine.clock += timedelta(minutes=1)
        with caplog.at_level("ERROR", logger="jackpots.high_hand.services.settlement"):
            machine._schedule()
        assert second.history.count() == history and "is not announced" not in caplog.text
        assert HighHandPeriod.objects.get(pk=second.pk).waiting_note == second.waiting_note
        browser = Client()
        browser.force_login(machine.people["finance"])
        page = browser.get(reverse("admin:jackpots_highhandperiod_changelist"))
        assert second.waiting_note in page.content.decode()
    finally:
        machine.teardown()
