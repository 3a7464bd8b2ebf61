"""Pure reliability maths: the n+k Markov model of a RAID group, symbolic and numeric.

Nothing in this package performs I/O or imports a user-interface library; a test checks
that importing it loads none of textual, typer, rich, pydantic or ruamel.
"""
