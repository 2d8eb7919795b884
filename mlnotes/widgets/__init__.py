"""Interactive demos (ipywidgets) shared by the chapters.

Each demo pairs a plain drawing function (used for the chapter's static figure) with a widget
that redraws it as a slider moves. On the website a widget shows its saved snapshot; run the
notebook for the live version.
"""

from ._bayesian import bayesian_regression_demo, draw_posterior_lines
from ._calculus import draw_finite_difference, finite_difference_demo
from ._classification import draw_decision_boundary, logistic_c_demo
from ._convexity import convexity_demo, draw_chord
from ._generative import draw_class_densities, generative_demo
from ._learning_theory import draw_excess_risk, excess_risk_demo
from ._linalg import draw_matrix_action, matrix_action_demo
from ._linear import draw_ridge_fit, ridge_outlier_demo
from ._losses import draw_robust_fit, robust_fit_demo
from ._optim import draw_descent_paths, quadratic_2d, step_size_demo
from ._probability import draw_gaussian_condition, gaussian_condition_demo
from ._regularisation import draw_lasso_geometry, regularisation_demo
from ._subgradient import draw_subgradient_steps, subgradient_demo

__all__ = ["draw_matrix_action", "matrix_action_demo",
           "draw_finite_difference", "finite_difference_demo",
           "draw_gaussian_condition", "gaussian_condition_demo",
           "draw_excess_risk", "excess_risk_demo",
           "draw_robust_fit", "robust_fit_demo",
           "draw_descent_paths", "step_size_demo", "quadratic_2d",
           "draw_chord", "convexity_demo",
           "draw_subgradient_steps", "subgradient_demo",
           "draw_ridge_fit", "ridge_outlier_demo",
           "draw_lasso_geometry", "regularisation_demo",
           "draw_posterior_lines", "bayesian_regression_demo",
           "draw_decision_boundary", "logistic_c_demo",
           "draw_class_densities", "generative_demo"]
