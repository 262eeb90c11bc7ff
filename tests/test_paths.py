"""``app.paths``: the one place that finds the client, the migrations and alembic.ini, in a
checkout and inside an installed wheel."""

from pathlib import Path

from app import paths


def test_an_installed_package_reads_its_bundled_copy(tmp_path):
    package = tmp_path / "site-packages" / "app"
    (package / paths.BUNDLED_DIR_NAME / "static").mkdir(parents=True)
    assert paths.data_root(package) == package / paths.BUNDLED_DIR_NAME


def test_a_checkout_reads_the_repository_folders(tmp_path):
    package = tmp_path / "checkout" / "app"
    package.mkdir(parents=True)
    assert paths.data_root(package) == tmp_path / "checkout"


def test_every_file_the_server_reads_is_found_here():
    assert (paths.STATIC_DIR / "index.html").is_file()
    assert (paths.MIGRATIONS_DIR / "env.py").is_file()
    assert paths.ALEMBIC_INI.is_file()
    assert paths.DATA_ROOT == Path(__file__).resolve().parents[1]  # this checkout, not some copy


def test_no_other_module_finds_those_folders_from_its_own_place():
    """A module that finds ``static/`` or ``migrations/`` from ``__file__`` reads the checkout's
    folder, which an installed wheel does not have (the service worker once answered 500 there)."""
    app_dir = paths.PACKAGE_DIR
    offenders = []
    for module in app_dir.rglob("*.py"):
        if module == app_dir / "paths.py":
            continue
        for number, line in enumerate(module.read_text(encoding="utf-8").splitlines(), 1):
            if "__file__" in line and any(f'"{name}"' in line for name in ("static", "migrations", "alembic.ini")):
                offenders.append(f"{module.relative_to(app_dir.parent)}:{number}: {line.strip()}")
    assert offenders == []
