"""Deciding that two expressions are *not* identical: a counterexample is the proof."""

from ._prove import Verdict, equal


def differs(lhs, rhs, *, latex=None, **options) -> Verdict:
    r"""Decide that ``lhs`` and ``rhs`` are not identically equal.

    Holds when :func:`~mlnotes.symbolic.equal` finds a point where they differ (evaluated to 30
    digits at exact rational inputs, or exactly for matrices) or when their shapes differ; the
    counterexample is kept in the verdict. Fails when they are identical.

    Parameters
    ----------
    lhs, rhs : sympy expressions or matrices
    latex : str, optional
        How to display the claim (default ``lhs \not\equiv rhs``).
    **options
        Passed to :func:`~mlnotes.symbolic.equal` (``witnesses``, ``points``, ``seed``, ...).

    Returns
    -------
    Verdict
    """
    import sympy as sp

    v = equal(lhs, rhs, **options)
    statement = latex or f"{sp.latex(lhs)} \\not\\equiv {sp.latex(rhs)}"
    if v.holds:
        return Verdict(statement, False, v.method, f"they are identical ({v.detail})", None, v.seconds)
    if v.method == "undecided":  # no counterexample and no proof: no evidence of a difference
        return Verdict(statement, False, v.method, v.detail, None, v.seconds)
    method = "symbolic" if v.counterexample is None else "counterexample"
    return Verdict(statement, True, method, v.detail, v.counterexample, v.seconds)
