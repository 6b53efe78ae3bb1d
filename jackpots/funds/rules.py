"""The posted rules every jackpot shares: parsed and checked from a rules file, and the drop they take from a pot.

A room's rules file (``rake.rules.validate_rules``) has a ``jackpots`` section; each item is read by
``jackpot_rule_parse`` with the file's ``Checker``, so its errors read like every other
("jackpots[0] (bb) hands[0] (bad_beat): shares sum to 90%, not 100%") and are reported with them.
Each kind is read by its product's reader (``jackpots.bad_beat.rules``, §637a.15(b);
``jackpots.high_hand.rules``, §637a.16(b)), registered here with ``jackpot_kind_reader``; what every
kind has, its code, name, contribution and seed, is ``JackpotRule`` and is read here.
``rule.canonical()`` is the item as a rules version stores it, every key written; reading it again
gives an equal rule.

``drop_compute`` is the contribution of one pot (§637a.15(c), §637a.16(c)); ``rake.compute`` asks
it for each jackpot of a table, after the rake.

A new rules file is read with ``stored=False``; the content of a rules version already stored is read
again with ``stored=True``, so that a version keeps what it posted and rated even where the file it came
from would be refused today (a contribution measured ``before_rake``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from casino_backoffice.core.checker import Checker
from casino_backoffice.money import display_cents, display_percent, format_cents, format_percent, percent_floor
from jackpots.funds.models import JackpotKind

# What a contribution's minimum pot and percentage are measured on: the pot without the uncalled
# final bet, less the rake ("After the dealer has extracted the rake", §637a.15(c), §637a.16(c)). A new
# rules file may write only ``after_rake``; ``before_rake`` is read from versions stored before it was
# refused, for their history.
CONTRIBUTION_BASES: tuple[str, ...] = ("after_rake", "before_rake")
_BASE_WORDS = {"after_rake": "after the rake", "before_rake": "before the rake"}

# --- The rules ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Contribution:
    """How much of each pot goes to a jackpot: "the maximum contribution amount ... the method of
    calculation ... the minimum pot amount" (§637a.15(b)(1)-(2), §637a.16(b)(2)-(4))."""

    method: str  # "fixed" or "percent"
    min_pot_cents: int
    amount_cents: int | None = None
    rate_bp: int | None = None
    max_cents: int | None = None
    # What the minimum pot and the percentage are measured on (``CONTRIBUTION_BASES``): the pot
    # without the uncalled bet less the rake; ``before_rake`` only in a version stored before it was refused.
    base: str = "after_rake"
    # No drop when the table's percentage rake took none because no flop was dealt.
    no_flop_no_drop: bool = True

    def canonical(self) -> dict[str, Any]:
        how = {"base": self.base, "no_flop_no_drop": self.no_flop_no_drop}
        if self.method == "fixed":
            assert self.amount_cents is not None
            return {
                "method": "fixed",
                "amount": format_cents(self.amount_cents),
                "min_pot": format_cents(self.min_pot_cents),
                **how,
            }
        assert self.rate_bp is not None and self.max_cents is not None
        return {
            "method": "percent",
            "rate_percent": format_percent(self.rate_bp),
            "max": format_cents(self.max_cents),
            "min_pot": format_cents(self.min_pot_cents),
            **how,
        }


@dataclass(frozen=True, kw_only=True)
class JackpotRule:
    """What every jackpot's posted rules say: its code in the room, name, contribution and seed."""

    kind: ClassVar[JackpotKind]
    drop_section: ClassVar[str]  # the rule a drop quotes

    code: str
    name: str
    contribution: Contribution
    seed_cents: int = 0

    def canonical(self) -> dict[str, Any]:
        """The item as a rules version stores it (money as "5.00", percents as decimal text)."""
        return {
            "code": self.code,
            "kind": self.kind.value,
            "name": self.name,
            "contribution": self.contribution.canonical(),
        }


