"""The cage asks for a second confirmation (issue 24, item 2): a count that differs from what the
container declares (or a box from what the ledger expected) by more than the room's variance
threshold is a 409 ``confirm_variance`` naming both amounts, recording nothing, until the cashier
sends ``confirm_variance: true``. And the recount and the correction through the API."""

from __future__ import annotations

import pytest

from cage.models import CageVerification, Count, CountStatus, Variance, VarianceKind
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.selectors import fund_position

from .helpers import client_for, post, refused, snapshot

VERIFICATIONS = "/api/cage-verifications/"


@pytest.fixture
def container(witnessed_counts, security) -> dict:
    """T1's witnessed counts (bb $3.00, hh $6.00, drop $15.00) under seal S-1, carried to the cage."""
    response = post(
        client_for(security), "/api/transports/", {"seal": "S-1", "counts": [c.pk for c in witnessed_counts]}
    )
    assert response.status_code == 201, response.content
    return response.json()


def test_a_mistyped_aggregate_is_a_409_with_both_amounts_and_nothing_recorded(container, cashier) -> None:
    api = client_for(cashier)
    before = snapshot()
    response = post(api, VERIFICATIONS, {"transport": container["id"], "counted": "2.40"})
    assert response.status_code == 409, response.content
    body = response.json()
    assert {key: body[key] for key in ("code", "counted", "declared", "expected", "variance", "direction")} == {
        "code": "confirm_variance",
        "counted": "2.40",
        "declared": "24.00",
        "expected": None,
        "variance": "-21.60",
        "direction": "short",
    }
    assert "You counted $2.40; seal S-1 declares $24.00" in body["detail"] and "short -$21.60" in body["detail"]
    assert snapshot() == before and not CageVerification.objects.exists()

    # The cashier counts again and types what was there; no variance, nothing to confirm.
    response = post(api, VERIFICATIONS, {"transport": container["id"], "counted": "24.00"})
    assert response.status_code == 201 and response.json()["direction"] == "none"


def test_a_confirmed_variance_is_signed_and_says_which_way_it_goes(container, cashier) -> None:
    response = post(client_for(cashier), VERIFICATIONS, {"transport": container["id"], "counted": "23.90",
                                                         "confirm_variance": True})  # fmt: skip
    assert response.status_code == 201, response.content
    data = response.json()
    assert (data["official"], data["variance"], data["direction"], data["status"]) == (
        "24.00",
        "-0.10",
        "short",
        "variance_unresolved",
    )


def test_a_variance_within_the_threshold_is_not_asked_again(container, cashier, monkeypatch) -> None:
    monkeypatch.setattr("cage.services.verification.variance_threshold_cents", lambda **_: 25)
    response = post(client_for(cashier), VERIFICATIONS, {"transport": container["id"], "counted": "23.90"})
    assert response.status_code == 201 and response.json()["variance"] == "-0.10"


def test_a_box_counted_at_the_cage_beyond_the_threshold_names_the_box(closed_table, floorperson, security, cashier):
    from cage.services import boxes_sync

    boxes_sync(room=closed_table.room)
    transport = post(client_for(security), "/api/transports/", {"seal": "S-2", "boxes": ["T1-drop"]}).json()
    post(client_for(floorperson), f"/api/transports/{transport['id']}/account/", {"boxes": ["T1-drop"]})
    before = snapshot()
    response = post(
        client_for(cashier), VERIFICATIONS, {"transport": transport["id"], "counted": {"T1-drop": "150.00"}}
    )
    assert response.status_code == 409 and snapshot() == before
    body = response.json()
    assert (body["code"], body["counted"], body["expected"], body["declared"]) == (
        "confirm_variance",
        "150.00",
        "15.00",
        None,
    )
    assert body["boxes"] == [
        {"box": "T1-drop", "counted": "150.00", "expected": "15.00", "variance": "135.00", "direction": "over"}
    ]


