"""pagesieve: main-content extraction for the pagesieve browser extension, run locally.

Data flow (one package per step; the removal log, :mod:`pagesieve.removal`, goes through all)::

    snapshot / HTML  ->  page  ->  blocks, features  ->  scores     ->  templates, corrections  ->  article  ->  reply
                         page/     blocks/               classify/      templates/ corrections/     article/    native/

Beside them: ``storage/`` (SQLite and atomic writes), ``library/`` (saved articles), ``crawl/``
(``pagesieve batch``). The one-call API is :func:`pagesieve.extract.extract`; the developers'
tools are the separate package ``pagesieve_dev``.
"""

__version__ = "0.1.0"
