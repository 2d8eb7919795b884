"""Ensembles: the bootstrap, bagging, random forests and stacking (chapter 20), and boosting (chapter 21)."""

# chapter 20: the bootstrap, bagging, random forests, stacking
from ._bagging import BaggingClassifier, BaggingRegressor, staged_errors
from ._bootstrap import BootstrapResult, bootstrap, bootstrap_indices, out_of_bag_mask
from ._forest import RandomForestClassifier, RandomForestRegressor
from ._stacking import StackingClassifier

# chapter 21: forward stagewise additive modelling, AdaBoost, gradient boosting
from ._fsam import FSAMResult, exponential_loss, fsam, logistic_loss, squared_loss
from ._gradient_boosting import GradientBoostingClassifier, GradientBoostingRegressor, weighted_quantile_by_group
from ._weight_boosting import AdaBoostClassifier

#: The public names, one list per chapter (each chapter's author edits only its own line).
_CHAPTER_20 = ["bootstrap", "bootstrap_indices", "out_of_bag_mask", "BootstrapResult", "StackingClassifier",
               "BaggingClassifier", "BaggingRegressor", "staged_errors", "RandomForestClassifier",
               "RandomForestRegressor"]
_CHAPTER_21 = ["fsam", "FSAMResult", "exponential_loss", "squared_loss", "logistic_loss", "AdaBoostClassifier",
               "GradientBoostingRegressor", "GradientBoostingClassifier", "weighted_quantile_by_group"]
__all__ = _CHAPTER_20 + _CHAPTER_21
