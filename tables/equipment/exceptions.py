from casino_backoffice.core.exceptions import Conflict, DomainError, ErrorCode


class EquipmentErrorCode(ErrorCode):
    """The codes of the refusals of the equipment and deck logs."""

    EQUIPMENT = "equipment"
    DEVICE_OUT_OF_ORDER = "device_out_of_order"
    DEVICE_NOT_OUT_OF_ORDER = "device_not_out_of_order"
    DECK = "deck"
    DECK_ALREADY_VERIFIED = "deck_already_verified"
    DECK_VERIFIED_BY_INSPECTOR = "deck_verified_by_inspector"


class EquipmentError(DomainError):
    """A device's step refused before anything was recorded: a device or step that does not fit the
    table, or a field missing."""

    code = EquipmentErrorCode.EQUIPMENT


class DeviceOutOfOrder(Conflict):
    """The device is out of order: it neither fails nor is taken out of order again until returned."""

    code = EquipmentErrorCode.DEVICE_OUT_OF_ORDER


class DeviceNotOutOfOrder(Conflict):
    """Only a device out of order is returned to service."""

    code = EquipmentErrorCode.DEVICE_NOT_OUT_OF_ORDER


class DeckError(DomainError):
    """A deck refused before anything was recorded: a table not banked, a field that does not fit."""

    code = EquipmentErrorCode.DECK


class DeckVerifiedByInspector(DeckError):
    """The dealer who inspected the cards verifies their own inspection: a floorperson or above does."""

    code = EquipmentErrorCode.DECK_VERIFIED_BY_INSPECTOR


class DeckAlreadyVerified(Conflict):
    code = EquipmentErrorCode.DECK_ALREADY_VERIFIED
