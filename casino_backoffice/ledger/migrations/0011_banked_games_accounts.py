"""Banked games' money is not poker revenue (§637a.17: poker revenue is the rake).

Two account kinds of their own: ``banked_revenue``, the house's share of the Progressive Payout Wagers
(what the rate of progression leaves of each wager), and ``house_funding``, the house's money for a
meter's initial and reset amounts, the fixed 'for 1' payouts and the Envy Bonuses. Before, the share
was filed as poker revenue and the funding as players' money at the table.

Existing rows: every progressive meter's ``progressive:<room>:<meter>:house`` account becomes
``banked_revenue`` and its ``...:house_funding`` account ``house_funding``; codes, names, balances and
transfers stay as they are (no transfer is written or changed). Each change is recorded in the
account's history as a change ('~'), so the audit trail shows the kind the account had before. Neither
new kind is guarded by the never-below-zero trigger (migration 0010): the funding runs negative by
design, and the house share is only ever paid into.
"""

from django.db import migrations, models
from django.utils import timezone

# The code's last part, by the kind it had and the kind it becomes.
MOVES = ((":house", "revenue", "banked_revenue"), (":house_funding", "source", "house_funding"))
REASON = "Banked games' money is not poker revenue (§637a.17)"


def _move(apps, *, forwards: bool) -> None:
    Account = apps.get_model("ledger", "Account")
    HistoricalAccount = apps.get_model("ledger", "HistoricalAccount")
    now = timezone.now()
    for suffix, before, after in MOVES:
        old, new = (before, after) if forwards else (after, before)
        for account in Account.objects.filter(code__startswith="progressive:", code__endswith=suffix, kind=old):
            # An update, not a save: no signal of today's models runs inside a migration.
            Account.objects.filter(pk=account.pk).update(kind=new)
            HistoricalAccount.objects.create(
                id=account.pk,
                code=account.code,
                name=account.name,
                kind=new,
                opened_at=account.opened_at,
                closed_at=account.closed_at,
                history_date=now,
                history_change_reason=REASON,
                history_type="~",
            )


def forwards(apps, schema_editor):
    _move(apps, forwards=True)


def backwards(apps, schema_editor):
    _move(apps, forwards=False)


KINDS = [
    ("source", "Players' money at the table (pots)"),
    ("drop_box", "Table drop box (rake)"),
    ("jackpot_box", "Jackpot box"),
    ("container", "Container in transit"),
    ("cage", "Cage"),
    ("fund", "Jackpot fund (official)"),
    ("revenue", "Poker revenue"),
    ("banked_revenue", "Banked games' house share (not poker revenue)"),
    ("house_funding", "House funding of banked games"),
    ("payout", "Paid to patrons"),
    ("variance", "Count variance"),
]


class Migration(migrations.Migration):
    dependencies = [("ledger", "0010_never_below_zero")]

    operations = [
        migrations.AlterField(model_name="account", name="kind", field=models.CharField(choices=KINDS, max_length=20)),
        migrations.AlterField(
            model_name="historicalaccount", name="kind", field=models.CharField(choices=KINDS, max_length=20)
        ),
        migrations.RunPython(forwards, backwards),
    ]
