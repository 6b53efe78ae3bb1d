"""The posted rules of the banked games' progressives: meters, paytables and table limits, read from a
rules file with the file's ``Checker`` (``rake.rules.validate_rules`` asks for them, as it asks
``jackpots.funds.rules`` for the poker jackpots).

Mississippi Stud (§655a.12) and Crazy 4 Poker (§657a.12) pay their Progressive Payout Wagers from a
meter. The certificate holder's Rules Submission states:

- '(3) The rate of progression for the meter used for the progressive payouts ... must be in the
  certificate holder's Rules Submission ... The initial and reset amount must also be in the
  certificate holder's Rules Submission and may not be less than $10,000.' (§655a.12(c)(3));
  '... must be at least $5,000 for paytable A and $1,000 for paytable B.' (§657a.12(d)(3));
- the paytable it selects: Mississippi Stud's Three Card Bonus A-D (§655a.12(d)), Crazy 4 Poker's
  Queens Up A-D (§657a.12(c)) and progressive paytable A or B (§657a.12(d)(1));
- the Envy Bonus schedules, which the regulation gives for a $1 and a $5 Progressive Payout Wager only
  (§655a.12(c)(5), §657a.12(d)(5)): a meter accepts those wager sizes, and no other.

A file's ``progressives`` section lists the meters; a banked table names the meter it plays into
(``progressive``), the paytables it selected and its minimum and maximum wagers. The tables linked to a
meter are the tables that name it.

The rate of progression is a percent of each wager added to the meter; it must give a whole number of
cents for each wager size the meter accepts (15% of $1.00 is 15 cents; 12.5% is refused), so the
meter's increments are exact and the house's share is the rest of the wager, to the cent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from casino_backoffice.core.checker import Checker
from casino_backoffice.money import display_cents, format_cents, format_percent, percent_floor
from casino_backoffice.poker import PAYTABLES
from casino_backoffice.poker.paytables import Paytable
from tables.games import Game

PROGRESSIVE_GAMES: tuple[str, ...] = (Game.MISSISSIPPI_STUD.value, Game.CRAZY_4_POKER.value)

# The smallest initial and reset amount of a meter (§655a.12(c)(3), §657a.12(d)(3)), by game and
# progressive paytable (Mississippi Stud has one progressive paytable, §655a.12(c)(1)).
MINIMUM_RESET_CENTS: dict[tuple[str, str | None], int] = {
    (Game.MISSISSIPPI_STUD.value, None): 10_000_00,
    (Game.CRAZY_4_POKER.value, "a"): 5_000_00,
    (Game.CRAZY_4_POKER.value, "b"): 1_000_00,
}
_RESET_SECTION = {Game.MISSISSIPPI_STUD.value: "§655a.12(c)(3)", Game.CRAZY_4_POKER.value: "§657a.12(d)(3)"}
_ENVY_SECTION = {Game.MISSISSIPPI_STUD.value: "§655a.12(c)(5)", Game.CRAZY_4_POKER.value: "§657a.12(d)(5)"}

# The Progressive Payout Wager sizes the regulation gives an Envy Bonus schedule for.
ENVY_WAGER_CENTS: tuple[int, ...] = (1_00, 5_00)

PAYTABLE_LETTERS: tuple[str, ...] = ("a", "b", "c", "d")
PROGRESSIVE_LETTERS: tuple[str, ...] = ("a", "b")

# §655a.12(b): 'the aggregate payout limit for any hand may not exceed $50,000 or the maximum amount
# that one patron could win per round when betting the minimum wager, whichever is greater.'
MISSISSIPPI_STUD_CAP_FLOOR_CENTS = 50_000_00
# At the minimum Ante Wager a patron can wager the Ante and three Bet Wagers of three times the Ante
# (§655a.11(b), (d), (f)): ten times the minimum, each paid at most 500 to 1 (royal flush, §655a.12(a)).
_MOST_WAGERED_PER_ANTE = 1 + 3 + 3 + 3
_TOP_ODDS = 500


def mississippi_stud_cap_cents(*, min_wager_cents: int) -> int:
    """The most a Mississippi Stud hand pays in aggregate (§655a.12(b)): $50,000, or what one patron
    could win in a round at the minimum wager, whichever is greater.

    >>> display_cents(mississippi_stud_cap_cents(min_wager_cents=500))
    '$50,000.00'
    >>> display_cents(mississippi_stud_cap_cents(min_wager_cents=25_00))
    '$125,000.00'
    """
    most_won = min_wager_cents * _MOST_WAGERED_PER_ANTE * _TOP_ODDS
    return max(MISSISSIPPI_STUD_CAP_FLOOR_CENTS, most_won)


@dataclass(frozen=True)
class ProgressiveRule:
    """A progressive meter as posted: its game, progressive paytable, rate of progression, initial and
    reset amounts and the wager sizes it accepts."""

    code: str
    name: str
    game: str
    paytable_letter: str | None  # Crazy 4 Poker's progressive paytable A or B; None at Mississippi Stud
    rate_bp: int
    initial_cents: int
    reset_cents: int
    wagers_cents: tuple[int, ...]

    @property
    def paytable(self) -> Paytable:
        """The progressive paytable (§655a.12(c)(1), §657a.12(d)(1))."""
        if self.game == Game.MISSISSIPPI_STUD.value:
            return PAYTABLES["mississippi_stud_progressive"]
        return PAYTABLES[f"crazy4_progressive_{self.paytable_letter}"]

    def envy_paytable(self, *, wager_cents: int) -> Paytable:
        """The Envy Bonus schedule of a receiver's wager size (§655a.12(c)(5), §657a.12(d)(5))."""
        dollars = wager_cents // 100
        if self.game == Game.MISSISSIPPI_STUD.value:
            return PAYTABLES[f"mississippi_stud_envy_{dollars}"]
        return PAYTABLES[f"crazy4_envy_{self.paytable_letter}_{dollars}"]

    def increment_cents(self, *, wager_cents: int) -> int:
        """What one wager adds to the meter: exact, the file is checked so (see the module)."""
        return percent_floor(wager_cents, self.rate_bp)

    @property
    def minimum_reset_cents(self) -> int:
        return MINIMUM_RESET_CENTS[(self.game, self.paytable_letter)]

    @property
    def reset_section(self) -> str:
        return _RESET_SECTION[self.game]

    @property
    def envy_section(self) -> str:
        return _ENVY_SECTION[self.game]

    def canonical(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "game": self.game,
            "paytable": self.paytable_letter,
            "rate_percent": format_percent(self.rate_bp),
            "initial": format_cents(self.initial_cents),
            "reset": format_cents(self.reset_cents),
            "wagers": [format_cents(cents) for cents in self.wagers_cents],
        }


