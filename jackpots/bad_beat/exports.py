"""The Bad Beat's reports for the kernel's renderers (``casino_backoffice.core.exports``): the posted
rules, display check, fund statement and its display history, and the claims of a period; as CSV and
XLSX. The PDFs (posted rules, table notices, statement, claim file) are templates under
``jackpots/templates/jackpots/reports/``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from casino_backoffice.core.clock import zone_of
from casino_backoffice.core.exports import Column, Kind, Report
from casino_backoffice.money import format_percent
from jackpots.bad_beat.models import BadBeatClaim, DecisionOutcome
from jackpots.bad_beat.reports import DisplayCheckRow, FundStatement, PostedRules
from jackpots.bad_beat.rules import SHARE_NAMES
from jackpots.funds.exports import credential, person, span_words
from tables.models import PokerRoom
from tables.selectors import gaming_day

POSTED_RULES_COLUMNS = [
    Column("room"),
    Column("rules_version", Kind.INTEGER),
    Column("effective_from", Kind.DATETIME),
    Column("fund"),
    Column("code"),
    Column("tables"),
    Column("contribution"),
    Column("maximum_contribution", Kind.MONEY),
    Column("minimum_pot", Kind.MONEY),
    Column("contribution_base"),
    Column("hand"),
    Column("games"),
    Column("losing_hand_at_least"),
    Column("both_hole_cards_play", Kind.BOOLEAN),
    Column("min_players_dealt_in", Kind.INTEGER),
    Column("payout_percent"),
    Column("losing_hand_percent"),
    Column("winning_hand_percent"),
    Column("table_share_percent"),
    Column("reserve_percent"),
    Column("current_amount", Kind.MONEY),
    Column("discontinuation_approved_on", Kind.DATE),
    Column("discontinuation_reference"),
    Column("display_adjust_within_minutes", Kind.INTEGER),
]
DISPLAY_CHECK_COLUMNS = [
    Column("room"),
    Column("fund"),
    Column("code"),
    Column("offered", Kind.BOOLEAN),
    Column("official", Kind.MONEY),
    Column("owed", Kind.MONEY),
    Column("available", Kind.MONEY),
    Column("displayed", Kind.MONEY),
    Column("matches", Kind.BOOLEAN),
    Column("pending", Kind.BOOLEAN),
    Column("adjusted_at", Kind.DATETIME),
    Column("adjusted_by"),
    Column("adjusted_by_credential"),
    Column("witnessed_by"),
    Column("witnessed_by_credential"),
    Column("witnessed_at", Kind.DATETIME),
    Column("days_flagged_without_adjustment"),
]
STATEMENT_COLUMNS = [
    Column("gaming_day", Kind.DATE),
    Column("posted_at", Kind.DATETIME),
    Column("movement"),
    Column("transfer", Kind.INTEGER),
    Column("kind"),
    Column("document"),
    Column("memo"),
    Column("into_fund", Kind.MONEY),
    Column("out_of_fund", Kind.MONEY),
    Column("balance", Kind.MONEY),
]
DISPLAY_HISTORY_COLUMNS = [
    Column("adjusted_at", Kind.DATETIME),
    Column("gaming_day", Kind.DATE),
    Column("amount", Kind.MONEY),
    Column("previous", Kind.MONEY),
    Column("official", Kind.MONEY),
    Column("owed", Kind.MONEY),
    Column("adjusted_by"),
    Column("adjusted_by_credential"),
    Column("witnessed_by"),
    Column("witnessed_by_credential"),
    Column("witnessed_at", Kind.DATETIME),
]
CLAIM_COLUMNS = [
    Column("id", Kind.INTEGER),
    Column("room"),
    Column("gaming_day", Kind.DATE),
    Column("opened_at", Kind.DATETIME),
    Column("table"),
    Column("fund"),
    Column("hand"),
    Column("game"),
    Column("players_dealt_in", Kind.INTEGER),
    Column("qualifies", Kind.BOOLEAN),
    Column("status"),
    Column("losing_seat", Kind.INTEGER),
    Column("losing_name"),
    Column("losing_hole"),
    Column("losing_hand"),
    Column("winning_seat", Kind.INTEGER),
    Column("winning_name"),
    Column("winning_hole"),
    Column("winning_hand"),
    Column("board"),
    Column("surveillance_reference"),
    Column("opened_by"),
    Column("opened_by_credential"),
    Column("decision"),
    Column("decided_by"),
    Column("decided_by_credential"),
    Column("decided_at", Kind.DATETIME),
    Column("reason"),
    Column("official", Kind.MONEY),
    Column("owed", Kind.MONEY),
    Column("available", Kind.MONEY),
    Column("reserve", Kind.MONEY),
    Column("payout", Kind.MONEY),
    Column("distributed", Kind.MONEY),
    Column("paid", Kind.MONEY),
    Column("unpaid", Kind.MONEY),
]


def posted_rules_report(*, rules: PostedRules) -> Report:
    """The posted Bad Beat rules of a room (§637a.15(b)), one row per fund and Bad Beat hand."""
    rows: list[list[Any]] = []
    for bad_beat in rules.bad_beats:
        contribution = bad_beat.rule.contribution
        approval = bad_beat.rule.discontinuation
        for posted in bad_beat.hands:
            hand = posted.hand
            shares = hand.shares_bp
            rows.append(
                [
                    rules.room.code,
                    bad_beat.version.number,
                    bad_beat.version.effective_from,
                    bad_beat.jackpot.name,
                    bad_beat.jackpot.code,
                    " ".join(bad_beat.tables),
                    bad_beat.contribution,
                    bad_beat.maximum_contribution_cents,
                    contribution.min_pot_cents,
                    contribution.base,
                    hand.name,
                    ", ".join(posted.games),
                    posted.minimum,
                    hand.qualifier.both_hole_cards_play,
                    hand.qualifier.min_players_dealt,
                    format_percent(hand.payout_bp),
                    *(format_percent(shares[name]) if name in shares else "0" for name in SHARE_NAMES),
                    format_percent(bad_beat.rule.reserve_bp),
                    bad_beat.current_cents,
                    approval.approved_on if approval else None,
                    approval.reference if approval else "",
                    bad_beat.rule.display_adjust_within_minutes,
                ]
            )
    return Report(
        columns=POSTED_RULES_COLUMNS,
        rows=rows,
        title="Posted Bad Beat rules",
        filename=f"bad-beat-rules-{rules.room.code}-v{rules.version.number if rules.version else 0}",
        time_zone=zone_of(rules.room),
    )


def display_check_report(*, rows: Iterable[tuple[PokerRoom, DisplayCheckRow]], filename: str) -> Report:
    """The display check of §637a.15(h)(2), one row per Bad Beat fund."""
    body = []
    zones = set()
    for room, row in rows:
        zones.add(room.timezone)
        position, latest = row.position, row.latest
        body.append(
            [
                room.code,
                row.jackpot.name,
                row.jackpot.code,
                row.offered,
                position.official_cents,
                position.owed_cents,
                position.available_cents,
                position.displayed_cents,
                position.display_matches,
                position.pending,
                latest.adjusted_at if latest else None,
                person(latest.adjusted_by) if latest else "",
                credential(latest.adjusted_by) if latest else "",
                person(latest.witnessed_by) if latest else "",
                credential(latest.witnessed_by) if latest else "",
                latest.witnessed_at if latest else None,
                " ".join(day.isoformat() for day in row.overdue),
            ]
        )
    zone = zone_of(zones.pop()) if len(zones) == 1 else None
    return Report(
        columns=DISPLAY_CHECK_COLUMNS,
        rows=body,
        title="Bad Beat display check",
        filename=filename,
        time_zone=zone or zone_of(None),  # the site's zone when the rows span rooms of several
    )


def statement_report(*, statement: FundStatement) -> Report:
    """The fund statement: the opening balance, each movement with the balance after it, the closing
    balance."""
    jackpot = statement.jackpot
    # transfer, kind, document, memo, into, out: none on the balance lines.
    blank = [None, "", "", "", None, None]
    rows: list[list[Any]] = [[statement.start, None, "Opening balance", *blank, statement.opening_cents]]
    for line in statement.lines:
        transfer = line.transfer
        rows.append(
            [
                line.gaming_day,
                transfer.posted_at,
                line.movement,
                transfer.pk,
                transfer.get_kind_display(),
                line.document,
                transfer.memo,
                line.into_cents,
                line.out_cents,
                line.balance_cents,
            ]
        )
    rows.append([statement.end, None, "Closing balance", *blank, statement.closing_cents])
    return Report(
        columns=STATEMENT_COLUMNS,
        rows=rows,
        title=f"{jackpot.name} statement"[:31],
        filename=f"bad-beat-statement-{jackpot.room.code}-{jackpot.code}-{span_words(statement.start, statement.end)}",
        time_zone=zone_of(jackpot.room),
    )


def display_history_report(*, statement: FundStatement) -> Report:
    """The display adjustments of the statement's days (§637a.15(h)): amount, previous, official,
    owed, who adjusted and who witnessed."""
    jackpot = statement.jackpot
    rows = [
        [
            adjustment.adjusted_at,
            adjustment.gaming_day,
            adjustment.amount_cents,
            adjustment.previous_cents,
            adjustment.official_cents,
            adjustment.owed_cents,
            person(adjustment.adjusted_by),
            credential(adjustment.adjusted_by),
            person(adjustment.witnessed_by),
            credential(adjustment.witnessed_by),
            adjustment.witnessed_at,
        ]
        for adjustment in statement.adjustments
    ]
    return Report(
        columns=DISPLAY_HISTORY_COLUMNS,
        rows=rows,
        title="Display history",
        filename=f"bad-beat-display-{jackpot.room.code}-{jackpot.code}-{span_words(statement.start, statement.end)}",
        time_zone=zone_of(jackpot.room),
    )


def claims_report(*, claims: Iterable[BadBeatClaim], filename: str) -> Report:
    """Every claim with its status and amounts: the payout fixed at verification, what was distributed,
    paid and is still to pay. ``claims`` come from ``jackpots.bad_beat.reports.claims_with_amounts``."""
    rows = []
    zones = set()
    for claim in claims:
        zones.add(claim.room.timezone)
        decision = getattr(claim, "decision", None)
        # A denial fixes no amount: its amounts are blank, not zero.
        verified = decision if decision is not None and decision.outcome == DecisionOutcome.VERIFIED else None
        distribution = getattr(claim, "distribution", None)
        distributed = distribution.total_cents if distribution else None
        paid = int(getattr(claim, "paid_cents", None) or 0)
        rows.append(
            [
                claim.pk,
                claim.room.code,
                gaming_day(room=claim.room, at=claim.opened_at),
                claim.opened_at,
                claim.table.number,
                claim.jackpot.name,
                claim.hand_name,
                claim.game,
                claim.players_dealt_in,
                claim.qualifies,
                claim.get_status_display(),
                claim.losing_seat,
                claim.losing_name,
                claim.losing_hole,
                claim.losing_hand,
                claim.winning_seat,
                claim.winning_name,
                claim.winning_hole,
                claim.winning_hand,
                claim.board,
                claim.surveillance_reference,
                person(claim.opened_by),
                credential(claim.opened_by),
                decision.get_outcome_display() if decision else "",
                person(decision.decided_by) if decision else "",
                credential(decision.decided_by) if decision else "",
                decision.decided_at if decision else None,
                decision.reason if decision else "",
                verified.official_cents if verified else None,
                verified.owed_cents if verified else None,
                verified.available_cents if verified else None,
                verified.reserve_cents if verified else None,
                verified.payout_cents if verified else None,
                distributed,
                paid if distribution else None,
                distributed - paid if distributed is not None else None,
            ]
        )
    zone = zone_of(zones.pop()) if len(zones) == 1 else None
    return Report(
        columns=CLAIM_COLUMNS,
        rows=rows,
        title="Bad Beat claims",
        filename=filename,
        time_zone=zone or zone_of(None),  # the site's zone when the rows span rooms of several
    )
