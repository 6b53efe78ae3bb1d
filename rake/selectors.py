"""Reads: the rules in effect, and poker revenue (§637a.17) by table, gaming day, shift and game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db.models import Count, Q, QuerySet, Sum
from django.utils.module_loading import import_string

from casino_backoffice.core.caches import id_cache
from casino_backoffice.ledger.models import AccountKind, Transfer, TransferKind
from casino_backoffice.money import format_cents
from jackpots.funds.models import RoundDrop
from jackpots.funds.rules import JackpotRule
from jackpots.progressive.models import ProgressiveRound
from tables.models import PokerRoom, Round, RulesVersion, Table
from tables.selectors import rules_version_parsed

from .compute import PotOutcome, compute_rake_and_drops
from .exceptions import RulesNotInEffect
from .models import LateRoundEntry, TimeCharge
from .rules import RakePolicy, Rules, TableRule

_numbers: dict[int, int] = id_cache()


def rules_of_version(*, version_id: int, content: dict[str, Any] | None = None) -> Rules:
    """The parsed rules of a version: the one cached object every product reads
    (``tables.selectors.rules_version_parsed``; versions never change once inserted)."""
    rules: Rules = rules_version_parsed(version_id=version_id, content=content)
    return rules


@dataclass(frozen=True)
class RoomVersions:
    """A room's rules versions, latest in effect first: ``(effective_from, number, id)``.

    A batch that holds the room's rules lock (``rake.locks``) reads them once (``of``): no version
    can be added before it commits. A single read asks only for the version in effect at a moment
    (``of`` with ``at``): one row, one query (the parsed rules are cached).
    """

    rows: tuple[tuple[datetime, int, int], ...]

    @classmethod
    def of(cls, *, room: PokerRoom, at: datetime | None = None) -> RoomVersions:
        rows = RulesVersion.objects.filter(room=room).order_by("-effective_from", "-number")
        if at is not None:
            rows = rows.filter(effective_from__lte=at)[:1]
        return cls(rows=tuple(rows.values_list("effective_from", "number", "pk")))

    def in_effect(self, *, at: datetime) -> tuple[int, Rules] | None:
        """The version (id, rules) rating a moment: the latest ``effective_from`` not after ``at``,
        the later loaded when two share a moment (``RulesVersion``)."""
        for effective_from, number, pk in self.rows:
            if effective_from <= at:
                _numbers[pk] = number
                return pk, rules_of_version(version_id=pk)
        return None


@dataclass(frozen=True)
class TableRulesInEffect:
    """What rates a table at a moment: the rules version in effect, the table's entry in it, its rake
    policy and its jackpots in the order the table lists them."""

    version_id: int
    rules: Rules
    table: TableRule
    policy: RakePolicy
    jackpots: tuple[JackpotRule, ...]


def table_rules_in_effect(*, table: Table, at: datetime, versions: RoomVersions | None = None) -> TableRulesInEffect:
    """Which rules version and which policy apply to ``table`` at ``at``: the one answer for rounds,
    time charges and the rake calculator. ``versions``: the room's versions when already read (a batch).

    Raises ``RulesNotInEffect`` when no version of the room is in effect at ``at``, when that version
    does not list the table (its rounds cannot be rated), or when the table deals a game banked by
    the house, which has no rake policy (§655a, §657a: no rake, no poker jackpot).
    """
    room = table.room
    in_effect = (versions or RoomVersions.of(room=room, at=at)).in_effect(at=at)
    if in_effect is None:
        raise RulesNotInEffect(
            f"No rules of room {room.code} were in effect at {at.isoformat()}; load a rules file first."
        )
    version_id, rules = in_effect
    table_rule = rules.tables.get(table.number)
    if table_rule is None:
        raise RulesNotInEffect(
            f"Table {table.number} is not in the rules in effect at {at.isoformat()}; its rounds cannot be rated "
            "until a rules file lists it."
        )
    if table_rule.rake_policy is None:
        raise RulesNotInEffect(
            f"Table {table.number} deals {table.get_game_display()}, a game banked by the house: it takes no rake and no drops."
        )
    return TableRulesInEffect(
        version_id=version_id,
        rules=rules,
        table=table_rule,
        policy=rules.rake_policies[table_rule.rake_policy],
        jackpots=tuple(rules.jackpots[code] for code in table_rule.jackpots),
    )


def rules_version_number(*, version_id: int) -> int:
    """The room's number of a version (cached: versions never change)."""
    number = _numbers.get(version_id)
    if number is None:
        number = _numbers[version_id] = RulesVersion.objects.values_list("number", flat=True).get(pk=version_id)
    return number


