"""Benchmark pairs of chapter 13's generative classifiers (read by tools/benchmark.py).

LDA, QDA and Gaussian naive Bayes on n=50,000, d=50, three classes: at most 2x scikit-learn's fit time, with
predicted probabilities equal to 1e-6 (the table's "max|dcoef|" column is the largest probability difference).
"""

from sklearn import discriminant_analysis as sk_da
from sklearn import naive_bayes as sk_nb

from benchmark import Pair, log_loss, make_three_classes
from mlnotes.generative import GaussianNB, LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis

PAIRS = [
    Pair("LinearDiscriminantAnalysis", lambda: LinearDiscriminantAnalysis(), lambda: sk_da.LinearDiscriminantAnalysis(),
         log_loss, target_ratio=2.0, target_coef=1e-6, n=50_000, d=50, data=make_three_classes, probabilities=True),
    Pair("QuadraticDiscriminantAnalysis", lambda: QuadraticDiscriminantAnalysis(),
         lambda: sk_da.QuadraticDiscriminantAnalysis(), log_loss, target_ratio=2.0, target_coef=1e-6, n=50_000, d=50,
         data=make_three_classes, probabilities=True),
    Pair("GaussianNB", lambda: GaussianNB(), lambda: sk_nb.GaussianNB(), log_loss, target_ratio=2.0,
         target_coef=1e-6, n=50_000, d=50, data=make_three_classes, probabilities=True),
]
