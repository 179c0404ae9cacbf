"""Lay out and write: pieces into pages (grid, bleed, marks, mirrored backs), pages into PDF and PNG."""
