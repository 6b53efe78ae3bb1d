"""Every signed document is sealed in the database (issue 25, item 6): whatever client writes, a row
that carries a signature or moved money is insert-only, or moves only as its services move it (the
``Seal`` of its app: ``cage.sealed``, ``jackpots.sealed``, ``rake.sealed``,
``casino_backoffice.ledger.sealed``). A raw UPDATE of a sealed column, a status moved backwards, a
column set once set again, and a DELETE are refused inside a transaction, and nothing changes.

The enumeration walks every model of the project's apps and fails naming a document without its
trigger, on PostgreSQL (``pg_trigger``) and on a SQLite database migrated as ``make run`` does
(``sqlite_master``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, models, transaction

from cage.models import CountStatus, TransportStatus, VerificationStatus
from cage.sealed import CAGE_VERIFICATION, COUNT, TRANSPORT, VARIANCE
from casino_backoffice.ledger.models import Account, ReferencingTransfers, Transfer
from casino_backoffice.ledger.sealed import CORRECTION
from casino_backoffice.staff.signing import SignableDocument
from jackpots.bad_beat.models import ClaimStatus
from jackpots.sealed import BAD_BEAT_CLAIM, DISPLAY_ADJUSTMENT, FUND_TRANSFER, HIGH_HAND_PERIOD, HIGH_HAND_UNCLAIMED
from rake.sealed import TIME_CHARGE
from tests.conftest import PIN
from tests.embedded_sqlite import embedded_migrated

PROJECT_APPS = ("casino_backoffice", "tables", "rake", "jackpots", "cage")

SEALS = (
    COUNT,
    TRANSPORT,
    CAGE_VERIFICATION,
    VARIANCE,
    BAD_BEAT_CLAIM,
    DISPLAY_ADJUSTMENT,
    FUND_TRANSFER,
    HIGH_HAND_PERIOD,
    HIGH_HAND_UNCLAIMED,
    TIME_CHARGE,
    CORRECTION,
)

# Rows that moved money without being a signed document nor referencing a transfer: the High Hand
# period (its pool announced, what rolled into it).
MONEY_ROWS = ("jackpots_highhandperiod",)

# Documents allowed, by name, to stand without a trigger for now: none.
UNSEALED_ALLOWANCE: frozenset[str] = frozenset()


def _is_document(model: type[models.Model]) -> bool:
    """Carries a signature, is referenced by ledger transfers, or points at a transfer or an account."""
    if issubclass(model, SignableDocument):
        return True
    fields = model._meta.get_fields(include_hidden=True)
    if any(isinstance(field, ReferencingTransfers) for field in fields):
        return True
    return any(field.is_relation and field.concrete and field.related_model in (Transfer, Account) for field in fields)


def documents() -> dict[str, str]:
    """{table: model label} of every document of the project's apps."""
    found = {
        model._meta.db_table: model._meta.label
        for model in apps.get_models()
        if model.__module__.split(".")[0] in PROJECT_APPS and not model._meta.proxy and _is_document(model)
    }
    for table in MONEY_ROWS:
        found[table] = table
    return found


def test_the_enumeration_finds_the_documents_of_every_app() -> None:
    found = documents()
    for table in (
        "cage_count",
        "cage_transport",
        "cage_cageverification",
        "cage_variance",
        "jackpots_badbeatclaim",
        "jackpots_displayadjustment",
        "ledger_transfer",
        "ledger_correction",
        "cage_box",
        "rake_timecharge",
        "jackpots_progressivepayment",
    ):
        assert table in found, table


def _unguarded(guarded: set[str]) -> list[str]:
    return sorted(f"{label} ({table})" for table, label in documents().items() if table not in guarded)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="reads PostgreSQL's triggers")
def test_every_document_has_its_trigger_on_postgresql(db) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE NOT tgisinternal")
        triggers = cursor.fetchall()
    guarded = {table for table, name in triggers if name in (f"{table}_insert_only", f"{table}_sealed")}

    assert _unguarded(guarded | UNSEALED_ALLOWANCE) == []


