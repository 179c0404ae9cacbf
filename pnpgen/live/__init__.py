"""Keep a designer in the loop: file changes into rebuilds, and a project into a live gallery page."""
