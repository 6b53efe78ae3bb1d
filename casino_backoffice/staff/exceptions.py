from casino_backoffice.core.exceptions import Conflict, DomainError, ErrorCode


class StaffErrorCode(ErrorCode):
    """The codes of the refusals of people, roles, PINs and signatures."""

    STAFF = "staff"
    WRONG_PIN = "wrong_pin"
    SIGNING_LOCKED = "signing_locked"
    NO_PIN = "no_pin"
    INVALID_PIN = "invalid_pin"
    NOT_PERMITTED = "not_permitted"
    NO_ROOM = "no_room"
    SEGREGATION_OF_DUTIES = "segregation_of_duties"
    ALREADY_SIGNED = "already_signed"
    DOCUMENT_SIGNED = "document_signed"
    DUPLICATE_CREDENTIAL_NUMBER = "duplicate_credential_number"
    SIGNATURE_ORDER = "signature_order"
    WRONG_CODE = "wrong_code"


class StaffError(DomainError):
    code = StaffErrorCode.STAFF


class WrongPin(StaffError):
    code = StaffErrorCode.WRONG_PIN


class SigningLocked(StaffError):
    code = StaffErrorCode.SIGNING_LOCKED
    status = 403


class NoPin(StaffError):
    code = StaffErrorCode.NO_PIN


class InvalidPin(StaffError):
    code = StaffErrorCode.INVALID_PIN


class ActionNotPermitted(StaffError):
    """None of the person's roles may take the action (``permissions.ACTION_ROLES``): HTTP 403.

    The message names the action and the roles that may take it; ``action`` is its code."""

    code = StaffErrorCode.NOT_PERMITTED
    status = 403

    def __init__(self, message: str, *, action: str = "") -> None:
        super().__init__(message)
        self.action = action


class NoRoomGiven(StaffError):
    """A person given no poker room and not the all-rooms grant works nowhere: HTTP 403."""

    code = StaffErrorCode.NO_ROOM
    status = 403


NO_ROOM_MESSAGE = (
    "You are given no poker room: you work in no room until an administrator gives you yours (or, for "
    "property-wide staff, the all-rooms grant). Nothing was recorded."
)


class SignerRoleNotAllowed(ActionNotPermitted):
    """The signer holds none of the roles the signing rule names: refused like any action their
    roles may not take."""


class SignerNotIndependent(StaffError):
    """Segregation of duties: the same person may not hold two roles on one document."""

    code = StaffErrorCode.SEGREGATION_OF_DUTIES


class AlreadySigned(Conflict):
    code = StaffErrorCode.ALREADY_SIGNED


class DocumentIsSigned(Conflict):
    code = StaffErrorCode.DOCUMENT_SIGNED


class DuplicateCredentialNumber(StaffError):
    code = StaffErrorCode.DUPLICATE_CREDENTIAL_NUMBER
