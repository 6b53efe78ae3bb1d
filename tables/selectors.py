"""Reads about rooms and tables: the one place the gaming day is computed, and the one place that
says which rooms a person works in and so which rows they may see (every face asks it)."""

from __future__ import annotations

import operator
import threading
from collections import deque
from datetime import date, datetime, timedelta
from functools import cache, reduce
from typing import Any, TypeVar

from django.apps import apps
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.module_loading import import_string

from casino_backoffice.core.caches import id_cache
from casino_backoffice.core.clock import local, local_text, zone_of
from casino_backoffice.ledger.models import Account, account_code_of_rooms
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.signing import SignableDocument

from .models import PokerRoom, RulesVersion

M = TypeVar("M", bound=models.Model)


def gaming_day(*, room: PokerRoom, at: datetime) -> date:
    """The gaming day of the moment ``at`` in ``room``.

    A gaming day starts at the room's ``gaming_day_starts`` in the room's own time zone; a moment
    before that hour belongs to the previous calendar day (a 3 a.m. hand with a 6 a.m. start is the
    previous day's business).
    """
    if timezone.is_naive(at):
        raise ValueError("gaming_day needs an aware datetime")
    on_clock = local(at, room)
    day = on_clock.date()
    return day - timedelta(days=1) if on_clock.time() < room.gaming_day_starts else day


def gaming_day_bounds(*, room: PokerRoom, day: date) -> tuple[datetime, datetime]:
    """The first moment of ``day`` and the first moment of the next, as aware datetimes."""
    zone = zone_of(room)
    start = datetime.combine(day, room.gaming_day_starts, tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), room.gaming_day_starts, tzinfo=zone)
    return start, end


def gaming_day_close_of(*, room: PokerRoom, day: date) -> tuple[str, str] | None:
    """Who closed ``day`` of ``room`` and when (their username, the time in the room's zone), or None
    while it is open.

    Finance closes a gaming day in the cage (an app above this one); the composition root names the
    cage's reader in the setting ``GAMING_DAY_CLOSED`` (``cage.gaming_days.gaming_day_closed``), which
    answers (username, aware datetime) or None. Without one, no day is ever closed."""
    path = getattr(settings, "GAMING_DAY_CLOSED", "")
    if not path:
        return None
    closed = import_string(path)(room=room, day=day)
    if closed is None:
        return None
    by, at = closed
    return by, local_text(at, room)


def rules_version_in_effect(*, room: PokerRoom, at: datetime) -> RulesVersion | None:
    """The version of a room's rules in effect at ``at``: the latest ``effective_from`` not after it,
    the later loaded when two share a moment (``RulesVersion``)."""
    return RulesVersion.objects.filter(room=room, effective_from__lte=at).order_by("-effective_from", "-number").first()


# --- The posted rules of a version ----------------------------------------------------------------

_posted: dict[int, Any] = id_cache()
_posted_lock = threading.Lock()


def rules_version_parsed(*, version_id: int, content: dict[str, Any] | None = None) -> Any:
    """The posted rules of a rules version, parsed once per process and shared by every product: the
    rake reads its policies and tables, the jackpot products their funds, meters and banked tables,
    each its own part of the one object.

    The parser is the rake's (an app above this one, which also checks a new file): the composition
    root names it in the setting ``POSTED_RULES_PARSER`` (``rake.rules.posted_rules_parse``), which
    answers an immutable ``rake.rules.Rules``. ``content``: the version's content when already read
    (else one query).

    Cached by version id, never evicted nor refreshed: a ``RulesVersion`` is inserted once and never
    changed (a trigger refuses UPDATE and DELETE; a change of rules is a new version with its own
    id), so the parsed rules of an id are the same for as long as the row exists. Parsing twice in a
    race gives equal rules; either may be kept."""
    rules = _posted.get(version_id)
    if rules is None:
        if content is None:
            content = RulesVersion.objects.values_list("content", flat=True).get(pk=version_id)
        rules = import_string(settings.POSTED_RULES_PARSER)(content)
        with _posted_lock:
            rules = _posted.setdefault(version_id, rules)
    return rules


