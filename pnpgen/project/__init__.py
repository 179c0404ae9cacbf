"""Read and validate a project: YAML with source positions into typed frozen dataclasses, all errors at once."""
