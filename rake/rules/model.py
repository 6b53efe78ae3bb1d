"""The parsed rules: limits from the regulations, rake kinds, and the frozen dataclasses ``validate_rules`` returns.

A jackpot's rules are the products' types (``jackpots.bad_beat.rules.BadBeatRule``, ``jackpots.high_hand.rules.HighHandRule``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, time
from typing import Any

from jackpots.funds.rules import JackpotRule
from jackpots.progressive.rules import BankedTableRule, ProgressiveRule
from tables.games import Game
from tables.irregularities.house_kinds import HouseKind

MAX_PERCENTAGE_RAKE_BP = 1000  # "A percentage rake, not to exceed 10%" (§637a.17(b)(1))
TIME_CHARGE_INTERVALS = (20, 30)  # "assessed fractionally every 20 or 30 minutes" (§637a.17(b)(3)(iii))
# A house control (``controls: {late_entry_minutes}``): a round logged longer than this after it ended
# needs a shift supervisor's signature. A file that posts none gets the default; no file may post more
# than a day (a round later than that is a correction of its day, whose revenue finance reports).
LATE_ENTRY_DEFAULT_MINUTES = 60
LATE_ENTRY_MOST_MINUTES = 1440


class RakeKind:
    PERCENTAGE = "percentage"
    INCREMENTAL = "incremental"
    TIME_CHARGE = "time_charge"
    ALL = (PERCENTAGE, INCREMENTAL, TIME_CHARGE)


@dataclass(frozen=True)
class Level:
    pot_cents: int
    rake_cents: int


@dataclass(frozen=True)
class RakePolicy:
    code: str
    kind: str
    max_per_round_cents: int | None = None
    rate_bp: int | None = None
    increment_cents: int = 1
    min_pot_cents: int = 0
    no_flop_no_drop: bool = False
    levels: tuple[Level, ...] = ()
    basis: str | None = None  # time charges: "per_player" or "per_table"
    hourly_fee_cents: int | None = None
    interval_minutes: int | None = None

    @property
    def fee_per_interval_cents(self) -> int:
        """The hourly fee for one interval; validation makes it a whole number of cents."""
        assert self.hourly_fee_cents is not None and self.interval_minutes is not None
        return self.hourly_fee_cents * self.interval_minutes // 60


@dataclass(frozen=True)
class TableRule:
    number: str
    game: Game
    seats: int
    rake_policy: str | None
    jackpots: tuple[str, ...]
    banked: BankedTableRule | None = None  # a banked game's limits, paytables and meter


@dataclass(frozen=True)
class Shift:
    name: str
    starts: time


@dataclass(frozen=True)
class Rules:
    room: str
    room_name: str
    timezone: str
    gaming_day_starts: time
    effective_from: datetime | None
    shifts: tuple[Shift, ...]
    rake_policies: Mapping[str, RakePolicy]
    jackpots: Mapping[str, JackpotRule]
    tables: Mapping[str, TableRule]
    content: dict[str, Any] = field(compare=False, hash=False, repr=False)
    # House controls (the room's approved internal controls, not the regulation): a count variance
    # larger than this needs a signed explanation; 0, when the file states none, means every one does.
    variance_threshold_cents: int = 0
    # How long after a round ends it may be logged without a shift supervisor's signature; None when
    # the file posts none (``late_entry_limit_minutes`` is then the default).
    late_entry_minutes: int | None = None
    # The banked games' progressive meters (``jackpots.progressive.rules``), by code.
    progressives: Mapping[str, ProgressiveRule] = field(default_factory=dict)
    # The room's own kinds of irregularity (§637a.18(s)), by code.
    irregularities: Mapping[str, HouseKind] = field(default_factory=dict)

    def canonical(self) -> dict[str, Any]:
        return self.content

    @property
    def late_entry_limit_minutes(self) -> int:
        """The minutes after its end within which a round is logged without a supervisor's signature."""
        return LATE_ENTRY_DEFAULT_MINUTES if self.late_entry_minutes is None else self.late_entry_minutes

    def canonical_json(self) -> str:
        return canonical_json(self.content)

    def shift_at(self, local_time: time) -> str:
        """The name of the shift a local wall-clock time falls in (shifts cycle through the day)."""
        minutes = local_time.hour * 60 + local_time.minute
        start0 = _minutes(self.shifts[0].starts)
        offset = (minutes - start0) % 1440
        name = self.shifts[0].name
        for shift in self.shifts:
            if (_minutes(shift.starts) - start0) % 1440 <= offset:
                name = shift.name
        return name


def canonical_json(content: dict[str, Any]) -> str:
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _minutes(value: time) -> int:
    return value.hour * 60 + value.minute
