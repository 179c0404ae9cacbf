"""Turn a YAML parser's events into located values (LMap, LList, scalars), with no node tree in between."""
from __future__ import annotations

import sys

import yaml
from yaml.composer import ComposerError
from yaml.events import (AliasEvent, DocumentEndEvent, MappingEndEvent, MappingStartEvent, ScalarEvent,
                         SequenceEndEvent, SequenceStartEvent, StreamEndEvent)

from ..errors import Collector, Location, PnpError
from .located import LList, LMap, Marks
from .merge_keys import MergeKeys
from .scalars import BASE, MAX_DIGITS, STR, SURROGATE, read_scalar, show_tag
from .source import size_of

# libyaml's parser when PyYAML has it: the same events, several times faster; on an error the pure-Python
# parser reads the file again, as its messages say more
FAST = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader
COLLECTIONS = (BASE + "map", BASE + "seq", BASE + "omap")
MAX_DEPTH = 100  # far deeper than any project; recursion (ours) stays bounded
# The values a file may make: this many, or as many as it has bytes. A file writes fewer values of its own than it
# has bytes, so what goes past both is aliases expanded (a "billion laughs" stops there), never a deck written out.
MAX_NODES = 200_000
STARTS = (MappingStartEvent, SequenceStartEvent)
ENDS = (MappingEndEvent, SequenceEndEvent)
WORD = 24  # plain scalars up to this long that are text are remembered as such: field names, not descriptions


def build_with(text, shown: str, loader):
    """One YAML document as LMap/LList/scalars (None for an empty file), every problem in it at once."""
    limit = max(MAX_NODES, size_of(text))
    parser = loader(text)
    try:
        return _Builder(shown, parser, limit).build_document()
    finally:
        parser.dispose()