def rules_version_current(*, room: PokerRoom) -> RulesVersion | None:
    """The version loaded last (which may take effect later than now)."""
    return RulesVersion.objects.filter(room=room).order_by("-number").first()


@dataclass(frozen=True)
class PotBreakdown:
    table: Table
    version_number: int
    outcome: PotOutcome
    names: dict[str, str]


def pot_breakdown(
    *, table: Table, pot_cents: int, uncalled_cents: int, flop_dealt: bool, players: int, at: datetime
) -> PotBreakdown:
    """What the rules in effect at ``at`` take from a pot at ``table``: the rake calculator. Records
    nothing; the numbers are those ``round_record`` would post (the same ``compute_rake_and_drops``)."""
    in_effect = table_rules_in_effect(table=table, at=at)
    outcome = compute_rake_and_drops(
        policy=in_effect.policy,
        jackpots=in_effect.jackpots,
        pot_cents=pot_cents,
        uncalled_cents=uncalled_cents,
        flop_dealt=flop_dealt,
        voided=False,
        players=players,
    )
    number = rules_version_number(version_id=in_effect.version_id)
    return PotBreakdown(
        table=table, version_number=number, outcome=outcome, names={j.code: j.name for j in in_effect.jackpots}
    )


# --- Poker revenue --------------------------------------------------------------------------------

GROUPINGS = {"table": "table__number", "gaming_day": "gaming_day", "shift": "shift", "game": "game"}


@dataclass
class RevenueRow:
    """Poker revenue of one group, from the ledger.

    Expected: what went into the drop boxes, the rake of each round and each verified time charge
    (§637a.17(b)(3)(v)), less what the ledger reversed of it (``reversed_cents``), so the report and
    the drop boxes agree and say why. Counted: what cage verifications made official as poker revenue
    (§637a.15(e)), by table and gaming day; ``None`` when nothing was verified for the group, and
    for groups by shift (a drop box is counted for a gaming day, not a shift).

    Banked house share: what the house kept of the Progressive Payout Wagers at the banked tables
    after the meter's increment (§655a.12(c)(3), §657a.12(d)(3)). A banked game's win, not poker
    revenue (which is the rake, §637a.17): it is in neither expected nor counted, a column of its own;
    ``None`` for groups by shift (a banked round records its gaming day, not a shift). A banked round
    voided (``ProgressiveRoundVoid``, §655a.13, §657a.13) returned its wagers, the house's share among
    them: it is left out.

    Late rounds: how many of the group's rounds were logged more than the room's
    ``late_entry_minutes`` after they ended, each signed for by a poker shift supervisor
    (``LateRoundEntry``): their rake is in the group's, and the report marks them.

    Voided rounds: how many of the group's rounds were voided after they were recorded (``RoundVoid``,
    §637a.18(i)): their rake is in ``rake_cents`` and its return in ``reversed_cents``; their drops,
    returned too, are not in ``drops_cents``.
    """

    keys: dict[str, Any]
    rounds: int = 0
    rake_cents: int = 0
    late_rounds: int = 0
    voided_rounds: int = 0
    time_charge_cents: int = 0
    reversed_cents: int = 0
    drops_cents: dict[str, int] = field(default_factory=dict)
    counted_cents: int | None = None
    banked_house_cents: int | None = None

    @property
    def expected_cents(self) -> int:
        return self.rake_cents + self.time_charge_cents - self.reversed_cents

    @property
    def variance_cents(self) -> int | None:
        return None if self.counted_cents is None else self.counted_cents - self.expected_cents


