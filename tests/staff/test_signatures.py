"""Signatures: PIN re-entry, role rules, segregation of duties, wrong-PIN lock, immutability."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from casino_backoffice.ledger.models import Account, AccountKind, Correction, Transfer, TransferKind
from casino_backoffice.ledger.services import correction_approve, correction_prepare, transfer_post_atomic
from casino_backoffice.staff.exceptions import (
    ActionNotPermitted,
    AlreadySigned,
    DocumentIsSigned,
    SignerNotIndependent,
    SignerRoleNotAllowed,
    SigningLocked,
    WrongPin,
)
from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import signature_verify, signing_unlock
from casino_backoffice.staff.signing import content_hash
from tests.conftest import PIN
from tests.core.sealing import triggers_suspended


@pytest.fixture
def transfer(finance) -> Transfer:
    source = Account.objects.create(code="source:test", name="Pots", kind=AccountKind.SOURCE)
    box = Account.objects.create(code="box:test", name="Box", kind=AccountKind.JACKPOT_BOX)
    return transfer_post_atomic(
        debit=box, credit=source, amount_cents=100, kind=TransferKind.DROP, idempotency_key="t-1", actor=finance
    )


def test_a_signature_records_role_credential_time_and_content_hash(transfer, finance) -> None:
    correction = correction_prepare(transfer=transfer, reason="posted to the wrong box", actor=finance, pin=PIN)

    [signature] = correction.signatures()
    assert signature.signer == finance
    assert signature.role == Role.FINANCE
    assert signature.credential_number == finance.credential_number
    assert signature.purpose == "preparer"
    assert signature.content_hash == content_hash(correction.signing_content())
    assert signature_verify(signature=signature)


def test_the_recorded_credential_is_the_one_held_at_signing(transfer, finance) -> None:
    correction = correction_prepare(transfer=transfer, reason="wrong box", actor=finance, pin=PIN)
    old = finance.credential_number
    User.objects.filter(pk=finance.pk).update(credential_number="PA-NEW-1")

    assert correction.signatures().get().credential_number == old


def test_wrong_pin_signs_nothing_and_says_how_many_tries_are_left(transfer, finance) -> None:
    with pytest.raises(WrongPin, match="4 tries left"):
        correction_prepare(transfer=transfer, reason="wrong box", actor=finance, pin="0000")

    assert not Correction.objects.exists()
    assert not Signature.objects.exists()
    finance.refresh_from_db()
    assert finance.failed_pin_attempts == 1


def test_five_wrong_pins_lock_signing_until_an_administrator_unlocks(transfer, finance, administrator) -> None:
    for _ in range(4):
        with pytest.raises(WrongPin):
            correction_prepare(transfer=transfer, reason="x", actor=finance, pin="0000")
    with pytest.raises(SigningLocked):
        correction_prepare(transfer=transfer, reason="x", actor=finance, pin="0000")
    # Even the right PIN is refused while locked.
    with pytest.raises(SigningLocked):
        correction_prepare(transfer=transfer, reason="x", actor=finance, pin=PIN)
    assert not Correction.objects.exists()

    signing_unlock(user=finance, actor=administrator)
    correction = correction_prepare(transfer=transfer, reason="x", actor=finance, pin=PIN)
    assert correction.signatures().count() == 1


def test_a_right_pin_resets_the_count_of_wrong_ones(transfer, finance) -> None:
    with pytest.raises(WrongPin):
        correction_prepare(transfer=transfer, reason="x", actor=finance, pin="0000")
    correction_prepare(transfer=transfer, reason="x", actor=finance, pin=PIN)
    finance.refresh_from_db()
    assert finance.failed_pin_attempts == 0


def test_only_an_administrator_unlocks(finance, floorperson) -> None:
    with pytest.raises(
        ActionNotPermitted, match=r"^Only an administrator may unlock a person's signing; .* is a floorperson\.$"
    ):
        signing_unlock(user=finance, actor=floorperson)


def test_a_signer_of_the_wrong_role_is_refused_with_who_may_named(transfer, floorperson) -> None:
    with pytest.raises(
        ActionNotPermitted,
        match=r"Only finance or an administrator may prepare the reversal of a transfer; .* is a floorperson",
    ):
        correction_prepare(transfer=transfer, reason="wrong box", actor=floorperson, pin=PIN)
    assert not Correction.objects.exists()


def test_a_wrong_role_never_counts_toward_a_pin_lock(transfer, floorperson) -> None:
    for _ in range(10):
        with pytest.raises(ActionNotPermitted):
            correction_prepare(transfer=transfer, reason="wrong box", actor=floorperson, pin="0000")
    floorperson.refresh_from_db()
    assert (floorperson.failed_pin_attempts, floorperson.signing_locked_at) == (0, None)
    assert not Correction.objects.exists()


def test_signature_add_still_refuses_a_role_its_rule_does_not_name(transfer, finance, floorperson) -> None:
    """The signing rule is the second guard: a service that signs for another action than its own
    would still be refused at the signature, with the rule named."""
    from casino_backoffice.staff.services import pin_check, signature_add

    correction = correction_prepare(transfer=transfer, reason="wrong box", actor=finance, pin=PIN)
    with (
        pytest.raises(SignerRoleNotAllowed, match=r"approver by finance or an administrator.*floorperson"),
        transaction.atomic(),
    ):
        signature_add(document=correction, rule=Correction.APPROVER, signer=pin_check(user=floorperson, pin=PIN))
    assert correction.signatures().count() == 1


def test_signing_rules_take_their_roles_from_the_table_of_actions() -> None:
    from casino_backoffice.staff.permissions import ACTION_ROLES, Action

    assert Correction.PREPARER.action == Action.CORRECTION_PREPARE
    assert (
        set(Correction.PREPARER.roles) == ACTION_ROLES[Action.CORRECTION_PREPARE] == {Role.FINANCE, Role.ADMINISTRATOR}
    )
    assert Correction.PREPARER.roles == (Role.FINANCE, Role.ADMINISTRATOR)  # the order roles are declared in


def test_the_approver_is_not_the_preparer(transfer, finance) -> None:
    correction = correction_prepare(transfer=transfer, reason="wrong box", actor=finance, pin=PIN)

    with pytest.raises(SignerNotIndependent, match="signed this document as preparer"):
        correction_approve(correction=correction, actor=finance, pin=PIN)
    assert correction.signatures().count() == 1
    assert not Transfer.objects.filter(kind=TransferKind.REVERSAL).exists()


def test_a_purpose_is_signed_once(transfer, finance, make_staff) -> None:
    correction = correction_prepare(transfer=transfer, reason="wrong box", actor=finance, pin=PIN)
    correction_approve(correction=correction, actor=make_staff(Role.FINANCE), pin=PIN)

    with pytest.raises(AlreadySigned):
        correction_approve(correction=correction, actor=make_staff(Role.ADMINISTRATOR), pin=PIN)
    assert correction.signatures().count() == 2


def test_a_signed_document_cannot_change(transfer, finance) -> None:
    correction = correction_prepare(transfer=transfer, reason="wrong box", actor=finance, pin=PIN)
    correction.reason = "something else"

    with pytest.raises(DocumentIsSigned):
        correction.save()
    correction.refresh_from_db()
    assert correction.reason == "wrong box"


def test_tampering_behind_the_orm_is_detected(transfer, finance) -> None:
    correction = correction_prepare(transfer=transfer, reason="wrong box", actor=finance, pin=PIN)
    with triggers_suspended():  # the seal refuses it: past a database owner who drops it, the signature tells
        Correction.objects.filter(pk=correction.pk).update(reason="edited in the database")

    assert not signature_verify(signature=correction.signatures().get())


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's")
def test_postgresql_refuses_to_update_or_delete_a_signature(transfer, finance) -> None:
    correction = correction_prepare(transfer=transfer, reason="wrong box", actor=finance, pin=PIN)
    signature = correction.signatures().get()

    with pytest.raises(IntegrityError, match="never updated or deleted"), transaction.atomic():
        Signature.objects.filter(pk=signature.pk).update(role=Role.ADMINISTRATOR)
    with pytest.raises(IntegrityError, match="never updated or deleted"), transaction.atomic():
        Signature.objects.filter(pk=signature.pk).delete()
    signature.refresh_from_db()
    assert signature.role == Role.FINANCE


def test_a_moment_hashes_the_same_in_every_time_zone() -> None:
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    at_utc = datetime(2026, 11, 30, 2, 15, tzinfo=UTC)
    in_new_york = at_utc.astimezone(ZoneInfo("America/New_York"))  # 21:15 the day before, -05:00
    in_tokyo = at_utc.astimezone(ZoneInfo("Asia/Tokyo"))

    assert content_hash({"at": in_new_york}) == content_hash({"at": at_utc}) == content_hash({"at": in_tokyo})
    assert content_hash({"at": at_utc}) != content_hash({"at": at_utc.replace(minute=16)})


def test_a_naive_datetime_cannot_be_signed() -> None:
    from datetime import datetime

    with pytest.raises(TypeError, match="naive datetime"):
        content_hash({"at": datetime(2026, 11, 30, 21, 15)})


def test_a_rule_names_its_signers_as_people_read_them() -> None:
    """'Signed as the closer by a finance' (issue 27, item 4): a department signs without an article, a
    person with theirs."""
    from cage.models import CageVerification, GamingDayClose, Variance

    assert GamingDayClose.CLOSER.words == "Signed as the closer by finance"
    assert Correction.APPROVER.words.startswith("Signed as the approver by finance or an administrator")
    assert Variance.EXPLAINER.words.startswith("Signed as the explainer by a poker shift supervisor or finance")
    assert CageVerification.CASHIER.words == "Signed as the cashier by a cage cashier (§637a.15(e))"
