"""A gaming day's package (issue 29, item 4): one ZIP per room and day with the day's records and a
manifest of each file's SHA-256 and size; ``package_verify`` and ``manage.py package_verify`` find a
changed, an added or a removed file; finance and compliance of the room download it, nobody else."""

from __future__ import annotations

import hashlib
import json
import zipfile
from io import BytesIO, StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from audit.package.build import MANIFEST, package_build, package_verify
from cage.models import GamingDayClose, Variance
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.models import BadBeatClaim
from tables.irregularities.models import Irregularity
from tables.irregularities.services import irregularity_report
from tables.models import Table
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


def _build(demo: DemoDay, tmp_path: Path, *, actor=None, extra_files=()) -> Path:
    path = tmp_path / "package.zip"
    with path.open("wb") as out:
        package_build(
            room=demo.main, day=demo.day, actor=actor or demo.person("compliance"), out=out, extra_files=extra_files
        )
    return path


def _rewrite(source: Path, target: Path, *, change: dict[str, bytes] | None = None, drop: str = "", add=()) -> Path:
    """A copy of the package with a file changed, dropped or added, the manifest left as it was."""
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w") as copy:
        for info in original.infolist():
            if info.filename == drop:
                continue
            copy.writestr(info.filename, (change or {}).get(info.filename, original.read(info.filename)))
        for name, data in add:
            copy.writestr(name, data)
    return target


def test_a_closed_days_package_holds_its_records_and_its_manifest_verifies(demo, closed_day, tmp_path) -> None:
    # Given the demo's day, closed (a variance explained, two Bad Beat claims)
    claims = list(BadBeatClaim.objects.filter(room=demo.main, gaming_day=demo.day).order_by("pk"))

    # When compliance builds its package
    path = _build(demo, tmp_path)

    # Then every file the issue names is in it, each listed with its SHA-256 and size
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        manifest = json.loads(archive.read(MANIFEST))
        for entry in manifest["files"]:
            data = archive.read(entry["name"])
            assert entry["sha256"] == hashlib.sha256(data).hexdigest() and entry["size"] == len(data)
        variances = archive.read("variances.csv").decode()
        count_sheets = archive.read("count-sheets.pdf")
    assert names[-1] == MANIFEST
    assert [entry["name"] for entry in manifest["files"]] == names[:-1]
    assert {
        "official-record.csv",
        "count-sheets.pdf",
        "custody-log.csv",
        "transports.csv",
        "verifications.csv",
        "variances.csv",
        "bad-beat-claims.csv",
        "high-hand-periods.csv",
        "high-hand-awards.csv",
        "irregularities.csv",
    } <= set(names)
    assert {f"bad-beat-claims/claim-{claim.pk}.pdf" for claim in claims} <= set(names) and len(claims) == 2
    assert count_sheets.startswith(b"%PDF")
    variance = Variance.objects.get(room=demo.main, gaming_day=demo.day)
    assert variances.splitlines()[1].startswith(f"{variance.pk},main,{demo.day},")
    assert ",explanation,explained_by," in variances.splitlines()[0]  # each with its explanation's columns
    # And the manifest says the day, closed and final, and who built it
    assert manifest["room"] == "main" and manifest["gaming_day"] == demo.day.isoformat()
    assert manifest["closed"] is True and manifest["state"] == "closed, final"
    assert manifest["closed_by"] == closed_day.closed_by.get_full_name()
    assert manifest["built_by"] == demo.person("compliance").get_full_name()
    # And it verifies
    assert package_verify(path) == []
    out = StringIO()
    call_command("package_verify", str(path), stdout=out)
    assert out.getvalue().startswith("OK")


def test_the_days_irregularities_and_their_files_are_in_it(demo, make_staff, tmp_path) -> None:
    dealer = make_staff(Role.DEALER)
    table = Table.objects.get(room=demo.main, number="T3")
    misdeal = irregularity_report(
        table=table,
        kind="misdeal",
        cause="wrong_starting_position",
        description="Dealt from seat 4.",
        actor=dealer,
        pin=PIN,
        idempotency_key="package-misdeal",
    )
    assert misdeal.gaming_day == demo.day

    path = _build(demo, tmp_path)

    with zipfile.ZipFile(path) as archive:
        log = archive.read("irregularities.csv").decode()
        incident = archive.read(f"irregularities/irregularity-{misdeal.pk}.pdf")
    assert log.splitlines()[1].startswith(f"{misdeal.pk},") and len(log.splitlines()) == 2
    assert incident.startswith(b"%PDF")
    assert Irregularity.objects.count() == 1
    assert package_verify(path) == []