@pytest.fixture(scope="module")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A SQLite database migrated as `make run` does (no DATABASE_URL)."""
    return embedded_migrated(tmp_path_factory)


def test_every_document_has_its_triggers_on_sqlite(migrated_sqlite) -> None:
    with sqlite3.connect(migrated_sqlite) as database:
        names = {row[0] for row in database.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    tables = set(documents())
    guarded = {
        table
        for table in tables
        if {f"{table}_insert_only_update", f"{table}_insert_only_delete"} <= names
        or {f"{table}_sealed_update", f"{table}_sealed_delete"} <= names
    }

    assert _unguarded(guarded | UNSEALED_ALLOWANCE) == []


def test_sqlite_refuses_what_postgresql_refuses(migrated_sqlite) -> None:
    """One sealed table written to by the sqlite3 module, a client that knows nothing of Django: a
    transport moved on is accepted, moved back or changed is refused, as on PostgreSQL."""
    with sqlite3.connect(migrated_sqlite) as database:
        database.execute("PRAGMA foreign_keys = OFF")  # a transport of its own, without its room and people
        database.execute(
            "INSERT INTO cage_transport (id, kind, seal, destination, gaming_day, carried_at, status, "
            "idempotency_key, request_sha256, carried_by_id, room_id) VALUES "
            "(1, 'boxes', 'S-1', 'main cage', '2026-12-01', '2026-12-01 10:00', 'in_transit', 'k', 'h', 1, 1)"
        )
        database.execute(
            "UPDATE cage_transport SET status = 'accounted', accounted_by_id = 2, accounted_at = '2026-12-01 10:05'"
        )
        for statement, refusal in (
            ("UPDATE cage_transport SET seal = 'S-2'", "UPDATE of cage_transport is refused: its signed content"),
            ("UPDATE cage_transport SET status = 'in_transit'", "UPDATE of cage_transport is refused: status moves"),
            ("UPDATE cage_transport SET accounted_by_id = 3", "accounted_by_id is set once"),
            ("DELETE FROM cage_transport", "DELETE of cage_transport is refused"),
        ):
            with pytest.raises(sqlite3.IntegrityError, match=refusal):
                database.execute(statement)
        row = database.execute("SELECT seal, status, accounted_by_id FROM cage_transport").fetchone()
    assert row == ("S-1", TransportStatus.ACCOUNTED, 2)


# PostgreSQL: the documents a night at the cage writes, changed behind the services ---------------------


def _refused(statement: str, params: list, match: str) -> None:
    with pytest.raises(IntegrityError, match=match), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)


def _row(table: str, pk: int) -> tuple:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {table} WHERE id = %s", [pk])  # noqa: S608 - the test's own table names
        return cursor.fetchone()


@pytest.fixture
def verified_night(witnessed_counts, security, cashier, key):
    """T1's three witnessed counts carried in a container and verified 10 cents over the table counts: a
    count, a transport, a verification and a variance in the database, moved on by their services."""
    from cage.models import Variance
    from cage.services import cage_verify, transport_create

    transport = transport_create(
        room=witnessed_counts[0].box.room,
        seal="S-SEAL",
        counts=witnessed_counts,
        actor=security,
        pin=PIN,
        idempotency_key=key(),
    )
    verification = cage_verify(
        transport=transport,
        counted=transport.declared_cents + 10,
        actor=cashier,
        pin=PIN,
        idempotency_key=key(),
        confirm_variance=True,
    )
    return {
        "cage_count": witnessed_counts[0].pk,
        "cage_transport": transport.pk,
        "cage_cageverification": verification.pk,
        "cage_variance": Variance.objects.get(verification=verification).pk,
    }


@pytest.mark.parametrize(
    ("table", "statement", "match"),
    [
        ("cage_count", "UPDATE cage_count SET counted_cents = counted_cents + 100 WHERE id = %s", "counted_cents"),
        ("cage_count", "UPDATE cage_count SET status = 'counted' WHERE id = %s", "status moves only"),
        ("cage_count", "UPDATE cage_count SET surveillance_reference = 'CAM-9' WHERE id = %s", "set once"),
        ("cage_transport", "UPDATE cage_transport SET declared_cents = 0 WHERE id = %s", "declared_cents"),
        ("cage_transport", "UPDATE cage_transport SET status = 'in_transit' WHERE id = %s", "status moves only"),
        ("cage_cageverification", "UPDATE cage_cageverification SET official_cents = 0 WHERE id = %s", "official"),
        ("cage_variance", "UPDATE cage_variance SET amount_cents = 0 WHERE id = %s", "amount_cents"),
        ("cage_count", "DELETE FROM cage_count WHERE id = %s", "DELETE of cage_count is refused"),
        ("cage_transport", "DELETE FROM cage_transport WHERE id = %s", "DELETE of cage_transport is refused"),
        (
            "cage_cageverification",
            "DELETE FROM cage_cageverification WHERE id = %s",
            "DELETE of cage_cageverification is refused",
        ),
        ("cage_variance", "DELETE FROM cage_variance WHERE id = %s", "DELETE of cage_variance is refused"),
    ],
)
def test_the_cage_documents_refuse_raw_changes(verified_night, table, statement, match) -> None:
    pk = verified_night[table]
    before = _row(table, pk)

    _refused(statement, [pk], match)

    assert _row(table, pk) == before


def test_the_cage_documents_moved_on_by_their_services(verified_night) -> None:
    from cage.models import CageVerification, Count, Transport

    assert Count.objects.get(pk=verified_night["cage_count"]).status == CountStatus.VERIFIED
    assert Transport.objects.get(pk=verified_night["cage_transport"]).status == TransportStatus.VERIFIED
    assert CageVerification.objects.get(pk=verified_night["cage_cageverification"]).status in (
        VerificationStatus.VERIFIED,
        VerificationStatus.VARIANCE_UNRESOLVED,
    )


def test_a_variance_is_explained_once(verified_night, supervisor) -> None:
    pk = verified_night["cage_variance"]
    with connection.cursor() as cursor:  # from empty to an explanation: as verification_explain writes
        cursor.execute("UPDATE cage_variance SET explanation = 'a chip miscounted' WHERE id = %s", [pk])
    before = _row("cage_variance", pk)

    _refused("UPDATE cage_variance SET explanation = 'another story' WHERE id = %s", [pk], "explanation is set once")

    assert _row("cage_variance", pk) == before


def test_a_bad_beat_claim_moves_only_forward(make_claim) -> None:
    claim = make_claim()
    with connection.cursor() as cursor:  # claimed -> denied, a transition claim_deny makes
        cursor.execute("UPDATE jackpots_badbeatclaim SET status = %s WHERE id = %s", [ClaimStatus.DENIED, claim.pk])
    before = _row("jackpots_badbeatclaim", claim.pk)

    for statement, params, match in (
        ("UPDATE jackpots_badbeatclaim SET status = %s WHERE id = %s", [ClaimStatus.PAID, claim.pk], "status moves"),
        ("UPDATE jackpots_badbeatclaim SET status = %s WHERE id = %s", [ClaimStatus.CLAIMED, claim.pk], "status"),
        ("UPDATE jackpots_badbeatclaim SET cards = '' WHERE id = %s", [claim.pk], "cards changed"),
        ("DELETE FROM jackpots_badbeatclaim WHERE id = %s", [claim.pk], "DELETE of jackpots_badbeatclaim is refused"),
    ):
        _refused(statement, params, match)

    assert _row("jackpots_badbeatclaim", claim.pk) == before


def test_a_display_adjustment_is_witnessed_once(bad_beat, finance, floorperson, supervisor) -> None:
    from jackpots.bad_beat.services.display import display_adjust, display_witness

    adjustment = display_witness(
        adjustment=display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="seal-adj"),
        actor=floorperson,
        pin=PIN,
    )
    before = _row("jackpots_displayadjustment", adjustment.pk)

    for statement, params, match in (
        ("UPDATE jackpots_displayadjustment SET amount_cents = 1 WHERE id = %s", [adjustment.pk], "amount_cents"),
        (
            "UPDATE jackpots_displayadjustment SET witnessed_by_id = %s WHERE id = %s",
            [supervisor.pk, adjustment.pk],
            "witnessed_by_id is set once",
        ),
        ("DELETE FROM jackpots_displayadjustment WHERE id = %s", [adjustment.pk], "DELETE of"),
    ):
        _refused(statement, params, match)

    assert _row("jackpots_displayadjustment", adjustment.pk) == before


def test_a_correction_reason_is_sealed(rated_table, log_rounds, finance) -> None:
    from casino_backoffice.ledger.services import correction_prepare

    log_rounds(rated_table, 1)
    correction = correction_prepare(
        transfer=Transfer.objects.order_by("pk").first(), reason="wrong box", actor=finance, pin=PIN
    )
    before = _row("ledger_correction", correction.pk)

    _refused("UPDATE ledger_correction SET reason = 'edited' WHERE id = %s", [correction.pk], "reason changed")
    _refused("DELETE FROM ledger_correction WHERE id = %s", [correction.pk], "DELETE of ledger_correction is refused")

    assert _row("ledger_correction", correction.pk) == before


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's trigger functions")
def test_each_trigger_is_what_its_seal_renders(db) -> None:
    """A seal changed in Python without a migration that renders it again fails here."""
    from casino_backoffice.core.immutable import _postgresql_function

    with connection.cursor() as cursor:
        for seal in SEALS:
            cursor.execute("SELECT prosrc FROM pg_proc WHERE proname = %s", [f"casino_seal_{seal.table}"])
            (source,) = cursor.fetchone()
            assert source in _postgresql_function(seal), seal.table


@pytest.mark.skipif(connection.vendor != "postgresql", reason="TRUNCATE is PostgreSQL's")
@pytest.mark.parametrize("seal", SEALS, ids=lambda seal: seal.table)
def test_truncate_of_a_sealed_table_is_refused(db, seal) -> None:
    with pytest.raises(IntegrityError, match=f"TRUNCATE of {seal.table} is refused"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL casino.allow_truncate = off")
            cursor.execute(f"TRUNCATE {seal.table} CASCADE")
