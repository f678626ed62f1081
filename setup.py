"""The one compiled part of the package, optional: :mod:`pagesieve.classify._trees` (the context
stage's walk down its trees, ``host/pagesieve/classify/_trees.c``); everything else is in
pyproject.toml. Without a C compiler the build goes on without it (``optional=True``) and the
classifier walks the trees with numpy, to the same answers (:mod:`pagesieve.classify.classifier`).
It uses only the stable ABI of Python 3.11 (the buffer protocol joined it there), so one wheel per
platform serves every Python from 3.11 on (``cp311-abi3``)."""

from setuptools import Extension, setup

setup(
    ext_modules=[Extension("pagesieve.classify._trees", ["host/pagesieve/classify/_trees.c"], optional=True,
                           py_limited_api=True, define_macros=[("Py_LIMITED_API", "0x030B0000")])],
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