def test_the_recount_and_the_correction_through_the_api(
    closed_table, dealer, floorperson, supervisor, security, cashier, finance, make_staff, key
) -> None:
    from cage.models import Box
    from cage.services import boxes_sync, count_record, count_witness, notice_record
    from tests.conftest import PIN

    boxes_sync(room=closed_table.room)
    notice_record(room=closed_table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN,
                  idempotency_key=key())  # fmt: skip
    hh = Box.objects.get(code="T1-hh")
    count = count_record(box=hh, counted_cents=6000, actor=dealer, pin=PIN, idempotency_key=key())
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-3")
    url = f"/api/counts/{count.pk}/recount/"

    before = snapshot()
    refused(post(client_for(dealer), url, {"counted": "6.00", "reason": "typo"}), 403, "not_permitted")
    refused(post(client_for(supervisor), url, {"counted": "6.00", "reason": ""}), 400, field="reason")
    refused(post(client_for(supervisor), url, {"counted": 6, "reason": "typo"}), 400, field="counted")
    refused(post(client_for(supervisor), url, {"counted": "6.00", "reason": "typo"}, key=None), 400,
            field="Idempotency-Key")  # fmt: skip
    refused(post(client_for(supervisor), "/api/counts/999999/recount/", {"counted": "6.00", "reason": "x"}), 404,
            "not_found")  # fmt: skip
    assert snapshot() == before

    response = post(client_for(supervisor), url, {"counted": "6.00", "reason": "Typed $60.00 for $6.00"}, key="r-1")
    assert response.status_code == 201, response.content
    recount = response.json()
    assert (recount["supersedes"], recount["recount_reason"], recount["status"], recount["counted"]) == (
        count.pk,
        "Typed $60.00 for $6.00",
        "counted",
        "6.00",
    )
    assert (recount["variance"], recount["direction"], recount["counted_by"]) == ("0.00", "none", supervisor.username)
    again = post(client_for(supervisor), url, {"counted": "6.00", "reason": "Typed $60.00 for $6.00"}, key="r-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json()["id"] == recount["id"]
    old = client_for(floorperson).get("/api/counts/", {"box": "T1-hh", "status": "superseded"}).json()["results"]
    assert [(row["id"], row["superseded_by"], row["direction"]) for row in old] == [(count.pk, recount["id"], "over")]

    # A superseded count is a 409 that names its recount; so is a count carried to the cage.
    body = refused(post(client_for(make_staff(Role.SHIFT_SUPERVISOR)), url, {"counted": "6.10", "reason": "x"}), 409,
                   "count_not_recountable")  # fmt: skip
    assert f"recount {recount['id']}" in body["detail"]
    count_witness(count=Count.objects.get(pk=recount["id"]), actor=floorperson, pin=PIN, surveillance_reference="C")
    transport = post(client_for(security), "/api/transports/", {"seal": "S-9", "counts": [recount["id"]]}).json()
    assert transport["declared"] == "6.00"
    refused(post(client_for(make_staff(Role.SHIFT_SUPERVISOR)), f"/api/counts/{recount['id']}/recount/",
                 {"counted": "6.10", "reason": "x"}), 409, "count_not_recountable")  # fmt: skip

    # The cage finds $5.00; finance explains and corrects the fund through the API.
    verification = post(client_for(cashier), VERIFICATIONS, {"transport": transport["id"], "counted": "5.00",
                                                             "confirm_variance": True}).json()  # fmt: skip
    assert fund_position(jackpot=hh.jackpot).official_cents == 600
    variance = Variance.objects.get(verification_id=verification["id"], kind=VarianceKind.CAGE_VS_TABLE)
    explain = f"/api/variances/{variance.pk}/explain/"
    refused(post(client_for(finance), explain, {"reason": "A $1 chip was never there", "correction": "1.01"}), 400,
            "correction_invalid")  # fmt: skip
    response = post(client_for(finance), explain, {"reason": "A $1 chip was never there", "correction": "1.00"})
    assert response.status_code == 200, response.content
    data = response.json()
    assert (data["amount"], data["direction"], data["unresolved"], data["superseded"]) == (
        "-1.00",
        "short",
        False,
        False,
    )
    assert [(c["box"], c["official_change"]) for c in data["corrections"]] == [("T1-hh", "-1.00")]
    assert fund_position(jackpot=hh.jackpot).official_cents == 500
    assert Count.objects.get(pk=count.pk).status == CountStatus.SUPERSEDED
    assert ledger_total() == 0
