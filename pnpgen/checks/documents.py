"""Turn cited documents and quotes into findings: the document exists inside documents/, the quote stands in
it, and each figure the data claims is the figure the quoted phrase states."""
from __future__ import annotations

import difflib
import re
import stat
from pathlib import PurePosixPath

from ..errors import Location
from ..project.model import Expectation, Game, Project, Source
from .findings import FAIL, PASS, WARN, Finding
from .numerals import find_numbers, numbers_for_players, parse_number

MAX_DOCUMENT = 8 * 1024 * 1024  # a design document is text; anything larger is not read
_LIST = r"[0-9０-９]+(?:[・、,，][0-9０-９]+)+"
_EQUATION = re.compile(rf"({_LIST})\s*[＝=]\s*({_LIST})")
_PAIR = re.compile(r"([0-9０-９]+)\s*[：:]\s*([0-9０-９]+)")
_RANGE = re.compile(r"([0-9０-９]+)\s*[〜～~\-－]\s*([0-9０-９]+)")


class Documents:
    """The project's documents/ folder, read once per check run."""

    def __init__(self, project: Project):
        self.root = project.root
        self.folder = project.root / "documents"
        self.texts: dict[str, str | None] = {}
        self.raws: dict[str, str] = {}  # as written, for the line:col of a place in it
        self.problems: dict[str, str] = {}

    def text(self, name: str) -> str | None:
        """The normalised text of a document, or None (with the reason in self.problems)."""
        if name not in self.texts:
            self.texts[name] = None
            try:
                self.raws[name] = self.read(name)
                self.texts[name] = normalise(self.raws[name])
            except ValueError as err:
                self.problems[name] = str(err)
        return self.texts[name]

    def raw(self, name: str) -> str | None:
        """The document as written (None when it cannot be read, as for text)."""
        return self.raws.get(name) if self.text(name) is not None else None

    def read(self, name: str) -> str:
        parts = PurePosixPath(name.replace("\\", "/"))
        if parts.is_absolute() or re.match(r"^[A-Za-z]:", name) or ".." in parts.parts or not parts.parts:
            raise ValueError(f"'{name}' is a path out of documents/; expected the name of a file inside documents/")
        if not self.folder.is_dir():
            raise ValueError(f"the project has no documents/ folder; expected documents/{name}, the design document")
        path = self.folder.joinpath(*parts.parts)
        try:
            info = path.lstat()
        except OSError:
            raise ValueError(f"documents/{name} does not exist; {self.suggest(name)}") from None
        inside = self.folder.resolve()
        if (stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode) or self.folder.is_symlink()
                or not inside.is_relative_to(self.root.resolve()) or not path.resolve().is_relative_to(inside)):
            raise ValueError(f"documents/{name} is not a plain file inside the project (a link, folder or device); "
                             "expected the document itself")
        if info.st_size > MAX_DOCUMENT:
            raise ValueError(f"documents/{name} is over {MAX_DOCUMENT // 1048576} MB; expected a text document")
        return path.read_bytes().decode("utf-8-sig", errors="replace")

    def suggest(self, name: str) -> str:
        names = sorted(p.name for p in self.folder.iterdir() if p.is_file() and p.name != "README.md")
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
        if close:
            return f"did you mean '{close[0]}'?"
        return "expected one of: " + (", ".join(names) or "(documents/ is empty)")


def normalise(text: str) -> str:
    return "".join(text.split())


def check_source(documents: Documents, game: Game, source: Source | None, location: Location) -> list[Finding]:
    """The cited document must exist inside documents/ and contain the quoted phrase."""
    if source is None:
        return []
    text = documents.text(source.document)
    if text is None:
        return [Finding(FAIL, game.id, "cited document", location, source.document, "no such document",
                        documents.problems[source.document], source, figure="document")]
    quote = normalise(source.quote)
    if quote in text:
        return []
    now = find_nearest_phrase(text, quote)
    if now:
        return [Finding(FAIL, game.id, "quote not in the document", location, source.quote, f"「{now}」",
                        f"documents/{source.document} now says 「{now}」 at that place; update the quote and the figures "
                        "it states to what the document says", source, figure="quote")]
    return [Finding(FAIL, game.id, "quote not in the document", location, source.quote, "no such phrase",
                    f"documents/{source.document} does not contain it; quote the document exactly", source, figure="quote")]


def find_nearest_phrase(text: str, quote: str) -> str | None:
    """What the document says where the quote stood: the stretch that begins or ends as the quote does and
    differs least from it (a changed figure, a reworded word). A few finds and comparisons, whatever the length."""
    size = len(quote)
    windows = set()
    for piece in {quote[:n] for n in (8, 6, 4, 3)} | {quote[-n:] for n in (8, 6, 4, 3)}:
        if len(piece) >= size or not piece:
            continue
        spot, tries = text.find(piece), 0
        while spot >= 0 and tries < 4:
            head = spot if quote.startswith(piece) else spot + len(piece) - size
            for length in range(max(1, size - 3), size + 4):
                begin = head if quote.startswith(piece) else head + size - length
                if begin >= 0:
                    windows.add(text[begin:begin + length])
            spot, tries = text.find(piece, spot + 1), tries + 1
    scored = [(difflib.SequenceMatcher(None, quote, w, autojunk=False).ratio(), w) for w in windows if w]
    if not scored:
        return None
    ratio, best = max(scored)
    return best if ratio >= 0.6 else None


