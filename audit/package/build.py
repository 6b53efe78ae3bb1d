"""A gaming day's package: its files in one ZIP with ``manifest.json`` (``package_build``), and the
check a regulator runs on it (``package_verify``).

The manifest lists every file with its SHA-256 and size, the room, the gaming day, whether finance
closed the day (who, when) and who built the package when. A package of a day still open may be
built; its manifest says "open, not final", for a day's record may still change until it is closed
(§637a.17). The ZIP is written to a file one part at a time, so memory holds one file of the day,
never the package."""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import IO, Any

from django.utils import timezone

from cage.models import GamingDayClose
from casino_backoffice.core.clock import local_iso
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from tables.models import PokerRoom

from ..models import DayPackageSeal
from .contents import DayFile, day_files
from .seal import AT_CLOSE, seal_digest, sealed_content, since_seal
from .traces import day_traces

MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1
CLOSED_FINAL = "closed, final"
OPEN_NOT_FINAL = "open, not final"


@dataclass
class Manifest:
    """What ``manifest.json`` says: the day, its state, who built the package, and every file."""

    room: str
    room_name: str
    gaming_day: date
    closed: bool
    closed_at: str | None
    closed_by: str
    built_at: str
    built_by: str
    built_by_credential: str
    files: list[dict[str, Any]] = field(default_factory=list)
    seal: dict[str, Any] | None = None  # the day's seal, once the schedule sealed its close (``seal``)

    @property
    def state(self) -> str:
        return CLOSED_FINAL if self.closed else OPEN_NOT_FINAL

    def as_json(self) -> bytes:
        body = {
            "format": MANIFEST_FORMAT,
            "room": self.room,
            "room_name": self.room_name,
            "gaming_day": self.gaming_day.isoformat(),
            "state": self.state,
            "closed": self.closed,
            "closed_at": self.closed_at,
            "closed_by": self.closed_by,
            "built_at": self.built_at,
            "built_by": self.built_by,
            "built_by_credential": self.built_by_credential,
            "files": self.files,
        }
        if self.seal is not None:
            body["seal"] = self.seal
            body["since_seal"] = since_seal(self.seal["files"], self.files)
        return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _manifest_start(*, room: PokerRoom, day: date, actor: User) -> Manifest:
    close = GamingDayClose.objects.filter(room=room, gaming_day=day).select_related("closed_by").first()
    return Manifest(
        room=room.code,
        room_name=room.name,
        gaming_day=day,
        closed=close is not None,
        closed_at=local_iso(close.closed_at, room) if close else None,
        closed_by=(close.closed_by.get_full_name() or close.closed_by.username) if close else "",
        built_at=local_iso(timezone.now(), room) or "",
        built_by=actor.get_full_name() or actor.username,
        built_by_credential=actor.credential_number or "",
    )


def package_build(
    *, room: PokerRoom, day: date, actor: User, out: IO[bytes], extra_files: Iterable[DayFile] = ()
) -> Manifest:
    """Write the package of ``room``'s gaming ``day`` into ``out`` (a file opened for writing) and
    answer its manifest: the day's files (``contents.day_files``), the traces of its claims and
    periods (``traces.day_traces``), then ``extra_files`` (more ``(name, bytes)`` pairs), then ``manifest.json``. For finance and
    compliance of the room (``Action.DAY_PACKAGE_READ``)."""
    action_require(actor=actor, action=Action.DAY_PACKAGE_READ, of=room)
    manifest = _manifest_start(room=room, day=day, actor=actor)
    names: set[str] = set()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for files in (
            day_files(room=room, day=day, actor=actor),
            day_traces(room=room, day=day, actor=actor),
            extra_files,
        ):
            for name, data in files:
                if name in names or name == MANIFEST:
                    raise ValueError(f"{name} is in the package twice.")
                names.add(name)
                archive.writestr(name, data)
                manifest.files.append({"name": name, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)})
        seal = DayPackageSeal.objects.filter(room=room, gaming_day=day).first()
        if seal is not None:
            manifest.seal = {"sha256": seal.sha256, "sealed_at": local_iso(seal.sealed_at, room), "files": seal.files}
            for name, data in _at_close(seal, manifest.files):
                archive.writestr(name, data)
                manifest.files.append({"name": name, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)})
        archive.writestr(MANIFEST, manifest.as_json())
    return manifest


