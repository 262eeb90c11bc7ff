"""docker-compose.yml as a host runs it: no Docker engine here, so the file is read.
Every service's log is rotated, every secret is refused when empty, Caddy uses the shipped
Caddyfile, and the example .env holds no secret a host could forget to change."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SECRETS = ("POSTGRES_PASSWORD", "CARAVANSERAI_SECRET_KEY")


def test_every_service_rotates_its_log():
    for name, service in COMPOSE["services"].items():
        options = service.get("logging", {}).get("options", {})
        assert service["logging"]["driver"] == "json-file" and options.get("max-size") and options.get("max-file"), name


def test_every_use_of_a_secret_refuses_an_empty_one():
    text = (ROOT / "docker-compose.yml").read_text()
    uses = re.findall(r"\$\{(POSTGRES_PASSWORD|CARAVANSERAI_SECRET_KEY|CARAVANSERAI_DOMAIN)(:?[?-]?)", text)
    assert {name for name, _ in uses} == {*SECRETS, "CARAVANSERAI_DOMAIN"}
    assert all(mark == ":?" for _, mark in uses), uses


def test_the_example_env_leaves_every_secret_empty():
    example = dict(line.split("=", 1) for line in (ROOT / ".env.example").read_text().splitlines()
                   if line and not line.startswith("#"))
    assert all(example[secret] == "" for secret in SECRETS)


def test_caddy_serves_the_shipped_caddyfile_and_metrics_stay_inside():
    caddy = COMPOSE["services"]["caddy"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    assert "ports" not in COMPOSE["services"]["app"]  # only Caddy faces the internet


def test_the_backup_service_runs_the_schedule_on_the_apps_image():
    backup, app = COMPOSE["services"]["backup"], COMPOSE["services"]["app"]
    assert backup["image"] == app["image"] and backup["command"] == ["caravanserai-backup-schedule"]
    assert backup["environment"]["CARAVANSERAI_DATABASE_URL"] == app["environment"]["CARAVANSERAI_DATABASE_URL"]
    assert "./backups:/backups" in backup["volumes"]


def test_the_backup_service_has_an_init_that_hands_on_the_stop_signal():
    assert COMPOSE["services"]["backup"]["init"] is True


def test_the_image_asks_the_port_serve_listens_on_for_its_health():
    healthcheck = next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if "/healthz" in line)
    assert "CARAVANSERAI_PORT" in healthcheck and ":8000/" not in healthcheck


def test_the_optional_prometheus_scrapes_the_app_inside_and_listens_on_loopback_only():
    metrics = yaml.safe_load((ROOT / "docker-compose.metrics.yml").read_text())
    prometheus = metrics["services"]["prometheus"]
    assert all(port.startswith("127.0.0.1:") for port in prometheus["ports"])
    options = prometheus["logging"]["options"]
    assert prometheus["logging"]["driver"] == "json-file" and options["max-size"] and options["max-file"]
    assert "./monitoring/prometheus.yml:/etc/prometheus/prometheus.yml:ro" in prometheus["volumes"]
    config = yaml.safe_load((ROOT / "monitoring/prometheus.yml").read_text())
    job = config["scrape_configs"][0]
    assert job["metrics_path"] == "/metrics" and job["static_configs"][0]["targets"] == ["app:8000"]
    assert "8000" in COMPOSE["services"]["app"]["expose"]  # the target is the app service on the compose network
