"""The seal of a closed gaming day's package: what its data files held once finance closed the day.

A package's manifest proves that nothing in one ZIP changed after it was built; it cannot say what the
day held at its close, for a package can be built again at any time. So once a day is closed the
schedule records the SHA-256 of each of its data files (every CSV and JSON file of the package; a PDF
prints who printed it and when, so it differs at every build) in an insert-only ``DayPackageSeal``, with
``seal_digest`` of that list, and the files themselves. Every package of the day built later carries the
seal in its manifest, names each file changed, added or missing since (``since_seal``) and holds those
files as they were at the close under ``at-close/``: a payment made after the close (an award
collected, a Bad Beat share paid) shows there, as it should; nothing else should. A regulator who
kept the seal's digest checks a package against it (``manage.py package_verify FILE --seal DIGEST``)."""

from __future__ import annotations

import hashlib
import io
import json
import logging
import zipfile
from collections.abc import Iterable
from datetime import date
from itertools import chain
from typing import Any

from django.db import transaction
from django.utils import timezone

from cage.models import GamingDayClose
from casino_backoffice.staff.models import User
from tables.models import PokerRoom

from ..models import DayPackageSeal
from .contents import DayFile, day_files
from .traces import day_traces

logger = logging.getLogger(__name__)

SEALED_KINDS = (".csv", ".json")
# Where a package holds, as the seal holds them, the data files changed or missing since the close.
AT_CLOSE = "at-close/"
SEALS_PER_RUN = 20


def is_sealed_kind(name: str) -> bool:
    return name.endswith(SEALED_KINDS)


def file_entry(name: str, data: bytes) -> dict[str, Any]:
    return {"name": name, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}


def seal_digest(files: Iterable[dict[str, Any]]) -> str:
    """The SHA-256 of the sealed files' names, digests and sizes, by name, as compact JSON: what a
    regulator recomputes from a manifest's ``seal.files``."""
    rows = sorted([entry["name"], entry["sha256"], entry["size"]] for entry in files)
    return hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()


def since_seal(sealed: Iterable[dict[str, Any]], current: Iterable[dict[str, Any]]) -> dict[str, list[str]]:
    """The data files changed, added and missing in ``current`` (file entries) against ``sealed``."""
    before = {entry["name"]: entry["sha256"] for entry in sealed}
    now = {
        entry["name"]: entry["sha256"]
        for entry in current
        if is_sealed_kind(entry["name"]) and not entry["name"].startswith(AT_CLOSE)
    }
    return {
        "changed": sorted(name for name in now.keys() & before.keys() if now[name] != before[name]),
        "added": sorted(now.keys() - before.keys()),
        "missing": sorted(before.keys() - now.keys()),
    }


def sealed_files(*, room: PokerRoom, day: date, actor: User) -> tuple[list[dict[str, Any]], bytes]:
    """The day's data files as ``actor`` reads them (the PDFs are not rendered): their entries by name,
    and the files themselves in a ZIP (deflated: a 50-table day's are about 0.3 MB before it)."""
    files: Iterable[DayFile] = chain(
        day_files(room=room, day=day, actor=actor, pdfs=False), day_traces(room=room, day=day, actor=actor, pdfs=False)
    )
    entries = []
    content = io.BytesIO()
    with zipfile.ZipFile(content, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            if is_sealed_kind(name):
                entries.append(file_entry(name, data))
                archive.writestr(name, data)
    return sorted(entries, key=lambda e: e["name"]), content.getvalue()


def sealed_content(seal: DayPackageSeal, name: str) -> bytes:
    """A data file as the seal holds it, as it was at the close."""
    with zipfile.ZipFile(io.BytesIO(bytes(seal.content))) as archive:
        return archive.read(name)


def package_seal(close: GamingDayClose) -> DayPackageSeal:
    """Seal the closed day's data files, once: a second call (two beats, a retry) answers the first
    seal. The files are read as the person who closed the day reads them (finance of the room)."""
    existing = DayPackageSeal.objects.filter(close=close).first()
    if existing is not None:
        return existing
    files, content = sealed_files(room=close.room, day=close.gaming_day, actor=close.closed_by)
    with transaction.atomic():
        seal, _ = DayPackageSeal.objects.get_or_create(
            close=close,
            defaults={
                "room_id": close.room_id,
                "gaming_day": close.gaming_day,
                "sealed_at": timezone.now(),
                "files": files,
                "content": content,
                "sha256": seal_digest(files),
            },
        )
    return seal


def package_seals_due() -> list[DayPackageSeal]:
    """Seal the closed days not sealed yet, oldest close first, at most ``SEALS_PER_RUN`` a run. The
    schedule calls it every minute (``audit.tasks.package_seals_tick``). A day that cannot be sealed
    (its closer no longer reads the room) is logged and left for the next run; the others go on."""
    due = (
        GamingDayClose.objects.filter(package_seal__isnull=True)
        .select_related("room", "closed_by")
        .order_by("closed_at", "pk")[:SEALS_PER_RUN]
    )
    sealed = []
    for close in due:
        try:
            sealed.append(package_seal(close))
        except Exception:
            logger.exception("The package of %s gaming day %s could not be sealed", close.room, close.gaming_day)
    return sealed
