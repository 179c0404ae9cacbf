"""Turn rendered faces into checked records of a SQLite file in the user's cache folder, and back."""
