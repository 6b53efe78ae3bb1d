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


class ActionNotPermitted(StaffError):
    """None of the person's roles may take the action (``permissions.ACTION_ROLES``): HTTP 403.

    The message names the action and the roles that may take it; ``action`` is its code."""

    code = "not_permitted"
    status = 403

    def __init__(self, message: str, *, action: str = "") -> None:
        super().__init__(message)
        self.action = action


class NoRoomGiven(StaffError):
    """A person given no poker room and not the all-rooms grant works nowhere: HTTP 403."""

    code = "no_room"
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

    code = "segregation_of_duties"


class AlreadySigned(Conflict):
    code = "already_signed"


class DocumentIsSigned(Conflict):
    code = "document_signed"


class DuplicateCredentialNumber(StaffError):
    code = "duplicate_credential_number"
