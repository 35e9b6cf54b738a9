"""The compiled parts of the package, both optional: the lay-down search and the observation
composer in C. Everything else is in pyproject.toml. Without a C compiler the install still
succeeds and the package runs the Python code it keeps as their reference.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("phase10_env.engine._search", ["phase10_env/engine/_search.c"], optional=True),
    Extension("phase10_env._compose", ["phase10_env/_compose.c"], optional=True),
])
