"""Linear models: least squares and ridge (chapter 9, *Linear regression*), the lasso and the elastic net
(chapter 10, *Regularisation*), linear classifiers and GLMs (chapter 12, *Linear classification*), and the
non-smooth objectives of the lasso and the linear SVM (chapter 8, *Subgradient methods*)."""

from ._least_squares import (
    center,
    least_squares_1d,
    least_squares_loss,
    normal_equations,
    ridge_closed_form,
    ridge_svd,
)
from ._coordinate_descent import (
    ElasticNet,
    Lasso,
    alpha_max,
    coordinate_descent,
    duality_gap,
    enet_path,
    lasso_path,
    lasso_qp,
    soft_threshold,
)
from ._logistic import LogisticRegression, logistic_hessian, logistic_objective
from ._models import LinearRegression, Ridge
from ._robust import fit_linear
from ._nonsmooth import lasso_objective, lasso_subgradient, svm_primal_objective, svm_primal_subgradient
from ._multiclass import OneVsOneClassifier, OneVsRestClassifier
from ._multiclass_svm import (MulticlassSVM, multiclass_hinge_objective, multiclass_hinge_subgradient,
                              multivector_feature)
from ._perceptron import Perceptron
from ._probit import ProbitRegression, inverse_mills_ratio, probit_hessian, probit_objective
from ._poisson import PoissonRegression, poisson_hessian, poisson_objective

__all__ = [
    "LinearRegression",
    "Ridge",
    "Lasso",
    "ElasticNet",
    "LogisticRegression",
    "logistic_objective",
    "logistic_hessian",
    "PoissonRegression",
    "Perceptron",
    "OneVsRestClassifier",
    "OneVsOneClassifier",
    "ProbitRegression",
    "probit_objective",
    "probit_hessian",
    "inverse_mills_ratio",
    "MulticlassSVM",
    "multivector_feature",
    "multiclass_hinge_objective",
    "multiclass_hinge_subgradient",
    "poisson_objective",
    "poisson_hessian",
    "fit_linear",
    "lasso_objective",
    "lasso_subgradient",
    "svm_primal_objective",
    "svm_primal_subgradient",
    "lasso_path",
    "lasso_qp",
    "enet_path",
    "alpha_max",
    "soft_threshold",
    "coordinate_descent",
    "duality_gap",
    "center",
    "least_squares_1d",
    "least_squares_loss",
    "normal_equations",
    "ridge_closed_form",
    "ridge_svd",
]
