"""Loading rules files: versions, no-op on an identical file, nothing changed by an invalid one."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from casino_backoffice.ledger.models import Account, AccountKind
from casino_backoffice.staff.exceptions import ActionNotPermitted
from jackpots.funds.models import Jackpot
from rake.exceptions import RulesFileInvalid
from rake.services import rules_load
from tables.models import PokerRoom, RulesVersion, Table
from tests.rake.factories import RULES, load, rules_loader, rules_text


def test_a_file_becomes_version_one_with_tables_jackpots_and_boxes(room, manager):
    version = load(actor=manager)
    assert (version.number, version.loaded_by, version.room.code) == (1, manager, "main")
    assert version.effective_from == datetime(2026, 1, 1, 11, tzinfo=UTC)
    assert set(Table.objects.values_list("number", flat=True)) == {"T1", "T2", "T7", "T9"}
    assert set(Jackpot.objects.values_list("code", "kind")) == {("bb", "bad_beat"), ("hh", "high_hand")}
    codes = dict(Account.objects.values_list("code", "kind"))
    assert codes["room:main:pots"] == AccountKind.SOURCE
    assert codes["table:main:T1:drop_box"] == AccountKind.DROP_BOX
    assert codes["table:main:T1:bb_box"] == AccountKind.JACKPOT_BOX
    assert codes["table:main:T1:hh_box"] == AccountKind.JACKPOT_BOX
    assert "table:main:T2:bb_box" not in codes


def test_an_identical_file_changes_nothing(db):
    first = load()
    # Comments, order and spacing do not matter: the canonical content does.
    again = rules_load(text="# reviewed again\n" + rules_text(), actor=rules_loader())
    assert again.created is False and again.version == first
    assert RulesVersion.objects.count() == 1


def test_a_changed_file_is_a_new_version_and_both_are_kept(db):
    load()
    # A later version takes effect no earlier than its loading (issue 24): from now, or a later time.
    changed = rules_text(
        effective_from=None,
        rake_policies=[{**RULES["rake_policies"][0], "max_per_round": "6.00"}, *RULES["rake_policies"][1:]],
    )
    second = rules_load(text=changed, actor=rules_loader())
    assert second.created and second.version.number == 2
    assert list(RulesVersion.objects.order_by("number").values_list("number", flat=True)) == [1, 2]


def test_an_invalid_file_changes_nothing(db):
    load()
    before = (
        RulesVersion.objects.count(),
        Table.objects.count(),
        Account.objects.count(),
        PokerRoom.objects.get().name,
    )
    bad = rules_text(
        name="Renamed",
        tables=[
            {"number": "T1", "game": "holdem", "seats": 12, "rake_policy": "nl10"},
            {"number": "T99", "game": "holdem", "seats": 9, "rake_policy": "nl10"},
        ],
    )
    with pytest.raises(RulesFileInvalid) as caught:
        rules_load(text=bad, actor=rules_loader())
    assert caught.value.errors == [
        "tables[0] (T1): seats 12 is over Texas Hold'em's limit of 10 (58 Pa. Code §637a.10)"
    ]
    assert (
        RulesVersion.objects.count(),
        Table.objects.count(),
        Account.objects.count(),
        PokerRoom.objects.get().name,
    ) == before


def test_versions_are_never_updated(db):
    from django.db import DatabaseError, transaction

    version = load()
    with pytest.raises(DatabaseError), transaction.atomic():
        RulesVersion.objects.filter(pk=version.pk).update(number=7)


def test_load_rules_command(room, tmp_path, manager):
    path = tmp_path / "rules.yaml"
    path.write_text(rules_text())
    out = StringIO()
    call_command("load_rules", str(path), "--by", manager.username, stdout=out)
    assert "Loaded rules.yaml as version 1 of room main" in out.getvalue()
    assert RulesVersion.objects.get().loaded_by == manager
    out = StringIO()
    call_command("load_rules", str(path), "--by", manager.username, stdout=out)
    assert "identical to version 1" in out.getvalue()
    path.write_text(rules_text(tables=[{"number": "T1", "game": "holdem", "seats": 10, "rake_policy": "nope"}]))
    with pytest.raises(CommandError, match="rake_policy 'nope' is not a policy of this file"):
        call_command("load_rules", str(path), "--by", manager.username)


def test_loading_rules_needs_a_named_person_who_may(db, tmp_path, finance, dealer):
    path = tmp_path / "rules.yaml"
    path.write_text(rules_text())
    with pytest.raises(CommandError, match="--by"):
        call_command("load_rules", str(path))
    with pytest.raises(CommandError, match="No member of staff is called 'nobody'"):
        call_command("load_rules", str(path), "--by", "nobody")
    for person in (finance, dealer):
        with pytest.raises(CommandError, match="Only a poker room manager or an administrator may load a rules file"):
            call_command("load_rules", str(path), "--by", person.username)
        with pytest.raises(ActionNotPermitted):
            rules_load(text=rules_text(), actor=person)
    assert not RulesVersion.objects.exists() and not PokerRoom.objects.exists()
