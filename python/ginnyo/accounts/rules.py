"""An account's name and password: the rules they must keep, and the password's Argon2id hash.

A name is 3 to 20 characters of ASCII letters and digits, ``_`` and ``-``: ASCII alone, so that two
names that look alike are alike (no Cyrillic ``а`` passing for a Latin ``a``) and case-folding is the
plain lower-casing of :func:`name_key`.  Names are unique without regard to case: ``Ann`` and ``ann``
are one name (their key), shown as first written.  A password is 8 to 256 characters, any; it is
hashed with Argon2id (argon2-cffi's :class:`~argon2.PasswordHasher`, its defaults) and never kept."""

from __future__ import annotations

import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..errors import AccountRefused

MIN_NAME, MAX_NAME = 3, 20
MIN_PASSWORD, MAX_PASSWORD = 8, 256
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]+")
HASHER = PasswordHasher()   # Argon2id, RFC 9106's second recommended parameters (64 MiB, 3 passes)
#: a hash of no one's password: checked against when a name is unknown, so that a wrong name takes
#: as long to refuse as a wrong password and the time does not tell which names exist
UNKNOWN_NAME_HASH = HASHER.hash("no account has this password")


def checked_name(value: object) -> str:
    """``value`` as an account's name; AccountRefused naming the rule it breaks."""
    if not isinstance(value, str):
        raise AccountRefused("field 'name': must be a string")
    if not MIN_NAME <= len(value) <= MAX_NAME:
        raise AccountRefused(f"field 'name': must be {MIN_NAME} to {MAX_NAME} characters long")
    if not NAME_PATTERN.fullmatch(value):
        raise AccountRefused("field 'name': may hold only the letters A to Z and a to z, digits, '_' and '-'")
    return value


def name_key(name: str) -> str:
    """The key that makes names unique without regard to case (``Ann`` and ``ann``: ``ann``)."""
    return name.lower()


def checked_password(value: object) -> str:
    """``value`` as a password; AccountRefused naming the rule it breaks (never showing it)."""
    if not isinstance(value, str):
        raise AccountRefused("field 'password': must be a string")
    if len(value) < MIN_PASSWORD:
        raise AccountRefused(f"field 'password': must be at least {MIN_PASSWORD} characters long")
    if len(value) > MAX_PASSWORD:
        raise AccountRefused(f"field 'password': must be at most {MAX_PASSWORD} characters long")
    return value


def password_hash(password: str) -> str:
    """The Argon2id hash of ``password`` (``$argon2id$v=19$m=...``, with its own random salt)."""
    return HASHER.hash(password)


def password_matches(stored_hash: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored_hash`` was made of; with no hash (an unknown name)
    a hash is checked all the same, and the answer is no."""
    try:
        return HASHER.verify(stored_hash or UNKNOWN_NAME_HASH, password) and stored_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored_hash: str) -> bool:
    """Whether ``stored_hash`` was made with other parameters than :data:`HASHER`'s (to be made anew
    at the next sign-in, when the password is at hand)."""
    try:
        return HASHER.check_needs_rehash(stored_hash)
    except (InvalidHashError, ValueError):
        return True


__all__ = ["MIN_NAME", "MAX_NAME", "MIN_PASSWORD", "MAX_PASSWORD", "checked_name", "name_key", "checked_password",
           "password_hash", "password_matches", "needs_rehash"]
