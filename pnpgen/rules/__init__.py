"""Typeset rulebooks: Markdown sources with the data filled in into paginated Japanese PDFs."""
