"""Turn a project's source files and a build's options into one digest: a build whose digest and outputs are
the last build's is answered from the manifest at once, with nothing loaded, checked, laid out or written.

The digest covers what a build reads (the YAML and spreadsheets it loaded, rulebook sources, templates, images,
fonts, rules/ and documents/), the options that shape the PDFs, pnpgen's version and, when a template prints it,
the revision stamp. The files are listed from the last build's record, so the digest is taken before the project
is loaded: a file edited while a build runs leaves a digest that no longer matches, never a stale answer. A build
that reads files the record did not list (the first one, a new include) takes the digest again over those it read,
once it is done, when nothing it covered before has changed and no file it now covers was saved since it began.
"""
from __future__ import annotations

import hashlib
import stat
import time
from dataclasses import fields
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from .._version import __version__
from ..files.atomic import refuse_links_out
from ..digests import file_sha256
from ..faces.inputs import folder_digest, fonts_digest
from .manifest import Manifest
from ..files.reading import MAX_FILE_BYTES
from ..project.revision import mentions_build, project_revision
from ..project.source import find_source
from .record import record_sources

if TYPE_CHECKING:
    from ..project.model import Project

FOLDERS = ("templates", "images", "rules", "documents")  # fonts/ by fonts_digest: name, size and time
UNSHAPING = {"out_dir", "cache", "cache_dir", "clean"}  # where files go and what is reused: not the PDFs' bytes
COARSEST_TIMES = 2_000_000_000  # ns: the coarsest file times (FAT) may show a save during a build this much earlier
MAX_DATA = 8 * MAX_FILE_BYTES  # spreadsheets may be larger than YAML; beyond, size and time stand for content


class LastBuild:
    """The manifest's record of the last build into an output folder, and whether it still holds."""

    def __init__(self, path: Path, options):
        self.options = options
        self.record: dict = {}
        self.digest = ""
        self.began = time.time_ns()
        self.loaded: dict[str, bytes] = {}  # the files the record did not list, as they were once loaded
        try:
            source = find_source(Path(path))
            self.root = source.parent.resolve()
            self.out_dir = Path(options.out_dir) if options.out_dir else self.root / "output"
            self.listed = [source.resolve().relative_to(self.root).as_posix()]
        except (OSError, ValueError, RuntimeError):  # no project there: loading it says so
            return
        if not options.cache or not source.is_file():
            return
        self.manifest = Manifest(self.out_dir)
        self.record = read_record(self.manifest.last_build)
        self.listed = self.record.get("files", self.listed)
        self.digest = sources_digest(self.root, options, self.listed)

    def holds(self) -> bool:
        """The project and options are the last build's, and every file it made is still as it wrote it."""
        made = self.record.get("outputs")
        if not self.digest or self.record.get("inputs") != self.digest or not made:
            return False
        refuse_links_out(self.root, self.out_dir, *dict.fromkeys(self.out_dir / key.split("/")[0] for key in made))
        return all(self.manifest.is_current(self.out_dir / key, digest) for key, digest in made.items())

    def answer(self, report):
        """report filled in as the last build filled it: nothing written, every output unchanged."""
        record = self.record
        report.unchanged = [self.out_dir / key for key in record["outputs"]]
        report.pieces, report.notes = record["pieces"], list(record["notes"])
        notes, removed = self.manifest.tidy(set(record["possible"]), self.options.game, self.options.clean)
        report.notes.extend(notes)
        if removed:
            self.manifest.save()
        record_sources(self.root, [self.root / name for name in record["data"]], self.out_dir, record["revision"])
        return report

    def remember(self, project: Project, manifest: Manifest, outputs: list, report, revision: str) -> bool:
        """Record this build in manifest (saved by the caller when this returns True), with a digest over the files
        the project turned out to read (digest_again), or none."""
        data, files = data_files(project)
        inputs = self.digest if files == self.listed else self.digest_again(files)
        record = {"inputs": inputs, "files": files, "data": data,
                  "outputs": {manifest.key(o.target): o.digest for o in outputs}, "notes": list(report.notes),
                  "pieces": report.pieces, "possible": sorted(possible_outputs(project)), "revision": revision}
        if not self.digest or record == manifest.last_build:
            return False
        manifest.last_build = record
        return True

    def note_loaded(self, project: Project) -> None:
        """Take the files the project turned out to read besides those listed, as they are now that it is loaded."""
        if self.digest:
            added = set(data_files(project)[1]) - set(self.listed)
            self.loaded = {name: file_digest(self.root / name) for name in added}

    def digest_again(self, files: list[str]) -> str:
        """The digest over the files a build read, taken as it ends; "" (none kept: the next build takes it) when
        what the first digest covered has changed since, or a file it did not cover was saved after the build
        began (or a moment before, on a disk with coarse file times) or is not as it was once loaded."""
        if not self.digest:
            return ""
        read = {}
        for name in set(files) - set(self.listed):
            try:
                saved = (self.root / name).stat().st_mtime_ns
            except OSError:
                return ""
            read[name] = file_digest(self.root / name)
            if saved >= self.began - COARSEST_TIMES or self.loaded.get(name) != read[name]:
                return ""
        before, after = sources_digests(self.root, self.options, self.listed, files, read=read)
        return after if before == self.digest else ""


