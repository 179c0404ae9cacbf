"""Turn YAML merge keys (`<<: *defaults`, or a list of them) into the entries a mapping takes over."""
from __future__ import annotations

import yaml
from yaml.events import AliasEvent, ScalarEvent, SequenceEndEvent, SequenceStartEvent

from .located import LMap
from .scalars import BASE

MERGE = BASE + "merge"


class MergeKeys:
    """What the events builder (project/events.py) does with a `<<` key: its follow, enter, build, read and
    problems are the builder's."""

    def is_merge(self, event) -> bool:
        """A `<<` key (the composer resolves it to !!merge); noting its anchor, as it is never built."""
        if type(event) is AliasEvent:
            event = self.follow(event)[0]
        elif type(event) is not ScalarEvent:
            return False
        tag = event.tag
        if tag is None or tag == "!":
            if event.value != "<<":
                return False
            tag = self.parser.resolve(yaml.ScalarNode, event.value, event.implicit)
        if tag != MERGE:
            return False
        self.enter(event)
        return True

    def merge_into(self, out: LMap, spots: list, event, read, depth: int) -> None:
        """`<<: *defaults` (or a list of them): each mapping's keys the mapping does not have yet."""
        if type(event) is AliasEvent:
            event, read = self.follow(event)
        if type(event) is not SequenceStartEvent:
            self.merge_one(out, spots, event, read, depth)
            return
        recorded = self.enter(event)  # the list itself is neither built nor counted: only what it names
        read = self.read if recorded else read
        while type(item := read()) is not SequenceEndEvent:
            self.merge_one(out, spots, item, read, depth)
        if recorded:
            self.recording.pop()

    def merge_one(self, out: LMap, spots: list, event, read, depth: int) -> None:
        merged = self.build(event, read, depth + 1)
        if not isinstance(merged, LMap):
            self.problems.add(self.locate(event), "'<<' merges a mapping; expected an alias of a mapping")
            return
        for index, (key, value) in enumerate(merged.items()):
            if key not in out:
                out[key] = value
                spots += merged.spots_of(index)
