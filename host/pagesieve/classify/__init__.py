"""Blocks -> scores: the block classifier and the model files it runs on.

:mod:`~pagesieve.classify.classifier` is the SVM (seed 000 §6) and the context stage as numpy
arrays; :mod:`~pagesieve.classify.context` the second stage's features;
:mod:`~pagesieve.classify.page_type` the page-type probabilities it may read;
:mod:`~pagesieve.classify.model_store` reads and writes the model files (the shipped model, the
personal one) and picks the model for a page.
"""