class _Builder(MergeKeys):
    """Builds values as the parser reads, keeping locations packed and refusing what YAML hides. An alias builds the
    anchored value again from its kept events (counted again: an alias bomb stops at `limit` values); a YAML error
    anywhere in the file is reported rather than a problem found before it."""

    def __init__(self, shown: str, parser, limit: int):
        self.shown = shown
        self.parser = parser
        self.marks = Marks(shown)
        self.count = 0
        self.limit = limit
        self.problems = Collector()
        self.anchors: dict[str, list] = {}  # anchor name -> its node's events, as the parser gave them
        self.recording: list[list] = []  # the event lists of anchored collections still open
        self.read = self.reader()
        self.firsts = parser.yaml_implicit_resolvers  # the first characters of plain scalars that may not be text
        self.plain_text = None not in self.firsts  # else a resolver looks at every plain scalar
        self.words: set[str] = set()  # short plain scalars found to be text
        self.texts: dict[str, str] = {}  # one copy of each text: cards repeating a value (type: 攻撃) share it
        self.keys: dict[str, object] = {}  # a plain key's text -> the key it reads as: each card repeats them
        self.get = parser.get_event  # the parser's own reader: what is read through it is neither kept nor replayed

    def reader(self):
        """The next event, kept for each anchored collection still open. Only an anchored collection's build (and
        what it builds) reads through it; the rest of a file reads the parser's events directly."""
        get, recording = self.parser.get_event, self.recording

        def read():
            event = get()
            if recording:
                for events in recording:
                    events.append(event)
            return event
        return read

    def build_document(self):
        parser = self.parser
        parser.get_event()  # stream start
        if parser.check_event(StreamEndEvent):
            return None
        parser.get_event()  # document start
        first = parser.get_event()
        try:
            value = self.build(first, self.get, 0)
        except PnpError:
            if self.drain():  # a YAML error later in the file is the one to report
                self.check_single(first)
            raise
        parser.get_event()  # document end
        self.check_single(first)
        self.problems.raise_if_any()
        return value

    def check_single(self, first) -> None:
        if not self.parser.check_event(StreamEndEvent):
            raise ComposerError("expected a single document in the stream", first.start_mark,
                                "but found another document", self.parser.get_event().start_mark)

    def drain(self) -> bool:
        """Read the rest of the document unbuilt, noting anchors and checking aliases as the composer does; False
        when it gives up, deeper than MAX_DEPTH below where it starts (each level costs the parser more per event)."""
        self.recording.clear()
        depth = 0
        while not isinstance(event := self.parser.get_event(), DocumentEndEvent):
            kind = type(event)
            if kind is AliasEvent:
                self.follow(event)
                continue
            if kind in STARTS:
                depth += 1
                if depth > MAX_DEPTH:
                    return False
            elif kind in ENDS:
                depth -= 1
            if getattr(event, "anchor", None) is not None:
                self.enter(event)
        return True

    def enter(self, event) -> bool:
        """Note an anchor the first time the parser shows it (not when its events are replayed for an alias);
        True when the events of its collection are now being kept."""
        name = event.anchor
        if name is None:
            return False
        known = self.anchors.get(name)
        if known is not None:
            if known[0] is event:
                return False
            raise ComposerError(f"found duplicate anchor {name!r}; first occurrence", known[0].start_mark,
                                "second occurrence", event.start_mark)
        self.anchors[name] = events = [event]
        if isinstance(event, ScalarEvent):
            return False
        self.recording.append(events)
        return True

    def follow(self, alias):
        """The first event of the anchored node and a reader replaying the rest of its events."""
        events = self.anchors.get(alias.anchor)
        if events is None:
            raise ComposerError(None, None, f"found undefined alias {alias.anchor!r}", alias.start_mark)
        replay = iter(events)
        return next(replay), replay.__next__

    def origin(self, event) -> tuple[int, int]:
        """The (line, col) a value stands at: an alias stands where its anchored node does."""
        mark = (self.anchors[event.anchor][0] if type(event) is AliasEvent else event).start_mark
        return mark.line + 1, mark.column + 1

    def locate(self, event) -> Location:
        return Location(self.shown, *self.origin(event))

    def too_deep(self, event) -> PnpError:
        return PnpError(f"values nested more than {MAX_DEPTH} levels deep; expected a project file", self.locate(event))

    def skip(self, event, read) -> None:
        """Pass over one node unbuilt; its anchors still count, as the composer notes them."""
        open_ = []
        while True:
            if isinstance(event, AliasEvent):
                self.follow(event)
            elif isinstance(event, STARTS):
                if len(open_) >= MAX_DEPTH:  # refused as the parser gets there, as a value built would be
                    raise self.too_deep(event)
                open_.append(self.enter(event))
                read = self.read if open_[-1] else read
            elif isinstance(event, ScalarEvent):
                self.enter(event)
            elif open_.pop():
                self.recording.pop()
            if not open_:
                return
            event = read()

    def build(self, event, read, depth: int):
        if type(event) is AliasEvent:
            event, read = self.follow(event)
        recorded = self.enter(event) if event.anchor is not None else False
        if recorded:  # its events are kept, for an alias to replay: all of them, however deep they are read
            read = self.read
        if depth > MAX_DEPTH:
            raise self.too_deep(event)
        self.count += 1
        if self.count > self.limit:
            raise PnpError(f"more than {self.limit} values once aliases are expanded; expected a project file, "
                           "not an alias bomb", self.locate(event))
        kind = type(event)
        if kind is ScalarEvent:
            return self.scalar(event)
        tag = event.tag
        if tag is not None and tag != "!" and tag not in COLLECTIONS:
            self.problems.add(self.locate(event), f"the tag {show_tag(tag)} is not allowed; expected plain YAML values")
            self.skip_rest(read, recorded)
            return None
        if kind is MappingStartEvent:
            value = self.build_mapping(event, read, depth)
        else:
            value = self.build_list(event, read, depth)
        if recorded:
            self.recording.pop()
        return value

    def skip_rest(self, read, recorded: bool) -> None:
        """Pass over the items of a collection whose start was read, up to its end."""
        while not isinstance(event := read(), (MappingEndEvent, SequenceEndEvent)):
            self.skip(event, read)
        if recorded:
            self.recording.pop()

    def build_list(self, start, read, depth: int) -> LList:
        out = LList()
        mark = start.start_mark
        spots = [mark.line + 1, mark.column + 1]
        add, inner = spots.extend, depth + 1
        direct = inner <= MAX_DEPTH  # a plain scalar item is then built here, as build() would
        while type(event := read()) is not SequenceEndEvent:
            if direct and type(event) is ScalarEvent and event.anchor is None and self.count < self.limit:
                self.count += 1
                out.append(self.scalar(event))
                mark = event.start_mark
                add((mark.line + 1, mark.column + 1))
            else:
                out.append(self.build(event, read, inner))
                add(self.origin(event))
        out.marks, out.at = self.marks, self.marks.add(spots)
        return out

    def build_mapping(self, start, read, depth: int) -> LMap:
        """The entries in order; a plain scalar key or value (nearly all of them) is built here, as build() would."""
        out = LMap()
        mark = start.start_mark
        spots = [mark.line + 1, mark.column + 1]
        inner = depth + 1
        direct = inner <= MAX_DEPTH
        keys, scalar = self.keys, self.scalar
        while type(event := read()) is not MappingEndEvent:
            if (direct and type(event) is ScalarEvent and event.anchor is None and event.tag is None
                    and event.value != "<<" and self.count < self.limit):
                self.count += 1
                plain = event.implicit[0]
                key = keys.get(event.value) if plain else None
                if key is None:
                    key = scalar(event)
                    if type(key) is str:
                        key = sys.intern(key)  # a deck's cards share their few field names instead of a copy each
                    if plain and key is not None:
                        keys[event.value] = key
                mark = event.start_mark
                place = (mark.line + 1, mark.column + 1)
            elif self.is_merge(event):
                self.merge_into(out, spots, read(), read, depth)
                continue
            else:
                key = self.build(event, read, inner)
                key = sys.intern(key) if type(key) is str else key
                place = self.origin(event)
            if type(key) is not str and not isinstance(key, (int, float, bool)):
                self.problems.add(Location(self.shown, *place), "a key must be a plain word or number")
                self.skip(read(), read)
                continue
            if key in out:
                first = next(index for index, known in enumerate(out) if known is key or known == key)
                self.problems.add(Location(self.shown, *place), f"duplicate key '{key}' (first at line "
                                  f"{spots[2 + 4 * first]}); expected each key once")
                self.skip(read(), read)
                continue
            value = read()
            if direct and type(value) is ScalarEvent and value.anchor is None and self.count < self.limit:
                self.count += 1
                out[key] = scalar(value)
                mark = value.start_mark
                spots += (*place, mark.line + 1, mark.column + 1)
            else:
                out[key] = self.build(value, read, inner)
                spots += (*place, *self.origin(value))
        out.marks, out.at = self.marks, self.marks.add(spots)
        return out

    def scalar(self, event):
        """A scalar's value: text and plain whole numbers without asking the resolver, the rest as read_scalar does."""
        if event.tag is None:
            text = event.value
            if not event.implicit[0]:  # quoted or a block: text; only a "…" escape makes a surrogate
                if event.style != '"' or not SURROGATE.search(text):
                    return self.texts.setdefault(text, text)
            elif self.plain_text and (text[:1] not in self.firsts or text in self.words):  # text for certain
                return self.texts.setdefault(text, text)
            elif text.isdigit() and text.isascii() and text[0] != "0" and len(text) <= MAX_DIGITS:
                return int(text)
            else:
                tag = self.parser.resolve(yaml.ScalarNode, text, event.implicit)
                if tag == STR and len(text) <= WORD:
                    self.words.add(text)  # a field name such as `number` is resolved once, not once a card
                return read_scalar(event, self.parser, self.problems, self.shown, tag)
        return read_scalar(event, self.parser, self.problems, self.shown)
