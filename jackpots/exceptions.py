from casino_backoffice.core.exceptions import DomainError


class JackpotError(DomainError):
    code = "jackpot"


class JackpotKindChanged(JackpotError):
    """A code names one fund for ever: a Bad Beat code cannot become a High Hand."""

    code = "jackpot_kind_changed"


class BadBeatNotOffered(JackpotError):
    """The fund is not a Bad Beat offered at that table by the rules in effect (§637a.15(b), (i))."""

    code = "bad_beat_not_offered"


class ClaimInvalid(JackpotError):
    """A claim that cannot be recorded as evidence: cards that don't exist or repeat, seats that
    don't fit the table, a round of another table, players that don't add up."""

    code = "claim_invalid"


class ClaimDoesNotQualify(JackpotError):
    """The evaluator says the hands do not meet the posted qualifier: the claim is kept, never verified."""

    code = "claim_does_not_qualify"


class WrongClaimStatus(JackpotError):
    """The claim is not at the step the action needs (verify a claimed one, distribute a verified one)."""

    code = "wrong_status"
    status = 409


class AlreadyDecided(WrongClaimStatus):
    code = "already_decided"


class AlreadyDistributed(WrongClaimStatus):
    code = "already_distributed"


class AlreadyClaimed(JackpotError):
    """The hand was claimed already (§637a.15(f)-(g): the same Bad Beat is paid once): its round, or
    the same cards at the same table on the same gaming day, has a claim that is not denied. The
    message names that claim and where it stands; a denied claim blocks nothing, so the shift
    supervisor denies a wrong claim and the corrected one is recorded then."""

    code = "already_claimed"
    status = 409


class ShareAlreadyPaid(JackpotError):
    code = "share_already_paid"
    status = 409


class AboveOfficialBalance(JackpotError):
    """A payout or transfer would take more than the fund's official balance less what it owes:
    the fund never goes below zero."""

    code = "above_official_balance"
    status = 409


class DisplayError(JackpotError):
    code = "display_refused"


class AlreadyWitnessed(JackpotError):
    code = "already_witnessed"
    status = 409


class DisplaySuperseded(JackpotError):
    """Finance set a newer adjustment of the same display before this one was witnessed: this one never
    takes effect; the newer one is witnessed instead."""

    code = "display_superseded"
    status = 409


class FundTransferRefused(JackpotError):
    """A discontinued fund's money goes only to patrons or to another Bad Beat (§637a.15(i))."""

    code = "fund_transfer_refused"


class AlreadyApproved(JackpotError):
    code = "already_approved"
    status = 409


class HighHandRefused(JackpotError):
    """A High Hand action refused by a rule of §637a.16; ``code`` names the rule (``below_minimum``,
    ``not_higher``, ``period_closed``, ``too_few_players`` ...).

    A refusal that says the document was signed already, or is past the step the action needs, is a
    409, as the Bad Beat's are (``share_already_paid``, ``already_decided``): the request may be right,
    the state is not. Every other refusal is a 400."""

    code = "high_hand_refused"
    CONFLICTS = frozenset(
        {
            "award_already_paid",
            "award_expired",
            "already_void",
            "already_approved",
            "period_announced",
            "no_period",
            "already_recorded",
            "period_box_counted",
        }
    )

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message, code=code)
        if self.code in self.CONFLICTS:
            self.status = 409


class ProgressiveRefused(JackpotError):
    """A progressive action refused by a rule of §655a or §657a, or of the house's controls; ``code``
    names the rule (``not_progressive``, ``wager_size``, ``no_payout``, ``light_not_confirmed``,
    ``out_of_order``, ``cards_invalid`` ...). A refusal that says the record exists already or is past
    the step the action needs is a 409; every other is a 400."""

    code = "progressive_refused"
    CONFLICTS = frozenset(
        {
            "already_recorded",
            "already_validated",
            "already_paid",
            "already_explained",
            "meter_pending",
            "not_pending",
            "payout_documentation_open",
        }
    )

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message, code=code)
        if self.code in self.CONFLICTS:
            self.status = 409