def sources_digest(root: Path, options, files: list[str]) -> str:
    """Everything a build of the project with these options reads, in one digest (see the module)."""
    return sources_digests(root, options, files)[0]


def sources_digests(root: Path, options, *lists: list[str], read: dict[str, bytes] | None = None) -> list[str]:
    """sources_digest() with each list of files, the options, folders, fonts and each file read once for all;
    read: the file_digest of files read just now."""
    read = dict(read or {})
    common = hashlib.sha256(f"pnpgen {__version__} whole build\0".encode("utf-8"))
    for option in fields(options):
        if option.name not in UNSHAPING:
            common.update(f"{option.name}={getattr(options, option.name)!r}\0".encode("utf-8"))
    for name in FOLDERS:
        common.update(folder_digest(root / name).encode("ascii"))
    common.update(fonts_digest(root).encode("ascii"))
    stamped = mentions_build(root / "templates")
    digests = []
    for files in lists:
        hasher = common.copy()
        for name in files:
            if name not in read:
                read[name] = file_digest(root / name)
            hasher.update(name.encode("utf-8") + b"\0" + read[name] + b"\0")
        if stamped:
            hasher.update(project_revision(root, [root / name for name in files]).encode("utf-8"))
        digests.append(hasher.hexdigest())
    return digests


def file_digest(path: Path) -> bytes:
    """A data file's content; a link also by where it leads, anything else (a folder, a pipe, a huge file)
    by its kind and size, so that loading it reports what is wrong."""
    try:
        link = str(path.resolve()).encode("utf-8", "surrogateescape") if path.is_symlink() else b""
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_DATA:
            return f"{link!r} {info.st_mode} {info.st_size} {info.st_mtime_ns}".encode("utf-8")
        return link + file_sha256(path)
    except (OSError, RuntimeError):
        return b"missing"


def read_record(record) -> dict:
    """The record if it is whole and well-formed (the output folder, like the project, may have been made by
    anyone), else {}."""
    shapes = {"inputs": str, "files": list, "data": list, "outputs": dict, "notes": list, "pieces": int,
              "possible": list, "revision": str}
    if not isinstance(record, dict) or any(not isinstance(record.get(k), kind) for k, kind in shapes.items()):
        return {}
    names = [*record["files"], *record["data"], *record["outputs"], *record["possible"]]
    if not all(isinstance(item, str) and is_plain(item) for item in names) \
            or not all(isinstance(item, str) for item in [*record["notes"], *record["outputs"].values()]):
        return {}
    return record


def is_plain(name: str) -> bool:
    """A relative path that stays where it is put."""
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts and "\\" not in name


def relative(path, root: Path) -> str:
    return Path(path).resolve().relative_to(root).as_posix()


def data_files(project: Project) -> tuple[list[str], list[str]]:
    """The files a build of the project reads besides its folders (relative): its YAML and spreadsheets, and those
    with its rulebooks."""
    data = [relative(path, project.root) for path in project.files]
    return data, list(dict.fromkeys(data + rulebook_sources(project)))


def rulebook_sources(project: Project) -> list[str]:
    return [relative(source, project.root) for game in project.games
            for source in (game.rulebook, game.rules_sheet) if source]


def possible_outputs(project: Project) -> set[str]:
    """Every file a build of the project can make, relative to the output folder (each edition's too)."""
    folders = [""] + [f"{code}/" for code in (project.texts or project).languages[1:]]
    return {f"{g.id}/{folder}{name}" for g in project.games for folder in folders
            for name in [f"{c.id}.pdf" for c in g.components] + [f"{g.id}-print-and-play.pdf", "rulebook.pdf",
                                                                 "rules-sheet.pdf"]}
