"""Turn `project: {languages: [ja, en]}` and per-language text (`{ja: 東風, en: East Wind}`) into checked values."""
from __future__ import annotations

import difflib

from ..errors import Collector
from .load import LList, LMap
from .validate_values import describe, read_value

# ISO 639-1: the two-letter codes a language is named by (output folders, rules/<name>.<code>.md)
CODES = frozenset("""
aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es
et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki
kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no
nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te
tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu""".split())

# a country's code or a three-letter code written for a language's: what it was meant to be
MISTAKEN = {"jp": "ja", "jpn": "ja", "kr": "ko", "kor": "ko", "cn": "zh", "zho": "zh", "chi": "zh", "tw": "zh",
            "eng": "en", "gr": "el", "dk": "da", "ua": "uk", "cz": "cs", "fra": "fr", "fre": "fr", "deu": "de",
            "ger": "de", "spa": "es"}


class Texts(tuple):
    """One text per language of the project, in the order of its `languages` (None where a translation is missing).
    A tuple without a dict of its own: a deck of thousands of translated names costs a small tuple a name."""

    __slots__ = ()

    def pick(self, index: int) -> str:
        """The text of the language at `index`; the original's where that one is missing."""
        found = self[index]
        return self[0] if found is None else found


def read_languages(project_raw: LMap, problems: Collector) -> tuple[str, ...]:
    """The project's languages, the original first; () for a project of one language that does not name it."""
    value = project_raw.get("languages")
    if value is None:
        return ()
    where = project_raw.where("languages")
    if not isinstance(value, LList) or not value:
        problems.add(where, f"'languages' must be a list of language codes, the original first, such as [ja, en]; "
                            f"found {describe(value)}")
        return ()
    codes: list[str] = []
    for index, code in enumerate(value):
        problem = language_problem(code, ())
        if problem is None and code in codes:
            problem = f"'{code}' is listed twice; expected each language once"
        if problem:
            problems.add(value.where(index), problem)
        else:
            codes.append(code)
    return tuple(codes) if len(codes) == len(value) else ()


def language_problem(code, languages: tuple[str, ...]) -> str | None:
    """What is wrong with a language code written in the data (None when it is one of `languages`, or with no
    languages given, any ISO 639-1 code)."""
    if languages and code in languages:
        return None
    expected = f"one of the project's languages ({', '.join(languages)})" if languages else \
        "a two-letter ISO 639-1 code such as ja or en"
    if not isinstance(code, str) or code not in CODES:
        close = [MISTAKEN[code]] if code in MISTAKEN else difflib.get_close_matches(str(code), languages, 1, 0.5)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        return f"unknown language code {describe(code)}; expected {expected}{hint}"
    if languages:
        return f"'{code}' is not one of the project's languages ({', '.join(languages)}); add it to " \
               f"project: languages, or expected {expected}"
    return None


def read_text(raw: LMap, key: str, languages: tuple[str, ...], problems: Collector, default=None):
    """raw[key] as text, or (in a project of several languages) a mapping of one text per language as Texts."""
    value = raw.get(key)
    if isinstance(value, LMap) and len(languages) > 1 and any(k in languages for k in value):
        return texts_of(value, lambda _: raw.where(key), languages, problems, key) or default
    return read_value(raw, key, "text", problems, default=default)


def texts_of(value, place, languages: tuple[str, ...], problems: Collector, name: str) -> Texts | None:
    """A mapping of language -> text as Texts; None when it is not one, reported at place(name) (the field's
    top-level name: a nested value is reported where its field is written)."""
    where = None
    bad = False
    for code, text in value.items():
        problem = language_problem(code, languages)
        if problem is None and not isinstance(text, str):
            problem = f"'{name}' in {code} is {describe(text)}; only text has one value per language (numbers and " \
                      "ids stay single)"
        if problem:
            where = where or place(name.split(".")[0].split("[")[0])
            problems.add(where, f"'{name}': {problem}")
            bad = True
            if not isinstance(text, str):  # said once: the other languages' values are no more text
                break
    if languages[0] not in value and not bad:
        problems.add(place(name.split(".")[0].split("[")[0]), f"'{name}' has no text in {languages[0]}, the original "
                                                              "language; expected "
                            f"{{{languages[0]}: …, {', '.join(f'{code}: …' for code in languages[1:])}}}")
        bad = True
    return None if bad else Texts(value.get(code) for code in languages)
