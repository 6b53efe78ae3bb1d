"""What the Bad Beat's services refuse: claims, decisions, payouts, display adjustments and fund transfers."""

from casino_backoffice.core.exceptions import ErrorCode
from jackpots.funds.exceptions import JackpotError


class BadBeatErrorCode(ErrorCode):
    """The codes of the Bad Beat's refusals: claims, decisions, payouts, display adjustments and fund
    transfers. A refusal every jackpot fund shares keeps its ``FundsErrorCode``."""

    BAD_BEAT_NOT_OFFERED = "bad_beat_not_offered"
    CLAIM_INVALID = "claim_invalid"
    ROUND_MISMATCH = "round_mismatch"
    CLAIM_DOES_NOT_QUALIFY = "claim_does_not_qualify"
    WRONG_STATUS = "wrong_status"
    ALREADY_DECIDED = "already_decided"
    ALREADY_DISTRIBUTED = "already_distributed"
    ALREADY_CLAIMED = "already_claimed"
    REASON_REQUIRED = "reason_required"
    SHARE_ALREADY_PAID = "share_already_paid"
    ID_REQUIRED = "id_required"
    WRONG_PLACE = "wrong_place"
    ABOVE_OFFICIAL_BALANCE = "above_official_balance"
    DISPLAY_REFUSED = "display_refused"
    ALREADY_WITNESSED = "already_witnessed"
    DISPLAY_SUPERSEDED = "display_superseded"
    FUND_TRANSFER_REFUSED = "fund_transfer_refused"
    ALREADY_APPROVED = "already_approved"


class BadBeatNotOffered(JackpotError):
    """The fund is not a Bad Beat offered at that table by the rules in effect (§637a.15(b), (i))."""

    code = BadBeatErrorCode.BAD_BEAT_NOT_OFFERED


class ClaimInvalid(JackpotError):
    """A claim that cannot be recorded as evidence: cards that don't exist or repeat, seats that
    don't fit the table, a round of another table, players that don't add up."""

    code = BadBeatErrorCode.CLAIM_INVALID


class ClaimDoesNotQualify(JackpotError):
    """The evaluator says the hands do not meet the posted qualifier: the claim is kept, never verified."""

    code = BadBeatErrorCode.CLAIM_DOES_NOT_QUALIFY


class WrongClaimStatus(JackpotError):
    """The claim is not at the step the action needs (verify a claimed one, distribute a verified one)."""

    code = BadBeatErrorCode.WRONG_STATUS
    status = 409


class AlreadyDecided(WrongClaimStatus):
    code = BadBeatErrorCode.ALREADY_DECIDED


class AlreadyDistributed(WrongClaimStatus):
    code = BadBeatErrorCode.ALREADY_DISTRIBUTED


class AlreadyClaimed(JackpotError):
    """The hand was claimed already (§637a.15(f)-(g): the same Bad Beat is paid once): its round, or
    the same cards at the same table on the same gaming day, has a claim that is not denied. The
    message names that claim and where it stands; a denied claim blocks nothing, so the shift
    supervisor denies a wrong claim and the corrected one is recorded then."""

    code = BadBeatErrorCode.ALREADY_CLAIMED
    status = 409


class ShareAlreadyPaid(JackpotError):
    code = BadBeatErrorCode.SHARE_ALREADY_PAID
    status = 409


class AboveOfficialBalance(JackpotError):
    """A payout or transfer would take more than the fund's official balance less what it owes:
    the fund never goes below zero."""

    code = BadBeatErrorCode.ABOVE_OFFICIAL_BALANCE
    status = 409


class DisplayError(JackpotError):
    code = BadBeatErrorCode.DISPLAY_REFUSED


class AlreadyWitnessed(JackpotError):
    code = BadBeatErrorCode.ALREADY_WITNESSED
    status = 409


class DisplaySuperseded(JackpotError):
    """Finance set a newer adjustment of the same display before this one was witnessed: this one never
    takes effect; the newer one is witnessed instead."""

    code = BadBeatErrorCode.DISPLAY_SUPERSEDED
    status = 409


class FundTransferRefused(JackpotError):
    """A discontinued fund's money goes only to patrons or to another Bad Beat (§637a.15(i))."""

    code = BadBeatErrorCode.FUND_TRANSFER_REFUSED


class AlreadyApproved(JackpotError):
    code = BadBeatErrorCode.ALREADY_APPROVED
    status = 409
