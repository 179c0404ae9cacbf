"""Turn rendered faces into what a print shop checks before it prints them (`pnpgen preflight`)."""
