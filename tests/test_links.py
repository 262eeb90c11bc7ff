"""Links sent outside the browser (e-mails, password-reset links) and ``serve``'s warnings about them."""

from __future__ import annotations

import logging

import pytest

from app import cli
from app.config import Settings
from app.links import link_warnings
from app.services.accounts.password_reset import reset_link


def settings(**values) -> Settings:
    return Settings(database_url="sqlite+aiosqlite:///./x.db", secret_key="x" * 40, **values)


@pytest.mark.parametrize("values, expected", [
    ({}, []),  # trying it on one's own computer
    ({"public_url": "https://games.example.org", "cookie_secure": True, "host": "0.0.0.0"}, []),
    ({"public_url": "https://games.example.org", "cookie_secure": True}, []),  # behind a proxy on loopback
    ({"cookie_secure": True}, ["not https"]),  # the systemd recipe without a public URL: links to 127.0.0.1
    ({"public_url": "http://games.example.org", "cookie_secure": True}, ["not https"]),
    ({"host": "0.0.0.0"}, ["leads nowhere"]),
    ({"host": "192.168.1.20", "public_url": "http://localhost:8000"}, ["leads nowhere"]),
    ({"host": "0.0.0.0", "cookie_secure": True}, ["not https", "leads nowhere"]),
    ({"host": "192.168.1.20"}, []),  # links name the address it listens on, reachable in that network
])
def test_serve_warns_when_links_lead_nowhere_or_are_not_https(values, expected):
    problems = link_warnings(settings(**values))
    assert len(problems) == len(expected), problems
    for problem, words in zip(problems, expected):
        assert words in problem and "CARAVANSERAI_PUBLIC_URL" in problem


def test_links_name_the_port_serve_was_given(tmp_path, monkeypatch, caplog):
    """Found by a host: ``serve --port 31847`` sent password-reset links to port 8000."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CARAVANSERAI_DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path}/x.db")
    for name in ("CARAVANSERAI_PORT", "CARAVANSERAI_HOST", "CARAVANSERAI_PUBLIC_URL", "CARAVANSERAI_COOKIE_SECURE",
                 "CARAVANSERAI_SERVE_PID"):
        monkeypatch.setenv(name, "")  # restored after the test (serve sets some for its workers)
        monkeypatch.delenv(name)
    seen = {}

    async def database_is_up(*_args):
        return 0

    def run(*_args, **kwargs):
        seen["listens"] = (kwargs["host"], kwargs["port"])
        seen["link"] = reset_link(Settings().site_url, "t0ken")  # what a worker reads

    monkeypatch.setattr(cli, "wait_for_database", database_is_up)
    monkeypatch.setattr(cli, "prepare_in_child", lambda migrate: None)
    monkeypatch.setattr(cli.logs, "configure", lambda _format: None)  # the test's own log capture stays
    monkeypatch.setattr(cli.uvicorn, "run", run)
    caplog.set_level(logging.WARNING, logger="app.cli")
    cli.main(["serve", "--host", "0.0.0.0", "--port", "31847"])
    assert seen == {"listens": ("0.0.0.0", 31847), "link": "http://0.0.0.0:31847/reset-password#token=t0ken"}
    assert any("leads nowhere" in record.getMessage() for record in caplog.records)