@dataclass(frozen=True)
class BankedTableRule:
    """What a banked table posts beside its game and seats: its wager limits, the paytables it selected
    and the meter it plays into."""

    min_wager_cents: int | None = None
    max_wager_cents: int | None = None
    three_card_bonus: str | None = None  # Mississippi Stud (§655a.12(d))
    queens_up: str | None = None  # Crazy 4 Poker (§657a.12(c))
    progressive: str | None = None  # a meter's code

    def paytables(self, game: str) -> list[Paytable]:
        """The paytables the table selected, the meter's aside."""
        found = []
        if game == Game.MISSISSIPPI_STUD.value:
            found.append(PAYTABLES["mississippi_stud"])
            if self.three_card_bonus:
                found.append(PAYTABLES[f"three_card_bonus_{self.three_card_bonus}"])
        else:
            found.append(PAYTABLES["crazy4_super_bonus"])
            if self.queens_up:
                found.append(PAYTABLES[f"crazy4_queens_up_{self.queens_up}"])
        return found

    def cap_cents(self, game: str) -> int | None:
        """Mississippi Stud's aggregate payout limit per hand (§655a.12(b)); None elsewhere."""
        if game != Game.MISSISSIPPI_STUD.value or self.min_wager_cents is None:
            return None
        return mississippi_stud_cap_cents(min_wager_cents=self.min_wager_cents)

    def canonical(self) -> dict[str, Any]:
        values = {
            "min_wager": format_cents(self.min_wager_cents) if self.min_wager_cents is not None else None,
            "max_wager": format_cents(self.max_wager_cents) if self.max_wager_cents is not None else None,
            "three_card_bonus": self.three_card_bonus,
            "queens_up": self.queens_up,
            "progressive": self.progressive,
        }
        return {key: value for key, value in values.items() if value is not None}


