"""The ``planner`` command line (Typer). Commands stay thin: load, evaluate, render, exit."""

from planner.cli.app import app, main

__all__ = ["app", "main"]
