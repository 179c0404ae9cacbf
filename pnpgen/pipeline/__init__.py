"""Run a build: a project into faces, sheets and files; what is up to date; work on other cores."""
