"""Who may do what: one table of actions and the roles that may take them.

Every action that changes money or state, and every read of the API, is an ``Action``;
``ACTION_ROLES`` names the roles that may take each, and is the only place that does. Services
refuse with ``action_require`` (first thing, before a PIN is checked, so that a person who may not
act never counts toward a PIN lock); tablet pages, the API and the admin ask ``may`` to show or
hide what a person may do. A signing rule names its action, so the roles that may sign a document
are the roles of that action (``signing.SigningRule``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import models

from casino_backoffice.core.audit import acting_note
from casino_backoffice.core.rooms import visible

from .exceptions import ActionNotPermitted
from .roles import ADMIN_ROLES, DEALER_OR_FLOORPERSON_OR_ABOVE, FLOORPERSON_OR_ABOVE, SUPERVISOR_OR_ABOVE, Role

if TYPE_CHECKING:
    from .models import User


class Action(models.TextChoices):
    """What a person does, in words that complete "may ..."."""

    ROUND_RECORD = "round_record", "Record rounds of play"
    LATE_ENTRY_SIGN = "late_entry_sign", "Sign for a round of play logged late"
    RAKE_CALCULATE = "rake_calculate", "Use the rake calculator"
    TIME_CHARGE_ASSESS = "time_charge_assess", "Assess time charges"
    TIME_CHARGE_VERIFY = "time_charge_verify", "Verify time charges"
    TABLE_OPEN_CLOSE = "table_open_close", "Open and close tables"
    TABLE_UPSERT = "table_upsert", "Add or change tables"
    ROOM_UPSERT = "room_upsert", "Add or change poker rooms"
    RULES_LOAD = "rules_load", "Load a rules file"
    RULES_VERSIONS_READ = "rules_versions_read", "Read the rules versions"
    REVENUE_READ = "revenue_read", "Read the poker revenue report"
    ROUNDS_READ = "rounds_read", "Read the rounds of play and their rake"
    TIME_CHARGES_READ = "time_charges_read", "Read the time charges assessed and their amounts"
    PROFILE_READ = "profile_read", "Read who they are: their name, credential number, roles and signing state"
    ROOMS_READ = "rooms_read", "Read the rooms they work in, their time zones and gaming days"
    TABLES_READ = "tables_read", "Read the tables of their rooms, their games and whether they are open"
    FUNDS_READ = "funds_read", "Read the jackpot funds' balances"
    CORRECTION_PREPARE = "correction_prepare", "Prepare the reversal of a transfer"
    CORRECTION_APPROVE = "correction_approve", "Approve the reversal of a transfer"
    PIN_SET = "pin_set", "Set their own signing PIN"
    SIGNING_UNLOCK = "signing_unlock", "Unlock a person's signing"
    STAFF_MANAGE = "staff_manage", "Add or change members of staff and their roles"
    BACK_OFFICE_USE = "back_office_use", "Work in the back office (the admin)"
    NOTICE_RECORD = "notice_record", "Record the notice to compliance before Bad Beat boxes are counted"
    COUNT_RECORD = "count_record", "Count a box at a closed table"
    COUNT_WITNESS = "count_witness", "Witness a count"
    COUNT_RECOUNT = "count_recount", "Recount a box whose count is wrong, before the cage verifies it"
    TRANSPORT_CREATE = "transport_create", "Carry a locked container or boxes to the cage"
    TRANSPORT_ACCOUNT = "transport_account", "Account for the boxes carried to the cage"
    MISSING_BOX_RECORD = "missing_box_record", "Sign an exception for a box missing at the cage"
    CAGE_VERIFY = "cage_verify", "Count boxes and verify table counts at the cage"
    VARIANCE_EXPLAIN = "variance_explain", "Explain a count variance"
    VARIANCE_CORRECT = "variance_correct", "Correct the official record for a variance found at the cage"
    GAMING_DAY_CLOSE = "gaming_day_close", "Close a gaming day"
    CAGE_RECORD_READ = "cage_record_read", "Read the official record, the variances and the custody log"
    VARIANCE_READ = "variance_read", "Read the variances"
    COUNTS_TO_RECORD_READ = "counts_to_record_read", "See the table counts to record"
    BOXES_READ = "boxes_read", "See the jackpot and drop boxes of their rooms"
    COUNTS_READ = "counts_read", "Read the counts of boxes, their amounts and variances"
    BOX_EXPECTED_READ = "box_expected_read", "See what a box is expected to hold before it is counted"
    BAD_BEAT_CLAIM = "bad_beat_claim", "Open a Bad Beat claim at a table"
    BAD_BEAT_VERIFY = "bad_beat_verify", "Verify or deny a Bad Beat hand"
    BAD_BEAT_DISTRIBUTE = "bad_beat_distribute", "Prepare a Bad Beat payout distribution"
    BAD_BEAT_PAY = "bad_beat_pay", "Pay a share of a Bad Beat payout to a patron"
    BAD_BEAT_READ = "bad_beat_read", "Read Bad Beat claims, distributions and the payouts to deliver"
    BAD_BEAT_RECORDS_READ = (
        "bad_beat_records_read",
        "Read the Bad Beat's records and reports in the back office (claim files, display check, fund statements)",
    )
    DISPLAY_ADJUST = "display_adjust", "Adjust a displayed jackpot amount"
    DISPLAY_WITNESS = "display_witness", "Witness the adjustment of a displayed jackpot amount"
    FUND_TRANSFER_PREPARE = "fund_transfer_prepare", "Prepare the transfer of a discontinued Bad Beat fund"
    FUND_TRANSFER_APPROVE = "fund_transfer_approve", "Approve the transfer of a discontinued Bad Beat fund"
    HIGH_HAND_RECORD = "high_hand_record", "Record a hand on the High Hand Tracking Slip"
    HIGH_HAND_VOID = "high_hand_void", "Void a wrong entry of the High Hand Tracking Slip"
    HIGH_HAND_PAY = "high_hand_pay", "Pay a High Hand award at the cage"
    HIGH_HAND_UNCLAIMED_APPROVE = "high_hand_unclaimed_approve", "Approve where an uncollected High Hand award goes"
    HIGH_HAND_READ = "high_hand_read", "Read the High Hand periods, slips and awards"
    HIGH_HAND_RECORDS_READ = (
        "high_hand_records_read",
        "Read the High Hand's records and reports in the back office (Tracking Slips, awards, period history)",
    )
    PROGRESSIVE_ROUND_RECORD = "progressive_round_record", "Record the Progressive Payout Wagers of a round"
    PROGRESSIVE_HAND_RECORD = "progressive_hand_record", "Record a winning progressive hand at a banked table"
    PROGRESSIVE_VALIDATE = "progressive_validate", "Validate a progressive payout"
    PROGRESSIVE_PAY = "progressive_pay", "Pay a progressive payout at the cage"
    PROGRESSIVE_RESET = "progressive_reset", "Reset a progressive meter after a 100% payout"
    PROGRESSIVE_EXPLAIN = "progressive_explain", "Explain a mismatch of progressive wagers and chips collected"
    PROGRESSIVE_READ = "progressive_read", "Read the progressive meters, rounds and payouts"
    PROGRESSIVE_ROUND_VOID = "progressive_round_void", "Void a banked round of play already recorded"
    IRREGULARITY_REPORT = "irregularity_report", "Report an irregularity at a table"
    IRREGULARITY_RULE = "irregularity_rule", "Rule on an irregularity"
    DISPUTE_RULE = "dispute_rule", "Rule on a dispute"
    IRREGULARITIES_READ = "irregularities_read", "Read the irregularities and their rulings"
    IRREGULARITY_FILE_READ = (
        "irregularity_file_read",
        "Print an irregularity's file for the regulator (the incident, its ruling, its void, every signature)",
    )
    ROUND_VOID = "round_void", "Void a round of play already recorded"
    DEVICE_FAILURE_RECORD = "device_failure_record", "Record a shuffler or dealing shoe that failed"
    DEVICE_OUT_OF_ORDER = "device_out_of_order", "Take a shuffler or dealing shoe out of order"
    DEVICE_RETURN = "device_return", "Return a shuffler or dealing shoe to service"
    DECK_INSPECT = "deck_inspect", "Put a deck into play at a banked table, inspected"
    DECK_VERIFY = "deck_verify", "Verify the dealer's inspection of a deck"
    EQUIPMENT_READ = "equipment_read", "Read the equipment and deck logs"
    TRACE_READ = "trace_read", "Read the trace of any dollar of their rooms, from the pot to the patron"
    TRACE_OPEN = "trace_open", "Open the trace of a dollar (a cage cashier: of the payments they made)"
    TRACE_SEARCH = "trace_search", "Search the chains of their rooms (by day, table, seal, patron, amount or transfer)"
    OWN_PAYMENTS_SEARCH = "own_payments_search", "Search the payments they made to patrons"
    DAY_PACKAGE_READ = "day_package_read", "Download a gaming day's package for the regulator"
    SECOND_FACTOR_USE = "second_factor_use", "Turn on a second factor (a code from an app) for their own sign-in"
    SECOND_FACTOR_RESET = "second_factor_reset", "Reset a person's second factor"


EVERY_ROLE = frozenset(Role)
# Who runs a room's set-up: its tables, games, seats and rules.
ROOM_MANAGEMENT = frozenset({Role.POKER_ROOM_MANAGER, Role.ADMINISTRATOR})
FINANCE_OR_ADMINISTRATOR = frozenset({Role.FINANCE, Role.ADMINISTRATOR})
# Who reads the rake of each round and each time charge (ACTION_ROLES says why).
REVENUE_READERS = FLOORPERSON_OR_ABOVE | {Role.FINANCE, Role.COMPLIANCE, Role.ADMINISTRATOR}

ACTION_ROLES: dict[Action, frozenset[Role]] = {
    # A dealer logs the rounds of their table (docs/architecture.md, Who uses it); a floorperson or above may
    # stand in. The calculator shows them what a round will take before they log it.
    Action.ROUND_RECORD: DEALER_OR_FLOORPERSON_OR_ABOVE,
    # A house control (the rules file's late_entry_minutes): a round logged long after it ended changes
    # the revenue of its day (§637a.17), so the poker shift supervisor, whose ruling is final on the floor
    # (§637a.18(a)), signs for it; a poker room manager does not act for one, as for a Bad Beat.
    Action.LATE_ENTRY_SIGN: frozenset({Role.SHIFT_SUPERVISOR}),
    Action.RAKE_CALCULATE: DEALER_OR_FLOORPERSON_OR_ABOVE,
    Action.TIME_CHARGE_ASSESS: DEALER_OR_FLOORPERSON_OR_ABOVE,
    # "Upon verification by a floorperson or above of the time charges collected" (§637a.17(b)(3)(v)).
    Action.TIME_CHARGE_VERIFY: FLOORPERSON_OR_ABOVE,
    Action.TABLE_OPEN_CLOSE: FLOORPERSON_OR_ABOVE,
    # A rules file sets the room, its tables, games and seats: whoever loads one must also be allowed
    # to change rooms and tables (a test says so).
    Action.TABLE_UPSERT: ROOM_MANAGEMENT,
    Action.ROOM_UPSERT: ROOM_MANAGEMENT,
    Action.RULES_LOAD: ROOM_MANAGEMENT,
    # Every read of the API is an action too. What any member of staff needs to work at all is given
    # to every role: who they are, the rooms they work in and the tables of those rooms (the rows are
    # those of their rooms, ``core.rooms.visible``).
    Action.PROFILE_READ: EVERY_ROLE,
    Action.ROOMS_READ: EVERY_ROLE,
    Action.TABLES_READ: EVERY_ROLE,
    # The back office reads the rules versions, as in the admin.
    Action.RULES_VERSIONS_READ: ADMIN_ROLES,
    # Every round's rake and every time charge is the poker revenue of the day (§637a.17), read by the
    # floor that runs the games (floorperson or above: it verifies the time charges, (b)(3)(v)),
    # finance, compliance and an administrator. A dealer reads the rounds and charges they log in the
    # answers to their own posts; security and surveillance read none; the cage checks each box against
    # what it should hold (BOX_EXPECTED_READ) and reads the official record it makes
    # (CAGE_RECORD_READ), not the rake of each round, nor the revenue by table, shift and game, which
    # is the finance department's record (the poker room manager reads it to run the room).
    Action.ROUNDS_READ: REVENUE_READERS,
    Action.TIME_CHARGES_READ: REVENUE_READERS,
    Action.REVENUE_READ: frozenset({Role.POKER_ROOM_MANAGER, Role.FINANCE, Role.COMPLIANCE, Role.ADMINISTRATOR}),
    # The funds' balances (official, owed, available, displayed): the floor that announces and pays the
    # jackpots and the back office that keeps their record; a dealer and security read the board.
    Action.FUNDS_READ: FLOORPERSON_OR_ABOVE | ADMIN_ROLES | {Role.SURVEILLANCE},
    Action.BACK_OFFICE_USE: ADMIN_ROLES,
    # Counts and the cage (§637a.15(d)-(e), §637a.16(d)-(e)): a floorperson or above records the notice
    # to compliance, a dealer counts at a closed table in the presence of a floorperson or above, security
    # carries, a floorperson or above accounts for carried boxes at the cage, a cashier verifies.
    Action.NOTICE_RECORD: FLOORPERSON_OR_ABOVE,
    Action.COUNT_RECORD: frozenset({Role.DEALER}),
    Action.COUNT_WITNESS: FLOORPERSON_OR_ABOVE,
    # A house control: a count found wrong before the cage verifies it is superseded by a recount of
    # the same box that the counter's supervisor (a poker shift supervisor or above) counts and signs.
    Action.COUNT_RECOUNT: SUPERVISOR_OR_ABOVE,
    Action.TRANSPORT_CREATE: frozenset({Role.SECURITY}),
    Action.TRANSPORT_ACCOUNT: FLOORPERSON_OR_ABOVE,
    # A house control: a box missing at the cage is excused only by a supervisor's signed exception.
    Action.MISSING_BOX_RECORD: SUPERVISOR_OR_ABOVE,
    Action.CAGE_VERIFY: frozenset({Role.CAGE_CASHIER}),
    Action.VARIANCE_EXPLAIN: frozenset({Role.SHIFT_SUPERVISOR, Role.FINANCE}),
    # "The finance department shall maintain the official record" (§637a.15(e), §637a.16(e)): finance
    # corrects it, with a signed ledger transfer, for a variance it explains after the verification.
    Action.VARIANCE_CORRECT: frozenset({Role.FINANCE}),
    Action.GAMING_DAY_CLOSE: frozenset({Role.FINANCE}),
    Action.CAGE_RECORD_READ: ADMIN_ROLES,
    # Who explains a variance reads the variances: a shift supervisor works on the floor, not in the admin.
    Action.VARIANCE_READ: ADMIN_ROLES | {Role.SHIFT_SUPERVISOR},
    # Surveillance records each table count (§637a.15(d)(1)); compliance reads every list.
    Action.COUNTS_TO_RECORD_READ: frozenset({Role.SURVEILLANCE, Role.COMPLIANCE}),
    # Every role handles the boxes: the dealer counts them, the floor witnesses and accounts for them,
    # security carries them, surveillance records their counts, the cage counts or verifies them and
    # the back office keeps their record. What a box is expected to hold is BOX_EXPECTED_READ's.
    Action.BOXES_READ: EVERY_ROLE,
    # The counts (§637a.15(d)-(e), §637a.16(d)-(e)), with what each box was expected to hold and the
    # variance: for whoever witnesses (a floorperson or above), recounts (a supervisor), carries
    # (security), records (surveillance), verifies (the cage) or keeps them (finance, compliance, an
    # administrator). A dealer counts blind and reads their own count in the answer to it, not the
    # room's counts.
    Action.COUNTS_READ: EVERY_ROLE - {Role.DEALER},
    # A house control, the blind count: the dealer counts in the presence of a floorperson or above,
    # surveillance records (§637a.15(d)(1), §637a.16(d)(1)) and a cashier counts or verifies at the cage
    # (e). What a box should hold is for those who check a count against it (the cage, finance,
    # compliance, surveillance), never for whoever counts or carries it; the counter sees it in the
    # answer to their own count, once it is recorded.
    Action.BOX_EXPECTED_READ: frozenset({Role.CAGE_CASHIER, Role.FINANCE, Role.COMPLIANCE, Role.SURVEILLANCE}),
    # Finance prepares the reversal of a transfer posted in error; another finance person or an
    # administrator approves it (docs/architecture.md, The ledger).
    Action.CORRECTION_PREPARE: FINANCE_OR_ADMINISTRATOR,
    Action.CORRECTION_APPROVE: FINANCE_OR_ADMINISTRATOR,
    # Bad Beat (§637a.15(f)-(i)). A floorperson or above opens a claim at the table; "the Poker shift
    # supervisor shall verify each Bad Beat Poker hand" (f): the regulation names that role, so a poker
    # room manager does not act for one (a room whose controls let a manager stand in gives that person
    # the shift supervisor role as well). Finance prepares the distribution (g); security or finance
    # delivers a share to the table (f)(2), or a cage cashier pays it at the cage (g). A finance
    # employee adjusts the display in the presence of a floorperson or above (h)(1). A discontinued
    # fund moves to another Bad Beat by a transfer finance prepares and another finance person or an
    # administrator approves (i).
    Action.BAD_BEAT_CLAIM: FLOORPERSON_OR_ABOVE,
    Action.BAD_BEAT_VERIFY: frozenset({Role.SHIFT_SUPERVISOR}),
    Action.BAD_BEAT_DISTRIBUTE: frozenset({Role.FINANCE}),
    Action.BAD_BEAT_PAY: frozenset({Role.SECURITY, Role.FINANCE, Role.CAGE_CASHIER}),
    Action.BAD_BEAT_READ: FLOORPERSON_OR_ABOVE | ADMIN_ROLES | {Role.SECURITY},
    # The back office reads the Bad Beat's records and reports as it reads the cage's official record:
    # the floor and security follow claims and payouts on their tablets, not in the admin.
    Action.BAD_BEAT_RECORDS_READ: ADMIN_ROLES,
    Action.DISPLAY_ADJUST: frozenset({Role.FINANCE}),
    Action.DISPLAY_WITNESS: FLOORPERSON_OR_ABOVE,
    Action.FUND_TRANSFER_PREPARE: frozenset({Role.FINANCE}),
    Action.FUND_TRANSFER_APPROVE: FINANCE_OR_ADMINISTRATOR,
    # High Hand (§637a.16(f)-(i)): the floorperson or above who verified the hand records it on the
    # Tracking Slip (f); a shift supervisor voids a wrong entry with a reason (a house control: entries
    # are never deleted); awards are 'paid from the main cage or satellite cage' (h), by a cage cashier;
    # finance approves where an uncollected award goes, as the rules say (i).
    Action.HIGH_HAND_RECORD: FLOORPERSON_OR_ABOVE,
    Action.HIGH_HAND_VOID: frozenset({Role.SHIFT_SUPERVISOR}),
    Action.HIGH_HAND_PAY: frozenset({Role.CAGE_CASHIER}),
    Action.HIGH_HAND_UNCLAIMED_APPROVE: frozenset({Role.FINANCE}),
    Action.HIGH_HAND_READ: FLOORPERSON_OR_ABOVE | ADMIN_ROLES | {Role.SECURITY},
    # The back office reads the High Hand's records and reports as it reads the Bad Beat's.
    Action.HIGH_HAND_RECORDS_READ: ADMIN_ROLES,
    # Progressive table games (§655a.11(i)(4), §657a.11(e)). The dealer records the wagers the
    # progressive table game system accepted and the chips collected (§655a.8(b), §657a.8(b)), and
    # verifies a winning hand and its light (A)-(B); a floorperson or above validates the payout (C); a
    # payout not paid from the table inventory goes through the cage (D), paid by a cage cashier. House
    # controls: a supervisor explains a count of wagers that differs from the chips, and resets a
    # meter after a 100% payout.
    Action.PROGRESSIVE_ROUND_RECORD: DEALER_OR_FLOORPERSON_OR_ABOVE,
    Action.PROGRESSIVE_HAND_RECORD: DEALER_OR_FLOORPERSON_OR_ABOVE,
    Action.PROGRESSIVE_VALIDATE: FLOORPERSON_OR_ABOVE,
    Action.PROGRESSIVE_PAY: frozenset({Role.CAGE_CASHIER}),
    Action.PROGRESSIVE_RESET: SUPERVISOR_OR_ABOVE,
    Action.PROGRESSIVE_EXPLAIN: SUPERVISOR_OR_ABOVE,
    Action.PROGRESSIVE_READ: DEALER_OR_FLOORPERSON_OR_ABOVE | ADMIN_ROLES,
    Action.PROGRESSIVE_ROUND_VOID: FLOORPERSON_OR_ABOVE,
    # Irregularities (§637a.18, §655a.13, §657a.13). The dealer or floorperson at the table reports what
    # went wrong; a floorperson or above rules on it, as they direct the play (§655a.5(a): 'when directed
    # by a floorperson or above'); "in all disputes ... the decision of the Poker shift supervisor is
    # final" (§637a.18(a)): a poker shift supervisor or above rules on a dispute. Nobody rules on what
    # they reported (``IrregularityRuling``). A round already recorded is voided (§637a.18(i)) by a
    # floorperson or above, who signs; the floor, surveillance, finance, compliance and an administrator
    # read the log.
    Action.IRREGULARITY_REPORT: DEALER_OR_FLOORPERSON_OR_ABOVE,
    Action.IRREGULARITY_RULE: FLOORPERSON_OR_ABOVE,
    Action.DISPUTE_RULE: SUPERVISOR_OR_ABOVE,
    Action.IRREGULARITIES_READ: DEALER_OR_FLOORPERSON_OR_ABOVE | ADMIN_ROLES | {Role.SURVEILLANCE},
    # An incident's whole file, printed for the regulator: compliance and finance, who keep the record,
    # and the room's poker shift supervisors and managers, whose rulings it holds.
    Action.IRREGULARITY_FILE_READ: SUPERVISOR_OR_ABOVE | {Role.FINANCE, Role.COMPLIANCE},
    Action.ROUND_VOID: FLOORPERSON_OR_ABOVE,
    # Devices and decks (§637a.18(q)-(r), §655a.3(c), §655a.4(a), §655a.13(e)-(g), §657a the same). The
    # dealer or floorperson at the table records a shuffler or shoe that failed (the cards are
    # reshuffled, (q)). Taking it out of order changes how the table shuffles or deals ('before any other
    # method of shuffling or dealing may be utilized', (r)), which a floorperson or above directs
    # (§655a.5(a): 'when directed by a floorperson or above'); a house control: a floorperson or above
    # returns it to service. The dealer inspects a deck received at the table; 'the floorperson assigned
    # to the table shall verify the inspection' (§655a.4(a)): a floorperson or above, never the inspector.
    Action.DEVICE_FAILURE_RECORD: DEALER_OR_FLOORPERSON_OR_ABOVE,
    Action.DEVICE_OUT_OF_ORDER: FLOORPERSON_OR_ABOVE,
    Action.DEVICE_RETURN: FLOORPERSON_OR_ABOVE,
    Action.DECK_INSPECT: DEALER_OR_FLOORPERSON_OR_ABOVE,
    Action.DECK_VERIFY: FLOORPERSON_OR_ABOVE,
    Action.EQUIPMENT_READ: DEALER_OR_FLOORPERSON_OR_ABOVE | ADMIN_ROLES | {Role.SURVEILLANCE},
    # The trace of a dollar (issue 29): compliance and finance read every trace of their rooms; a cage
    # cashier the traces of the payments they made (``audit.trace.build``); nobody else. A gaming day's
    # package for the regulator: compliance and finance.
    Action.TRACE_READ: frozenset({Role.FINANCE, Role.COMPLIANCE}),
    Action.TRACE_OPEN: frozenset({Role.FINANCE, Role.COMPLIANCE, Role.CAGE_CASHIER}),
    # Its search: compliance and finance find every chain of their rooms; a cage cashier only the payments
    # they made (``audit.search``).
    Action.TRACE_SEARCH: frozenset({Role.FINANCE, Role.COMPLIANCE}),
    Action.OWN_PAYMENTS_SEARCH: frozenset({Role.CAGE_CASHIER}),
    Action.DAY_PACKAGE_READ: frozenset({Role.FINANCE, Role.COMPLIANCE}),
    Action.PIN_SET: EVERY_ROLE,
    Action.SIGNING_UNLOCK: frozenset({Role.ADMINISTRATOR}),
    Action.STAFF_MANAGE: frozenset({Role.ADMINISTRATOR}),
    # The second factor at sign-in (staff.second_factor) is offered to those who approve, sign for and
    # move the most: supervisors, managers, finance and administrators; an administrator resets a
    # person's when their phone is lost.
    Action.SECOND_FACTOR_USE: SUPERVISOR_OR_ABOVE | FINANCE_OR_ADMINISTRATOR,
    Action.SECOND_FACTOR_RESET: frozenset({Role.ADMINISTRATOR}),
}

# Where each role pays what an action pays out, for the actions paid at more than one place: the
# places by their names ("table", "cage": ``jackpots.funds.models.PaymentPlace``). A Bad Beat share is
# delivered at the table by security (§637a.15(f)(2)) or paid at the cage by a cage cashier
# (§637a.15(g)); finance does either. The services refuse another place; the pages offer these.
ACTION_PLACES: dict[Action, dict[Role, frozenset[str]]] = {
    Action.BAD_BEAT_PAY: {
        Role.SECURITY: frozenset({"table"}),
        Role.CAGE_CASHIER: frozenset({"cage"}),
        Role.FINANCE: frozenset({"table", "cage"}),
    },
}


# Role sets the regulations and the floor call by a name, said that way in a refusal.
_SET_NAMES: dict[frozenset[Role], str] = {
    FLOORPERSON_OR_ABOVE: "a floorperson or above",
    DEALER_OR_FLOORPERSON_OR_ABOVE: "a dealer or a floorperson or above",
    EVERY_ROLE: "a member of staff with a role",
}
_ROLE_NOUNS: dict[Role, str] = {
    Role.DEALER: "a dealer",
    Role.FLOORPERSON: "a floorperson",
    Role.SHIFT_SUPERVISOR: "a poker shift supervisor",
    Role.POKER_ROOM_MANAGER: "a poker room manager",
    Role.SECURITY: "a security officer",
    Role.SURVEILLANCE: "surveillance",
    Role.CAGE_CASHIER: "a cage cashier",
    Role.FINANCE: "finance",
    Role.COMPLIANCE: "compliance",
    Role.ADMINISTRATOR: "an administrator",
}


def roles_of(action: Action) -> tuple[Role, ...]:
    """The roles that may take ``action``, in the order ``Role`` declares them."""
    allowed = ACTION_ROLES[Action(action)]
    return tuple(role for role in Role if role in allowed)


def roles_in_words(roles: frozenset[Role]) -> str:
    """'a floorperson or above', 'finance or an administrator'."""
    if roles in _SET_NAMES:
        return _SET_NAMES[roles]
    nouns = [_ROLE_NOUNS[role] for role in Role if role in roles]
    if not nouns:
        return "nobody"
    return nouns[0] if len(nouns) == 1 else f"{', '.join(nouns[:-1])} or {nouns[-1]}"


def _held(user: Any) -> frozenset[Role]:
    if user is None or not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return frozenset()
    return frozenset(user.roles)


def may(user: Any, action: Action) -> bool:
    """Whether ``user`` (a signed-in, active member of staff) holds a role that may take ``action``."""
    return bool(_held(user) & ACTION_ROLES[Action(action)])


def places_of(user: User, action: Action) -> frozenset[str]:
    """Where ``user`` pays what ``action`` pays out (``ACTION_PLACES``): the places of their roles,
    none for a person whose roles pay nowhere (whether they may act is ``action_require``'s)."""
    places = ACTION_PLACES.get(Action(action), {})
    return frozenset().union(*(places.get(role, frozenset()) for role in user.roles))


def who_may(action: Action) -> str:
    """'Only a floorperson or above may verify time charges': the rule, in words."""
    action = Action(action)
    return f"Only {roles_in_words(ACTION_ROLES[action])} may {action.label[0].lower()}{action.label[1:]}"


def action_require(*, actor: User, action: Action, of: models.Model | None = None) -> None:
    """Refuse ``actor`` unless a role they hold may take ``action``, and, given ``of`` (the room, table,
    box or document the action is on), unless they work in its room: ``ActionNotPermitted``, whose
    message names the action and the roles that may take it, or the room. The room check is the one
    the API, tablet pages and admin filter their rows by (``core.rooms.visible``); the service makes
    it again, so no path reaches another room's documents."""
    if may(actor, action):
        if of is None or _in_their_rooms(actor, of):
            acting_note(actor)  # the audit history's "Changed by" where no request names them (core.audit)
            return
        _refusal_record(actor=actor, action=Action(action), held=_held(actor))
        raise ActionNotPermitted(
            f"{actor} does not work in the room of {of._meta.verbose_name} {of}: nothing was done.",
            action=Action(action),
        )
    held = _held(actor)
    who = " and ".join(_ROLE_NOUNS[role] for role in Role if role in held) or "without a role"
    if actor is not None and not getattr(actor, "is_active", True):
        who = "not an active member of staff"
    _refusal_record(actor=actor, action=Action(action), held=held)
    raise ActionNotPermitted(f"{who_may(action)}; {actor} is {who}.", action=Action(action))


def _in_their_rooms(actor: User, document: models.Model) -> bool:
    rows = type(document)._default_manager.filter(pk=document.pk)
    scoped = visible(actor, rows)
    return scoped is rows or scoped.exists()  # a row no room owns is the same queryset, unfiltered


def _refusal_record(*, actor: Any, action: Action, held: frozenset[Role]) -> None:
    """Keep the refusal where compliance reads it (``RefusedAction``). In a savepoint of its own: a
    failure to record never hides the refusal; a refusal inside a transaction that rolls back is
    recorded only if that transaction commits."""
    from django.db import DatabaseError, transaction
    from django.utils import timezone

    from .models import RefusedAction

    user = actor if actor is not None and getattr(actor, "pk", None) is not None else None
    try:
        with transaction.atomic():
            RefusedAction.objects.create(
                user=user,
                username=str(getattr(actor, "username", "") or "anonymous")[:150],
                action=action.value,
                roles=", ".join(sorted(role.value for role in held))[:300],
                at=timezone.now(),
            )
    except DatabaseError:  # pragma: no cover - the refusal stands whatever the log could do
        pass
