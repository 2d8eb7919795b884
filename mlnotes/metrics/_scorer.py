"""Scorers: ``scorer(estimator, X, y) -> float``, larger is better, looked up by scikit-learn's names.

A scorer asks the fitted estimator for what the metric needs: labels (``predict``) for accuracy and the
F-scores, a score of the positive class for the ROC AUC and average precision (``decision_function`` if the
estimator has one, else the ``predict_proba`` column of ``classes_[1]``), probabilities for the log loss. Losses
are negated (``neg_...``) so that larger is better.
"""

from ._classification import (accuracy_score, f1_score, log_loss, precision_score, recall_score,
                              specificity_score)
from ._ranking import average_precision_score, roc_auc_score
from ._regression import mean_absolute_error, mean_squared_error, r2_score


class _Scorer:
    """A metric applied to an estimator's response on (X, y), times ``sign``."""

    def __init__(self, name, metric, response, sign=1, kwargs=None):
        self.name, self.metric, self.response, self.sign = name, metric, response, sign
        self.kwargs = kwargs or {}

    def __call__(self, estimator, X, y, sample_weight=None):
        extra = dict(self.kwargs)
        if sample_weight is not None:
            extra["sample_weight"] = sample_weight
        if self.response == "predict":
            y_out = estimator.predict(X)
        elif self.response == "proba":
            y_out = estimator.predict_proba(X)
            extra["labels"] = estimator.classes_
        else:                                    # a score of the positive class classes_[1]
            if hasattr(estimator, "decision_function"):
                y_out = estimator.decision_function(X)
            else:
                y_out = estimator.predict_proba(X)[:, 1]
            if self.metric is average_precision_score:
                extra["pos_label"] = estimator.classes_[1]
        return self.sign * self.metric(y, y_out, **extra)

    def __repr__(self):
        return f"make_scorer({self.metric.__name__}{', greater_is_better=False' if self.sign < 0 else ''})"


def _build_scorers():
    scorers = {
        "accuracy": _Scorer("accuracy", accuracy_score, "predict"),
        "roc_auc": _Scorer("roc_auc", roc_auc_score, "score"),
        "average_precision": _Scorer("average_precision", average_precision_score, "score"),
        "neg_log_loss": _Scorer("neg_log_loss", log_loss, "proba", sign=-1),
        "r2": _Scorer("r2", r2_score, "predict"),
        "neg_mean_squared_error": _Scorer("neg_mean_squared_error", mean_squared_error, "predict", sign=-1),
        "neg_mean_absolute_error": _Scorer("neg_mean_absolute_error", mean_absolute_error, "predict", sign=-1),
    }
    for name, metric in (("precision", precision_score), ("recall", recall_score), ("f1", f1_score),
                         ("specificity", specificity_score)):
        scorers[name] = _Scorer(name, metric, "predict")
        for average in ("micro", "macro", "weighted"):
            scorers[f"{name}_{average}"] = _Scorer(f"{name}_{average}", metric, "predict",
                                                   kwargs={"average": average})
    return scorers


SCORERS = _build_scorers()


def get_scorer_names():
    """The names :func:`get_scorer` knows, sorted."""
    return sorted(SCORERS)


def get_scorer(scoring):
    """The scorer called ``scoring`` (scikit-learn's names, e.g. 'accuracy', 'roc_auc', 'f1_macro',
    'neg_mean_squared_error'), or ``scoring`` itself if it is callable.

    Parameters
    ----------
    scoring : str or callable
        A callable must have the signature ``scoring(estimator, X, y) -> float``.

    Returns
    -------
    callable

    Raises
    ------
    ValueError
        An unknown name (the message lists the known ones).
    TypeError
        Neither a string nor a callable.
    """
    if callable(scoring):
        return scoring
    if not isinstance(scoring, str):
        raise TypeError(f"scoring must be None, a metric name or a callable scorer(estimator, X, y), got "
                        f"{type(scoring).__name__} {scoring!r}")
    if scoring not in SCORERS:
        raise ValueError(f"scoring={scoring!r} is not a known metric name; use one of {get_scorer_names()} or a "
                         f"callable scorer(estimator, X, y)")
    return SCORERS[scoring]

