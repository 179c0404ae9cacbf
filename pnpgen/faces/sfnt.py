"""Turn a font file (TrueType or CFF outlines, alone or in a collection) into its table directory, its names and the
style it declares: family, weight, italic, outlines, a variable font's weights.

Our own reader rather than fontTools': a build that paints one changed card reads every font file's style, and
importing fontTools for that is slow. Only the header, the directory and these small tables are read, however
large the file; fontTools stays for converting CFF and variable fonts (font_convert).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..errors import Location, PnpError

VERSIONS = (b"\0\1\0\0", b"true", b"OTTO")  # TrueType, Apple TrueType, CFF OpenType
MAX_TABLES = 256  # real fonts have 10-40 tables; a directory claiming more is damaged
MAX_STYLE_TABLE = 1 << 22  # bytes read of a name, OS/2, head or fvar table (real ones are a few kilobytes)
ENGLISH = ((1, 0), (3, 0x409))  # (platform, language) of the names fontTools' getDebugName prefers


@dataclass(frozen=True)
class Style:
    """What one font of a file says it is."""

    family: str
    weight: int
    italic: bool
    cff: bool
    weights: tuple[int, ...] = ()  # a variable font's weights to offer; () for a static font


def read_directory(read: Callable[[int, int], bytes], start: int, fail: Callable[[str], None]) -> dict:
    """{tag: (offset, length)} of the font whose directory starts at `start`."""
    version, count = struct.unpack(">4sH", read(start, 6))
    if version not in VERSIONS:
        fail("it does not start like a TrueType or OpenType font")
    if count > MAX_TABLES:
        fail(f"its directory lists {count} tables; expected at most {MAX_TABLES}")
    directory, tables = read(start + 12, 16 * count), {}
    for entry in range(count):
        tag, _, offset, length = struct.unpack_from(">4sIII", directory, 16 * entry)
        tables[tag.decode("latin-1")] = (offset, length)
    return tables


def collection_offsets(read: Callable[[int, int], bytes]) -> list[int]:
    """Where each member's directory starts in a font collection (.ttc, .otc)."""
    if read(0, 4) != b"ttcf":
        raise ValueError("a collection's file starts with 'ttcf'")
    count = struct.unpack(">I", read(8, 4))[0]
    if not 0 < count <= MAX_TABLES:
        raise ValueError(f"the collection says it holds {count} fonts")
    return list(struct.unpack(f">{count}I", read(12, 4 * count)))


def name_records(name: bytes) -> list[tuple[int, int, int, int, bytes]]:
    """(platform, encoding, language, name ID, raw string) of each record of a name table, in file order."""
    count, strings = struct.unpack_from(">HH", name, 2) if len(name) >= 6 else (0, 0)
    records = []
    for i in range(min(count, (len(name) - 6) // 12)):
        platform, encoding, language, name_id, length, offset = struct.unpack_from(">6H", name, 6 + 12 * i)
        records.append((platform, encoding, language, name_id, bytes(name[strings + offset:strings + offset + length])))
    return records


def decode_name(platform: int, encoding: int, raw: bytes) -> str | None:
    """A name's text: Unicode and Windows names are UTF-16, Mac Roman ones Mac Roman; other encodings are skipped."""
    codec = "utf-16-be" if platform == 0 or (platform == 3 and encoding in (0, 1, 10)) else \
        "mac-roman" if (platform, encoding) == (1, 0) else None
    try:
        return raw.decode(codec) if codec else None
    except UnicodeDecodeError:
        return None


def find_name(records: list, name_id: int) -> str | None:
    """The English name with this ID if there is one, else the last that can be read (as fontTools' getDebugName)."""
    some = None
    for platform, encoding, language, found_id, raw in records:
        text = decode_name(platform, encoding, raw) if found_id == name_id else None
        if text is None:
            continue
        if (platform, language) in ENGLISH:
            return text
        some = text
    return some


def read_styles(path: Path, collection: bool = False) -> list[Style]:
    """The style of the font in the file, or of each font in a collection; a file that is not a font raises
    PnpError at the file."""
    where = f"{path.parent.name}/{path.name}"

    def fail(what: str):
        raise PnpError(f"not a font file I can read ({what}); expected a TTF or OTF font, or remove the file from "
                       "fonts/", Location(where))

    try:
        with open(path, "rb") as file:
            size = file.seek(0, 2)
            if not size:
                fail("the file is empty")

            def read(offset: int, length: int) -> bytes:
                if offset + length > size:
                    fail("it ends early: a table or its directory runs past the end of the file")
                file.seek(offset)
                return file.read(length)

            try:
                starts = collection_offsets(read) if collection else [0]
            except ValueError as error:
                fail(str(error))
            return [read_style(read, start, fail) for start in starts]
    except OSError as error:
        fail(f"it cannot be read: {error.strerror or error}")


def read_style(read: Callable[[int, int], bytes], start: int, fail: Callable[[str], None]) -> Style:
    """The style of the font whose directory starts at `start`."""
    tables = read_directory(read, start, fail)

    def table(tag: str, at_least: int) -> bytes:
        offset, length = tables[tag]
        if length < at_least:
            fail(f"its '{tag}' table is {length} bytes long; expected at least {at_least}")
        return read(offset, min(length, MAX_STYLE_TABLE))

    records = name_records(table("name", 6)) if "name" in tables else []
    family = find_name(records, 16) or find_name(records, 1)
    if not family:
        fail("it has no family name: name table IDs 16 and 1 are empty")
    cff = "glyf" not in tables
    if cff and "CFF " not in tables and "CFF2" not in tables:
        fail("it has no outlines: neither a glyf nor a CFF table")
    if "OS/2" in tables:
        os2 = table("OS/2", 64)
        weight, selection = struct.unpack_from(">H", os2, 4)[0], struct.unpack_from(">H", os2, 62)[0]
        italic = bool(selection & 1)
    else:
        style = struct.unpack_from(">H", table("head", 54), 44)[0]  # macStyle: bold, italic
        weight, italic = 700 if style & 1 else 400, bool(style & 2)
    weight = weight * 100 if 1 <= weight <= 9 else min(max(weight, 1), 1000)  # old fonts use 1-9
    weights = variable_weights(table("fvar", 16), weight) if "fvar" in tables else ()
    return Style(family, weight, italic, cff, weights)


def variable_weights(fvar: bytes, default: int) -> tuple[int, ...]:
    """Weights to offer from a variable font: its named instances', else 400 and 700 within its wght axis."""
    axes_at, _, axis_count, axis_size, instance_count, instance_size = struct.unpack_from(">6H", fvar, 4)
    axes = [struct.unpack_from(">4siii", fvar, axes_at + axis_size * i) for i in range(axis_count)
            if axes_at + axis_size * (i + 1) <= len(fvar) and axis_size >= 16]
    wght = next((i for i, axis in enumerate(axes) if axis[0] == b"wght"), None)
    if wght is None:
        return (default,)
    _, low, middle, high = (value / 65536 if i else value for i, value in enumerate(axes[wght]))
    first = axes_at + axis_size * axis_count
    named = {round(struct.unpack_from(">i", fvar, at + 4 + 4 * wght)[0] / 65536)
             for at in range(first, first + instance_size * instance_count, instance_size or 1)
             if instance_size >= 4 + 4 * axis_count and at + instance_size <= len(fvar)}
    wanted = named or {round(middle)} | {min(max(w, low), high) for w in (400, 700)}
    return tuple(sorted({round(w) for w in wanted}))
