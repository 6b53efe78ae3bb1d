from typing import Any, cast

from django import forms
from django.apps import apps
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm, UsernameField
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString
from knox.models import AuthToken
from simple_history.admin import SimpleHistoryAdmin

from casino_backoffice.core.admin import ReadOnlyAdmin
from casino_backoffice.core.exceptions import DomainError

from .auth import acting_user
from .models import RefusedAction, SecondFactorEvent, Signature, SignInAttempt, User
from .permissions import Action, may
from .roles import Role
from .second_factor.services import second_factor_reset
from .selectors import manages, people_managed_by
from .services import api_token_revoke, signing_unlock, staff_access_check, staff_access_set


class RoleFilter(admin.SimpleListFilter):
    """People by role, in words (a role is a group named by its code)."""

    title = "role"
    parameter_name = "role"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(role.value, str(role.label)) for role in Role]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        return queryset.filter(groups__name=self.value()) if self.value() else queryset


class _AccessForm:
    """A person's roles, rooms and all-rooms grant on the admin's add and change forms, given by
    ``staff_access_set`` (issue 25, items 1 and 2): rooms, or the all-rooms grant (property-wide staff,
    by choice), never neither. The form offers only what the acting administrator may give
    (``staff_access_check`` says the rules and refuses again): the rooms they hold (every room, and
    the grant, for an all-rooms administrator), roles only for a person of no room but theirs, and
    nothing on their own page.

    Roles are offered in words in place of groups: a person's roles are their groups, each role's
    group holds exactly the permissions of ``roles.ROLE_PERMISSIONS`` (``roles_sync`` after every
    migrate), and a group that is no role would be a grant beside the table. ``is_superuser`` and raw
    ``user_permissions`` are not offered at all (the operator makes a superuser at the command line),
    and whether a person works in the back office (``is_staff``) follows their roles."""

    fields: dict[str, forms.Field]
    instance: User
    cleaned_data: dict[str, Any]
    acting: User

    def _add_access_fields(self, acting: User) -> None:
        self.acting = acting
        person = self.instance if self.instance.pk else None
        rooms = apps.get_model("tables", "PokerRoom").objects.order_by("code")
        if not acting.works_everywhere:
            rooms = rooms.filter(staff=acting)
        cast(forms.ModelMultipleChoiceField, self.fields["rooms"]).queryset = rooms
        self.fields["all_rooms"].disabled = not acting.works_everywhere
        if person is None:
            return
        self.fields["rooms"].initial = list(person.poker_rooms.values_list("pk", flat=True))
        self.fields["roles"].initial = [role.value for role in Role if role in person.roles]
        self.fields["all_rooms"].initial = person.all_rooms
        if person.pk == acting.pk:
            for name in ("roles", "rooms", "all_rooms"):
                self.fields[name].disabled = True
            self.fields["roles"].help_text = "Your own roles are given by another administrator."
            self.fields["rooms"].help_text = "Your own rooms are given by another administrator."
            return
        if not acting.works_everywhere:
            mine = acting.poker_rooms.values("pk")
            elsewhere = person.poker_rooms.exclude(pk__in=mine).order_by("code").values_list("code", flat=True)
            if elsewhere:
                self.fields["roles"].disabled = True
                self.fields["roles"].help_text = (
                    f"{person} also works in a room you do not administer ({', '.join(elsewhere)}): their roles are "
                    "changed by an administrator of every room they work in."
                )

    def _access_wanted(self) -> tuple[list[Role], list[Any], bool]:
        """The roles, the whole set of rooms and the grant the person is to hold: what they hold where
        a field is not offered, and the rooms not offered to the acting administrator as they are."""
        person = self.instance if self.instance.pk else None
        data = self.cleaned_data
        held_rooms = set(person.poker_rooms.all()) if person is not None else set()
        if self.fields["roles"].disabled:
            roles = [role for role in Role if person is not None and role in person.roles]
        else:
            roles = [Role(value) for value in data.get("roles", [])]
        rooms = held_rooms
        if not self.fields["rooms"].disabled:
            offered = set(cast(forms.ModelMultipleChoiceField, self.fields["rooms"]).queryset or ())
            rooms = (held_rooms - offered) | set(data.get("rooms", []))
        if self.fields["all_rooms"].disabled:
            all_rooms = bool(person is not None and person.all_rooms)
        else:
            all_rooms = bool(data.get("all_rooms"))
        return roles, sorted(rooms, key=lambda room: room.code), all_rooms

    def _check_access(self, data: dict[str, Any]) -> dict[str, Any]:
        roles, rooms, all_rooms = self._access_wanted()
        if not rooms and not all_rooms and not self.fields["rooms"].disabled:
            raise forms.ValidationError(
                "Give the rooms this person works in, or the all-rooms grant (property-wide staff only): a person "
                "given neither works nowhere."
            )
        person = self.instance if self.instance.pk else None
        try:
            staff_access_check(actor=self.acting, user=person, roles=roles, rooms=rooms, all_rooms=all_rooms)
        except DomainError as error:
            raise forms.ValidationError(error.message) from None
        return data

    def save_access(self, user: User, *, new: bool) -> None:
        roles, rooms, all_rooms = self._access_wanted()
        staff_access_set(user=user, actor=self.acting, roles=roles, rooms=rooms, all_rooms=all_rooms, new=new)


