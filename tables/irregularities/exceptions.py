from casino_backoffice.core.exceptions import Conflict, DomainError, ErrorCode


class IrregularityErrorCode(ErrorCode):
    """The codes of the refusals of irregularities and their rulings."""

    IRREGULARITY = "irregularity"
    ROUND_REQUIRED = "irregularity_round_required"
    ALREADY_RULED = "irregularity_already_ruled"
    RULED_BY_REPORTER = "irregularity_ruled_by_reporter"


class IrregularityError(DomainError):
    """An irregularity refused before anything was recorded: a kind, cause, round or table that does
    not fit, or a field missing."""

    code = IrregularityErrorCode.IRREGULARITY


class RoundRequired(IrregularityError):
    """A kind whose money is a round's (§637a.18(i), (k)(3)) reported without its round."""

    code = IrregularityErrorCode.ROUND_REQUIRED


class RuledByReporter(IrregularityError):
    """The person who reported an irregularity rules on it: another floorperson or above rules."""

    code = IrregularityErrorCode.RULED_BY_REPORTER


class AlreadyRuled(Conflict):
    code = IrregularityErrorCode.ALREADY_RULED
