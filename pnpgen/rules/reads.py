"""Turn a rulebook's source and its game's data into the digest of what typesetting it reads: a save that changes
none of that (another card's text, a count it does not print) leaves the rulebook as it is.

Typesetting (typeset.prepare) reads the Markdown as the data expands it, the numbers it marks as assumed, the
undefined terms the text uses, the game's accent, title and document, the edition's language, and each picture's
piece: its face and its trim. The templates, icons, images and fonts are the renderer's inputs, which the build's
digest of the rulebook holds besides (pipeline/build.py). Working that out expands the Markdown, so the face
store keeps it under the digest of the files it comes from: a build after a save elsewhere reads it back.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..digests import digest, file_sha256
from ..errors import PnpError
from ..project.model import Game, Project

if TYPE_CHECKING:
    from ..faces.render import Renderer
    from .markdown import Image


READS = b"D"  # the kind of a face store record holding a rulebook's typesetting_digest, under its files' digest


def data_files_digest(project: Project, game: Game) -> str:
    """The digest of the data a game's rulebook can read: the top-level file, the file defining the game, the
    sheets it reads."""
    from ..project.sheets import list_sheet_files

    defining = project.root / game.location.file
    paths = dict.fromkeys([project.source, defining.resolve(), *list_sheet_files([game], project.root)])
    return digest(*(file_sha256(path) for path in paths))


def rulebook_digest(project: Project, game: Game, text: bytes, source: Path, renderer: Renderer, final: bool,
                    files: str) -> str:
    """typesetting_digest, kept in the face store under the digest of what it is worked out from: the game, its
    rulebook's source (text: its bytes), its data files (files: data_files_digest; one file may define several
    games), the renderer's inputs and stamp, the edition, its hyphenation, reportlab's version and whether the build
    is final; when it cannot be worked out (typesetting it then says why), the digest of the files and the edition."""
    from ..faces.hyphenate import hyphenation_inputs
    from ..store.cache import library_versions

    pack = renderer.pack
    editions = (project.language, *hyphenation_inputs(project.language), library_versions())
    key = digest("typesetting", game.id, text, files, renderer.inputs, renderer.stamp, editions, final)
    kept = pack.get(READS, key) if pack is not None else None
    if kept is not None and len(kept) == 64 and not kept.strip(b"0123456789abcdef"):  # a digest, as put
        return kept.decode("ascii")
    reads = typesetting_digest(project, game, source, renderer, final)
    reads = digest(reads, editions) if reads is not None else None  # a new reportlab or dictionary sets it anew
    if reads is not None and pack is not None:
        pack.put(READS, key, reads.encode("ascii"))
    return reads or digest(files, editions)


def typesetting_digest(project: Project, game: Game, source: Path, renderer: Renderer, final: bool) -> str | None:
    """The digest of what typesetting the rulebook (or rules sheet) at source reads; None when its Markdown cannot
    be read, expanded or parsed (typesetting it then says what is wrong, and where)."""
    # imported here: a build that finds the digest kept reads no Markdown
    from .expand import accent_of, expand_markdown, read_source
    from .markdown import Theme, parse_markdown

    marks = None if final else []
    try:
        expanded = expand_markdown(project, game, source, read_source(project, source), marks)
        accent = accent_of(game)
        blocks = parse_markdown(expanded, Theme(accent=accent), project.language)
    except PnpError:
        return None
    assumed = [(mark.what, mark.value, mark.why, mark.source) for mark in marks or ()]
    terms = [(term.term, term.undefined) for term in game.terms if term.undefined and term.term in expanded]
    pictures = [show_piece(image, game, renderer) for image in find_images(blocks)]
    return digest(expanded, assumed, accent, project.language, game.title, game.document, terms, pictures)


def find_images(blocks) -> list[Image]:
    """The pictures of blocks, those of lists and quotes too, in order."""
    from .markdown import Figure, ListBlock, Quote

    found = []
    for block in blocks:
        if isinstance(block, Figure):
            found += block.images
        elif isinstance(block, ListBlock):
            found += [image for item in block.items for image in find_images(item)]
        elif isinstance(block, Quote):
            found += find_images(block.blocks)
    return found


def show_piece(image: Image, game: Game, renderer: Renderer) -> tuple:
    """What a picture shows: its piece's face (by the digest of all it is rendered from: nothing is rendered here)
    and trim; for a reference that names no piece, what resolving it says."""
    from .references import resolve_reference

    try:
        component, card, side = resolve_reference(image.src, game)
    except PnpError as err:
        return (image.src, str(err))
    template = component.front if side == "front" else component.back
    return (image.src, renderer.render_key(game, component, card, side, template), component.size, component.bleed,
            component.shape, component.kind)
