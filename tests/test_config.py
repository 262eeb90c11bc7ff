"""Settings refuse an example's placeholder secrets in production."""

import secrets

import pytest
from pydantic import ValidationError

from app.config import Settings

REAL_KEY = secrets.token_urlsafe(48)


def production(**settings) -> Settings:
    return Settings(_env_file=None, cookie_secure=True, **settings)


@pytest.mark.parametrize("key", ["change-me", "change-me-too", "CHANGEME", "<long random string>",
                                 "please-replace-me-with-something-long-and-random"])
def test_a_placeholder_secret_key_is_refused_in_production(key):
    with pytest.raises(ValidationError, match="CARAVANSERAI_SECRET_KEY is still the example's placeholder"):
        production(secret_key=key)


def test_a_short_secret_key_is_refused_in_production():
    with pytest.raises(ValidationError, match="has 12 characters, fewer than 32"):
        production(secret_key="x7Kq9vLm2Pz4")


def test_a_placeholder_database_password_is_refused_in_production():
    with pytest.raises(ValidationError, match="password in CARAVANSERAI_DATABASE_URL"):
        production(secret_key=REAL_KEY, database_url="postgresql://caravanserai:change-me@db:5432/caravanserai")


def test_real_secrets_pass_in_production():
    settings = production(secret_key=REAL_KEY, database_url=f"postgresql://caravanserai:{REAL_KEY}@db/caravanserai")
    assert settings.session_secret == REAL_KEY


def test_production_without_a_key_generates_one(tmp_path):
    settings = production(secret_key_file=tmp_path / "secret")
    assert len(settings.session_secret) >= 32


def test_outside_production_any_key_is_taken():
    """A developer's laptop (no HTTPS, no ``cookie_secure``) is not held to it."""
    assert Settings(_env_file=None, secret_key="change-me").session_secret == "change-me"
