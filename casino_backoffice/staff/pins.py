"""How a signing PIN is stored and checked: HMAC-SHA-256 under a key kept outside the database.

A PIN is 4 to 8 digits: at most 10^8 values, which an offline search of any slow hash (Argon2 with
100 MiB, as passwords are hashed) finishes in minutes once the hashes have left the database. So the
slowness protected nothing and cost every signature a second. What protects a PIN is the lock after
``SIGNING_MAX_FAILED_PINS`` wrong ones (``services.pin_check``) and, for stolen hashes, a key the
database does not hold: ``settings.PIN_KEY``, from the environment (required behind a TLS proxy;
derived from the secret key on the embedded default). Without the key a stored PIN cannot be searched
at all; a salt per person keeps two people who chose the same PIN from sharing a hash.

Stored as ``hmac_sha256$<salt>$<hex digest>`` in ``User.pin_hash``. A PIN stored before, with Django's
password hashers (Argon2), is still checked by them, and stored again as an HMAC at its next right use.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.hashers import check_password

PREFIX = "hmac_sha256"


def _digest(*, pin: str, salt: str) -> str:
    key = settings.PIN_KEY.encode()
    return hmac.new(key, f"{salt}${pin}".encode(), hashlib.sha256).hexdigest()


def pin_hash_make(pin: str) -> str:
    """What ``User.pin_hash`` stores for ``pin``: a fresh salt and the HMAC of the salted PIN."""
    salt = secrets.token_hex(16)
    return f"{PREFIX}${salt}${_digest(pin=pin, salt=salt)}"


@dataclass(frozen=True)
class PinMatch:
    """The answer of ``pin_hash_check``: whether the PIN is right, and whether its stored hash is of the
    old kind (a password hasher's) and should be stored again with ``pin_hash_make``."""

    correct: bool
    outdated: bool


def pin_hash_check(*, pin: str, stored: str) -> PinMatch:
    """Whether ``pin`` is the PIN ``stored`` was made from, compared in constant time."""
    kind, _, rest = stored.partition("$")
    if kind == PREFIX:
        salt, _, digest = rest.partition("$")
        return PinMatch(correct=hmac.compare_digest(_digest(pin=pin, salt=salt), digest), outdated=False)
    return PinMatch(correct=check_password(pin, stored), outdated=True)
