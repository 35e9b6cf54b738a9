"""The compiled part of the package: an optional C version of the lay-down search.

Everything else is in pyproject.toml. ``optional=True``: without a C compiler the install still
succeeds and the engine uses the Python search it keeps as the reference.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("phase10_env.engine._search", ["phase10_env/engine/_search.c"], optional=True)])
