"""The High Hand's reports for the kernel's renderers (``casino_backoffice.core.exports``): the
history of a fund's periods and the High Hand Tracking Slip of a period (§637a.16(f)) as CSV and
XLSX. The slip's PDF is ``jackpots/templates/jackpots/reports/high_hand/tracking_slip.html``."""

from __future__ import annotations

from typing import Any

from casino_backoffice.core.clock import local, zone_of
from casino_backoffice.core.exports import Column, Kind, Report
from jackpots.funds.exports import credential, person
from jackpots.funds.reports import id_number_masked
from jackpots.high_hand.reports import PeriodHistory, PostedHighHandRules, TrackingSlip, award_state

PERIOD_HISTORY_COLUMNS = [
    Column("period", Kind.INTEGER),
    Column("fund"),
    Column("starts_at", Kind.DATETIME),
    Column("ends_at", Kind.DATETIME),
    Column("status"),
    Column("contributions", Kind.MONEY),
    Column("rolled_in", Kind.MONEY),
    Column("rolled_over_in", Kind.MONEY),
    Column("unclaimed_awards_in", Kind.MONEY),
    Column("pool", Kind.MONEY),
    Column("announced_at", Kind.DATETIME),
    Column("entries", Kind.INTEGER),
    Column("voids", Kind.INTEGER),
    Column("high_hand"),
    Column("winners"),
    Column("awarded", Kind.MONEY),
    Column("paid", Kind.MONEY),
    Column("to_collect", Kind.MONEY),
    Column("not_collected", Kind.MONEY),
    Column("rolled_over", Kind.MONEY),
    Column("rolled_over_into", Kind.DATETIME),
    Column("closed_at", Kind.DATETIME),
    Column("close_note"),
]
TRACKING_SLIP_COLUMNS = [
    Column("period", Kind.INTEGER),
    Column("fund"),
    Column("period_starts_at", Kind.DATETIME),
    Column("period_ends_at", Kind.DATETIME),
    Column("entry", Kind.INTEGER),
    Column("recorded_at", Kind.DATETIME),
    Column("made_at", Kind.DATETIME),
    Column("player_name"),
    Column("player_phone"),
    Column("seat", Kind.INTEGER),
    Column("id_type"),
    Column("id_number_masked"),
    Column("table"),
    Column("cards"),
    Column("hand"),
    Column("players_dealt_in", Kind.INTEGER),
    Column("pot", Kind.MONEY),
    Column("tie", Kind.BOOLEAN),
    Column("dealer_name"),
    Column("dealer_credential"),
    Column("verified_by"),
    Column("verified_by_role"),
    Column("verified_by_credential"),
    Column("verified_at", Kind.DATETIME),
    Column("void", Kind.BOOLEAN),
    Column("void_reason"),
    Column("voided_by"),
    Column("voided_by_credential"),
    Column("voided_at", Kind.DATETIME),
    Column("award", Kind.MONEY),
    Column("award_state"),
    Column("collect_by", Kind.DATETIME),
    Column("paid_at", Kind.DATETIME),
    Column("paid_by"),
    Column("paid_by_credential"),
]


def period_history_report(*, history: PeriodHistory) -> Report:
    """One row per period of the history (``jackpots.high_hand.reports.period_history``)."""
    jackpot = history.jackpot
    rows = []
    for row in history.rows:
        period = row.period
        rows.append(
            [
                period.pk,
                jackpot.code,
                period.starts_at,
                period.ends_at,
                period.get_status_display(),
                period.contributions_cents,
                period.rolled_in_cents,
                row.rolled_over_in_cents,
                row.unclaimed_in_cents,
                period.pool_cents,
                period.announced_at,
                row.entries,
                row.voids,
                row.high_hand,
                row.winners,
                row.awarded_cents if row.awards else None,
                row.paid_cents if row.awards else None,
                row.to_collect_cents if row.awards else None,
                row.unclaimed_cents if row.awards else None,
                row.rolled_over_cents,
                row.rolled_into.starts_at if row.rolled_into else None,
                period.closed_at,
                period.close_note,
            ]
        )
    span = f"{history.start}-to-{history.end}" if history.start != history.end else str(history.start)
    return Report(
        columns=PERIOD_HISTORY_COLUMNS,
        rows=rows,
        title=f"{jackpot.name} periods"[:31],
        filename=f"high-hand-periods-{jackpot.room.code}-{jackpot.code}-{span}",
        time_zone=zone_of(jackpot.room),
    )


