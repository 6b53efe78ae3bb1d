"""The irregularity log and each incident's file, as the back office reads them (issue 28, item 6).

The log is the admin's list filtered, as CSV and XLSX through the kernel's renderers
(``casino_backoffice.core.exports``): one row per irregularity, its ruling, and what the round's void
returned to the pot when the round was voided (§637a.18(i)). The file is one irregularity for the
regulator, as a PDF (the template ``tables/irregularity_file.html``): the report, its kind and
provision, the round (pot, rake, drops), the cards, the ruling, the void and what it returned, and
every signature with the signer's role, Board credential number, time on the room's clock and hash.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from casino_backoffice.core.clock import local, zone_of
from casino_backoffice.core.exports import Column, Kind, Report
from casino_backoffice.money import format_cents
from casino_backoffice.poker.cards import RANK_NAMES, SUIT_NAMES, parse_cards
from casino_backoffice.staff.selectors import SignatureLine, signature_key, signature_lines

from ..games import Game
from ..models import Round
from .models import Irregularity, IrregularityRuling
from .selectors import IRREGULARITY_RELATED, VoidReturned, voids_returned

# --- Words ----------------------------------------------------------------------------------------


def cards_in_words(cards: str) -> str:
    """'As Kd' -> 'ace of spades, king of diamonds'; the text as stored when it is not cards."""
    try:
        return ", ".join(f"{RANK_NAMES[card.rank]} of {SUIT_NAMES[card.suit]}" for card in parse_cards(cards))
    except ValueError:
        return cards


def person(user: Any) -> str:
    """A signer as the records name them: full name, else username."""
    return (user.get_full_name() or user.username) if user is not None else ""


def drops_text(drops_cents: dict[str, int]) -> str:
    """Each jackpot's drop by its code, as the rounds' export writes them: 'bb 1.00; hh 2.00'."""
    return "; ".join(f"{code} {format_cents(cents)}" for code, cents in sorted(drops_cents.items()))


# --- The file -------------------------------------------------------------------------------------


@dataclass
class IrregularityFile:
    """Everything about one irregularity, for the regulator."""

    irregularity: Irregularity
    ruling: IrregularityRuling | None
    round: Round | None
    drops_cents: dict[str, int]  # the round's drops as logged, by jackpot code
    void: VoidReturned | None
    signatures: list[tuple[str, SignatureLine]] = field(default_factory=list)  # (step, signature)

    @property
    def room(self) -> Any:
        return self.irregularity.room

    @property
    def game(self) -> str:
        game = self.irregularity.table.game
        return str(Game(game).label) if game in Game.values else game

    @property
    def cards_words(self) -> str:
        return cards_in_words(self.irregularity.cards) if self.irregularity.cards else ""


def irregularity_file(*, irregularity: Irregularity) -> IrregularityFile:
    """The file of ``irregularity``: a fixed number of queries, whatever it holds."""
    irregularity = Irregularity.objects.select_related(*IRREGULARITY_RELATED, "round").get(pk=irregularity.pk)
    ruling = getattr(irregularity, "ruling", None)
    round_ = irregularity.round
    drops = {drop.jackpot_code: drop.amount_cents for drop in round_.drops.all()} if round_ is not None else {}
    void = voids_returned([irregularity]).get(irregularity.pk)
    steps: list[tuple[str, Any]] = [("Reported at the table", irregularity)]
    if void is not None:
        steps.append((f"Round {round_.pk if round_ else ''} voided, its rake and drops returned".strip(), void.void))
    if ruling is not None:
        steps.append(("Ruled", ruling))
    lines = signature_lines(document for _, document in steps)
    signatures = [(step, line) for step, document in steps for line in lines.get(signature_key(document), [])]
    return IrregularityFile(
        irregularity=irregularity, ruling=ruling, round=round_, drops_cents=drops, void=void, signatures=signatures
    )


# --- The log as CSV and XLSX ----------------------------------------------------------------------

LOG_COLUMNS = [
    Column("id", Kind.INTEGER),
    Column("room"),
    Column("table"),
    Column("round", Kind.INTEGER),
    Column("gaming_day", Kind.DATE),
    Column("occurred_at", Kind.DATETIME),
    Column("kind"),
    Column("kind_in_words"),
    Column("section"),
    Column("cause"),
    Column("cards"),
    Column("description"),
    Column("compliance_notified"),
    Column("reported_by"),
    Column("reported_by_credential"),
    Column("status"),
    Column("ruled_by"),
    Column("ruled_by_credential"),
    Column("ruling"),
    Column("ruled_at", Kind.DATETIME),
    Column("void_rake_returned", Kind.MONEY),
    Column("void_drops_returned"),
    Column("void_returned_total", Kind.MONEY),
]


def log_row(irregularity: Irregularity, void: VoidReturned | None) -> list[Any]:
    """One irregularity as the log's exports write it; moments on its room's clock, with the offset."""
    room = irregularity.room
    ruling = getattr(irregularity, "ruling", None)
    return [
        irregularity.pk,
        room.code,
        irregularity.table.number,
        irregularity.round_id,
        irregularity.gaming_day,
        local(irregularity.occurred_at, room),
        irregularity.kind,
        irregularity.get_kind_display(),
        irregularity.section,
        irregularity.get_cause_display() if irregularity.cause else "",
        irregularity.cards,
        irregularity.description,
        irregularity.compliance_notified,
        person(irregularity.reported_by),
        irregularity.reported_by.credential_number,
        irregularity.status.value,
        person(ruling.ruled_by) if ruling else "",
        ruling.ruled_by.credential_number if ruling else "",
        ruling.ruling if ruling else "",
        local(ruling.ruled_at, room) if ruling else None,
        void.rake_cents if void else None,
        drops_text(void.drops_cents) if void else "",
        void.total_cents if void else None,
    ]


def log_report(irregularities: Sequence[Irregularity], *, filename: str = "irregularities") -> Report:
    """The log of ``irregularities`` (their rooms, tables, reporters and rulings selected with them)
    for the kernel's CSV and XLSX; what the voids returned is read once for them all. XLSX shows the
    times in the rooms' zone, named in the header (a cell has no zone); the rooms of several zones are
    shown in the site's."""
    voids = voids_returned(irregularities)
    rows = [log_row(irregularity, voids.get(irregularity.pk)) for irregularity in irregularities]
    zones = {irregularity.room.timezone for irregularity in irregularities}
    zone: ZoneInfo = zone_of(zones.pop() if len(zones) == 1 else None)
    return Report(columns=LOG_COLUMNS, rows=rows, title="Irregularities", filename=filename, time_zone=zone)