# The rake and time charges into the drop boxes, and their reversals.
_INTO_DROP_BOXES = (TransferKind.RAKE, TransferKind.TIME_CHARGE)


def _reversed_into_drop_boxes(
    *, rounds: QuerySet[Round], charges: QuerySet[TimeCharge], fields: list[str]
) -> list[tuple[dict[str, Any], int]]:
    """Each reversal of a rake or time-charge transfer into a drop box, with the grouping values of the
    round or time charge it referenced. Reversals are few: one query for them, one for their rounds,
    one for their time charges."""
    reversals = list(
        Transfer.objects.filter(
            kind=TransferKind.REVERSAL, reverses__kind__in=_INTO_DROP_BOXES, reverses__debit__kind=AccountKind.DROP_BOX
        ).values_list("amount_cents", "reverses__reference_type", "reverses__reference_id")
    )
    if not reversals:
        return []
    round_type, charge_type = ContentType.objects.get_for_model(Round), ContentType.objects.get_for_model(TimeCharge)
    ids = {kind: [int(ref) for _, t, ref in reversals if t == kind.pk] for kind in (round_type, charge_type)}
    charge_fields = [f if f != "game" else "table__game" for f in fields]
    of_round = {
        row["pk"]: {f: row[f] for f in fields} for row in rounds.filter(pk__in=ids[round_type]).values("pk", *fields)
    }
    of_charge = {
        row["pk"]: {f: row[c] for f, c in zip(fields, charge_fields, strict=True)}
        for row in charges.filter(pk__in=ids[charge_type]).values("pk", *charge_fields)
    }
    found = []
    for amount, kind, ref in reversals:
        values = (of_round if kind == round_type.pk else of_charge).get(int(ref))
        if values is not None:  # a round or charge of another room or period
            found.append((values, int(amount)))
    return found


def counted_revenue(
    *, room: PokerRoom, date_from: date | None, date_to: date | None, table_number: str | None
) -> dict[tuple[str, date], int]:
    """What cage verifications made official as poker revenue, in cents by (table number, gaming day).

    The cage (an app above this one) counts and verifies the drop boxes; the composition root names
    its reader in the setting ``POKER_REVENUE_COUNTED`` (``cage.selectors.revenue_counted``). Without
    one, nothing was counted."""
    path = getattr(settings, "POKER_REVENUE_COUNTED", "")
    if not path:
        return {}
    reader = import_string(path)
    return dict(reader(room=room, date_from=date_from, date_to=date_to, table_number=table_number))