def tracking_slip_report(*, slip: TrackingSlip) -> Report:
    """The Tracking Slip, one row per entry in the order recorded: the items of §637a.16(f), the
    player's identification by its last four characters, the void and the award."""
    period = slip.period
    rows: list[list[Any]] = []
    for line in slip.lines:
        entry, verified, void, voided = line.entry, line.verified_by, line.void, line.voided_by
        award, payment = line.award, line.payment
        rows.append(
            [
                period.pk,
                slip.jackpot.code,
                period.starts_at,
                period.ends_at,
                line.number,
                entry.recorded_at,
                entry.made_at,
                entry.player_name,
                entry.player_phone,
                entry.seat,
                entry.id_type,
                id_number_masked(entry.id_number),
                entry.table.number,
                entry.cards,
                entry.words,
                entry.players_dealt_in,
                entry.pot_cents,
                entry.tie,
                entry.dealer_name,
                entry.dealer_credential_number,
                verified.name if verified else person(entry.recorded_by),
                verified.role if verified else "",
                verified.credential_number if verified else credential(entry.recorded_by),
                verified.signed_at if verified else entry.recorded_at,
                void is not None,
                void.reason if void else "",
                voided.name if voided else "",
                voided.credential_number if voided else "",
                void.voided_at if void else None,
                award.amount_cents if award else None,
                award_state(award) if award else "",
                award.collect_by if award else None,
                payment.paid_at if payment else None,
                person(payment.paid_by) if payment else "",
                credential(payment.paid_by) if payment else "",
            ]
        )
    starts = local(period.starts_at, period.room)
    return Report(
        columns=TRACKING_SLIP_COLUMNS,
        rows=rows,
        title="High Hand Tracking Slip",
        filename=f"high-hand-slip-{period.room.code}-{slip.jackpot.code}-{starts:%Y-%m-%d-%H%M}",
        time_zone=zone_of(period.room),
    )


HIGH_HAND_RULES_COLUMNS = [
    Column("room"),
    Column("rules_version", Kind.INTEGER),
    Column("effective_from", Kind.DATETIME),
    Column("fund"),
    Column("code"),
    Column("tables"),
    Column("time_zone"),
    Column("collection_period"),
    Column("collection_every_minutes", Kind.INTEGER),
    Column("collection_first_starts"),
    Column("qualifying_period"),
    Column("qualifying_every_minutes", Kind.INTEGER),
    Column("qualifying_first_starts"),
    Column("contribution"),
    Column("maximum_contribution", Kind.MONEY),
    Column("minimum_pot", Kind.MONEY),
    Column("contribution_base"),
    Column("min_players_dealt_in", Kind.INTEGER),
    Column("qualifying_hand"),
    Column("no_full_house"),
    Column("ties"),
    Column("claim_within_days", Kind.INTEGER),
    Column("time_limit"),
    Column("presence_statement"),
    Column("identification_statement"),
    Column("unclaimed"),
    Column("unclaimed_rule"),
    Column("show_player_name", Kind.BOOLEAN),
]


def posted_high_hand_rules_report(*, rules: PostedHighHandRules) -> Report:
    """The posted High Hand rules of a room (§637a.16(b)), one row per fund: each statement in the
    words posted, beside the values of the rules version it comes from."""
    rows: list[list[Any]] = []
    for high_hand in rules.high_hands:
        rule = high_hand.rule
        rows.append(
            [
                rules.room.code,
                high_hand.version.number,
                high_hand.version.effective_from,
                high_hand.jackpot.name,
                high_hand.jackpot.code,
                " ".join(high_hand.tables),
                high_hand.time_zone,
                high_hand.collection_period,
                rule.collection_period.every_minutes,
                rule.collection_period.first_starts.strftime("%H:%M"),
                high_hand.qualifying_period,
                rule.period.every_minutes,
                rule.period.first_starts.strftime("%H:%M"),
                high_hand.contribution,
                high_hand.maximum_contribution_cents,
                rule.contribution.min_pot_cents,
                rule.contribution.base,
                rule.minimum.min_players_dealt,
                high_hand.qualifying_hand,
                high_hand.no_full_house,
                high_hand.ties,
                rule.claim_within_days,
                high_hand.time_limit,
                high_hand.presence,
                high_hand.identification,
                rule.unclaimed,
                high_hand.unclaimed,
                rule.show_player_name,
            ]
        )
    return Report(
        columns=HIGH_HAND_RULES_COLUMNS,
        rows=rows,
        title="Posted High Hand rules",
        filename=f"high-hand-rules-{rules.room.code}-v{rules.version.number if rules.version else 0}",
        time_zone=zone_of(rules.room),
    )
