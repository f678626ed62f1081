"""The page rules that follow the block classifier (run by :func:`pagesieve.extract.settle`), one
module per class of pages they serve: :mod:`~pagesieve.rules.headline` (a title block the
classifier dropped), :mod:`~pagesieve.rules.structures` (tables, lists, figures cut in half),
:mod:`~pagesieve.rules.comments` (readers' comments under an article),
:mod:`~pagesieve.rules.labels` (ad labels and back-to-top links),
:mod:`~pagesieve.rules.unrendered` (client-side templates a script never filled in),
:mod:`~pagesieve.rules.teasers` (teaser cards around an article) and
:mod:`~pagesieve.rules.headings` (a heading left at the end of the body). Each rule
changes the page's ``keep`` list in place and logs what it drops in the page's
:class:`~pagesieve.removal.RemovalLog` (stage ``"post-rule"``); each docstring names its
cross-validated gain on the dev gate (``pagesieve-dev eval --cv 5 wcxb_dev --cv-ablate NAME``).
"""
