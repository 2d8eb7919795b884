r"""Decision trees (chapter 19, *Decision trees*): CART for classification and regression with scikit-learn's
interface, trees and predictions; impurity measures, the best split of a node, cost-complexity pruning.

The split search is vectorised over all nodes of a depth (see :mod:`mlnotes.tree._build`); the ensembles of
chapters 20 and 21 use these trees as base learners (``sample_weight``, ``max_features`` with ``random_state``,
``apply``, a writable ``tree_.value``).
"""

from ._categorical import categorical_split
from ._classes import DecisionTreeClassifier, DecisionTreeRegressor
from ._criteria import entropy, gini, misclassification
from ._prune import reduced_error_prune
from ._split import best_split
from ._tree import Tree

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor", "Tree", "best_split", "categorical_split", "entropy",
           "gini", "misclassification", "reduced_error_prune"]
