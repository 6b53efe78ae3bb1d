"""Variances say which way they go (issue 24, item 7): over or short in words and sign wherever they
are shown, and totals per direction and net, never one unsigned sum."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from cage.admin import variance_totals
from cage.models import Variance, VarianceDirection, display_variance, variance_direction
from cage.services import cage_verify
from tests.conftest import PIN

from .helpers import client_for, post


@pytest.mark.parametrize(
    ("cents", "direction", "shown"),
    [
        (7110, VarianceDirection.OVER, "over +$71.10"),
        (-229_500, VarianceDirection.SHORT, "short -$2,295.00"),
        (0, VarianceDirection.NONE, "none $0.00"),
        (1, VarianceDirection.OVER, "over +$0.01"),
    ],
)
def test_a_variance_reads_with_its_direction_and_sign(cents, direction, shown) -> None:
    assert variance_direction(cents) == direction
    assert display_variance(cents) == shown
    assert Template("{% load variances %}{{ v|variance }}").render(Context({"v": cents})) == shown


def test_the_api_and_the_list_totals_say_over_and_short_apart(witnessed_counts, security, cashier, finance) -> None:
    transport = post(
        client_for(security), "/api/transports/", {"seal": "S-1", "counts": [c.pk for c in witnessed_counts]}
    ).json()
    from cage.models import Transport

    cage_verify(
        transport=Transport.objects.get(pk=transport["id"]),
        counted=2390,
        confirm_variance=True,
        actor=cashier,
        pin=PIN,
        idempotency_key="v-1",
    )
    rows = client_for(finance).get("/api/variances/").json()["results"]
    assert [(row["amount"], row["direction"]) for row in rows] == [("-0.10", "short")]
    totals = dict(variance_totals(Variance.objects.all(), field="amount_cents"))
    assert totals == {"Over": "none $0.00", "Short": "short -$0.10", "Net": "short -$0.10"}
