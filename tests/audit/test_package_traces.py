"""The traces in a gaming day's package (issue 29, item 4): each claim of the day and each High Hand
period begun in it, its trace as JSON whose SHA-256 is the one the API answers and the PDF prints."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest

from audit.package.build import MANIFEST, package_build, package_verify
from casino_backoffice.money import format_cents
from jackpots.bad_beat.models import BadBeatClaim
from jackpots.funds.reports import id_number_masked
from jackpots.high_hand.models import HighHandPeriod
from jackpots.progressive.models import ProgressiveHand
from tables.selectors import gaming_day_bounds
from tests.audit.demo_day import DemoDay, demo_day_load
from tests.cage.helpers import client_for
from tests.jackpots.back_office import pdf_text


@pytest.fixture
def demo(db, administrator) -> DemoDay:
    return demo_day_load(administrator)


def test_the_days_claims_and_periods_are_in_the_package_with_their_traces(demo, tmp_path) -> None:
    finance = demo.person("finance")
    claims = list(BadBeatClaim.objects.filter(room=demo.main, gaming_day=demo.day).order_by("pk"))
    start, end = gaming_day_bounds(room=demo.main, day=demo.day)
    periods = list(HighHandPeriod.objects.filter(room=demo.main, starts_at__gte=start, starts_at__lt=end))
    assert claims and periods
    path = tmp_path / "package.zip"
    with path.open("wb") as out:
        package_build(room=demo.main, day=demo.day, actor=finance, out=out)

    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        listed = {entry["name"] for entry in json.loads(archive.read(MANIFEST))["files"]}
        for claim in claims:
            document = json.loads(archive.read(f"traces/claim-{claim.pk}.json"))
            assert document == client_for(finance).get(f"/api/trace/?claim={claim.pk}").json()
            assert document["sha256"] in pdf_text(archive.read(f"traces/claim-{claim.pk}.pdf")).replace("\n", "")
        for period in periods:
            assert f"traces/period-{period.pk}.json" in names
    assert {name for name in names if name.startswith("traces/")} <= listed
    assert package_verify(path) == []


def test_the_days_progressive_hits_are_in_the_package_with_their_traces(demo, tmp_path) -> None:
    finance = demo.person("finance")
    hits = list(
        ProgressiveHand.objects.filter(round__table__room=demo.main, round__gaming_day=demo.day)
        .select_related("payment")
        .order_by("round__ended_at", "round_id", "seat")
    )
    paid = [hit for hit in hits if hasattr(hit, "payment")]
    assert paid and len(hits) > len(paid)  # one paid through the cage, one at the table
    path = tmp_path / "package.zip"
    with path.open("wb") as out:
        package_build(room=demo.main, day=demo.day, actor=finance, out=out)

    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        rows = list(csv.DictReader(io.StringIO(archive.read("progressive-hits.csv").decode())))
        for hit in hits:
            document = json.loads(archive.read(f"traces/hit-{hit.pk}.json"))
            assert document == client_for(finance).get(f"/api/trace/?hit={hit.pk}").json()
            assert (f"traces/hit-{hit.pk}.pdf" in names) == (hit.amount_cents > 0)
    # One row per hit, in the order played, each paid one naming its patron and the last four of the ID
    assert [int(row["id"]) for row in rows] == [hit.pk for hit in hits]
    for hit in paid:
        (row,) = [row for row in rows if int(row["id"]) == hit.pk]
        assert row["patron"] == hit.payment.patron_name
        assert row["id_number_last4"] == id_number_masked(hit.payment.id_number)
        assert row["amount"] == format_cents(hit.amount_cents)
    assert package_verify(path) == []