# --- Who works in which room ----------------------------------------------------------------------


def room_path(model: type[models.Model]) -> str | None:
    """The lookup from a row of ``model`` to its poker room: ``"pk"`` for a room, ``"room"``,
    ``"table__room"``, ``"distribution__claim__room"``: the shortest path along required foreign
    keys (every path of a row leads to the same room), None for a model no room owns (people, the
    ledger's accounts and transfers)."""
    return _path_to(model._meta.concrete_model or model, PokerRoom)


def account_path(model: type[models.Model]) -> str | None:
    """The lookup from a row of ``model`` to the ledger account it moves or counts: ``"pk"`` for an
    account, ``"debit"`` for a transfer, ``"transfer__debit"`` for a correction, ``"account"`` for a
    balance checkpoint; None for a model that reaches none. The kernel's ledger knows no rooms: an
    account's room is the second part of its code (``Account``), and this path leads there."""
    return _path_to(model._meta.concrete_model or model, Account)


@cache
def _path_to(model: type[models.Model], target: type[models.Model]) -> str | None:
    if model is target:
        return "pk"
    people = {settings.AUTH_USER_MODEL.lower()}
    seen = {model}
    paths: deque[tuple[type[models.Model], str]] = deque([(model, "")])
    while paths:
        current, path = paths.popleft()
        for field in current._meta.concrete_fields:
            related = field.related_model
            if not field.is_relation or related is None or getattr(field, "null", False):
                continue
            assert isinstance(related, type)
            if related._meta.label_lower in people or related in seen:
                continue
            lookup = f"{path}{field.name}"
            if related is target:
                return lookup
            seen.add(related)
            paths.append((related, f"{lookup}__"))
    return None


def _assignments(user: Any) -> QuerySet[Any]:
    return PokerRoom.staff.through.objects.filter(user_id=user.pk)


def _works_everywhere(user: Any) -> bool:
    return bool(getattr(user, "all_rooms", False) or getattr(user, "is_superuser", False))


def visible_to(user: Any, queryset: QuerySet[M], *, path: str | None = None) -> QuerySet[M]:
    """The rows of ``queryset`` in the rooms ``user`` works in (``PokerRoom.staff``): only their rooms'
    rows for a person given some, every row for a person with the all-rooms grant, none for a person
    given neither (rooms are never a default) nor for a visitor who is not signed in. ``path`` leads from a row to its room (``room_path`` finds it).
    Rows no room owns by a foreign key are scoped by what they lead to: the ledger's accounts,
    transfers, corrections and checkpoints by the room in the account's code, a signature by the
    document it is on. A model that reaches no room is returned as it is (sign-in logs).
    Rooms by a key cost no query of their own (a subquery); accounts and signatures ask the
    person's room codes once, and only for a person assigned to rooms.
    People are seen by who works beside them (``works_beside``): a person of a room in common, a
    person holding the all-rooms grant only by another who holds it; the admin's people, their tokens
    and second-factor records are filtered so (issue 25, item 2)."""
    if not getattr(user, "is_authenticated", False):
        return queryset.none()
    everywhere = _works_everywhere(user)
    if path is None and _is_people(queryset.model):
        return queryset if everywhere else queryset.filter(_people_beside(user))
    lookup = path or room_path(queryset.model)
    if lookup is not None:
        if everywhere:
            return queryset
        return queryset.filter(**{f"{lookup}__in": _assignments(user).values("pokerroom_id")})
    return _visible_by_what_they_lead_to(user, queryset, everywhere=everywhere)


