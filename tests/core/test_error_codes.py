"""Error codes are one enumeration per domain (issue 26, item 4): every refusal carries a member of its
domain's ``ErrorCode`` enumeration, a string typed at the place of a refusal is refused at once, and
the schema lists only members."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from casino_backoffice.core.api_common import errors
from casino_backoffice.core.exceptions import DomainError, ErrorCode

APPS = ("casino_backoffice", "tables", "rake", "cage", "jackpots")


def _import_everything() -> None:
    for name in APPS:
        package = importlib.import_module(name)
        for module in pkgutil.walk_packages(package.__path__, f"{name}."):
            if ".migrations" not in module.name and not module.name.endswith(("asgi", "wsgi")):
                importlib.import_module(module.name)


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def test_every_refusal_of_every_app_carries_a_member_of_an_enumeration() -> None:
    _import_everything()
    refusals = _subclasses(DomainError)

    assert len(refusals) > 60
    for refusal in refusals:
        assert isinstance(refusal.code, ErrorCode), refusal


def test_each_domain_has_its_enumeration_and_no_code_twice_in_one() -> None:
    _import_everything()
    enumerations = _subclasses(ErrorCode)
    names = {enum.__name__ for enum in enumerations}

    for expected in (
        "CoreErrorCode",
        "StaffErrorCode",
        "LedgerErrorCode",
        "TableErrorCode",
        "RakeErrorCode",
        "CageErrorCode",
        "FundsErrorCode",
        "BadBeatErrorCode",
        "HighHandErrorCode",
        "ProgressiveErrorCode",
    ):
        assert expected in names
    for enum in enumerations:
        values = [member.value for member in enum]
        assert len(values) == len(set(values)), enum


def test_a_code_typed_as_a_string_is_refused_where_it_is_written() -> None:
    with pytest.raises(TypeError, match="not a member of an ErrorCode"):
        DomainError("Refused.", code="wrong_pin")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a member of an ErrorCode"):

        class Typo(DomainError):
            code = "wrnog_pin"  # type: ignore[assignment]

    with pytest.raises(TypeError, match="not a member of an ErrorCode"):
        errors(e400=["wrong_pin"])  # type: ignore[list-item]
