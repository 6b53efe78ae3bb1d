"""The theoretical returns of the paytables a room selects for its banked tables (§655a.12, §657a.12),
for the back office: for each banked table of the rules in effect, the paytables it selected and its
meter's, line by line, with every hand counted (``casino_backoffice.poker.returns``, which enumerates
each kind of hand once per process). Only the wagers the player's cards alone settle are shown
(``NOT_SETTLED_WORDS`` says which are not, and why)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from casino_backoffice.money import display_cents, display_percent
from casino_backoffice.poker.paytables import PayoutKind, Paytable
from casino_backoffice.poker.returns import (
    NOT_SETTLED_BY_CARDS,
    PaytableReturn,
    paytable_return,
    percent,
    return_with_meter,
)
from jackpots.progressive.rules import PROGRESSIVE_GAMES, BankedTableRule, ProgressiveRule
from jackpots.progressive.selectors import banked_table_of_version, meters_standing, progressive_rule_of_version
from tables.games import Game
from tables.models import PokerRoom
from tables.selectors import rules_version_in_effect

_LETTERED = {
    "three_card_bonus_": "Three Card Bonus, paytable {}",
    "crazy4_queens_up_": "Queens Up, paytable {}",
    "crazy4_progressive_": "Progressive Payout Wager, paytable {}",
}
_TITLES = {
    "mississippi_stud": "Mississippi Stud wager",
    "mississippi_stud_progressive": "Progressive Payout Wager",
    "crazy4_super_bonus": "Super Bonus",
}

# The wagers this page cannot show, and why: the player's cards alone do not settle them.
NOT_SETTLED_WORDS: list[tuple[str, str]] = [
    (
        "The Mississippi Stud wager (Ante and the 3rd, 4th and 5th Street Wagers, §655a.12(a))",
        "the player decides at each street to wager one, two or three times the Ante or fold "
        "(§655a.11(b), (d), (f)): its return depends on how the player plays, not on the paytable alone.",
    ),
    (
        "Crazy 4 Poker's Ante, Play and Super Bonus Wagers (§657a.12(a)-(b))",
        "they are settled against the dealer's hand: below a straight the Super Bonus is returned or lost by that "
        "comparison (§657a.11(c)(3)), so its return depends on the dealer's hand and on the player's decision to "
        "play or fold.",
    ),
]


def paytable_title(paytable: Paytable) -> str:
    """A paytable by the name the regulation gives it: 'Three Card Bonus, paytable A'."""
    if paytable.name in _TITLES:
        return _TITLES[paytable.name]
    for prefix, words in _LETTERED.items():
        if paytable.name.startswith(prefix):
            return words.format(paytable.name.removeprefix(prefix).upper())
    if "_envy_" in paytable.name:
        *letter, dollars = paytable.name.split("_envy_")[1].split("_")
        table = f" (progressive paytable {letter[0].upper()})" if letter else ""
        return f"Envy Bonus{table}, ${dollars} Progressive Payout Wager"
    return paytable.name


@dataclass(frozen=True)
class LineShown:
    hand: str
    payout: str
    hands: str
    probability: str
    one_in: str
    contribution: str


@dataclass(frozen=True)
class MeterReturn:
    wager: str
    returned: str
    house_edge: str


@dataclass(frozen=True)
class PaytableShown:
    """A paytable line by line beside every hand its wager can see (``PaytableReturn``)."""

    title: str
    section: str
    lines: list[LineShown]
    hands_total: str
    losing_hands: str
    losing_probability: str
    exact_return: str | None
    house_edge: str | None
    fixed_return: str | None = None
    with_meter: tuple[MeterReturn, ...] = ()
    envy_return: str | None = None
    wager: str = ""


@dataclass(frozen=True)
class TableShown:
    number: str
    game: str
    rule: BankedTableRule
    min_wager: str
    max_wager: str
    cap: str | None
    meter_code: str | None
    meter_name: str
    paytables: list[PaytableShown]


@dataclass(frozen=True)
class MeterShown:
    code: str
    name: str
    game: str
    amount: str
    pending: bool
    rate: str
    reset: str
    tables: list[str]
    progressive: PaytableShown
    envy: list[PaytableShown]


@dataclass(frozen=True)
class RoomReturns:
    version_number: int | None
    tables: list[TableShown]
    meters: list[MeterShown]


def _lines(result: PaytableReturn, contribution: Any) -> list[LineShown]:
    total = result.hands_total
    return [
        LineShown(
            hand=line.line.hand,
            payout=str(line.line.payout),
            hands=f"{line.hands:,}",
            probability=percent(line.probability, places=6),
            one_in=f"1 in {round(Fraction(total, line.hands)):,}" if line.hands else "never",
            contribution=contribution(line),
        )
        for line in result.lines
    ]


def _shown(paytable: Paytable, contribution: Any = None, **extra: Any) -> PaytableShown:
    result = paytable_return(paytable)
    exact, edge = result.exact_return, result.house_edge

    def returned(line: Any) -> str:
        if line.returned is not None:
            return percent(line.returned)
        return "share of the meter" if line.line.payout.kind is PayoutKind.METER else "—"

    return PaytableShown(
        title=paytable_title(paytable),
        section=paytable.section,
        lines=_lines(result, contribution or returned),
        hands_total=f"{result.hands_total:,}",
        losing_hands=f"{result.losing_hands:,}",
        losing_probability=percent(Fraction(result.losing_hands, result.hands_total), places=6),
        exact_return=percent(exact) if exact is not None else None,
        house_edge=percent(edge) if edge is not None else None,
        **extra,
    )


def _progressive_shown(rule: ProgressiveRule, amount_cents: int) -> PaytableShown:
    """The meter's paytable: the return of its fixed lines, and with the meter's lines at the amount
    the meter reads now, for each wager size it accepts (``return_with_meter``)."""
    result = paytable_return(rule.paytable)
    with_meter = []
    for cents in rule.wagers_cents:
        returned = return_with_meter(result, meter_cents=amount_cents, wager_cents=cents)
        with_meter.append(MeterReturn(display_cents(cents), percent(returned), percent(1 - returned)))
    return _shown(rule.paytable, fixed_return=percent(result.fixed_return), with_meter=tuple(with_meter))


def _envy_shown(rule: ProgressiveRule, wager_cents: int) -> PaytableShown:
    """An Envy Bonus schedule pays fixed dollars for another player's qualifying hand: each line's
    probability times its bonus, as a share of the receiver's wager, for each other player's hand."""
    paytable = rule.envy_paytable(wager_cents=wager_cents)
    result = paytable_return(paytable)

    def share(line: Any) -> Fraction:
        return line.probability * Fraction(line.line.payout.amount_cents, wager_cents)

    total = sum((share(line) for line in result.lines), Fraction(0))
    return _shown(
        paytable,
        contribution=lambda line: percent(share(line)),
        envy_return=percent(total),
        wager=display_cents(wager_cents),
    )


def room_returns(*, room: PokerRoom, at: Any) -> RoomReturns:
    """The returns of every banked table of the room's rules in effect at ``at`` and of the meters
    they play into; each kind of hand is enumerated once per process (``paytable_return`` keeps it)."""
    version = rules_version_in_effect(room=room, at=at)
    if version is None:
        return RoomReturns(version_number=None, tables=[], meters=[])
    standings = {standing.meter.code: standing for standing in meters_standing(room=room, at=at)}
    tables = []
    for entry in version.content.get("tables", []):
        if entry.get("game") not in PROGRESSIVE_GAMES:
            continue
        rule = banked_table_of_version(version=version, number=entry["number"])
        if rule is None:
            continue
        game = entry["game"]
        cap = rule.cap_cents(game)
        meter_rule = progressive_rule_of_version(version=version, code=rule.progressive) if rule.progressive else None
        tables.append(
            TableShown(
                number=entry["number"],
                game=Game(game).label,
                rule=rule,
                min_wager=display_cents(rule.min_wager_cents) if rule.min_wager_cents is not None else "not posted",
                max_wager=display_cents(rule.max_wager_cents) if rule.max_wager_cents is not None else "not posted",
                cap=display_cents(cap) if cap is not None else None,
                meter_code=rule.progressive,
                meter_name=meter_rule.name if meter_rule else "",
                paytables=[
                    _shown(paytable) for paytable in rule.paytables(game) if paytable.name not in NOT_SETTLED_BY_CARDS
                ],
            )
        )
    meters = []
    for code in sorted({table.meter_code for table in tables if table.meter_code}):
        meter_rule = progressive_rule_of_version(version=version, code=code)
        standing = standings.get(code)
        if meter_rule is None or standing is None:
            continue
        meters.append(
            MeterShown(
                code=code,
                name=meter_rule.name,
                game=Game(meter_rule.game).label,
                amount=display_cents(standing.amount_cents),
                pending=standing.is_pending,
                rate=display_percent(meter_rule.rate_bp),
                reset=display_cents(meter_rule.reset_cents),
                tables=[table.number for table in tables if table.meter_code == code],
                progressive=_progressive_shown(meter_rule, standing.amount_cents),
                envy=[_envy_shown(meter_rule, cents) for cents in meter_rule.wagers_cents],
            )
        )
    return RoomReturns(version_number=version.number, tables=tables, meters=meters)