# --- Reading a rules file's jackpot ---------------------------------------------------------------


# How each kind's item is read: the reader of its product's rules module (``jackpots.bad_beat.rules``,
# ``jackpots.high_hand.rules``), registered as that module is imported; ``jackpots.apps`` imports both
# when Django starts. The funds know no product: a product names itself here.
RuleReader = Callable[..., "JackpotRule | None"]
_READERS: dict[str, RuleReader] = {}


def jackpot_kind_reader(kind: JackpotKind, reader: RuleReader) -> None:
    """Register ``reader`` as the reader of an item of ``kind`` in a rules file's ``jackpots``: called
    as ``reader(check, where, item, stored=...)``, it gives the rule or None with its errors in ``check``."""
    _READERS[kind.value] = reader


def jackpot_rule_parse(
    check: Checker, where: str, item: dict[str, Any], *, stored: bool = False
) -> tuple[JackpotRule, dict[str, Any]] | None:
    """One item of a rules file's ``jackpots`` (its ``code`` already read by the loader): the rule and
    its canonical form, or None with every error added to ``check``. ``stored``: the item is the content
    of a rules version already stored, read again for its history (see the module's docstring)."""
    kind = item.get("kind")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        check.error(where, f"kind must be one of {', '.join(JackpotKind.values)}, got {kind!r}")
        return None
    rule = reader(check, where, item, stored=stored)
    return (rule, rule.canonical()) if rule is not None else None


COMMON_KEYS = {"code", "kind", "contribution"}


def contribution_parse(check: Checker, where: str, item: Any, *, section: str, stored: bool) -> Contribution | None:
    where = f"{where} contribution"
    if not isinstance(item, dict):
        check.error(where, "must be a mapping with method, amount or rate_percent, and min_pot")
        return None
    method = item.get("method")
    how = {"base", "no_flop_no_drop"}
    if method == "fixed":
        if not check.keys(where, item, {"method", "amount", "min_pot"}, how):
            return None
        amount = check.money(where, "amount", item.get("amount"), positive=True)
        min_pot = check.money(where, "min_pot", item.get("min_pot"))
        base, no_flop_no_drop = _contribution_base(check, where, item, section=section, stored=stored)
        if amount is None or min_pot is None or base is None or no_flop_no_drop is None:
            return None
        return Contribution(
            method="fixed", amount_cents=amount, min_pot_cents=min_pot, base=base, no_flop_no_drop=no_flop_no_drop
        )
    if method == "percent":
        if not check.keys(where, item, {"method", "rate_percent", "max", "min_pot"}, how):
            return None
        rate = check.percent_bp(where, "rate_percent", item.get("rate_percent"))
        if rate is not None and not 0 < rate <= 10_000:
            check.error(where, f"rate_percent {item.get('rate_percent')} must be more than 0 and at most 100")
            rate = None
        maximum = check.money(where, "max", item.get("max"), positive=True)
        min_pot = check.money(where, "min_pot", item.get("min_pot"))
        base, no_flop_no_drop = _contribution_base(check, where, item, section=section, stored=stored)
        if rate is None or maximum is None or min_pot is None or base is None or no_flop_no_drop is None:
            return None
        return Contribution(
            method="percent",
            rate_bp=rate,
            max_cents=maximum,
            min_pot_cents=min_pot,
            base=base,
            no_flop_no_drop=no_flop_no_drop,
        )
    check.error(where, f"method must be fixed or percent (§637a.15(b)(1)), got {method!r}")
    return None


