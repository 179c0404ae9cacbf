"""Hold a project to its design documents: expectations, setups and rulebook numbers into findings."""
