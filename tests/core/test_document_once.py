"""The idempotent document's replay and race, in one kernel helper (``core.idempotency.DocumentOnce``).

A service gives its model, its key and its request's fingerprint, and a write that carries its rule;
``DocumentOnce.record`` answers a retry of the same request with the first document, refuses the same
key with another request (409) and changes nothing, and makes the loser of two parallel posts of one
key read the winner's document. The write here is a bare insert of a compliance notice: the helper,
not a service, is under test.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from cage.models import ComplianceNotice
from casino_backoffice.core.exceptions import Conflict, DomainError, ErrorCode
from casino_backoffice.core.idempotency import DocumentOnce, IdempotencyKeyReused, replays_noted
from tests.lock_race import second_waits_for_first

KEY = "7:notice-1"


class _TestErrorCode(ErrorCode):
    """This test's own rules, as a domain names its codes."""

    REFUSED_BY_THE_RULE = "refused_by_the_rule"
    ALREADY_NOTICED = "already_noticed"


class _Refused(DomainError):
    code = _TestErrorCode.REFUSED_BY_THE_RULE


class _AlreadyNoticed(Conflict):
    code = _TestErrorCode.ALREADY_NOTICED


def _inserted(notice: ComplianceNotice) -> None:
    """Called by the write once its row is inserted, inside its transaction (a race stops here)."""


def _write(once: DocumentOnce[ComplianceNotice], *, room, actor, calls: list[str], durable: bool = False):
    def write() -> ComplianceNotice:
        calls.append("write")
        with transaction.atomic(durable=durable):
            notice = ComplianceNotice.objects.create(
                room=room,
                gaming_day=date(2024, 5, 1),
                notified=f"J. Smith ({once.fingerprint})",
                method="phone",
                notified_at=timezone.now(),
                recorded_by=actor,
                idempotency_key=once.idempotency_key,
                request_sha256=once.fingerprint,
            )
            _inserted(notice)
        return notice

    return write


def _once(fingerprint: str, key: str = KEY) -> DocumentOnce[ComplianceNotice]:
    return DocumentOnce(model=ComplianceNotice, idempotency_key=key, fingerprint=fingerprint)


def _state() -> list[tuple]:
    return list(
        ComplianceNotice.objects.order_by("pk").values_list("pk", "idempotency_key", "request_sha256", "notified")
    )


@pytest.mark.django_db
def test_the_same_key_and_request_again_answers_the_first_document_noted_as_a_replay(room, floorperson) -> None:
    calls: list[str] = []
    with replays_noted() as noted_first:
        first = _once("a").record(_write(_once("a"), room=room, actor=floorperson, calls=calls))
    state = _state()

    with replays_noted() as noted_again:
        again = _once("a").record(_write(_once("a"), room=room, actor=floorperson, calls=calls))

    assert again.pk == first.pk
    assert calls == ["write"]  # the retry wrote nothing
    assert noted_first == []
    assert noted_again == [again]  # the API says Idempotent-Replayed: true
    assert _state() == state


@pytest.mark.django_db
def test_the_same_key_with_another_request_is_refused_with_409_and_changes_nothing(room, floorperson) -> None:
    calls: list[str] = []
    first = _once("a").record(_write(_once("a"), room=room, actor=floorperson, calls=calls))
    state = _state()

    with pytest.raises(IdempotencyKeyReused) as refused:
        _once("b").record(_write(_once("b"), room=room, actor=floorperson, calls=calls))

    assert refused.value.status == 409
    assert "'notice-1'" in refused.value.message  # the key as its sender sent it, not the scoped key
    assert f"{ComplianceNotice._meta.verbose_name} {first.pk}" in refused.value.message
    assert calls == ["write"]
    assert _state() == state


@pytest.mark.django_db
def test_a_refusal_of_the_rule_is_raised_and_records_nothing(room, floorperson) -> None:
    state = _state()

    def refuses() -> ComplianceNotice:
        raise _Refused("not by this rule")

    with pytest.raises(_Refused):
        _once("a").record(refuses)

    assert _state() == state


