"""Settings refuse an example's placeholder secrets in production."""

import secrets

import pytest
from pydantic import ValidationError

from app.config import MIN_AWAY_REFRESHES, Settings
from app.services.attendance.presence import PRESENT_REFRESHES

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


@pytest.mark.parametrize("setting", [{"absent_after_seconds": 5}, {"turn_based_absent_after_hours": 0.005}])
def test_an_away_time_not_well_above_the_presence_refresh_is_refused(setting):
    with pytest.raises(ValidationError, match=r"must be at least 4 x CARAVANSERAI_PRESENCE_REFRESH_SECONDS \(5 s\) = 20 s"):
        Settings(_env_file=None, presence_refresh_seconds=5, **setting)


def test_the_smallest_away_times_accepted_are_four_refreshes_more_than_a_seat_stays_present():
    settings = Settings(_env_file=None, presence_refresh_seconds=5, absent_after_seconds=20,
                        turn_based_absent_after_hours=20 / 3600)
    assert settings.absent_after_seconds == 20
    assert MIN_AWAY_REFRESHES > PRESENT_REFRESHES
