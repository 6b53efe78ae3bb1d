"""The seal of a closed gaming day's package (``audit.package.seal``): once finance closed the day, the
schedule records the SHA-256 of each data file once; every package built later carries the seal and
names what changed since (a share paid after the close), and a forged seal or one that is not the kept
one does not verify."""

from __future__ import annotations

import hashlib
import json
import zipfile
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from audit.models import DayPackageSeal
from audit.package.build import MANIFEST, package_build, package_since_seal, package_verify
from audit.package.seal import seal_digest
from audit.tasks import package_seals_tick
from cage.models import GamingDayClose
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.models import BadBeatShare
from jackpots.bad_beat.services.payouts import share_pay
from tests.audit.demo_day import DemoDay, demo_day_load
from tests.conftest import PIN


@pytest.fixture
def demo(db, administrator) -> DemoDay:
    return demo_day_load(administrator)


@pytest.fixture
def closed_day(demo) -> GamingDayClose:
    """The demo's day closed by finance (the close itself is the cage's, tested there)."""
    return GamingDayClose.objects.create(
        room=demo.main, gaming_day=demo.day, closed_by=demo.person("finance"), closed_at=timezone.now()
    )


def _build(demo: DemoDay, tmp_path, name: str = "package.zip"):
    path = tmp_path / name
    with path.open("wb") as out:
        package_build(room=demo.main, day=demo.day, actor=demo.person("compliance"), out=out)
    return path


def _manifest(path) -> dict:
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read(MANIFEST))


def test_a_closed_day_is_sealed_once_and_its_packages_carry_the_seal(demo, closed_day, tmp_path) -> None:
    # Before the schedule ran, a package of the closed day holds no seal
    unsealed = _build(demo, tmp_path, "unsealed.zip")
    assert "seal" not in _manifest(unsealed) and package_since_seal(unsealed) is None
    assert package_verify(unsealed, seal="0" * 64) == [
        f"{MANIFEST} holds no seal: the day was not sealed when the package was built."
    ]

    # When the schedule runs twice: one seal of every CSV and JSON file of the package, and no PDF
    package_seals_tick()
    package_seals_tick()
    seal = DayPackageSeal.objects.get()
    assert (seal.room, seal.gaming_day, seal.close) == (demo.main, demo.day, closed_day)
    data_files = {
        entry["name"]: entry for entry in _manifest(unsealed)["files"] if entry["name"].endswith((".csv", ".json"))
    }
    assert {entry["name"]: entry for entry in seal.files} == data_files
    assert any(name.startswith("traces/claim-") for name in data_files) and "official-record.csv" in data_files
    assert seal.sha256 == seal_digest(seal.files)

    # Then a package built later carries it, and nothing changed since
    path = _build(demo, tmp_path)
    manifest = _manifest(path)
    assert manifest["seal"]["sha256"] == seal.sha256 and manifest["seal"]["files"] == seal.files
    assert manifest["since_seal"] == {"changed": [], "added": [], "missing": []}
    assert package_verify(path, seal=seal.sha256.upper()) == []
    out = StringIO()
    call_command("package_verify", str(path), "--seal", seal.sha256, stdout=out)
    assert out.getvalue().splitlines() == [
        "OK: every file is the one the manifest lists.",
        "Every data file is as the day's seal holds it.",
    ]
    # And the seal is never changed, not even by SQL
    with pytest.raises(IntegrityError, match="never updated or deleted"), transaction.atomic():
        DayPackageSeal.objects.filter(pk=seal.pk).update(sha256="0" * 64)


