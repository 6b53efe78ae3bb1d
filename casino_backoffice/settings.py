"""Settings for the poker-room back office.

One settings module for every environment, read from the process environment:

- With nothing set (``make run``), the embedded default: SQLite under ``var/`` and kombu's
  ``filesystem://`` broker, so a fresh machine with only Python runs the whole service.
- With ``DATABASE_URL`` (``postgres://...``) and ``CELERY_BROKER_URL`` (``redis://...``) set, the same
  code runs on PostgreSQL and Redis (``make test`` sets them).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from casino_backoffice.money import parse_cents

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CASINO_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _secret_key() -> str:
    """The key from the environment, else one generated once and kept in ``var/`` so sessions survive restarts."""
    if key := os.environ.get("DJANGO_SECRET_KEY"):
        return key
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = _env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")

INSTALLED_APPS = [
    # API tokens stored as digests (django-rest-knox); before staff, whose admin replaces knox's list of
    # tokens (which shows whole digests) by one that shows their start and revokes.
    "knox",
    # First of the project, so that its createsuperuser (credential number and PIN) and drf_create_token
    # (a knox token, printed once) are the ones manage.py runs.
    "casino_backoffice.staff",
    # The admin site whose sign-in asks a person with a second factor for their code (staff.second_factor).
    "casino_backoffice.staff.second_factor.admin_site.StaffAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "django_htmx",
    "simple_history",
    # The second factor's devices (TOTP, RFC 6238): staff.second_factor.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "casino_backoffice.core",
    "casino_backoffice.ledger",
    "tables",
    "rake",
    "jackpots",
    "cage",
    # Reads across every app: the trace of a dollar, its search, a gaming day's package.
    "audit",
    # The demo loader (``manage.py load_demo``): a composition root that may name every app.
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The API's request size limits (413, 414), before anything reads the request.
    "casino_backoffice.core.middleware.ApiRequestLimitsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "casino_backoffice.staff.sessions.SessionTimeoutMiddleware",
    "casino_backoffice.staff.second_factor.middleware.SecondFactorEnrolmentMiddleware",
    # Rooms deny by default: a person given no room and not the all-rooms grant is refused every page.
    "casino_backoffice.staff.rooms_middleware.NoRoomMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "casino_backoffice.core.middleware.ContentSecurityPolicyMiddleware",
    "casino_backoffice.core.middleware.RefuseNulMiddleware",
    "casino_backoffice.core.middleware.RefuseEmptyParameterMiddleware",
]

ROOT_URLCONF = "casino_backoffice.urls"
WSGI_APPLICATION = "casino_backoffice.wsgi.application"
ASGI_APPLICATION = "casino_backoffice.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "casino_backoffice" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web workers and the Celery worker write to one file: wait for the lock instead of failing,
    # and take the write lock at BEGIN so a read-then-write transaction cannot deadlock.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Short reads whose size the planner cannot know (the balances of 150 boxes, each its transfers
    # after its latest checkpoint) are estimated above PostgreSQL's JIT threshold and spent 150 ms
    # compiling for 10 ms of work (benchmarks/bench_cage.py): this application's queries run without JIT.
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = f"{_options.get('options', '')} -c jit=off".strip()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "staff.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
LOGIN_URL = "floor:login"
LOGIN_REDIRECT_URL = "floor:home"
LOGOUT_REDIRECT_URL = "floor:login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/New_York"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "casino_backoffice" / "static"]
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Serve app static files without collectstatic too (tests, a fresh checkout); `make run` collects.
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"

# --- Behind a TLS proxy (docs/deployment.md) -----------------------------------------------------------
# DJANGO_HTTPS=true: the proxy terminates TLS and says so in X-Forwarded-Proto; every plain-HTTP request
# is redirected (but the health check, which the proxy and the orchestrator ask over plain HTTP), the
# browser is told to use HTTPS only (HSTS), and cookies travel only over HTTPS.
if _env_bool("DJANGO_HTTPS", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    CSRF_TRUSTED_ORIGINS = [f"https://{host}" for host in ALLOWED_HOSTS if host and host != "*"]

# --- Signing in ----------------------------------------------------------------------------------
# Wrong passwords in a row for one person before their sign-in is refused for SIGNIN_LOCKOUT
# (``staff.signin``); another person at the same terminal is not affected.
SIGNIN_MAX_FAILURES = 10
SIGNIN_LOCKOUT = timedelta(minutes=15)
# A session is signed out after this long without a request, and this long after its sign-in
# (``staff.sessions``); the cookie itself lasts no longer than the second.
SESSION_IDLE_TIMEOUT = timedelta(minutes=int(os.environ.get("DJANGO_SESSION_IDLE_MINUTES", "30")))
SESSION_ABSOLUTE_TIMEOUT = timedelta(hours=int(os.environ.get("DJANGO_SESSION_ABSOLUTE_HOURS", "12")))
SESSION_COOKIE_AGE = int(SESSION_ABSOLUTE_TIMEOUT.total_seconds())
# The second factor (``staff.second_factor``): a time-based code from an authenticator app, offered to
# shift supervisors, poker room managers, finance and administrators and asked at sign-in of those who
# turned it on. STAFF_SECOND_FACTOR_REQUIRED_ROLES (role codes, comma-separated, e.g.
# "finance,administrator") makes it required for those roles: such a person who has none is sent to set
# it up at their next sign-in. Wrong codes count toward the sign-in lockout above, the one rule, so
# django-otp's own throttling is off.
STAFF_SECOND_FACTOR_REQUIRED_ROLES = tuple(
    role.strip() for role in os.environ.get("STAFF_SECOND_FACTOR_REQUIRED_ROLES", "").split(",") if role.strip()
)
# Between the right password and the code.
STAFF_SECOND_FACTOR_CODE_WINDOW = timedelta(minutes=5)
OTP_TOTP_ISSUER = os.environ.get("STAFF_SECOND_FACTOR_ISSUER", "Poker room back office")
OTP_TOTP_THROTTLE_FACTOR = 0
# The admin never shows a device's key or QR code (the person sees theirs once, on the tablet).
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

# --- Signing -------------------------------------------------------------------------------------
# Wrong PINs in a row before a person's signing is locked until an administrator unlocks it.
SIGNING_MAX_FAILED_PINS = 5


def _pin_key() -> str:
    """The key of the PINs' HMAC (``staff.pins``), kept outside the database: PIN_KEY from the environment,
    required behind a TLS proxy; on the embedded default, derived from the secret key with a label of its
    own, so that `make run` needs nothing and the two keys never are the same string."""
    if key := os.environ.get("PIN_KEY", "").strip():
        if len(key) < 32:
            raise ImproperlyConfigured("PIN_KEY is too short: give at least 32 random characters.")
        return key
    if _env_bool("DJANGO_HTTPS", False):
        raise ImproperlyConfigured(
            "PIN_KEY is not set: behind a TLS proxy the signing PINs need a key of their own, outside the "
            "database (docs/deployment.md, Deployment behind a TLS proxy)."
        )
    return hmac.new(SECRET_KEY.encode(), b"casino_backoffice.staff.pins PIN_KEY", hashlib.sha256).hexdigest()


PIN_KEY = _pin_key()

# --- Jackpot payouts -----------------------------------------------------------------------------
# A share of a jackpot payout at or above this amount (in cents) is flagged for tax documentation when
# it is paid; the room's accounting sets it (TAX_REPORTING_THRESHOLD, dollars, default 1200.00).
TAX_REPORTING_THRESHOLD_CENTS = parse_cents(os.environ.get("TAX_REPORTING_THRESHOLD", "1200.00"))

# --- Reports ---------------------------------------------------------------------------------------
# The poker revenue report (rake, below the cage) reads what the cage made official as revenue through
# this reader: the settings are a composition root, and may name the app above.
POKER_REVENUE_COUNTED = "cage.reports.revenue_counted"
# What the cage made official of a closed High Hand period's contributions, once its boxes are all counted
# and verified (None until then): the jackpots (below the cage) settle the period's pool from it.
HIGH_HAND_CONTRIBUTIONS_COUNTED = "cage.services.high_hand.period_contributions_counted"
# Whether finance closed a gaming day (tables, below the cage, refuses what would change a closed day's
# revenue, §637a.17): the cage's reader of its closes.
GAMING_DAY_CLOSED = "cage.gaming_days.gaming_day_closed"
# The parser of a stored rules version (tables, below the rake, caches one parsed Rules per version that
# the rake and the jackpot products read their parts of; ``tables.selectors.rules_version_parsed``).
POSTED_RULES_PARSER = "rake.rules.posted_rules_parse"
# What a round's void returned to the pot (its rake, each jackpot's drop), by the void's irregularity: the
# irregularity log (tables, below the rake) shows the money a void moved (``rake.services.voids``).
IRREGULARITY_VOIDS_RETURNED = "rake.services.voids.voids_returned"
# Which rows a person sees: those of the rooms they work in (the kernel knows no rooms; tables does).
ROOMS_VISIBLE_TO = "tables.selectors.visible_to"
# Whether one person works in a room of another (an administrator unlocking a person's signing).
ROOMS_SHARED_BY = "tables.selectors.works_beside"

# --- API -----------------------------------------------------------------------------------------
# Request size limits under /api/ (core.middleware.ApiRequestLimitsMiddleware), each a JSON error: a
# body over DATA_UPLOAD_MAX_MEMORY_SIZE bytes (Django's default, stated here) is a 413, a URL over
# API_MAX_URL_LENGTH characters a 414. The Procfile's gunicorn takes request lines up to 8190 bytes,
# so the app answers a long URL first (a longer line gets gunicorn's own 414).
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
API_MAX_URL_LENGTH = 4096
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # `Authorization: Token <token>`: a table or cage system acting as one person (their roles and rooms).
        # First, so that a request with no credentials is a 401 with `WWW-Authenticate: Token` (DRF asks
        # the first authenticator for the header), not a 403.
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["casino_backoffice.staff.api_permissions.ActionPermission"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "casino_backoffice.core.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "casino_backoffice.core.pagination.BoundedLimitOffsetPagination",
    # JSON bodies only: money is a JSON string and a seat, a count or an id a JSON integer, which no form
    # can send; any other media type is a 415 (the schema lists JSON alone).
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "PAGE_SIZE": 100,
}
# An API token never expires by itself (a table system runs for months); an administrator revokes it in
# the admin. Only its SHA-512 digest is stored: `manage.py drf_create_token USERNAME` prints it once.
REST_KNOX = {"TOKEN_TTL": None, "AUTH_HEADER_PREFIX": "Token", "AUTO_REFRESH": False}
SPECTACULAR_SETTINGS = {
    "TITLE": "Poker-room back office API",
    "DESCRIPTION": "Rounds of play, rake, jackpots, counts and the cage (58 Pa. Code).",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for a choice set that two fields of the Bad Beat API use (a share, and a paid share's name).
    "ENUM_NAME_OVERRIDES": {
        "BadBeatShareEnum": "jackpots.bad_beat.models.ShareName.choices",
        "IrregularityKindEnum": "tables.irregularities.kinds.IrregularityKind.choices",
    },
    # The answers the kernel gives around any view (400, 401, 403, 404, 405), on every operation.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "casino_backoffice.core.schema.kernel_answers",
        "casino_backoffice.core.schema.trimmed_text",
    ],
}

# --- Celery --------------------------------------------------------------------------------------
_BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    for sub in ("in", "processed", "control"):
        (_BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_BROKER_DIR / "in"),
        "data_folder_out": str(_BROKER_DIR / "in"),
        "processed_folder": str(_BROKER_DIR / "processed"),
        "control_folder": str(_BROKER_DIR / "control"),
        "store_processed": False,
    }
    (VAR_DIR / "results").mkdir(parents=True, exist_ok=True)
    CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", f"file://{VAR_DIR / 'results'}")
else:
    CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = _env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Beat entries tick often and call idempotent services; a unique key per period or sheet makes a
# second run a no-op (docs/architecture.md, Stack notes).
HEARTBEAT_SECONDS = float(os.environ.get("HEARTBEAT_SECONDS", "15"))
CELERY_BEAT_SCHEDULE = {
    "heartbeat": {"task": "casino_backoffice.core.tasks.heartbeat", "schedule": HEARTBEAT_SECONDS},
    # Count sheets due (each gaming day, each ended High Hand period) and overdue: cage.services.schedule.
    "count-schedule": {"task": "cage.tasks.schedule_tick", "schedule": 60.0},
    # Decks kept past their limit at the open banked tables (§655a.3(c), §657a.3(c)): tables.equipment.
    "deck-schedule": {"task": "tables.tasks.decks_overdue_tick", "schedule": 60.0},
    # Balance checkpoints, so that a balance costs the same however long the history: ledger.checkpoints.
    "balance-checkpoints": {"task": "casino_backoffice.ledger.tasks.checkpoints_tick", "schedule": 60.0},
    # The data files of each gaming day closed since, sealed once: audit.package.seal.
    "package-seals": {"task": "audit.tasks.package_seals_tick", "schedule": 60.0},
}
# Several deployments (or test runs) can share one broker without taking each other's tasks.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "casino_backoffice")
# /healthz reports the scheduler unhealthy when its last beat is older than this.
HEARTBEAT_STALE_SECONDS = int(os.environ.get("HEARTBEAT_STALE_SECONDS", "90"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # WeasyPrint tells each step of each PDF it renders at INFO.
    "loggers": {"weasyprint": {"level": "WARNING"}, "fontTools": {"level": "WARNING"}},
}