def _visible_by_what_they_lead_to(user: Any, queryset: QuerySet[M], *, everywhere: bool) -> QuerySet[M]:
    """``visible_to`` of rows no room owns by a key: accounts, transfers and the like by the room in
    the account's code, a signature by its document; any other model as it is."""
    model = queryset.model._meta.concrete_model or queryset.model
    account = account_path(model)
    if everywhere or (account is None and not issubclass(model, Signature)):
        return queryset
    codes = list(_assignments(user).values_list("pokerroom__code", flat=True))
    if not codes:
        return queryset.none()
    if account is not None:
        return queryset.filter(_accounts_of(codes, lookup=account))
    return queryset.filter(_signatures_of(codes))


def _accounts_of(codes: list[str], *, lookup: str) -> Q:
    """The accounts of the rooms ``codes``: their code's second part is the room's (``Account``)."""
    field = "code" if lookup == "pk" else f"{lookup}__code"
    return Q(**{f"{field}__regex": account_code_of_rooms(codes)})


def _signatures_of(codes: list[str]) -> Q:
    """The signatures on documents of the rooms ``codes``: one subquery per kind of signed document,
    each scoped as its own rows are (a kind no room owns is shown whole)."""
    kinds = []
    for model in _signed_documents():
        documents: QuerySet[Any] = model._default_manager.all()
        if (room := room_path(model)) is not None:
            documents = documents.filter(**{f"{room}__code__in": codes})
        elif (account := account_path(model)) is not None:
            documents = documents.filter(_accounts_of(codes, lookup=account))
        ids = documents.annotate(signed_id=Cast("pk", output_field=models.CharField())).values("signed_id")
        kinds.append(Q(document_type=ContentType.objects.get_for_model(model), document_id__in=ids))
    return reduce(operator.or_, kinds)


def _signed_documents() -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models()
        if issubclass(model, SignableDocument) and (model._meta.concrete_model or model) is model
    ]


def rooms_of(user: Any) -> QuerySet[PokerRoom]:
    """The rooms ``user`` works in, by code: those they are given, every room with the all-rooms
    grant, none otherwise."""
    return visible_to(user, PokerRoom.objects.order_by("code"))


def works_in(user: Any, room: PokerRoom) -> bool:
    """Whether ``user`` works in ``room`` (``PokerRoom.staff``): given it, or holding the all-rooms grant."""
    if not getattr(user, "is_authenticated", False):
        return False
    return _works_everywhere(user) or _assignments(user).filter(pokerroom_id=room.pk).exists()


def works_nowhere(user: Any) -> bool:
    """A signed-in person given no room and not the all-rooms grant: refused everywhere until given one."""
    return getattr(user, "is_authenticated", False) and not _works_everywhere(user) and not _assignments(user).exists()


def works_beside(user: Any, other: Any) -> bool:
    """Whether ``user`` works in a room ``other`` works in: ``user`` holds the all-rooms grant, or both
    are given a room in common. A person holding the grant works beside only another who holds it:
    their rooms are every room, and only an all-rooms administrator answers for them."""
    if _works_everywhere(user):
        return True
    if _works_everywhere(other):
        return False
    return type(other)._default_manager.filter(_people_beside(user), pk=other.pk).exists()


def _is_people(model: type[models.Model]) -> bool:
    return (model._meta.concrete_model or model)._meta.label_lower == settings.AUTH_USER_MODEL.lower()


def _people_beside(user: Any) -> Q:
    """The people ``user`` (given rooms, not the grant) works beside: given a room of theirs, and not
    holding the all-rooms grant themselves. One subquery, so a list of people costs no query more."""
    shared = PokerRoom.staff.through.objects.filter(
        user_id=OuterRef("pk"), pokerroom_id__in=_assignments(user).values("pokerroom_id")
    )
    return Q(Exists(shared), all_rooms=False, is_superuser=False)


def staff_of(room: PokerRoom) -> Q:
    """Who works in ``room``, as a filter of people: given it, or holding the all-rooms grant."""
    through = PokerRoom.staff.through.objects
    return (
        Q(Exists(through.filter(user_id=OuterRef("pk"), pokerroom_id=room.pk)))
        | Q(all_rooms=True)
        | Q(is_superuser=True)
    )
