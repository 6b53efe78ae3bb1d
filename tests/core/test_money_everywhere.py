"""Money typed on a page or sent to the API is read one way, everywhere.

Every serializer of every API operation and every form of every page (tablet and admin) is found by
walking the URL configuration and the project's form classes; each money field among them is walked
with the one table of typed amounts (tests/money_inputs.py): "23,90" is refused with what to type
instead on every one, "$1,250.50" is read as 125050 cents on every one, and "١٢٣" is never $123.00.
A field that takes an amount by any other type (a ``DecimalField``, a ``FloatField``, an integer
named like money) fails the walk.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from types import ModuleType

import pytest
from django import forms
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from cage.api.common import CountedField
from casino_backoffice.core.api import MoneyField as ApiMoneyField
from casino_backoffice.core.floor.forms import MoneyField as FormMoneyField
from tests.money_inputs import READ, REFUSED

PROJECT = ("casino_backoffice", "tables", "rake", "jackpots", "cage")

# Names that are money wherever they appear in a form or a serializer that takes input.
_MONEY_NAME = re.compile(r"(^|_)(pot|amount|counted|aggregate|uncalled_bet|rake|fee|declared|cents|dollars)($|_)")

# Inputs named like money that are not an amount, each with why.
_NOT_MONEY = {
    "amount_of_players": "a number of players",
}


def _project_modules() -> Iterator[ModuleType]:
    """Every module of the project's apps (migrations, management commands and tests aside)."""
    for package_name in PROJECT:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}."):
            if any(part in {"migrations", "management", "tests"} for part in info.name.split(".")):
                continue
            yield importlib.import_module(info.name)


def _classes(base: type) -> list[type]:
    found = {
        value
        for module in _project_modules()
        for _, value in inspect.getmembers(module, inspect.isclass)
        if issubclass(value, base) and value.__module__.startswith(PROJECT)
    }
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__qualname__}")


def _fields(serializer: serializers.BaseSerializer, prefix: str = "") -> Iterator[tuple[str, serializers.Field]]:
    for name, field in getattr(serializer, "fields", {}).items():
        yield prefix + name, field
        child = field.child if isinstance(field, serializers.ListSerializer) else field
        if isinstance(child, serializers.Serializer):
            yield from _fields(child, prefix + name + ".")
        if isinstance(field, serializers.ListField) and field.child is not None:
            yield prefix + name + "[]", field.child
        if isinstance(field, serializers.DictField) and field.child is not None:
            yield prefix + name + "{}", field.child


def _api_money_fields() -> list[tuple[str, serializers.Field]]:
    found = []
    for cls in _classes(serializers.BaseSerializer):
        try:
            instance = cls()
        except TypeError:
            continue
        takes_input = not cls.__name__.endswith(("Output", "Serializer"))
        for name, field in _fields(instance):
            if field.read_only:
                continue
            where = f"{cls.__module__}.{cls.__qualname__}.{name}"
            assert not isinstance(field, serializers.DecimalField | serializers.FloatField), (
                f"{where} takes an amount as a number; use casino_backoffice.core.api.MoneyField"
            )
            if isinstance(field, ApiMoneyField | CountedField):
                found.append((where, field))
            elif takes_input and _MONEY_NAME.search(name.split(".")[-1].strip("[]{}")) and name not in _NOT_MONEY:
                pytest.fail(f"{where} is named like money but is a {type(field).__name__}, not the one MoneyField")
    return found


def _form_money_fields() -> list[tuple[str, forms.Field]]:
    found = []
    for cls in _classes(forms.BaseForm):
        for name, field in cls.base_fields.items():
            where = f"{cls.__module__}.{cls.__qualname__}.{name}"
            assert not isinstance(field, forms.DecimalField | forms.FloatField), (
                f"{where} takes an amount as a number; use casino_backoffice.core.floor.forms.MoneyField"
            )
            if isinstance(field, FormMoneyField):
                found.append((where, field))
            elif _MONEY_NAME.search(name) and name not in _NOT_MONEY and not isinstance(field, forms.BooleanField):
                pytest.fail(f"{where} is named like money but is a {type(field).__name__}, not the one MoneyField")
    return found


API_FIELDS = _api_money_fields()
FORM_FIELDS = _form_money_fields()


def test_the_walk_finds_the_money_fields_of_the_api_and_the_pages() -> None:
    """The walk reaches the fields it must: a walk that found nothing would pass every test below."""
    api = {where.rsplit(".", 2)[-2] + "." + where.rsplit(".", 1)[-1] for where, _ in API_FIELDS}
    pages = {where.rsplit(".", 2)[-2] + "." + where.rsplit(".", 1)[-1] for where, _ in FORM_FIELDS}
    assert len(API_FIELDS) >= 8 and len(FORM_FIELDS) >= 4, (API_FIELDS, FORM_FIELDS)
    assert any(name.endswith(".pot") for name in api) and any(name.endswith(".counted") for name in api)
    assert any(name.endswith(".pot") for name in pages) and any(name.endswith(".amount") for name in pages)


@pytest.mark.parametrize(("where", "field"), API_FIELDS, ids=[where for where, _ in API_FIELDS])
def test_every_api_money_field_reads_the_table_one_way(where: str, field: serializers.Field) -> None:
    for typed, cents in READ:
        assert field.run_validation(typed) == cents, (where, typed)
    for typed, says in REFUSED:
        with pytest.raises(ValidationError) as refusal:
            field.run_validation(typed)
        assert says in str(refusal.value.detail), (where, typed, refusal.value.detail)


@pytest.mark.parametrize(("where", "field"), FORM_FIELDS, ids=[where for where, _ in FORM_FIELDS])
def test_every_page_money_field_reads_the_table_one_way(where: str, field: forms.Field) -> None:
    for typed, cents in READ:
        assert field.clean(typed) == cents, (where, typed)
    for typed, says in REFUSED:
        with pytest.raises(forms.ValidationError) as refusal:
            field.clean(typed)
        assert says in " ".join(refusal.value.messages), (where, typed, refusal.value.messages)
