"""Pure reliability maths: the n+k Markov model of a RAID group, symbolic and numeric.

Sub-packages by concern, each importing only those listed after it (an import-linter
contract in pyproject.toml keeps it so):

* :mod:`planner.core.design`: sizing, sweeps, sensitivity, recommendation over many layouts;
* :mod:`planner.core.arrays`: drives, rebuild times, pools, layouts and their cost;
* :mod:`planner.core.simulation`: the Monte Carlo simulator for non-exponential laws;
* :mod:`planner.core.markov`: the chain, its generator, exponential, transient and MTTDL.

Nothing in this package performs I/O or imports a user-interface library; a test checks
that importing it loads none of textual, typer, rich, pydantic or ruamel.
"""