BANKED_TABLE_KEYS = frozenset({"min_wager", "max_wager", "three_card_bonus", "queens_up", "progressive"})

_PROGRESSIVE_KEYS = {"code", "name", "game", "rate_percent", "initial", "reset", "wagers"}


def progressive_rule_parse(
    check: Checker, where: str, item: dict[str, Any]
) -> tuple[ProgressiveRule, dict[str, Any]] | None:
    """One meter of the file's ``progressives``: every error reported with the file's others."""
    if not check.keys(where, item, _PROGRESSIVE_KEYS, {"paytable"}):
        return None
    errors = len(check.errors)
    code = check.code(where, "code", item.get("code"))
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        check.error(where, "name must be the meter's name as posted, such as 'Mississippi Stud Progressive'")
    game, letter = _game_and_paytable(check, where, item)
    rate_bp = check.percent_bp(where, "rate_percent", item.get("rate_percent"))
    if rate_bp is not None and not 0 < rate_bp < 10_000:
        check.error(where, f"rate_percent {item.get('rate_percent')} must be more than 0 and less than 100")
        rate_bp = None
    initial = check.money(where, "initial", item.get("initial"), positive=True)
    reset = check.money(where, "reset", item.get("reset"), positive=True)
    _resets_at_least_the_minimum(check, where, game=game, letter=letter, initial=initial, reset=reset)
    wagers = _wager_sizes(check, where, item.get("wagers"), game)
    _rate_in_whole_cents(check, where, rate_bp=rate_bp, wagers=wagers)
    if len(check.errors) > errors:
        return None
    assert code is not None and game is not None and rate_bp is not None and initial is not None
    assert reset is not None and wagers is not None and isinstance(name, str)
    rule = ProgressiveRule(
        code=code,
        name=name.strip(),
        game=game,
        paytable_letter=letter,
        rate_bp=rate_bp,
        initial_cents=initial,
        reset_cents=reset,
        wagers_cents=wagers,
    )
    return rule, rule.canonical()


def _game_and_paytable(check: Checker, where: str, item: dict[str, Any]) -> tuple[str | None, Any]:
    """The meter's game (None when it is no progressive game) and progressive paytable letter."""
    game = item.get("game")
    if game not in PROGRESSIVE_GAMES:
        check.error(
            where,
            f"game {game!r}: a progressive meter is of {' or '.join(PROGRESSIVE_GAMES)} (§655a.12(c), §657a.12(d))",
        )
        game = None
    letter = item.get("paytable")
    if game == Game.CRAZY_4_POKER.value:
        if letter not in PROGRESSIVE_LETTERS:
            check.error(
                where,
                f"paytable {letter!r}: a Crazy 4 Poker meter pays by progressive paytable a or b, "
                "as the Rules Submission selects (§657a.12(d)(1))",
            )
            letter = None
    elif game == Game.MISSISSIPPI_STUD.value and letter is not None:
        check.error(where, "paytable: Mississippi Stud has one progressive paytable (§655a.12(c)(1)); leave it out")
        letter = None
    return game, letter


def _resets_at_least_the_minimum(
    check: Checker, where: str, *, game: str | None, letter: Any, initial: int | None, reset: int | None
) -> None:
    """The initial and reset amounts are at least what the regulation requires of the meter."""
    if game is None or not (game == Game.MISSISSIPPI_STUD.value or letter is not None):
        return
    minimum = MINIMUM_RESET_CENTS[(game, letter)]
    section = _RESET_SECTION[game]
    table = f"paytable {letter.upper()} " if letter else ""
    for key, cents in (("initial", initial), ("reset", reset)):
        if cents is not None and cents < minimum:
            check.error(
                where,
                f"{key} {display_cents(cents)} is under the {display_cents(minimum)} the regulation requires "
                f"of a {Game(game).label} {table}meter ({section})",
            )