def test_an_open_days_package_says_open_not_final(demo, tmp_path) -> None:
    path = _build(demo, tmp_path, actor=demo.person("finance"))

    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read(MANIFEST))
    assert manifest["closed"] is False and manifest["state"] == "open, not final" and manifest["closed_at"] is None
    assert package_verify(path) == []


def test_extra_files_are_one_argument_and_listed_like_the_rest(demo, closed_day, tmp_path) -> None:
    path = _build(demo, tmp_path, extra_files=[("traces/claim-1.json", b"{}\n")])

    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read(MANIFEST))
    assert manifest["files"][-1] == {
        "name": "traces/claim-1.json",
        "sha256": hashlib.sha256(b"{}\n").hexdigest(),
        "size": 3,
    }
    assert package_verify(path) == []
    with pytest.raises(ValueError, match="is in the package twice"):
        _build(demo, tmp_path, extra_files=[("variances.csv", b"")])


def test_a_tampered_package_does_not_verify(demo, closed_day, tmp_path) -> None:
    path = _build(demo, tmp_path)
    with zipfile.ZipFile(path) as archive:
        variances = archive.read("variances.csv")
    flipped = bytes([variances[0] ^ 1]) + variances[1:]

    changed = _rewrite(path, tmp_path / "changed.zip", change={"variances.csv": flipped})
    added = _rewrite(path, tmp_path / "added.zip", add=[("late-note.txt", b"added after the close")])
    removed = _rewrite(path, tmp_path / "removed.zip", drop="count-sheets.pdf")
    no_manifest = _rewrite(path, tmp_path / "no-manifest.zip", drop=MANIFEST)

    problems = package_verify(changed)
    assert len(problems) == 1 and problems[0].startswith("variances.csv was changed: SHA-256 ")
    assert package_verify(added) == ["late-note.txt was added: the manifest does not list it."]
    assert package_verify(removed) == ["count-sheets.pdf is missing: the manifest lists it."]
    assert package_verify(no_manifest) == ["manifest.json is missing: nothing can be checked."]
    assert package_verify(path) == []  # the original is untouched
    out = StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("package_verify", str(added), stdout=out)
    assert "late-note.txt was added" in out.getvalue()


def test_who_builds_a_package(demo, make_staff, tmp_path) -> None:
    for role in (Role.CAGE_CASHIER, Role.FLOORPERSON, Role.DEALER, Role.ADMINISTRATOR, Role.SHIFT_SUPERVISOR):
        out = BytesIO()
        with pytest.raises(ActionNotPermitted, match=r"^Only finance or compliance may download"):
            package_build(room=demo.main, day=demo.day, actor=make_staff(role), out=out)
        assert out.getvalue() == b""  # nothing was written
    other = make_staff(Role.COMPLIANCE, rooms=[demo.other])
    with pytest.raises(ActionNotPermitted, match="does not work in the room"):
        package_build(room=demo.main, day=demo.day, actor=other, out=BytesIO())


# --- The download --------------------------------------------------------------------------------


def _download(person, url: str):
    browser = Client()
    browser.force_login(person)
    return browser.get(url)


def test_the_download_answers_the_rooms_finance_and_compliance_only(demo, closed_day, make_staff, tmp_path) -> None:
    url = f"/audit/days/{demo.main.pk}/{demo.day}/package.zip"
    for person in (demo.person("finance"), demo.person("compliance")):
        response = _download(person, url)
        assert response.status_code == 200 and response["X-Package-State"] == "closed, final"
        assert f'filename="day-package-main-{demo.day}.zip"' in response["Content-Disposition"]
        path = tmp_path / f"{person.username}.zip"
        path.write_bytes(b"".join(response.streaming_content))
        assert package_verify(path) == []
    # Another room's compliance: not there; the cashier, the floor, an administrator: refused
    assert _download(make_staff(Role.COMPLIANCE, rooms=[demo.other]), url).status_code == 404
    for role in (Role.CAGE_CASHIER, Role.FLOORPERSON, Role.ADMINISTRATOR):
        assert _download(make_staff(role), url).status_code == 403, role
    # A day that is not a date: a 400 saying so
    bad = _download(demo.person("finance"), f"/audit/days/{demo.main.pk}/2026-02-30/package.zip")
    assert bad.status_code == 400 and b"is not a gaming day" in bad.content
    assert Client().get(url).status_code == 302  # a visitor signs in first
