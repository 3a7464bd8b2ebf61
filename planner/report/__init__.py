"""Renderers: the results of :mod:`planner.analysis` as Rich tables, Markdown, CSV and JSON.

This layer turns numbers into text and computes nothing: every ratio, sum and choice it
shows is a field of an analysis result. Each figure a table shows is declared once
(:mod:`planner.report.figures`, or the table's ``*_columns`` module for its own), and
:mod:`planner.report.render` draws every table in the four formats; the TUI shows the same
columns. :mod:`planner.report.numbers` says how a number reads (0.33%, 1 in 48,000).
"""
