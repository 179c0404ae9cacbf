"""Read a project's files with their size and kind checked, and write outputs that readers see whole or not at all."""