@pytest.mark.django_db
def test_a_refusal_after_a_concurrent_attempt_recorded_this_request_answers_its_document(room, floorperson) -> None:
    """The retry that waited for its first attempt's locks meets the state the first attempt left and
    is refused by the rule: the answer is the first attempt's document."""
    once = _once("a")
    recorded: list[ComplianceNotice] = []

    def first_attempt_then_refused() -> ComplianceNotice:
        recorded.append(_write(once, room=room, actor=floorperson, calls=[])())  # the first attempt commits
        raise _Refused("the box was counted already")

    with replays_noted() as noted:
        answer = once.record(first_attempt_then_refused)

    assert answer.pk == recorded[0].pk
    assert noted == [answer]
    assert ComplianceNotice.objects.count() == 1


@pytest.mark.django_db
def test_replay_under_lock_ends_the_write_with_the_document_recorded_meanwhile(room, floorperson) -> None:
    once = _once("a")
    steps: list[str] = []

    def write() -> ComplianceNotice:
        first = _write(once, room=room, actor=floorperson, calls=[])()  # recorded while this one waited
        steps.append(f"first {first.pk}")
        with transaction.atomic():
            once.replay_under_lock()
            steps.append("written again")  # never: the look under the lock answered
        raise AssertionError("unreachable")

    answer = once.record(write)

    assert steps == [f"first {answer.pk}"]
    assert ComplianceNotice.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("race_refusal", [None, lambda: _AlreadyNoticed("noticed already by another request")])
def test_the_loser_of_another_unique_key_is_refused_and_nothing_changes(
    room, floorperson, race_refusal: Callable[[], DomainError] | None
) -> None:
    """An IntegrityError no document of this key answers: the service's race refusal when it gives one
    (the share paid, the seat recorded), else the IntegrityError itself."""
    state = _state()

    def loses() -> ComplianceNotice:
        raise IntegrityError("duplicate key value violates unique constraint")

    with pytest.raises(_AlreadyNoticed if race_refusal else IntegrityError):
        _once("a").record(loses, race_refusal=race_refusal)

    assert _state() == state


@pytest.mark.django_db
def test_the_loser_of_a_simulated_unique_key_race_reads_the_winners_document(room, floorperson) -> None:
    once = _once("a")
    winner: list[ComplianceNotice] = []

    def loses_at_the_key() -> ComplianceNotice:
        winner.append(_write(once, room=room, actor=floorperson, calls=[])())  # the winner commits first
        with transaction.atomic():
            return _write(once, room=room, actor=floorperson, calls=[])()  # IntegrityError: the key is taken

    with replays_noted() as noted:
        answer = once.record(loses_at_the_key, race_refusal=lambda: _AlreadyNoticed("never: the key answers"))

    assert answer.pk == winner[0].pk
    assert noted == [answer]
    assert ComplianceNotice.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("second_fingerprint", ["a", "b"])
def test_two_parallel_records_of_one_key_the_loser_waits_at_the_key_and_reads_the_winners_document(
    room, floorperson, second_fingerprint: str
) -> None:
    """Real PostgreSQL connections: the second looks for the key before the first commits, waits at the
    unique key for the first one's transaction, then answers the first one's document (the same
    request), or 409 (another request under the key); either way one document."""
    assert connection.vendor == "postgresql"

    def attempt(fingerprint: str) -> Callable[[], tuple[ComplianceNotice, list]]:
        def call() -> tuple[ComplianceNotice, list]:
            calls: list[str] = []
            with replays_noted() as noted:
                document = _once(fingerprint).record(
                    _write(_once(fingerprint), room=room, actor=floorperson, calls=calls, durable=True)
                )
            assert calls == ["write"]  # each looked before the other committed, and wrote
            return document, list(noted)

        return call

    answers = second_waits_for_first(
        attempt("a"), attempt(second_fingerprint), pause_at="tests.core.test_document_once._inserted"
    )

    first, first_noted = answers["first"]
    assert first_noted == []
    if second_fingerprint == "a":
        second, second_noted = answers["second"]
        assert second.pk == first.pk
        assert second_noted == [second]
    else:
        assert isinstance(answers["second"], IdempotencyKeyReused), answers
    assert _state() == [(first.pk, KEY, "a", "J. Smith (a)")]
