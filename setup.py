"""Build hook (issue 18): the wheel carries the browser client, the migrations and ``alembic.ini``.

The repository keeps ``static/``, ``migrations/`` and ``alembic.ini`` at its top level. A wheel
holds only packages, so this copies them into ``app/_bundled/`` of the build, where
``app.paths`` finds them once installed; the server then runs from any working directory.
Editable installs read the checkout itself and get no copy. It also compiles Nomadi's move
generator (:data:`MOVE_GENERATOR`) when it can. Everything else is declared in
``pyproject.toml``; ``MANIFEST.in`` puts the same files in the sdist.
"""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLED = ("static", "migrations", "alembic.ini")
BUNDLED_DIR = Path("app") / "_bundled"  # app.paths.BUNDLED_DIR_NAME


class BuildPyWithBundledFiles(build_py):
    """``build_py`` that also copies :data:`BUNDLED` into ``app/_bundled/`` of the build."""

    def run(self) -> None:
        if self.editable_mode:
            super().run()
            return
        # setuptools reuses build/lib of an earlier build: without this, a host who rebuilds after
        # `git pull` would ship every module and page deleted since.
        shutil.rmtree(self.build_lib, ignore_errors=True)
        super().run()
        target = Path(self.build_lib) / BUNDLED_DIR
        target.mkdir(parents=True)
        for name in BUNDLED:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.py[co]"))
            elif source.is_file():
                shutil.copy2(source, target / name)
            else:
                raise FileNotFoundError(f"{source} is missing: the wheel would not run (is it in MANIFEST.in?)")


MOVE_GENERATOR = Extension("app.rulesets.nomadi._movegen", ["app/rulesets/nomadi/_movegen.c"], optional=True)
"""Nomadi's move generator in C (``app/rulesets/nomadi/bitboard.py`` uses it when it imports).
``optional``: without a compiler the build warns and goes on, and the pure-Python generator runs."""

setup(cmdclass={"build_py": BuildPyWithBundledFiles}, ext_modules=[MOVE_GENERATOR])