def _at_close(seal: DayPackageSeal, files: list[dict[str, Any]]) -> Iterable[DayFile]:
    """The data files changed or missing since the seal, as the seal holds them, under ``at-close/``."""
    since = since_seal(seal.files, files)
    for name in sorted(since["changed"] + since["missing"]):
        yield f"{AT_CLOSE}{name}", sealed_content(seal, name)


def _sha256_of(archive: zipfile.ZipFile, name: str) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    with archive.open(name) as member:
        while chunk := member.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


def package_verify(zip_path: str | Path, *, seal: str | None = None) -> list[str]:
    """What is wrong with a day's package, in words: a file changed (its SHA-256 or size differs from
    the manifest's), a file added (in the ZIP, not in the manifest), a file missing (in the manifest,
    not in the ZIP), or a manifest missing or unreadable. With ``seal``, the digest of the day's seal a
    regulator kept: the manifest's seal must be that one, its files the ones that digest names. An
    empty list: every file is the one listed (what changed since the seal is ``package_since_seal``)."""
    try:
        archive = zipfile.ZipFile(zip_path)
    except (OSError, zipfile.BadZipFile) as error:
        return [f"{zip_path} is not a readable ZIP file: {error}."]
    with archive:
        present = [info.filename for info in archive.infolist() if not info.is_dir()]
        if MANIFEST not in present:
            return [f"{MANIFEST} is missing: nothing can be checked."]
        try:
            body = json.loads(archive.read(MANIFEST))
            listed = {entry["name"]: entry for entry in body["files"]}
        except (ValueError, KeyError, TypeError) as error:
            return [f"{MANIFEST} cannot be read: {error}."]
        problems = _seal_problems(body.get("seal"), seal)
        problems += [f"{name} is missing: the manifest lists it." for name in listed if name not in present]
        for name in present:
            if name == MANIFEST:
                continue
            entry = listed.get(name)
            if entry is None:
                problems.append(f"{name} was added: the manifest does not list it.")
                continue
            sha256, size = _sha256_of(archive, name)
            if sha256 != entry.get("sha256") or size != entry.get("size"):
                problems.append(
                    f"{name} was changed: SHA-256 {sha256} ({size} bytes), the manifest says "
                    f"{entry.get('sha256')} ({entry.get('size')} bytes)."
                )
            if name.startswith(AT_CLOSE) and sha256 != _sealed_digests(body).get(name.removeprefix(AT_CLOSE)):
                problems.append(f"{name} is not the file the seal holds: its SHA-256 is not the seal's.")
        return problems


def _sealed_digests(body: dict[str, Any]) -> dict[str, str]:
    listed = body.get("seal") or {}
    entries = [entry for entry in listed.get("files") or [] if isinstance(entry, dict)]
    return {str(entry.get("name")): str(entry.get("sha256")) for entry in entries}


def _seal_problems(listed: Any, kept: str | None) -> list[str]:
    """The manifest's seal against its own digest, and against the digest a regulator kept."""
    if listed is None:
        return [f"{MANIFEST} holds no seal: the day was not sealed when the package was built."] if kept else []
    try:
        digest = seal_digest(listed["files"])
    except (KeyError, TypeError) as error:
        return [f"The seal in {MANIFEST} cannot be read: {error}."]
    problems = []
    if digest != listed.get("sha256"):
        problems.append(
            f"The seal in {MANIFEST} was changed: its files digest to {digest}, it says {listed.get('sha256')}."
        )
    if kept is not None and digest != kept.strip().lower():
        problems.append(f"The seal in {MANIFEST} is not the one kept: its files digest to {digest}, not {kept}.")
    return problems


def package_since_seal(zip_path: str | Path) -> dict[str, list[str]] | None:
    """The day's data files in the ZIP changed, added and missing against the manifest's seal, each file
    read and hashed again; None when the manifest holds no seal. Run it on a package that verifies."""
    with zipfile.ZipFile(zip_path) as archive:
        listed = json.loads(archive.read(MANIFEST)).get("seal")
        if listed is None:
            return None
        current = [
            {"name": info.filename, "sha256": _sha256_of(archive, info.filename)[0]}
            for info in archive.infolist()
            if not info.is_dir() and info.filename != MANIFEST
        ]
    return since_seal(listed["files"], current)
