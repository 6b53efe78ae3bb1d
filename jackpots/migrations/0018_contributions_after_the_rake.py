"""A jackpot's contribution is measured after the rake, only: 'After the dealer has extracted the rake,
the amount from each pot to be contributed ... shall be determined' (§637a.15(c), §637a.16(c)). A new
rules file writing ``base: before_rake`` is refused from now on, and nothing of it is stored.

No data changes. Rules versions already stored with ``base: before_rake`` keep it: versions are never
changed (a trigger refuses it), and their content is read again as stored
(``jackpots.rules.jackpot_rule_parse(..., stored=True)``, ``rake.rules.validate_rules(..., stored=True)``),
so the drops of their rounds, their posted rules and their claims read as they were. A room whose
latest version still measures a contribution before the rake loads a new version to change it.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("jackpots", "0017_display_effective_when_witnessed")]

    operations = []
