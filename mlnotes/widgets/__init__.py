"""Interactive demos (ipywidgets) of the chapters, one module per chapter topic.

Each demo pairs a plain drawing function (used for the chapter's static figure) with a widget that
redraws it as a slider moves. On the website a widget shows its saved snapshot; run the notebook for
the live version.

Import a chapter's widgets from its own module, which imports only the library family it shows::

    from mlnotes.widgets.classification import draw_decision_boundary, logistic_c_demo

``from mlnotes.widgets import logistic_c_demo`` keeps working: this package imports no module until
one of its names is asked for (module ``__getattr__``), and then only the module that defines it, so a
chapter pays for its own widgets only and a broken module of one chapter cannot break another.
Generic drawings (decision regions, optimiser paths, a matrix's action) live in
:mod:`mlnotes.plotting`; they are re-exported here under their old names.

A new chapter adds ``mlnotes/widgets/<topic>.py`` with an ``__all__`` and one line per public name
in :data:`_NAMES` (tests check that the table and the modules agree).
"""

import importlib

#: Public name -> the module (relative to this package, or ``mlnotes.plotting``) that defines it.
_NAMES = {
    # chapter 1, linear algebra
    "draw_matrix_action": "..plotting", "matrix_action_demo": ".linalg",
    # chapter 2, matrix calculus
    "draw_finite_difference": ".calculus", "finite_difference_demo": ".calculus",
    # chapter 3, probability and Gaussians
    "draw_gaussian_condition": ".probability", "gaussian_condition_demo": ".probability",
    # chapter 4, statistical learning theory
    "draw_excess_risk": ".learning_theory", "excess_risk_demo": ".learning_theory",
    # chapter 5, loss functions
    "draw_robust_fit": ".losses", "robust_fit_demo": ".losses",
    # chapter 6, gradient methods
    "draw_descent_paths": "..plotting", "step_size_demo": ".optim", "quadratic_2d": ".optim",
    # chapter 7, convexity and duality
    "draw_chord": ".convexity", "convexity_demo": ".convexity", "chord_gap": ".convexity",
    # chapter 8, subgradient methods
    "draw_subgradient_steps": ".subgradient", "subgradient_demo": ".subgradient",
    # chapter 9, linear regression
    "draw_ridge_fit": ".linear", "ridge_outlier_demo": ".linear",
    # chapter 10, regularisation
    "draw_lasso_geometry": ".regularisation", "regularisation_demo": ".regularisation",
    # chapter 11, probabilistic regression
    "draw_posterior_lines": ".bayesian", "bayesian_regression_demo": ".bayesian",
    # chapter 12, linear classification
    "draw_decision_boundary": "..plotting", "logistic_c_demo": ".classification",
    # chapter 13, generative classifiers
    "draw_class_densities": ".generative", "generative_demo": ".generative",
    # chapter 14, support vector machines
    "draw_svm": ".svm", "svm_demo": ".svm",
    # chapter 15, feature maps and kernels
    "draw_random_features": ".kernels", "random_features_demo": ".kernels",
    # chapter 16, kernel methods
    "make_wave": ".kernel_methods", "draw_kernel_ridge": ".kernel_methods", "kernel_ridge_demo": ".kernel_methods",
    # chapter 17, Gaussian processes
    "draw_gp_prior_samples": ".gp", "draw_gp_posterior": ".gp", "gp_demo": ".gp",
    # chapter 18, nearest neighbours and evaluation
    "draw_knn_regions": ".neighbors", "draw_threshold_curves": ".neighbors", "threshold_counts": ".neighbors",
    "knn_demo": ".neighbors", "threshold_demo": ".neighbors",
    # chapter 19, decision trees
    "leaf_boxes": ".tree", "draw_tree": ".tree", "draw_partition": ".tree", "tree_depth_demo": ".tree",
    # chapter 20, bootstrap, bagging and random forests
    "draw_forest": ".forest", "draw_error_path": ".forest", "first_trees": ".forest", "forest_demo": ".forest",
    # chapter 21, boosting
    "staged_scores": ".boosting", "draw_boosting_round": ".boosting", "draw_boosting_errors": ".boosting",
    "boosting_demo": ".boosting",
}

__all__ = list(_NAMES)


def __getattr__(name):
    """Import the one module that defines ``name`` (PEP 562), on first use."""
    if name not in _NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_NAMES[name], __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