def _contribution_base(
    check: Checker, where: str, item: dict[str, Any], *, section: str, stored: bool
) -> tuple[str | None, bool | None]:
    """What the minimum pot and the percentage are measured on, and whether "no flop, no drop" stops
    the drop too. The contribution is determined "After the dealer has extracted the rake"
    (``section``: §637a.15(c) for a Bad Beat, §637a.16(c) for a High Hand), so a new file may write only
    ``after_rake``; a version stored before ``before_rake`` was refused is read as it was (``stored``)."""
    base = item.get("base", "after_rake")
    if base == "before_rake" and not stored:
        check.error(
            where,
            "base before_rake is refused: 'After the dealer has extracted the rake, the amount from each pot to be "
            f"contributed ... shall be determined' ({section}), so a contribution and its minimum pot are measured on "
            "the pot less the rake; write base: after_rake or leave it out",
        )
        base = None
    elif base not in CONTRIBUTION_BASES:
        check.error(where, f"base must be after_rake (the pot less the rake, {section}), got {base!r}")
        base = None
    no_flop_no_drop = check.boolean(where, "no_flop_no_drop", item.get("no_flop_no_drop", True))
    return base, no_flop_no_drop


# --- The drop of one pot --------------------------------------------------------------------------


@dataclass(frozen=True)
class Drop:
    """A jackpot's contribution from one pot, and the rule that set it in words a dealer reads to a player."""

    code: str
    amount_cents: int
    rule: str


def drop_compute(
    *,
    jackpot: JackpotRule,
    rakeable_cents: int,
    rake_cents: int,
    remaining_cents: int,
    players: int,
    no_flop_no_drop_applied: bool,
) -> Drop:
    """One jackpot's contribution from one pot: "After the dealer has extracted the rake, the amount
    from each pot to be contributed ... shall be determined" (§637a.15(c), §637a.16(c)).

    ``rakeable_cents`` is the pot without the uncalled final bet and ``rake_cents`` the rake taken
    from it. The contribution's ``base`` says what its minimum pot and percentage are measured on:
    ``after_rake``, the pot less the rake, or ``before_rake``, the pot as raked (only a rules version
    stored before it was refused says so: its rounds are rated, and read again, as it posted them).
    ``no_flop_no_drop_applied`` is whether the table's percentage rake took nothing because no flop
    was dealt; a contribution with ``no_flop_no_drop`` then takes nothing either. ``remaining_cents``
    is what the rake and the drops before this one left: a drop never takes more. ``players`` (dealt
    in) changes no contribution today; the qualifiers use it.
    """
    section = jackpot.drop_section
    contribution = jackpot.contribution
    if no_flop_no_drop_applied and contribution.no_flop_no_drop:
        return Drop(jackpot.code, 0, f"No drop: no flop, no drop ({section})")
    base_cents = rakeable_cents - rake_cents if contribution.base == "after_rake" else rakeable_cents
    measured = f"{display_cents(base_cents)} {_BASE_WORDS[contribution.base]}"
    if base_cents < contribution.min_pot_cents:
        return Drop(
            jackpot.code,
            0,
            f"No drop: the pot {measured} is under the minimum pot of {display_cents(contribution.min_pot_cents)} ({section})",
        )
    if contribution.method == "fixed":
        assert contribution.amount_cents is not None
        amount, rule = (
            contribution.amount_cents,
            f"Fixed {display_cents(contribution.amount_cents)} from pots of {display_cents(contribution.min_pot_cents)} "
            f"or more {_BASE_WORDS[contribution.base]} ({section})",
        )
    else:
        assert contribution.rate_bp is not None and contribution.max_cents is not None
        raw = percent_floor(base_cents, contribution.rate_bp)
        if raw > contribution.max_cents:
            amount, rule = (
                contribution.max_cents,
                f"{display_percent(contribution.rate_bp)} of {measured} is {display_cents(raw)}, capped at {display_cents(contribution.max_cents)} ({section})",
            )
        else:
            amount, rule = (
                raw,
                f"{display_percent(contribution.rate_bp)} of {measured}, rounded down to the cent ({section})",
            )
    if amount > remaining_cents:
        return Drop(jackpot.code, remaining_cents, f"{rule}; only {display_cents(remaining_cents)} remained in the pot")
    return Drop(jackpot.code, amount, rule)
