r"""The best single split of a node: the step CART repeats at every node (chapter 19)."""

from numbers import Integral

import numpy as np

from ..utils.validation import as_float_matrix, as_float_vector, check_option, check_sample_weight, check_scalar
from ._build import build
from ._criteria import CLASSIFICATION_CRITERIA, REGRESSION_CRITERIA


def best_split(X, y, sample_weight=None, *, criterion="gini", min_samples_leaf=1):
    r"""The split :math:`x_j \le \theta` of one node that most decreases the weighted impurity of its children.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels (classification criteria) or real targets (``"squared_error"``).
    sample_weight : array-like of shape (n_samples,), optional
    criterion : {"gini", "entropy", "log_loss", "misclassification", "squared_error"}, default "gini"
    min_samples_leaf : int >= 1, default 1

    Returns
    -------
    dict or None
        None if no split is possible (a pure node, or no two distinct values of any feature). Otherwise
        ``feature``, ``threshold`` (midpoint of adjacent distinct values), ``impurity`` (of the node),
        ``impurity_left``, ``impurity_right``, ``n_left``, ``n_right``, ``weight_left``, ``weight_right`` and
        ``decrease`` :math:`= i(t) - \frac{W_L}{W_t} i(t_L) - \frac{W_R}{W_t} i(t_R)`.

    Notes
    -----
    Ties: the smallest threshold of a feature, then the smallest feature index. Scikit-learn's rules (float32
    values, the ``1e-7`` gap between distinct values).
    """
    check_option(criterion, "criterion", CLASSIFICATION_CRITERIA + REGRESSION_CRITERIA[:1])
    msl = check_scalar(min_samples_leaf, "min_samples_leaf", Integral, min_val=1)
    X = as_float_matrix(X, "X")
    n, d = X.shape
    w = check_sample_weight(sample_weight, n)
    if criterion in CLASSIFICATION_CRITERIA:
        y = np.asarray(y)
        if y.shape != (n,):
            raise ValueError(f"y must have shape ({n},), got {y.shape}")
        classes, target = np.unique(y, return_inverse=True)
        n_classes = len(classes)
        target = target.reshape(-1).astype(np.intp)
    else:
        target = as_float_vector(y, "y", n)
        n_classes = 0
    arrays = build(X.astype(np.float32), target, w, n_classes=n_classes, criterion=criterion, max_depth=1,
                   min_samples_split=2 * msl, min_samples_leaf=msl, min_weight_leaf=0.0, min_impurity_decrease=0.0,
                   max_features=d, rng=None)
    if len(arrays["feature"]) == 1:
        return None
    W, imp = arrays["weighted_n_node_samples"], arrays["impurity"]
    decrease = imp[0] - W[2] / W[0] * imp[2] - W[1] / W[0] * imp[1]
    return {"feature": int(arrays["feature"][0]), "threshold": float(arrays["threshold"][0]),
            "impurity": float(imp[0]), "impurity_left": float(imp[1]), "impurity_right": float(imp[2]),
            "n_left": int(arrays["n_node_samples"][1]), "n_right": int(arrays["n_node_samples"][2]),
            "weight_left": float(W[1]), "weight_right": float(W[2]), "decrease": float(decrease)}
