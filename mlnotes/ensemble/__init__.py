"""Ensembles: the bootstrap, bagging, random forests and stacking (chapter 20), and boosting (chapter 21)."""

# chapter 20: the bootstrap, bagging, random forests, stacking
from ._bagging import BaggingClassifier, BaggingRegressor, staged_errors
from ._bootstrap import BootstrapResult, bootstrap, bootstrap_indices, out_of_bag_mask
from ._forest import RandomForestClassifier, RandomForestRegressor
from ._stacking import StackingClassifier

# chapter 21: forward stagewise additive modelling, AdaBoost, gradient boosting

#: The public names, one list per chapter (each chapter's author edits only its own line).
_CHAPTER_20 = ["bootstrap", "bootstrap_indices", "out_of_bag_mask", "BootstrapResult", "StackingClassifier",
               "BaggingClassifier", "BaggingRegressor", "staged_errors", "RandomForestClassifier",
               "RandomForestRegressor"]
_CHAPTER_21 = []
__all__ = _CHAPTER_20 + _CHAPTER_21