def poker_revenue(
    *,
    room: PokerRoom,
    date_from: date | None = None,
    date_to: date | None = None,
    group_by: Iterable[str] = ("gaming_day", "table"),
    table_number: str | None = None,
) -> list[RevenueRow]:
    """Poker revenue of ``room`` grouped by any of table, gaming_day, shift and game, in that order of
    the arguments: rounds, rake and drops of the rounds, verified time charges (§637a.17(b)(3)(v):
    verified time charges go into the drop box), what the ledger reversed of them, and what the cage
    made official.

    A round's rake transfer into its drop box is written with the round, in the same statement, for
    the round's rake; a time charge's with its verification: so the rake and time charges are read
    where the grouping lives (rounds, time charges), and the ledger adds every reversal of one of
    those transfers. A test holds the report's expected total to the ledger's own sum."""
    keys = [key for key in group_by if key in GROUPINGS]
    if not keys:
        keys = ["gaming_day"]
    rounds, charges, drops = _revenue_sources(
        room=room, date_from=date_from, date_to=date_to, table_number=table_number
    )
    fields = [GROUPINGS[key] for key in keys]
    rows: dict[tuple[Any, ...], RevenueRow] = {}

    def row_for(values: dict[str, Any], prefix: str = "") -> RevenueRow:
        ident = tuple(values[prefix + f] for f in fields)
        if ident not in rows:
            rows[ident] = RevenueRow(keys=dict(zip(keys, ident, strict=True)))
        return rows[ident]

    for values in rounds.values(*fields).annotate(n=Count("pk"), rake=Sum("rake_cents")):
        row = row_for(values)
        row.rounds, row.rake_cents = values["n"], int(values["rake"] or 0)
    for values in rounds.filter(late_entry__isnull=False).values(*fields).annotate(n=Count("pk")):
        row_for(values).late_rounds = values["n"]
    for values in rounds.filter(void__isnull=False).values(*fields).annotate(n=Count("pk")):
        row_for(values).voided_rounds = values["n"]
    charge_fields = [f if f != "game" else "table__game" for f in fields]
    for values in charges.values(*charge_fields).annotate(total=Sum("amount_cents")):
        values = {fields[i]: values[charge_fields[i]] for i in range(len(fields))} | {"total": values["total"]}
        row_for(values).time_charge_cents += int(values["total"] or 0)
    for values, amount in _reversed_into_drop_boxes(rounds=rounds, charges=charges, fields=fields):
        row_for(values).reversed_cents += amount
    drop_fields = [f"round__{f}" for f in fields]
    for values in (
        drops.filter(round__void__isnull=True).values(*drop_fields, "jackpot_code").annotate(total=Sum("amount_cents"))
    ):
        row = row_for(values, prefix="round__")
        row.drops_cents[values["jackpot_code"]] = int(values["total"])
    if "shift" not in keys:
        _banked_house_shares(
            row_for, room=room, date_from=date_from, date_to=date_to, table_number=table_number, fields=fields
        )
        _counted_revenue_into(row_for, room=room, date_from=date_from, date_to=date_to, table_number=table_number)
    return sorted(rows.values(), key=lambda r: tuple(str(v) for v in r.keys.values()))


def _revenue_sources(
    *, room: PokerRoom, date_from: date | None, date_to: date | None, table_number: str | None
) -> tuple[QuerySet[Round], QuerySet[TimeCharge], QuerySet[RoundDrop]]:
    """The rounds, verified time charges and drops (above zero) of the report's room, days and table."""
    rounds = Round.objects.filter(table__room=room)
    charges = TimeCharge.objects.filter(table__room=room, verified_at__isnull=False)
    drops = RoundDrop.objects.filter(round__table__room=room, amount_cents__gt=0)
    for name, queryset_filter in (("gaming_day__gte", date_from), ("gaming_day__lte", date_to)):
        if queryset_filter is not None:
            rounds = rounds.filter(**{name: queryset_filter})
            charges = charges.filter(**{name: queryset_filter})
            drops = drops.filter(**{f"round__{name}": queryset_filter})
    if table_number:
        rounds = rounds.filter(table__number=table_number)
        charges = charges.filter(table__number=table_number)
        drops = drops.filter(round__table__number=table_number)
    return rounds, charges, drops


def _counted_revenue_into(
    row_for: Any, *, room: PokerRoom, date_from: date | None, date_to: date | None, table_number: str | None
) -> None:
    """What the cage made official, on the row of its table and gaming day (``counted_revenue``)."""
    games = dict(Table.objects.filter(room=room).values_list("number", "game"))
    for (number, day), cents in counted_revenue(
        room=room, date_from=date_from, date_to=date_to, table_number=table_number
    ).items():
        row = row_for({"table__number": number, "gaming_day": day, "game": games.get(number, "")})
        row.counted_cents = (row.counted_cents or 0) + cents


