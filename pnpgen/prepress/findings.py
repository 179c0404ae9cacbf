"""Turn the flaws of many faces into preflight findings: one per template line and check, naming the first piece."""
from __future__ import annotations

from dataclasses import dataclass, replace

ERROR, WARNING = "error", "warning"
SYMBOLS = {ERROR: "✗", WARNING: "⚠"}


@dataclass(frozen=True)
class PrintFinding:
    """What preflight found: its severity, the check, where it is written (a template line, or the YAML of the
    expectation behind a colour-vision finding), the piece it was seen on and how many more show it."""

    severity: str
    check: str
    file: str
    line: int
    piece: str  # "area-cards 水郷 7" (the component and the fields that tell the card from the others)
    message: str
    more: int = 0  # other pieces with the same finding at the same place

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line > 0 else self.file

    def text(self) -> str:
        also = f" (and {self.more} more {'piece' if self.more == 1 else 'pieces'})" if self.more else ""
        return f"{self.where} ({self.piece}): {self.message}{also}"

    def line_text(self) -> str:
        return f"{SYMBOLS[self.severity]} {self.text()}"

    def as_dict(self) -> dict:
        return {"severity": self.severity, "check": self.check, "file": self.file, "line": self.line,
                "piece": self.piece, "message": self.message, "more": self.more}


class Gathered:
    """Findings as they come, one kept per place and check: the first piece's, counting the rest."""

    def __init__(self):
        self.kept: dict[tuple, PrintFinding] = {}
        self.pieces: dict[tuple, set] = {}

    def add(self, finding: PrintFinding) -> None:
        key = (finding.file, finding.line, finding.check)
        if key not in self.kept:
            self.kept[key] = finding
            self.pieces[key] = {finding.piece}
        elif finding.piece not in self.pieces[key]:
            self.pieces[key].add(finding.piece)
            self.kept[key] = replace(self.kept[key], more=self.kept[key].more + 1)

    def findings(self) -> list[PrintFinding]:
        """Errors first, then by place."""
        return sorted(self.kept.values(), key=lambda f: (f.severity != ERROR, f.file, f.line, f.check))
