"""Loading a Rules Submission file (§601a.2) as a new version of its room's rules."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.ledger.services import account_open_as
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.roles import Role
from jackpots.funds.services import jackpot_register
from jackpots.progressive.services.meters import progressive_register
from tables.models import PokerRoom, Round, RulesVersion
from tables.selectors import works_in
from tables.services import room_upsert, table_upsert

from ..exceptions import RakeError, RulesFileInvalid
from ..locks import lock_room_rules
from ..rules import Rules, RulesInvalid, parse_text, validate_rules
from ..selectors import rules_of_version
from ..signals import rules_version_loaded
from .accounts import _open_table_accounts, pots_account

# --- Rules ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RulesLoaded:
    version: RulesVersion
    created: bool


def rules_load(*, text: str, actor: User, source_name: str = "") -> RulesLoaded:
    """Apply a Rules Submission file (§601a.2) as a new version of its room's rules.

    A named person whose role may load rules files loads it (``Action.RULES_LOAD``), and is recorded.

    Every rule of the file is checked first and every error reported at once (``RulesFileInvalid``);
    an invalid file changes nothing. A file whose canonical content is that of the room's latest
    version changes nothing either. Otherwise, in one transaction: the room's name, time zone and
    gaming-day start, the tables' games and seats, the jackpot funds and the ledger boxes are brought
    up to date, and a new immutable ``RulesVersion`` records the file, who loaded it and when. A
    progressive meter named for the first time starts at its posted initial amount.

    ``effective_from`` defaults to the moment of loading. A version takes effect no earlier than the
    moment it is loaded: the rounds and the revenue of the days before it were rated by the rules then
    in effect (§637a.17(a)-(b): the rake the Rules Submission posts; §637a.17(e): once extracted, no
    additional rake may be taken), and a version dated back would rate again a day finance may have
    closed. The one exception is the first version of a room that has none: it may be dated back (to
    rate rounds a table system kept while the room was being set up), and its page says so. Even then
    it may not take effect before a round already recorded in the room.
    """
    action_require(actor=actor, action=Action.RULES_LOAD)
    try:
        rules = validate_rules(parse_text(text))
    except RulesInvalid as error:
        raise RulesFileInvalid(error.errors) from None
    sha = hashlib.sha256(rules.canonical_json().encode()).hexdigest()
    now = timezone.now()
    with transaction.atomic():
        # The rules lock first, then the room's row, as every service that rates money takes them: a
        # round being rated holds the lock shared and references the room (a High Hand period it opens),
        # so locking the row first would deadlock with it.
        room = PokerRoom.objects.filter(code=rules.room).first()
        _loader_require(actor=actor, room=room, code=rules.room)
        if room is not None:
            lock_room_rules(room=room, exclusive=True)
            room = PokerRoom.objects.select_for_update().get(pk=room.pk)
        latest = room.rules_versions.order_by("-number").first() if room else None
        if latest is not None and latest.content_sha256 == sha:
            return RulesLoaded(version=latest, created=False)
        effective_from = _effective_from(rules=rules, room=room, latest=latest, now=now)
        try:
            room = room_upsert(
                code=rules.room,
                name=rules.room_name,
                timezone_name=rules.timezone,
                gaming_day_starts=rules.gaming_day_starts,
                actor=actor,
            )
            room = PokerRoom.objects.select_for_update().get(pk=room.pk)
            for jackpot in rules.jackpots.values():
                jackpot_register(room=room, code=jackpot.code, kind=jackpot.kind, name=jackpot.name)
            account_open_as(pots_account(room=room))
            for table_rule in rules.tables.values():
                table = table_upsert(
                    room=room, number=table_rule.number, game=table_rule.game, seats=table_rule.seats, actor=actor
                )
                _open_table_accounts(table=table, rules=rules)
        except RakeError:
            raise
        except DomainError as error:
            raise RulesFileInvalid([error.message]) from None
        version = RulesVersion.objects.create(
            room=room,
            number=(latest.number + 1) if latest else 1,
            effective_from=effective_from,
            loaded_at=now,
            loaded_by=actor,
            source_name=source_name[:255],
            source_text=text,
            content=rules.canonical(),
            content_sha256=sha,
        )
        try:
            for progressive in rules.progressives.values():
                progressive_register(room=room, rule=progressive, version=version, actor=actor)
        except DomainError as error:
            raise RulesFileInvalid([error.message]) from None
        rules_version_loaded.send(sender=RulesVersion, room=room, version=version, rules=rules)
    return RulesLoaded(version=version, created=True)


def _effective_from(*, rules: Rules, room: PokerRoom | None, latest: RulesVersion | None, now: datetime) -> datetime:
    """When the new version takes effect: its ``effective_from``, or now. Not before now unless it is the
    room's first version, and never before a round already recorded in the room (``rules_load``)."""
    effective_from = rules.effective_from or now
    if latest is not None and effective_from < now:
        raise RulesFileInvalid(
            [
                f"effective_from: {effective_from.isoformat()} is before now ({now.isoformat()}): version "
                f"{latest.number + 1} of room {rules.room} would rate again rounds and days already rated by "
                f"version {latest.number} (§637a.17). A new version takes effect no earlier than the moment it is "
                "loaded: leave effective_from out to take effect now, or give a later time. Only the first "
                "version of a new room may be dated back"
            ]
        )
    if room is not None:
        late = Round.objects.filter(table__room=room, ended_at__gte=effective_from).order_by("-ended_at").first()
        if late is not None:
            raise RulesFileInvalid(
                [
                    f"effective_from: {effective_from.isoformat()} is before round {late.pk} at table "
                    f"{late.table.number} that ended {late.ended_at.isoformat()} and was rated by the rules then "
                    "in effect; choose a later effective_from (§637a.17(e))"
                ]
            )
    return effective_from


def _loader_require(*, actor: User, room: PokerRoom | None, code: str) -> None:
    """A room's rules are loaded by a manager of that room or an all-rooms administrator; a new room
    is opened by an all-rooms administrator only: a manager of room B neither rewrites room A's rules
    nor opens rooms of their own. Nothing is loaded otherwise."""
    if room is not None and works_in(actor, room):
        return
    if actor.works_everywhere and Role.ADMINISTRATOR in actor.roles:
        return
    if room is None:
        raise ActionNotPermitted(
            f"There is no room {code} yet: a new room is opened by an administrator holding the all-rooms grant, "
            "who loads its first rules. Nothing was loaded.",
            action=Action.RULES_LOAD.value,
        )
    raise ActionNotPermitted(
        f"{actor} does not work in room {code}: its rules are loaded by a manager of that room or an all-rooms "
        "administrator. Nothing was loaded.",
        action=Action.RULES_LOAD.value,
    )


def rules_of(version: RulesVersion) -> Rules:
    return rules_of_version(version_id=version.pk, content=version.content)
