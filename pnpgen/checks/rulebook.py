"""Turn a game's rulebook sources into findings: literal counts next to component names held to the data.

The recommended way to state a count is an expression, `闘牌カード（{{ count('battle-cards')|zen }}枚）`:
it cannot drift. A number written out next to a component's name — `闘牌カード（４６枚）`,
`マーカー３２個`, `４６枚の闘牌カード`, ASCII, full-width or kanji digits — is read as a claim about
that component: it passes when it equals the component's piece count (or the count per value of a
field when every value has the same count, e.g. 8 markers per race), and fails otherwise, with the
rulebook's file:line. Template errors and picture references that name no piece fail too.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from .findings import FAIL, PASS, Finding
from ..errors import Location, PnpError
from ..project.expand import expand_pieces
from ..project.model import Component, Game, Project

UNITS = "枚|個|本|組|セット|部|冊"
_DIGITS = "0-9０-９"
_KANJI = "〇一二三四五六七八九十百"
NUMBER = f"[{_DIGITS}]+|[{_KANJI}]+"
_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
_URL = re.compile(r"\]\([^)\n]*\)")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\(\s*(component:[^\s)\"]+)")
_KANJI_VALUES = {c: i for i, c in enumerate("〇一二三四五六七八九")}


def check_rulebook(project: Project, game: Game, sources: list[Path] | None = None, strict: bool = False) -> list[Finding]:
    """Findings for the game's rulebook sources (default: `rulebook:` and, when set, `rules_sheet:`)."""
    if sources is None:
        sources = [Path(p) for p in (game.rulebook, getattr(game, "rules_sheet", None)) if p]
    findings: list[Finding] = []
    for source in sources:
        where = show_path(project, source)
        try:
            text = Path(source).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as err:
            findings.append(Finding(FAIL, game.id, "rulebook source", Location(where), detail=f"cannot read it ({err})"))
            continue
        findings.extend(check_counts(game, text, where))
        findings.extend(check_expansion(project, game, Path(source), text, where))
    return findings


def check_counts(game: Game, text: str, where: str) -> list[Finding]:
    """A finding for every literal number next to a component name in the Markdown source."""
    components = sorted(game.components, key=lambda c: -len(c.name))
    if not components:
        return []
    by_name = {c.name: c for c in components}
    names = "|".join(re.escape(c.name) for c in components)
    pattern = re.compile(
        rf"(?:(?P<pre>{NUMBER})\s*(?P<preunit>{UNITS})\s*の?\s*)?(?P<name>{names})"
        rf"(?:\s*(?P<open>[（(])?\s*(?:[:：×xX]\s*)?(?P<post>{NUMBER})\s*(?P<postunit>{UNITS})?\s*(?P<close>[）)])?)?"
        rf"(?P<cell>\s*\|\s*(?P<cellnum>{NUMBER})\s*(?P<cellunit>{UNITS})?\s*\|)?")
    scan = blank(text)
    findings = []
    for match in pattern.finditer(scan):
        component = by_name[match.group("name")]
        for number, start in find_claims(match):
            line = scan.count("\n", 0, start) + 1
            col = start - (scan.rfind("\n", 0, start) + 1) + 1
            snippet = text[match.start():match.end()].strip()
            findings.append(judge(game, component, number, snippet, Location(where, line, col)))
    return findings


def find_claims(match: re.Match) -> list[tuple[int, int]]:
    """(number, offset) of each count the match states: with a counter word, in brackets, or in the next table cell."""
    found = []
    if match.group("pre"):
        found.append((parse_number(match.group("pre")), match.start("pre")))
    post = match.group("post")
    if post and (match.group("postunit") or (match.group("open") and match.group("close"))):
        found.append((parse_number(post), match.start("post")))
    elif match.group("cellnum"):
        found.append((parse_number(match.group("cellnum")), match.start("cellnum")))
    return found


def judge(game: Game, component: Component, number: int, snippet: str, location: Location) -> Finding:
    pieces = expand_pieces(component)
    check = f"rulebook count {component.id}"
    expression = f"{{{{ count('{component.id}')|zen }}}}"
    if number == len(pieces):
        return Finding(PASS, game.id, check, location, len(pieces), number,
                       f"「{snippet}」 agrees with the data; prefer {expression} so that the text follows the data")
    field = uniform_field(component, number)
    if field:
        return Finding(PASS, game.id, check + f" per {field}", location, number, number,
                       f"「{snippet}」 agrees with the count per {field}; prefer "
                       f"{{{{ each('{component.id}', '{field}')|zen }}}} so that the text follows the data")
    data = component.location
    return Finding(FAIL, game.id, check, location, len(pieces), number,
                   f"「{snippet}」 states {number} but {component.id} has {len(pieces)} pieces "
                   f"({data.file}:{data.line}); write {expression} instead of the number"
                   " (or, when the number is not this component's count, reword so that it does not stand next to the name)")


def uniform_field(component: Component, number: int) -> str | None:
    """A field by which every value has exactly `number` pieces (markers per race), if any."""
    pieces = expand_pieces(component)
    fields = list(dict.fromkeys(k for p in pieces for k in p.card.fields))
    for field in fields:
        values = [p.card.fields.get(field) for p in pieces]
        if any(isinstance(v, (dict, list, tuple)) or hasattr(v, "items") for v in values):
            continue
        counts = Counter(str(v) for v in values)
        if len(counts) > 1 and set(counts.values()) == {number}:
            return field
    return None


def check_expansion(project: Project, game: Game, source: Path, text: str, where: str) -> list[Finding]:
    """The rulebook's expressions must evaluate and its pictures must name pieces that exist."""
    from ..rules.typeset import expand_markdown
    from ..rules.figures import resolve_reference

    try:
        expanded = expand_markdown(project, game, source, text)
    except PnpError as err:
        problem = err.problems[0]
        return [Finding(FAIL, game.id, "rulebook template", problem.location or Location(where), detail=problem.message)]
    expressions = len(re.findall(r"\{\{", text))
    pictures = _IMAGE.findall(expanded)
    findings = [Finding(PASS, game.id, "rulebook template", Location(where),
                        detail=f"{expressions} expression(s) evaluated against the data, {len(pictures)} picture(s)")]
    for match in _IMAGE.finditer(expanded):
        try:
            resolve_reference(match.group(1), game)
        except PnpError as err:
            line = next((n for n, content in enumerate(text.splitlines(), 1) if match.group(1) in content), 0)
            findings.append(Finding(FAIL, game.id, "rulebook picture", Location(where, line, 1 if line else 0),
                                    detail=err.problems[0].message))
    return findings


def blank(text: str) -> str:
    """The text with template code, fenced code and link targets replaced by spaces (lines and columns kept)."""
    def spaces(match: re.Match) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    for pattern in (_TEMPLATE, _FENCE, _URL):
        text = pattern.sub(spaces, text)
    return text


def parse_number(text: str) -> int:
    """ASCII, full-width or kanji digits (三十二, 四十六, 百) as an int."""
    text = text.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    if text.isdigit():
        return int(text)
    total, digit = 0, 0
    for char in text:
        if char == "百":
            total, digit = total + (digit or 1) * 100, 0
        elif char == "十":
            total, digit = total + (digit or 1) * 10, 0
        else:
            digit = digit * 10 + _KANJI_VALUES[char]
    return total + digit


def show_path(project: Project, source: Path) -> str:
    try:
        return str(Path(source).resolve().relative_to(project.root.resolve()))
    except ValueError:
        return str(source)
