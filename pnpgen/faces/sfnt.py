"""Turn big-endian font table bytes into numbers, and tables into a whole sfnt (TrueType) file."""
from __future__ import annotations

import struct
import sys
from array import array

U32 = next(code for code in "ILQ" if array(code).itemsize == 4)
SWAP = sys.byteorder == "little"  # font data is big-endian


def read_be(code: str, data, offset: int, count: int) -> array:
    """count big-endian numbers of an array type code from data at offset."""
    numbers = array(code)
    numbers.frombytes(data[offset:offset + count * numbers.itemsize])
    if SWAP:
        numbers.byteswap()
    return numbers


def checksum(data) -> int:
    """The sfnt checksum: the sum of the big-endian 32-bit words of the data padded with zeros."""
    padded = data if len(data) % 4 == 0 else bytes(data) + bytes(-len(data) % 4)
    return sum(read_be(U32, padded, 0, len(padded) // 4)) & 0xFFFFFFFF


def swapped(numbers: array) -> bytes:
    if SWAP:
        numbers.byteswap()
    return numbers.tobytes()


def assemble_font(tables: dict) -> bytes:
    """An sfnt file of the tables: directory sorted by tag, tables 4-byte aligned, checksums set."""
    tags, offset = sorted(tables), 12 + 16 * len(tables)
    selector = len(tags).bit_length() - 1
    parts = [struct.pack(">IHHHH", 0x00010000, len(tags), 16 << selector, selector, 16 * len(tags) - (16 << selector))]
    body, head_at, total = [], 0, 0
    for tag in tags:
        data, sum_of_table = tables[tag], checksum(tables[tag])
        parts.append(struct.pack(">4sIII", tag.encode("latin-1"), sum_of_table, offset, len(data)))
        body += (data, bytes(-len(data) % 4))
        head_at = offset if tag == "head" else head_at
        offset, total = offset + len(data) + -len(data) % 4, total + sum_of_table
    font = bytearray(b"".join(parts + body))
    # every table starts on a word, so the file's checksum is the directory's plus the tables'
    total += checksum(font[:12 + 16 * len(tags)])
    struct.pack_into(">I", font, head_at + 8, (0xB1B0AFBA - total) & 0xFFFFFFFF)
    return bytes(font)
