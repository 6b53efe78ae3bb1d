"""What the Bad Beat's services refuse: claims, decisions, payouts, display adjustments and fund transfers."""

from jackpots.funds.exceptions import JackpotError


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
