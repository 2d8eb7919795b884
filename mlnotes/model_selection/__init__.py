"""Model selection (chapter 18, *Nearest neighbours and evaluation*): splitters (``KFold``, ``StratifiedKFold``,
``LeaveOneOut``, ``train_test_split``) and cross-validation (``cross_val_score``, ``cross_validate``,
``check_cv``).

Unshuffled splits are scikit-learn's, index for index; shuffled ones draw from ``np.random.default_rng`` and match
scikit-learn's sizes and stratification, not its members.
"""

from ._split import KFold, LeaveOneOut, StratifiedKFold, train_test_split
from ._validation import check_cv, cross_val_score, cross_validate

__all__ = ["KFold", "StratifiedKFold", "LeaveOneOut", "train_test_split", "cross_val_score", "cross_validate",
           "check_cv"]
