"""Render each face: a card and its templates into SVG (sandboxed Jinja2, fitted text, icons, images, fonts), then into a drawing."""
