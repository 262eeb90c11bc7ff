"""``constraints.txt`` pins every runtime dependency: a host installing the wheel with it gets the
versions CI tested (six dependencies, aiohttp and cryptography among them, were left floating)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]


def pinned() -> dict[str, str]:
    found = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if match := re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)$", line):
            found[_name(match.group(1))] = match.group(2)
    return found


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()  # PEP 503


def test_every_runtime_dependency_and_extra_is_pinned():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["redis"]]
    pins = pinned()
    loose = [spec for spec in wanted if _name(Requirement(spec).name) not in pins]
    assert loose == [], f"not pinned in constraints.txt: {loose}"
    for spec in wanted:
        requirement = Requirement(spec)
        assert requirement.specifier.contains(pins[_name(requirement.name)]), (spec, pins[_name(requirement.name)])


def test_the_push_and_mail_libraries_and_what_they_need_are_pinned():
    pins = pinned()
    for name in ("aiohttp", "yarl", "multidict", "cryptography", "py-vapid", "http-ece", "aiosmtplib",
                 "email-validator", "dnspython"):
        assert name in pins, name
