"""pagesieve: main-content extraction for the pagesieve browser extension, run locally.

Data flow (one module or package per step)::

    snapshot / HTML  ->  page  ->  blocks  ->  features  ->  classifier  ->  article  ->  reply
    page/               page/     blocks.py   features.py   classifier.py  article/

The one-call API is :func:`pagesieve.extract.extract`.
"""

__version__ = "0.1.0"