def check_game_document(documents: Documents, game: Game) -> list[Finding]:
    if not game.document or documents.text(game.document) is not None:
        return []
    return [Finding(FAIL, game.id, "game document", game.location, game.document, "no such document",
                    documents.problems[game.document], figure="document")]


def check_stated(game: Game, check: str, figure: str, value, source: Source | None, location: Location,
                 players: int | None = None) -> Finding:
    """A figure held to the numbers its quote states; a quote without numbers makes the figure an assumption."""
    name = f"{check}: {figure} as the document states"
    if source is None:
        return Finding(WARN, game.id, name, location, "not stated", value, "assumption: no quote states this figure; "
                       "add the phrase of the document that does (source: or {value: N, quote: …})", figure=figure)
    people = figure == "owners" or check in ("figure min_players", "figure max_players")  # 「７人プレイ」 states 7 people
    numbers = find_numbers(source.quote) if people else numbers_for_players(source.quote, players)
    stated = [n.value for n in numbers]
    if not stated:
        return Finding(WARN, game.id, name, location, "not stated", value,
                       "assumption: the quoted phrase states no figure, so this one is assumed, not cited", source, figure=figure)
    if value in stated:
        return Finding(PASS, game.id, name, location, value, value, "", source, figure=figure)
    distinct = list(dict.fromkeys(stated))
    shown = "、".join(str(n) for n in distinct)
    return Finding(FAIL, game.id, name, location, distinct[0] if len(distinct) == 1 else shown, value,
                   f"the quote states {shown}, not {value}; the data and the document disagree", source, figure=figure)


def read_stated_mapping(quote: str) -> dict[str, int] | None:
    """「１・２・３＝１０・７・７」 or 「２：１枚　３：１枚」 as {value: count}, when the quote has that form."""
    equation = _EQUATION.search(quote)
    if equation:
        keys = re.split(r"[・、,，]", equation.group(1))
        counts = re.split(r"[・、,，]", equation.group(2))
        if len(keys) == len(counts):
            return {str(parse_number(k)): int(parse_number(c)) for k, c in zip(keys, counts)}
    pairs = _PAIR.findall(quote)
    if len(pairs) >= 2:
        return {str(parse_number(k)): int(parse_number(c)) for k, c in pairs}
    return None


def check_stated_distribution(game: Game, check: str, expected: dict, source: Source | None, location: Location) -> Finding:
    """A distribution held to the quote: value by value when the quote lists it, else its counts and values."""
    name = f"{check}: equals as the document states"
    numbers = [n.value for n in numbers_for_players(source.quote, None)] if source else []
    if not numbers:  # no quote, or one that states no figure: an assumption
        return check_stated(game, check, "equals", expected, source, location)
    mapping = read_stated_mapping(source.quote)
    if mapping is not None:
        differ = [k for k in dict.fromkeys(list(mapping) + list(expected)) if mapping.get(k) != expected.get(k)]
        if not differ:
            return Finding(PASS, game.id, name, location, mapping, expected, "", source, figure="equals")
        detail = "; ".join(f"{k}: the quote states {mapping.get(k, 'none')}, equals says {expected.get(k, 'none')}" for k in differ)
        return Finding(FAIL, game.id, name, location, mapping, expected, detail, source, figure="equals")
    ranges = [(parse_number(a), parse_number(b)) for a, b in _RANGE.findall(source.quote)]
    missing = [f"count {v}" for v in dict.fromkeys(expected.values()) if v not in numbers]
    missing += [f"value {k}" for k in expected if is_number(k) and parse_number(k) not in numbers
                and not any(a <= parse_number(k) <= b for a, b in ranges)]
    if not missing:
        return Finding(PASS, game.id, name, location, expected, expected, "", source, figure="equals")
    return Finding(FAIL, game.id, name, location, expected, expected,
                   f"the quote does not state {', '.join(missing)}; the data and the document disagree", source, figure="equals")


def is_number(key) -> bool:
    return bool(re.fullmatch(r"[0-9０-９]+", str(key)))


def find_cited_source(expectation: Expectation, figure: str) -> Source | None:
    """The phrase a figure cites: its own quote, else the expectation's."""
    own = dict(expectation.cited).get(figure)
    if own and expectation.source:
        return Source(expectation.source.document, own)
    return expectation.source


def check_cited(game: Game, check: str, expectation: Expectation, figure: str, value, players: int | None = None) -> Finding:
    """One figure of an expectation held to its phrase, or reported as the assumption the data says it is."""
    why = dict(expectation.assumed).get(figure)
    if why:
        return Finding(WARN, game.id, f"{check}: {figure} as the document states", expectation.location, "not stated", value,
                       f"assumption: {why}", expectation.source, figure=figure)
    return check_stated(game, check, figure, value, find_cited_source(expectation, figure), expectation.location, players)
