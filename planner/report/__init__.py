"""Pure renderers: results of the core -> Rich tables, Markdown, CSV and JSON."""