def test_a_share_paid_after_the_close_shows_since_the_seal_and_a_forged_seal_does_not_verify(
    demo, closed_day, make_staff, tmp_path
) -> None:
    package_seals_tick()
    seal = DayPackageSeal.objects.get()
    share = (
        BadBeatShare.objects.filter(payment__isnull=True, distribution__claim__room=demo.main).order_by("pk").first()
    )
    assert share is not None
    claim_id = share.distribution.claim_id

    # When a cashier pays a share of the day's claim after the close
    cashier = make_staff(Role.CAGE_CASHIER, rooms=[demo.main])
    share_pay(share=share, id_type="License", id_number="PA-99", actor=cashier, pin=PIN, idempotency_key="late-share")
    path = _build(demo, tmp_path)

    # Then the package verifies, and names the claim's files changed since the seal, nothing else
    assert package_verify(path, seal=seal.sha256) == []
    since = package_since_seal(path)
    assert f"traces/claim-{claim_id}.json" in since["changed"]
    assert set(since["changed"]) <= {"bad-beat-claims.csv", f"traces/claim-{claim_id}.json"}
    assert since["added"] == since["missing"] == []
    assert _manifest(path)["since_seal"] == since
    # And the package holds each changed file as it was at the close: the seal's digest, not today's
    with zipfile.ZipFile(path) as archive:
        at_close = {name.removeprefix("at-close/") for name in archive.namelist() if name.startswith("at-close/")}
        before = archive.read(f"at-close/traces/claim-{claim_id}.json")
        now = archive.read(f"traces/claim-{claim_id}.json")
    assert at_close == set(since["changed"])
    sealed = {entry["name"]: entry["sha256"] for entry in seal.files}
    assert (
        hashlib.sha256(before).hexdigest() == sealed[f"traces/claim-{claim_id}.json"] != hashlib.sha256(now).hexdigest()
    )
    assert len(json.loads(now)["links"]) > len(json.loads(before)["links"])  # the payment made since
    out = StringIO()
    call_command("package_verify", str(path), stdout=out)
    assert f"traces/claim-{claim_id}.json: changed since the seal" in out.getvalue()

    # A seal rewritten in the manifest, or another than the one kept, does not verify
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    forged = json.loads(members[MANIFEST])
    forged["seal"]["files"] = [{**entry, "sha256": "0" * 64} for entry in forged["seal"]["files"]]
    forged_path = tmp_path / "forged.zip"
    with zipfile.ZipFile(forged_path, "w") as copy:
        for name, data in members.items():
            copy.writestr(name, json.dumps(forged).encode() if name == MANIFEST else data)
    problems = package_verify(forged_path)
    assert problems[0].startswith(f"The seal in {MANIFEST} was changed: its files digest to ")
    # (and the copies at the close are no longer the files the forged seal lists)
    assert all(problem.startswith("at-close/") for problem in problems[1:]) and len(problems) == 1 + len(at_close)
    assert package_verify(path, seal="f" * 64) == [
        f"The seal in {MANIFEST} is not the one kept: its files digest to {seal.sha256}, not {'f' * 64}."
    ]
    with pytest.raises(CommandError, match="1 problem"):
        call_command("package_verify", str(path), "--seal", "f" * 64, stdout=StringIO())


def test_the_closes_admin_page_shows_the_seal_to_keep(demo, closed_day) -> None:
    finance = Client()
    finance.force_login(demo.person("finance"))
    url = f"/admin/cage/gamingdayclose/{closed_day.pk}/change/"
    assert "Not sealed yet" in finance.get(url).content.decode()

    package_seals_tick()

    page = finance.get(url).content.decode()
    seal = DayPackageSeal.objects.get()
    assert f"<code>{seal.sha256}</code>" in page
    assert f"/audit/days/{demo.main.pk}/{demo.day.isoformat()}/package.zip" in page


def test_a_day_its_closer_no_longer_reads_is_logged_and_sealed_once_they_do_the_others_meanwhile(
    demo, make_staff, caplog
) -> None:
    closer = make_staff(Role.FINANCE, rooms=[demo.main])
    theirs = GamingDayClose.objects.create(
        room=demo.main, gaming_day=demo.day, closed_by=closer, closed_at=timezone.now()
    )
    other = GamingDayClose.objects.create(
        room=demo.main,
        gaming_day=demo.day - timedelta(days=1),
        closed_by=demo.person("finance"),
        closed_at=timezone.now(),
    )
    demo.main.staff.remove(closer)

    package_seals_tick()

    assert list(DayPackageSeal.objects.values_list("close", flat=True)) == [other.pk]
    assert f"The package of {demo.main} gaming day {demo.day} could not be sealed" in caplog.text

    demo.main.staff.add(closer)
    package_seals_tick()
    assert set(DayPackageSeal.objects.values_list("close", flat=True)) == {theirs.pk, other.pk}
