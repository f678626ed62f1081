"""The two compiled parts of the package, both optional: :mod:`pagesieve.classify._trees` (the
context stage's walk down its trees, ``host/pagesieve/classify/_trees.c``) and
:mod:`pagesieve.blocks._segment` (the block segmentation's walk over the page tree,
``host/pagesieve/blocks/_segment.c``); everything else is in pyproject.toml. Without a C compiler
the build goes on without them (``optional=True``): the classifier walks the trees with numpy and
:func:`pagesieve.blocks.segment.segment` walks in Python, to the same answers. Both use only the
stable ABI of Python 3.11 (the buffer protocol joined it there), so one wheel per platform serves
every Python from 3.11 on (``cp311-abi3``). ``_segment.c`` reads libxml2's and lxml's structures
through its own declarations of their first fields, so it needs neither lxml's nor libxml2's
headers to build (nothing beyond Python's headers is required)."""

from setuptools import Extension, setup

setup(
    ext_modules=[Extension(name, [source], optional=True, py_limited_api=True, define_macros=[("Py_LIMITED_API", "0x030B0000")])
                 for name, source in (("pagesieve.classify._trees", "host/pagesieve/classify/_trees.c"),
                                      ("pagesieve.blocks._segment", "host/pagesieve/blocks/_segment.c"))],
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
