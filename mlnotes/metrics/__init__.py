"""Evaluation metrics (chapter 18, *Nearest neighbours and evaluation*).

Scores from labels (``accuracy_score``, ``confusion_matrix``, ``precision_score``, ``recall_score``,
``specificity_score``, ``f1_score``, ``fbeta_score``, ``precision_recall_fscore_support``, ``zero_one_loss``),
from probabilities (``log_loss``), curves and areas from scores (``roc_curve``, ``roc_auc_score``, ``auc``,
``precision_recall_curve``, ``average_precision_score``, ``lift_curve``, ``binary_clf_curve``,
``confusion_matrix_at_thresholds``), one-vs-rest matrices (``multilabel_confusion_matrix``), regression
scores (``mean_squared_error``, ``mean_absolute_error``, ``r2_score``) and scorers by name (``get_scorer``).
Signatures and results are scikit-learn's (including ties, ``pos_label``, ``labels=``, ``average=``,
``zero_division`` and ``sample_weight``); ``specificity_score``, ``lift_curve`` and the ``orientation`` option
of ``confusion_matrix`` are additions. Undefined scores warn with scikit-learn's ``UndefinedMetricWarning``
(the same class, re-exported here).
"""

from ._classification import (accuracy_score, confusion_matrix, f1_score, fbeta_score, log_loss,
                              multilabel_confusion_matrix, precision_recall_fscore_support, precision_score,
                              recall_score, specificity_score, zero_one_loss)
from ._ranking import (auc, average_precision_score, binary_clf_curve, confusion_matrix_at_thresholds, lift_curve,
                       precision_recall_curve, roc_auc_score, roc_curve)
from ._regression import mean_absolute_error, mean_squared_error, r2_score
from ._scorer import get_scorer, get_scorer_names

__all__ = ["accuracy_score", "confusion_matrix", "precision_score", "recall_score", "specificity_score",
           "f1_score", "fbeta_score", "precision_recall_fscore_support", "zero_one_loss", "log_loss",
           "multilabel_confusion_matrix", "roc_curve", "roc_auc_score", "auc", "precision_recall_curve",
           "average_precision_score", "lift_curve", "binary_clf_curve", "confusion_matrix_at_thresholds",
           "mean_squared_error", "mean_absolute_error", "r2_score", "get_scorer", "get_scorer_names",
           "UndefinedMetricWarning"]


def __getattr__(name):
    # scikit-learn's warning class, imported on first use (importing scikit-learn takes seconds)
    if name == "UndefinedMetricWarning":
        from ._checks import _undefined_metric_warning

        return _undefined_metric_warning()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
