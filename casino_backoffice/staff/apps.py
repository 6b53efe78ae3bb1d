from django.apps import AppConfig


class StaffConfig(AppConfig):
    name = "casino_backoffice.staff"
    label = "staff"
    verbose_name = "Staff and signatures"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        # Groups need the permissions that migrate creates app by app, so they are synced after
        # the last app's post_migrate (idempotent).
        post_migrate.connect(_sync_roles_after_migrate, dispatch_uid="staff.roles_sync")

        from django.db.models.signals import pre_save

        from .signing import refuse_change_of_signed_document

        pre_save.connect(refuse_change_of_signed_document, dispatch_uid="staff.signed_documents")

        from django.contrib.auth.signals import user_logged_in

        from .sessions import session_start

        # The session's clock starts when the person signs in (the login saves the session anyway).
        user_logged_in.connect(session_start, dispatch_uid="staff.session_start")


def _sync_roles_after_migrate(sender, using="default", **kwargs) -> None:
    from django.apps import apps
    from django.contrib.auth.management import create_permissions

    from .services import roles_sync

    # post_migrate fires once per app with models; the last one's signal comes after every other
    # app's permissions exist. Its own are created by django.contrib.auth's receiver, which runs after
    # this one (this app is installed first): create them first, as that receiver would (idempotent).
    if sender.label != [config for config in apps.get_app_configs() if config.models_module is not None][-1].label:
        return
    create_permissions(sender, verbosity=0, using=using, apps=kwargs.get("apps", apps))
    roles_sync(using=using)