def _roles_field() -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        choices=Role.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="What this person does: a role is held in every room they work in.",
    )


def _rooms_field() -> forms.ModelMultipleChoiceField:
    return forms.ModelMultipleChoiceField(
        queryset=apps.get_model("tables", "PokerRoom").objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="The poker rooms this person works in: a person given none works nowhere.",
    )


def _all_rooms_field() -> forms.BooleanField:
    field = User._meta.get_field("all_rooms")
    return forms.BooleanField(label=field.verbose_name.capitalize(), required=False, help_text=field.help_text)


class StaffCreationForm(_AccessForm, AdminUserCreationForm):
    roles = _roles_field()
    rooms = _rooms_field()
    all_rooms = _all_rooms_field()

    class Meta:
        model = User
        fields = ("username", "credential_number")
        field_classes = {"username": UsernameField}

    def clean(self) -> dict[str, Any]:
        return self._check_access(super().clean() or {})


class StaffChangeForm(_AccessForm, UserChangeForm):
    roles = _roles_field()
    rooms = _rooms_field()
    all_rooms = _all_rooms_field()

    class Meta:
        model = User
        fields = ("username", "password", "first_name", "last_name", "email", "is_active", "credential_number")
        field_classes = {"username": UsernameField}

    def clean(self) -> dict[str, Any]:
        return self._check_access(super().clean() or {})


