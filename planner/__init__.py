"""planner: capacity and data-loss risk of RAID layouts, side by side."""

__version__ = "0.1.0"
