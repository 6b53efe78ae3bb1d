"""The posted rules of a version are parsed once per process and every product reads its part of the
one object (``tables.selectors.rules_version_parsed``, the parser named by ``POSTED_RULES_PARSER``)."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from jackpots.funds.selectors import jackpot_rule_of_version
from rake.selectors import rules_of_version
from tables.models import RulesVersion
from tables.selectors import rules_version_parsed
from tests.rake import factories


@pytest.mark.django_db
def test_the_rake_and_the_funds_read_one_parsed_rules_of_a_version(room, django_assert_num_queries) -> None:
    version = factories.load()
    stored = RulesVersion.objects.get(pk=version.pk)  # another instance of the row

    rules = rules_of_version(version_id=stored.pk)
    with django_assert_num_queries(0):
        assert rules_version_parsed(version_id=stored.pk) is rules
        assert jackpot_rule_of_version(version=stored, code="bb") is rules.jackpots["bb"]
        assert jackpot_rule_of_version(version=stored, code="no-such-fund") is None


@pytest.mark.django_db
def test_the_parsed_rules_are_immutable(room) -> None:
    rules = rules_of_version(version_id=factories.load().pk)
    for mapping in (rules.rake_policies, rules.jackpots, rules.tables, rules.progressives):
        assert isinstance(mapping, MappingProxyType)
    with pytest.raises(TypeError):
        rules.tables["T99"] = rules.tables["T1"]  # type: ignore[index]
