"""Room membership denies by default: the all-rooms grant, and today's people given their rooms.

Before this migration a person assigned to no room worked in every room. After it, such a person works
nowhere until given rooms or the all-rooms grant. So that nobody loses the work they do today, each
person assigned to no room is given, once, by this migration:

- the all-rooms grant, when they are a superuser or hold a property-wide role (finance, compliance,
  administrator): they worked in every room and keep doing so, now by an explicit grant;
- otherwise the rooms they have acted in: the rooms of every document they signed;
- otherwise nothing: they are refused everywhere, with a message that says so, until an administrator
  gives them rooms. The migration prints who they are.
"""

from collections import deque

from django.db import migrations, models

from casino_backoffice.core.immutable import insert_only_again

PROPERTY_WIDE = {"finance", "compliance", "administrator"}


def _room_path(model, room_model):
    """The foreign-key path from ``model`` to the poker room (``"table__room"``), or None."""
    queue = deque([(model, "")])
    seen = {model}
    while queue:
        current, path = queue.popleft()
        for field in current._meta.get_fields():
            target = getattr(field, "related_model", None)
            if not getattr(field, "many_to_one", False) and not getattr(field, "one_to_one", False):
                continue
            if target is None or not getattr(field, "concrete", False):
                continue
            lookup = f"{path}__{field.name}" if path else field.name
            if target is room_model:
                return lookup
            if target not in seen and lookup.count("__") < 3:
                seen.add(target)
                queue.append((target, lookup))
    return None


def give_rooms(apps, schema_editor):
    User = apps.get_model("staff", "User")
    Signature = apps.get_model("staff", "Signature")
    PokerRoom = apps.get_model("tables", "PokerRoom")
    through = PokerRoom.staff.through
    assigned = set(through.objects.values_list("user_id", flat=True))
    paths = {}
    left_without = []
    for user in User.objects.exclude(pk__in=assigned).order_by("pk"):
        roles = set(user.groups.values_list("name", flat=True))
        if user.is_superuser or roles & PROPERTY_WIDE:
            User.objects.filter(pk=user.pk).update(all_rooms=True)
            continue
        rooms = set()
        for signature in Signature.objects.filter(signer_id=user.pk).select_related("document_type"):
            kind = signature.document_type
            try:
                model = apps.get_model(kind.app_label, kind.model)
            except LookupError:
                continue
            if model not in paths:
                paths[model] = "pk" if model is PokerRoom else _room_path(model, PokerRoom)
            path = paths[model]
            if path is None:
                continue
            lookup = "pk" if path == "pk" else f"{path}__pk"
            room_id = model.objects.filter(pk=signature.document_id).values_list(lookup, flat=True).first()
            if room_id is not None:
                rooms.add(room_id)
        if rooms:
            through.objects.bulk_create([through(user_id=user.pk, pokerroom_id=room_id) for room_id in sorted(rooms)])
        else:
            left_without.append(user.username)
    if left_without:
        print(
            f"\n  Rooms: {len(left_without)} person(s) assigned to no room, holding no property-wide role and "
            f"having signed nothing, now work in no room until an administrator gives them rooms: "
            f"{', '.join(left_without)}"
        )


class Migration(migrations.Migration):

    dependencies = [
        ("staff", "0011_second_factor"),
        ("tables", "0010_room_staff"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AddField(
            model_name='historicaluser',
            name='all_rooms',
            field=models.BooleanField(default=False, db_default=False, help_text='The all-rooms grant, for property-wide staff (finance, compliance, an administrator) by choice: a person without it works only in the rooms they are given, and in none until they are given one.', verbose_name='works in every room'),
        ),
        migrations.AddField(
            model_name='user',
            name='all_rooms',
            field=models.BooleanField(default=False, db_default=False, help_text='The all-rooms grant, for property-wide staff (finance, compliance, an administrator) by choice: a person without it works only in the rooms they are given, and in none until they are given one.', verbose_name='works in every room'),
        ),
        # SQLite rebuilds the history table to add the column: its insert-only triggers are set again.
        insert_only_again("staff_historicaluser"),
        migrations.RunPython(give_rooms, migrations.RunPython.noop),
]
