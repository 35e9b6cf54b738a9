"""The compiled parts of the package, both optional: the lay-down search and the observation
composer in C; and a copy of ``configs/`` (the named rule variants and training configs) inside
the built package, so an installed wheel has them. Everything else is in pyproject.toml. Without
a C compiler the install still succeeds and the package runs the Python code it keeps as their
reference.
"""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildWithConfigs(build_py):
    """build_py, then ``configs/**/*.yaml`` copied to ``phase10_env/configs`` in the build."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the checkout's configs/ directly
            return
        target = Path(self.build_lib) / "phase10_env" / "configs"
        for source in Path("configs").rglob("*.yaml"):
            path = target / source.relative_to("configs")
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, path)


setup(
    cmdclass={"build_py": BuildWithConfigs},
    ext_modules=[
        Extension("phase10_env.engine._search", ["phase10_env/engine/_search.c"], optional=True),
        Extension("phase10_env._compose", ["phase10_env/_compose.c"], optional=True),
        Extension("phase10_env.core._core", sorted(str(p) for p in Path("phase10_env/core").glob("*.c")),
                  depends=[str(p) for p in Path("phase10_env/core").glob("*.h")], optional=True),
    ],
)