def _rate_in_whole_cents(check: Checker, where: str, *, rate_bp: int | None, wagers: tuple[int, ...] | None) -> None:
    """The rate adds whole cents to the meter for every wager size."""
    if rate_bp is None or not wagers:
        return
    for cents in wagers:
        if cents * rate_bp % 10_000:
            check.error(
                where,
                f"rate_percent {format_percent(rate_bp)} of a {display_cents(cents)} wager is not a whole "
                "number of cents: choose a rate that adds whole cents to the meter for every wager size",
            )


def _wager_sizes(check: Checker, where: str, raw: Any, game: str | None) -> tuple[int, ...] | None:
    if not isinstance(raw, list) or not raw:
        check.error(where, 'wagers must list the Progressive Payout Wager sizes the meter accepts, such as ["1.00"]')
        return None
    found: list[int] = []
    for value in raw:
        cents = check.money(where, "wagers", value, positive=True)
        if cents is None:
            return None
        if cents not in ENVY_WAGER_CENTS:
            section = _ENVY_SECTION.get(game or "", "§655a.12(c)(5), §657a.12(d)(5)")
            check.error(
                where,
                f"a Progressive Payout Wager of {display_cents(cents)} has no Envy Bonus schedule in the "
                f"regulation ({section}): the meter accepts $1.00 or $5.00 wagers",
            )
            return None
        if cents in found:
            check.error(where, f"wagers lists {display_cents(cents)} twice")
            return None
        found.append(cents)
    return tuple(sorted(found))


def banked_table_parse(
    check: Checker,
    where: str,
    item: dict[str, Any],
    *,
    game: Game,
    progressives: dict[str, ProgressiveRule],
    progressive_codes: set[Any],
) -> BankedTableRule | None:
    """A banked table's limits, paytables and meter. A table that plays into a meter posts its minimum
    and maximum wagers (Mississippi Stud's cap, §655a.12(b), is counted from the minimum)."""
    errors = len(check.errors)
    min_wager = check.money(where, "min_wager", item["min_wager"], positive=True) if "min_wager" in item else None
    max_wager = check.money(where, "max_wager", item["max_wager"], positive=True) if "max_wager" in item else None
    if min_wager is not None and max_wager is not None and max_wager < min_wager:
        check.error(where, f"max_wager {display_cents(max_wager)} is under min_wager {display_cents(min_wager)}")
    three_card = item.get("three_card_bonus")
    queens_up = item.get("queens_up")
    if three_card is not None and game != Game.MISSISSIPPI_STUD:
        check.error(where, "three_card_bonus is a Mississippi Stud wager (§655a.7(d)(4))")
    elif three_card is not None and three_card not in PAYTABLE_LETTERS:
        check.error(
            where, f"three_card_bonus {three_card!r}: the Three Card Bonus paytable is a, b, c or d (§655a.12(d))"
        )
    if queens_up is not None and game != Game.CRAZY_4_POKER:
        check.error(where, "queens_up is a Crazy 4 Poker wager (§657a.7(d)(2))")
    elif queens_up is not None and queens_up not in PAYTABLE_LETTERS:
        check.error(where, f"queens_up {queens_up!r}: the Queens Up paytable is a, b, c or d (§657a.12(c))")
    meter = item.get("progressive")
    if meter is not None:
        if meter not in progressive_codes:
            known = ", ".join(sorted(str(code) for code in progressive_codes)) or "none"
            check.error(where, f"progressive {meter!r} is not a meter of this file's progressives (known: {known})")
        elif meter in progressives and progressives[meter].game != game.value:
            check.error(
                where,
                f"progressive {meter}: a {Game(progressives[meter].game).label} meter cannot be played into from a "
                f"{game.label} table",
            )
        if min_wager is None or max_wager is None:
            check.error(
                where,
                "min_wager and max_wager are missing: a table that plays into a progressive posts its table limits "
                "(Mississippi Stud's aggregate payout limit, §655a.12(b), is counted from the minimum)",
            )
    if len(check.errors) > errors:
        return None
    return BankedTableRule(
        min_wager_cents=min_wager,
        max_wager_cents=max_wager,
        three_card_bonus=three_card,
        queens_up=queens_up,
        progressive=meter,
    )
