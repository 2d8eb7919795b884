"""Deciding that two expressions are *not* identical: a counterexample is the proof."""

import time

from ._prove import COUNTEREXAMPLE, PROVED, UNDECIDED, Verdict, _finish, _identical_as_built, _sympify, equal


def differs(lhs, rhs, *, latex=None, **options) -> Verdict:
    r"""Decide that ``lhs`` and ``rhs`` are not identically equal.

    Holds when :func:`~mlnotes.symbolic.equal` finds a point where they differ (evaluated to 30
    digits at exact rational inputs, or exactly for matrices) or when their shapes differ; the
    counterexample is kept in the verdict. Fails when they are identical.

    Parameters
    ----------
    lhs, rhs : sympy expressions or matrices
    latex : str, optional
        A typed display of the claim, compared with the checked objects (default: the checked
        form ``lhs \not\equiv rhs`` rendered by sympy).
    **options
        Passed to :func:`~mlnotes.symbolic.equal` (``witnesses``, ``points``, ``seed``, ...).

    Returns
    -------
    Verdict
        ``kind="counterexample"`` (or ``"proved"`` for a shape mismatch) when it holds.
    """
    start = time.perf_counter()
    lhs, rhs = _sympify(lhs), _sympify(rhs)
    v = equal(lhs, rhs, **options)
    if v.holds:
        holds_, method, detail = False, v.method, f"they are identical ({v.detail})"
    elif v.method == "undecided":  # no counterexample and no proof: no evidence of a difference
        holds_, method, detail = False, v.method, v.detail
    else:
        holds_, method, detail = True, ("symbolic" if v.counterexample is None else "counterexample"), v.detail
    out = _finish(holds_, method, detail, v.counterexample if holds_ else None, start, lhs=lhs, op="not-equiv",
                  rhs=rhs, latex=latex, trivial=False)
    if out.holds:
        out.kind = COUNTEREXAMPLE if v.counterexample else PROVED
    elif out.kind not in (UNDECIDED,):
        out.kind = v.kind if v.kind != "trivial" else PROVED
    if _identical_as_built(lhs, rhs):
        out.detail = f"the two sides are identical as built ({out.detail})"
    return out
