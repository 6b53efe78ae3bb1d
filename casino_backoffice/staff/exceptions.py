from casino_backoffice.core.exceptions import Conflict, DomainError


class StaffError(DomainError):
    code = "staff"


class WrongPin(StaffError):
    code = "wrong_pin"


class SigningLocked(StaffError):
    code = "signing_locked"
    status = 403


class NoPin(StaffError):
    code = "no_pin"


class InvalidPin(StaffError):
    code = "invalid_pin"


class SignerRoleNotAllowed(StaffError):
    code = "signer_role"


class SignerNotIndependent(StaffError):
    """Segregation of duties: the same person may not hold two roles on one document."""

    code = "segregation_of_duties"


class AlreadySigned(Conflict):
    code = "already_signed"


class DocumentIsSigned(Conflict):
    code = "document_signed"


class DuplicateCredentialNumber(StaffError):
    code = "duplicate_credential_number"
