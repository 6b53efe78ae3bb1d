"""Finance reverses a transfer in the admin, signing with a PIN; a second person approves."""

from __future__ import annotations

from django.urls import reverse

from casino_backoffice.ledger.models import AccountKind, Correction, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.ledger.services import account_open, transfer_post_atomic
from casino_backoffice.staff.roles import Role
from tests.conftest import PIN


def test_prepare_and_approve_a_correction_in_the_admin(client, finance, make_staff) -> None:
    pots = account_open(code="source:main", name="Pots", kind=AccountKind.SOURCE)
    box = account_open(code="box", name="Box", kind=AccountKind.JACKPOT_BOX)
    transfer = transfer_post_atomic(
        debit=box, credit=pots, amount_cents=500, kind=TransferKind.DROP, idempotency_key="k", actor=finance
    )
    client.force_login(finance)

    page = client.get(reverse("admin:ledger_transfer_change", args=[transfer.pk]))
    assert "Reverse this transfer" in page.content.decode()
    wrong = client.post(
        reverse("admin:ledger_transfer_correct", args=[transfer.pk]), {"reason": "wrong box", "pin": "9999"}
    )
    assert "Wrong PIN" in wrong.content.decode()
    assert not Correction.objects.exists()

    client.post(reverse("admin:ledger_transfer_correct", args=[transfer.pk]), {"reason": "wrong box", "pin": PIN})
    correction = Correction.objects.get()

    own = client.post(reverse("admin:ledger_correction_approve", args=[correction.pk]), {"pin": PIN})
    assert "cannot also sign as approver" in own.content.decode()
    assert account_balance(account=box) == 500

    client.force_login(make_staff(Role.FINANCE))
    client.post(reverse("admin:ledger_correction_approve", args=[correction.pk]), {"pin": PIN})
    assert account_balance(account=box) == 0
    assert Transfer.objects.filter(kind=TransferKind.REVERSAL, reverses=transfer).count() == 1


def test_compliance_cannot_prepare_a_correction(client, compliance, finance) -> None:
    pots = account_open(code="source:main", name="Pots", kind=AccountKind.SOURCE)
    box = account_open(code="box", name="Box", kind=AccountKind.JACKPOT_BOX)
    transfer = transfer_post_atomic(
        debit=box, credit=pots, amount_cents=500, kind=TransferKind.DROP, idempotency_key="k", actor=finance
    )
    client.force_login(compliance)

    response = client.post(reverse("admin:ledger_transfer_correct", args=[transfer.pk]), {"reason": "x", "pin": PIN})

    assert "Only finance or an administrator may prepare the reversal of a transfer" in response.content.decode()
    assert not Correction.objects.exists()
