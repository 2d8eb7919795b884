r"""Sympy functions the chapters share (instead of each chapter defining its own lambda).

Each returns a sympy expression in its arguments, written the way the book writes the formula,
so that sympy can differentiate, simplify and evaluate it:

- :func:`sigmoid` :math:`\sigma(z) = 1/(1 + e^{-z})` and :func:`logit` :math:`\log\frac{p}{1-p}`;
- :func:`softplus` :math:`\log(1 + e^{z})`;
- :func:`normal_pdf` :math:`\mathcal N(x; \mu, \sigma^2)`, :func:`std_normal_pdf` :math:`\varphi`
  and :func:`std_normal_cdf` :math:`\Phi`;
- :func:`beta_function` :math:`B(a, b)`;
- :func:`squared_norm` :math:`\lVert v\rVert^2 = v^\top v` and :func:`norm` :math:`\lVert v\rVert`
  of an explicit column (or row) vector;
- :func:`hinge` :math:`\max(0, 1 - m)` and :func:`indicator` (1 where a condition holds, else 0).

>>> import sympy as sp
>>> z = sp.Symbol("z", real=True)
>>> sp.simplify(sp.diff(sigmoid(z), z) - sigmoid(z) * (1 - sigmoid(z)))
0
"""

from __future__ import annotations

import sympy as sp

__all__ = ["sigmoid", "logit", "softplus", "normal_pdf", "std_normal_pdf", "std_normal_cdf", "beta_function",
           "squared_norm", "norm", "hinge", "indicator"]


def sigmoid(z):
    r"""The logistic sigmoid :math:`\sigma(z) = 1 / (1 + e^{-z})`."""
    return 1 / (1 + sp.exp(-z))


def logit(p):
    r"""The inverse of the sigmoid, :math:`\log\frac{p}{1 - p}` for :math:`0 < p < 1`."""
    return sp.log(p / (1 - p))


def softplus(z):
    r""":math:`\log(1 + e^{z})`, the logistic loss of the margin :math:`-z`."""
    return sp.log(1 + sp.exp(z))


def normal_pdf(x, mean=0, variance=1):
    r"""The Gaussian density :math:`\mathcal N(x; \mu, \sigma^2) = \frac{1}{\sqrt{2\pi\sigma^2}}
    \exp\big(-\frac{(x - \mu)^2}{2\sigma^2}\big)` (parametrised by the *variance*)."""
    return sp.exp(-(x - mean) ** 2 / (2 * variance)) / sp.sqrt(2 * sp.pi * variance)


def std_normal_pdf(x):
    r"""The standard normal density :math:`\varphi(x) = e^{-x^2/2} / \sqrt{2\pi}`."""
    return sp.exp(-x ** 2 / 2) / sp.sqrt(2 * sp.pi)


def std_normal_cdf(x):
    r"""The standard normal distribution function :math:`\Phi(x) = \frac12\big(1 + \operatorname{erf}(x/\sqrt2)\big)`."""
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def beta_function(a, b):
    r"""The Beta function :math:`B(a, b) = \Gamma(a)\Gamma(b) / \Gamma(a + b)`."""
    return sp.gamma(a) * sp.gamma(b) / sp.gamma(a + b)


def _vector(v, name="v"):
    if not isinstance(v, sp.MatrixBase) or 1 not in v.shape:
        raise TypeError(f"{name} must be an explicit sympy column or row vector (sp.Matrix), got {type(v).__name__}"
                        + (f" of shape {v.shape}" if isinstance(v, sp.MatrixBase) else ""))
    return v if v.shape[1] == 1 else v.T


def squared_norm(v):
    r""":math:`\lVert v\rVert^2 = v^\top v` of an explicit vector (a scalar expression)."""
    v = _vector(v)
    return (v.T * v)[0, 0]


def norm(v):
    r"""The Euclidean norm :math:`\lVert v\rVert = \sqrt{v^\top v}` of an explicit vector."""
    return sp.sqrt(squared_norm(v))


def hinge(m):
    r"""The hinge loss of the margin, :math:`\max(0, 1 - m)`."""
    return sp.Max(0, 1 - m)


def indicator(condition):
    r"""1 where ``condition`` (a sympy relation) holds, else 0 (a ``Piecewise``)."""
    return sp.Piecewise((1, condition), (0, True))