@admin.register(User)
class StaffAdmin(SimpleHistoryAdmin, UserAdmin):
    """The people of the acting administrator's rooms (issue 25, item 2): the list, each person's page,
    password, deletion, history and the actions show only the people they work beside
    (``selectors.people_managed_by``); another room's person is a person who does not exist. Roles,
    rooms and the all-rooms grant are given by ``staff_access_set`` (``_AccessForm`` says what is
    offered); ``is_superuser``, groups and raw permissions are not offered. A person's record is never
    reverted from its history: a revert would restore roles and flags unchecked."""

    form = StaffChangeForm
    add_form = StaffCreationForm
    list_display = ["username", "full_name", "credential_number", "role_names", "is_active", "signing_locked_at"]
    list_filter = [RoleFilter, "is_active", "is_staff"]
    search_fields = ["username", "first_name", "last_name", "credential_number"]
    readonly_fields = ["back_office", "failed_pin_attempts", "signing_locked_at", "last_login", "date_joined"]
    fieldsets = (
        (None, {"fields": ("username", "password")}),
        ("Personal info", {"fields": ("first_name", "last_name", "email")}),
        ("Roles and rooms", {"fields": ("roles", "rooms", "all_rooms", "is_active", "back_office")}),
        ("Board credential and signing", {"fields": ("credential_number", "failed_pin_attempts", "signing_locked_at")}),
        ("Important dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": (
                    "username",
                    "credential_number",
                    "usable_password",
                    "password1",
                    "password2",
                    "roles",
                    "rooms",
                    "all_rooms",
                ),
            },
        ),
    )
    filter_horizontal = ()
    actions = ["unlock_signing", "reset_second_factor"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        return people_managed_by(request.user, super().get_queryset(request)).prefetch_related("groups")

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        acting = acting_user(request)

        class WithAccess(form):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self._add_access_fields(acting)

        return WithAccess

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        form.save_access(form.instance, new=not change)

    def history_view(self, request: HttpRequest, object_id: str, extra_context: Any = None) -> Any:
        # simple_history shows the history of a row its list does not hold (from the history itself).
        if self.get_object(request, unquote(object_id)) is None:
            raise Http404("No such person among the people of your rooms.")
        return super().history_view(request, object_id, extra_context)

    def history_form_view(
        self, request: HttpRequest, object_id: str, version_id: str, extra_context: Any = None
    ) -> Any:
        if self.get_object(request, unquote(object_id)) is None:
            raise Http404("No such person among the people of your rooms.")
        if request.method == "POST":
            raise PermissionDenied("A person's record is not reverted: their roles and rooms are given on their page.")
        return super().history_form_view(request, object_id, version_id, extra_context)

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def has_add_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.STAFF_MANAGE)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.STAFF_MANAGE) and (obj is None or manages(request.user, obj))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.STAFF_MANAGE) and (obj is None or manages(request.user, obj))

    def has_unlock_signing_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.SIGNING_UNLOCK)

    def has_reset_second_factor_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.SECOND_FACTOR_RESET)

    @admin.display(description="Works in the back office", boolean=True)
    def back_office(self, user: User) -> bool:
        """``is_staff``, which follows the roles (``staff_access_set``): not a field of its own."""
        return user.is_staff

    @admin.display(description="Name", ordering="last_name")
    def full_name(self, user: User) -> str:
        return user.get_full_name()

    @admin.display(description="Roles")
    def role_names(self, user: User) -> str:
        """The roles in words ('Poker shift supervisor'), not the groups' codes."""
        labels = dict(Role.choices)
        return ", ".join(str(labels.get(group.name, group.name)) for group in user.groups.all())

    @admin.action(description="Unlock signing after wrong PINs", permissions=["unlock_signing"])
    def unlock_signing(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset:
            try:
                signing_unlock(user=user, actor=acting_user(request))
            except DomainError as error:
                self.message_user(request, error.message, messages.ERROR)
                return
        self.message_user(request, f"Signing unlocked for {queryset.count()} people.")

    @admin.action(
        description="Reset the second factor (a lost phone: password alone until they set up another)",
        permissions=["reset_second_factor"],
    )
    def reset_second_factor(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        reset = []
        for user in queryset:
            try:
                if second_factor_reset(user=user, actor=acting_user(request)):
                    reset.append(user.get_username())
            except DomainError as error:
                self.message_user(request, error.message, messages.ERROR)
                return
        if reset:
            self.message_user(request, f"Second factor reset for {', '.join(reset)} (recorded).")
        else:
            self.message_user(request, "None of them had a second factor.", messages.WARNING)


@admin.register(Signature)
class SignatureAdmin(ReadOnlyAdmin):
    list_display = ["signed_at", "document_type", "document_id", "purpose", "signer", "role", "credential_number"]
    list_filter = ["document_type", "purpose", "role"]
    list_select_related = ["signer", "document_type"]
    search_fields = ["credential_number", "signer__username", "document_id"]
    date_hierarchy = "signed_at"


@admin.register(SignInAttempt)
class SignInAttemptAdmin(ReadOnlyAdmin):
    """Every attempt to sign in with a password, for compliance: who, when, from where, and whether it
    was refused because the person was locked out."""

    list_display = ["at", "username", "succeeded", "reason", "refused_locked", "address"]
    list_filter = ["succeeded", "reason", "refused_locked"]
    search_fields = ["username", "address"]
    date_hierarchy = "at"


@admin.register(RefusedAction)
class RefusedActionAdmin(ReadOnlyAdmin):
    """Every action refused to a person whose roles may not take it, for compliance."""

    list_display = ["at", "username", "action", "roles"]
    list_filter = ["action"]
    search_fields = ["username", "action"]
    date_hierarchy = "at"


@admin.register(SecondFactorEvent)
class SecondFactorEventAdmin(ReadOnlyAdmin):
    """Every second factor turned on, removed by its person or reset by an administrator, for compliance."""

    list_display = ["at", "user", "kind", "actor"]
    list_filter = ["kind"]
    list_select_related = ["user", "actor"]
    search_fields = ["user__username", "actor__username"]
    date_hierarchy = "at"

    def get_queryset(self, request: HttpRequest) -> QuerySet[SecondFactorEvent]:
        # The second factors of the people of the reader's rooms only (issue 25, item 2).
        return super().get_queryset(request).filter(user__in=people_managed_by(request.user, User.objects.all()))


# Roles are groups whose permissions are the table of ``roles.ROLE_PERMISSIONS`` (``roles_sync`` after
# every migrate): a page that edits a group, or makes one that is no role, would grant beside the table.
# Imported above, django.contrib.auth's admin has registered its page by now.
if admin.site.is_registered(Group):
    admin.site.unregister(Group)


# knox registers its tokens with their digests in full and a form that makes them; this list shows the
# start of a digest only (nothing a request could carry), and revokes.
if admin.site.is_registered(AuthToken):
    admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """The API tokens of table and cage systems, each acting as one person with that person's roles and
    rooms. A token is made at the command line (``manage.py drf_create_token USERNAME``) and shown
    once; only its digest is stored. An administrator revokes one here."""

    list_display = ["digest_start", "user", "created", "expiry"]
    list_display_links = None
    list_select_related = ["user"]
    search_fields = ["user__username", "user__first_name", "user__last_name", "user__credential_number"]
    date_hierarchy = "created"
    actions = ["revoke"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[AuthToken]:
        # The tokens of the people of the administrator's rooms only (issue 25, item 2).
        return super().get_queryset(request).filter(user__in=people_managed_by(request.user, User.objects.all()))

    @admin.display(description="Digest (start)")
    def digest_start(self, token: AuthToken) -> str:
        return f"{token.digest[:8]}..."

    def action_checkbox(self, token: AuthToken) -> SafeString:
        # The box selects the row by its key (the digest, which knox makes the primary key); its label
        # names the token by its start and its person, not by knox's text of the whole digest.
        label = format_html("Select the API token {} of {}", self.digest_start(token), token.user)
        checkbox = forms.CheckboxInput({"class": "action-select", "aria-label": label}, lambda value: False)
        return checkbox.render(helpers.ACTION_CHECKBOX_NAME, str(token.pk))

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # revoking is the service's, recorded with who did it
        return actions

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.STAFF_MANAGE)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.STAFF_MANAGE)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.STAFF_MANAGE)

    @admin.action(description="Revoke the selected API tokens", permissions=["revoke"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[AuthToken]) -> None:
        revoked = 0
        for token in queryset.select_related("user"):
            try:
                api_token_revoke(token=token, actor=acting_user(request))
            except DomainError as error:
                self.message_user(request, error.message, messages.ERROR)
                return
            revoked += 1
        self.message_user(request, f"{revoked} API token{'s' if revoked != 1 else ''} revoked.")
