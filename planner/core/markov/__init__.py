"""The continuous-time Markov model of one RAID group, symbolic and numeric.

What belongs here: the n+k chain as plain data (:mod:`.chain`: states, events, which drive
fails or is rebuilt), the model's inputs in per-hour rates (:mod:`.rates`; a stack's, one
array per input: :mod:`.chain_inputs`), the numeric generator (:mod:`.generator`, from the
chain's transitions as arrays, :mod:`.transition_arrays`), the cancellation-free matrix
exponential of a stack (:mod:`.expm`, its chunks in :mod:`.expm_chunk` on the threads of
:mod:`.pool`) or of one small matrix (:mod:`.expm_one`), the transient solution of one group
(:mod:`.transient`) or of a stack of groups (:mod:`.batch`), the MTTDL's accurate solve
(:mod:`.solve`), the loss figures beyond the paper's P(loss), all from one generator
(:mod:`.loss_figures`), the group-to-aggregate rule (:mod:`.aggregate`), the closed forms
side by side (:mod:`.methods`) and the SymPy derivation with its exact MTTDL polynomials
(:mod:`.symbolic`, :mod:`.mttdl_algebra`).

What does not: hardware (drives, rebuild times, pools: :mod:`planner.core.arrays`), the
Monte Carlo simulator (:mod:`planner.core.simulation`) and searches over many layouts
(:mod:`planner.core.design`). Nothing here imports those packages.
"""
