"""The languages of the web table's pages: the one a request asks for, and the message catalogues.

A page's language is ``?lang=xx`` when given (and then remembered in the ``lang`` cookie), else
the cookie's, else the best of the browser's ``Accept-Language`` that the table speaks, else English.
The messages are gettext catalogues, ``locale/<lang>/LC_MESSAGES/ginnyo.po``, read once with Babel:
each message's id is a stable key (``rules.tiles.title``), and the English catalogue is the one the
others are checked against (tests/web/test_i18n.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

from babel import Locale
from babel.messages.pofile import read_po

LANGUAGES = {"en": "English", "el": "Ελληνικά", "fy": "Frysk", "eo": "Esperanto", "pa": "ਪੰਜਾਬੀ"}
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "lang"
LOCALE_DIR = Path(__file__).parent.parent / "locale"
DOMAIN = "ginnyo"
# Script subtags that a language of LANGUAGES is not written in: Punjabi in Shahmukhi is not ours.
OTHER_SCRIPTS = {"pa": {"arab"}}
MESSAGE = re.compile(r"\{\{msg ([a-z0-9_.-]+)\}\}")


@dataclass(frozen=True)
class LanguageChoice:
    """The language a page is in, and whether the answer sets the cookie (after ``?lang=``)."""

    language: str
    remember: bool = False


def choose_language(asked: str | None, remembered: str | None, accept_language: str | None) -> LanguageChoice:
    """The language for a request: ``asked`` (``?lang=``), else ``remembered`` (the cookie), else the
    ``Accept-Language`` header's best.  An unknown ``asked`` is a ValueError; an unknown cookie is
    passed over, as a stale one may be."""
    if asked is not None:
        if asked not in LANGUAGES:
            raise ValueError(f"field 'lang': must be one of {', '.join(LANGUAGES)}")
        return LanguageChoice(asked, remember=True)
    if remembered in LANGUAGES:
        assert remembered is not None
        return LanguageChoice(remembered)
    return LanguageChoice(negotiate(accept_language))


def negotiate(accept_language: str | None) -> str:
    """The language of :data:`LANGUAGES` the header ``Accept-Language`` prefers (RFC 9110 §12.5.4:
    ranges weighted by ``q``, the first listed first among equals, ``q=0`` refused), else English."""
    weighted: list[tuple[float, int, str]] = []
    for order, part in enumerate((accept_language or "").split(",")):
        tag, _, parameters = part.partition(";")
        language = _supported(tag.strip().lower())
        quality = _quality(parameters)
        if language is not None and quality > 0:
            weighted.append((-quality, order, language))
    return min(weighted)[2] if weighted else DEFAULT_LANGUAGE


def _supported(tag: str) -> str | None:
    """The language of :data:`LANGUAGES` a language range (``pa-Guru-IN``, ``fy``) names, if any."""
    primary, *subtags = tag.split("-")
    if primary not in LANGUAGES or any(subtag in OTHER_SCRIPTS.get(primary, ()) for subtag in subtags):
        return None
    return primary


def _quality(parameters: str) -> float:
    """A range's weight: its ``q=`` (0 to 1), 1 without one, 0 when it does not read."""
    for parameter in parameters.split(";"):
        name, _, value = parameter.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                quality = float(value.strip())
            except ValueError:
                return 0.0
            return quality if 0 <= quality <= 1 else 0.0
    return 1.0


def catalogue_path(language: str) -> Path:
    """Where the catalogue of ``language`` is kept."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalogue(language: str) -> dict[str, str]:
    """The translated messages of ``language``'s catalogue, key -> text (fuzzy or empty ones left out,
    so that they fall back to English)."""
    with catalogue_path(language).open("rb") as source:
        read = read_po(source, locale=language, domain=DOMAIN)
    return {str(message.id): str(message.string) for message in read
            if message.id and message.string and not message.fuzzy}


def translate(language: str, key: str) -> str:
    """The message ``key`` in ``language``, else in English; KeyError when English has no such key."""
    return catalogue(language).get(key) or catalogue(DEFAULT_LANGUAGE)[key]


def one_counts(language: str) -> list[int]:
    """The counts among 0 and 1 that take a plural message's ``.one`` form in ``language`` (CLDR's
    rules, through Babel): ``[1]``, or ``[0, 1]`` in Punjabi.  Every other whole count takes
    ``.other`` in each language of :data:`LANGUAGES` (tests/web/test_i18n.py checks it)."""
    rules = Locale.parse(language)
    return [count for count in (0, 1) if rules.plural_form(count) == "one"]


def script_messages(language: str, prefixes: tuple[str, ...]) -> dict[str, object]:
    """What a page's scripts read (common.js ``t()``): its language, the counts of :func:`one_counts`
    and the messages whose keys begin with one of ``prefixes``, in ``language`` (else English)."""
    keys = sorted(key for key in catalogue(DEFAULT_LANGUAGE) if key.startswith(prefixes))
    return {"lang": language, "one": one_counts(language),
            "messages": {key: translate(language, key) for key in keys}}


def localise(template: str, language: str) -> str:
    """``template`` (HTML) with each ``{{msg key}}`` replaced by that message, escaped, in ``language``."""
    return MESSAGE.sub(lambda found: escape(translate(language, found.group(1))), template)


__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "LANGUAGE_COOKIE", "LanguageChoice", "choose_language", "negotiate",
           "catalogue_path", "catalogue", "translate", "one_counts", "script_messages", "localise"]