def _banked_house_shares(
    row_for: Any,
    *,
    room: PokerRoom,
    date_from: date | None,
    date_to: date | None,
    table_number: str | None,
    fields: list[str],
) -> None:
    """Each group's banked house share, from the progressive rounds of the banked tables not voided, on
    the group's row (a row of its own when the group has no round of poker)."""
    banked = ProgressiveRound.objects.filter(table__room=room, void__isnull=True)
    if date_from is not None:
        banked = banked.filter(gaming_day__gte=date_from)
    if date_to is not None:
        banked = banked.filter(gaming_day__lte=date_to)
    if table_number:
        banked = banked.filter(table__number=table_number)
    banked_fields = [f if f != "game" else "table__game" for f in fields]
    for values in banked.values(*banked_fields).annotate(total=Sum("house_cents")):
        keyed = {fields[i]: values[banked_fields[i]] for i in range(len(fields))}
        row = row_for(keyed)
        row.banked_house_cents = (row.banked_house_cents or 0) + int(values["total"] or 0)


_COLUMN_LABELS = {
    "gaming_day": "Gaming day",
    "table": "Table",
    "shift": "Shift",
    "game": "Game",
    "rounds": "Rounds",
    "late_rounds": "Rounds logged late",
    "voided_rounds": "Rounds voided",
    "rake": "Rake",
    "time_charges": "Time charges",
    "reversed": "Reversed",
    "expected": "Expected",
    "counted": "Counted",
    "variance": "Variance",
    "banked_house_share": "Banked games' house share (not poker revenue)",
}


def revenue_column_label(key: str) -> str:
    """A column of the revenue report as people read it (the exports keep the plain keys)."""
    if key.startswith("drop_"):
        return f"Drops: {key.removeprefix('drop_')}"
    return _COLUMN_LABELS.get(key, key)


def revenue_table(rows: list[RevenueRow], *, group_by: Iterable[str]) -> tuple[list[str], list[list[Any]]]:
    """Rows as a header and plain cells (money as "12.34"): the one shape of every export. The
    header names the grouping even when there are no rows."""
    keys = list(rows[0].keys) if rows else [key for key in group_by if key in GROUPINGS] or ["gaming_day"]
    jackpots = sorted({code for row in rows for code in row.drops_cents})
    header = [
        *keys,
        "rounds",
        "late_rounds",
        "voided_rounds",
        "rake",
        "time_charges",
        "reversed",
        "expected",
        "counted",
        "variance",
        "banked_house_share",
        *[f"drop_{c}" for c in jackpots],
    ]
    body = []
    for row in rows:
        body.append(
            [
                *(str(v) for v in row.keys.values()),
                row.rounds,
                row.late_rounds,
                row.voided_rounds,
                format_cents(row.rake_cents),
                format_cents(row.time_charge_cents),
                format_cents(row.reversed_cents),
                format_cents(row.expected_cents),
                "" if row.counted_cents is None else format_cents(row.counted_cents),
                "" if row.variance_cents is None else format_cents(row.variance_cents),
                "" if row.banked_house_cents is None else format_cents(row.banked_house_cents),
                *[format_cents(row.drops_cents.get(c, 0)) for c in jackpots],
            ]
        )
    return header, body


def late_rounds(
    *, room: PokerRoom, date_from: date | None = None, date_to: date | None = None
) -> QuerySet[LateRoundEntry]:
    """The rounds of ``room`` logged late in the gaming days from ``date_from`` to ``date_to``, each
    with the supervisor who signed for it, oldest first: the revenue report's list of them."""
    entries = LateRoundEntry.objects.filter(round__table__room=room).select_related(
        "round__table", "signed_by", "recorded_by"
    )
    if date_from is not None:
        entries = entries.filter(round__gaming_day__gte=date_from)
    if date_to is not None:
        entries = entries.filter(round__gaming_day__lte=date_to)
    return entries.order_by("round__ended_at", "pk")


def rounds_filtered(
    *, table_number: str | None = None, room_code: str | None = None, gaming_day: date | None = None
) -> Any:
    rounds = Round.objects.select_related("table__room", "rules_version").prefetch_related("drops")
    conditions = Q()
    if room_code:
        conditions &= Q(table__room__code=room_code)
    if table_number:
        conditions &= Q(table__number=table_number)
    if gaming_day:
        conditions &= Q(gaming_day=gaming_day)
    return rounds.filter(conditions)
