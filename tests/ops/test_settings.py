"""Settings (issue 31): one declared table, every value parsed at start, and a bad one stops the start
with one line naming the variable, the value and what is accepted; a typo never switches a protection off."""
import pytest

from app.config import SETTINGS, SettingsError, gunicorn_bind, load_settings
from tests.helpers import python_with_settings


@pytest.mark.parametrize("name, raw, accepted", [
    ("AUTH_FAILURES_PER_CLIENT", "lots", 'a rate limit such as "10 per minute"'),
    ("AUTH_FAILURES_PER_ADDRESS", "30 per fortnight", 'a rate limit such as "10 per minute"'),
    ("RATELIMIT_COMPAT_WRITES", "", 'a rate limit such as "10 per minute"'),
    ("RATELIMIT_ENABLED", "maybe", "one of true, false, 1, 0, yes, no, on, off"),
    ("HISTORY_ENABLED", "ture", "one of true, false, 1, 0, yes, no, on, off"),
    ("DB_MAX_CONNECTIONS", "abc", "a whole number from 1"),
    ("DB_MAX_CONNECTIONS", "0", "a whole number from 1"),
    ("MAX_CONTENT_LENGTH", "1MB", "a whole number from 1"),
    ("WEB_CONCURRENCY", "x", "a whole number from 1"),
    ("PORT", "70000", "a whole number from 1 to 65535"),
    ("DB_STATEMENT_TIMEOUT_MS", "-1", "a whole number from 0"),
    ("RATELIMIT_FAIL_MODE", "opne", "one of open, closed"),
    ("SCHEMA_CHECK", "off", "one of refuse, warn"),
    ("LOG_LEVEL", "verbose", "one of DEBUG, INFO"),
    ("CORS_ORIGINS", "shop.example", "origins such as https://shop.example"),
    ("DATABASE_URL", "mysql://db/x", "empty (the SQLite file in instance/), sqlite:///relative/path.db"),
])
def test_a_bad_value_names_the_variable_the_value_and_what_is_accepted(name, raw, accepted):
    with pytest.raises(SettingsError) as raised:
        load_settings({name: raw})
    (line,) = raised.value.problems
    assert line.startswith(f"{name}={raw!r} is not accepted: expected {accepted}"), line
    assert "\n" not in line


def test_a_bad_database_url_is_shown_without_its_password():
    with pytest.raises(SettingsError) as raised:
        load_settings({"DATABASE_URL": "postgress://app:s3cret@db/listings?password=s3cret"})
    assert "s3cret" not in str(raised.value)
    assert "'postgress://app:***@db/listings?password=***' is not accepted" in str(raised.value)


def test_every_bad_value_is_named_at_once_and_none_is_read_as_off():
    with pytest.raises(SettingsError) as raised:
        load_settings({"AUTH_FAILURES_PER_CLIENT": "lots", "RATELIMIT_ENABLED": "maybe", "DB_MAX_CONNECTIONS": "abc"})
    assert [line.split("=")[0] for line in raised.value.problems] == [
        "DB_MAX_CONNECTIONS", "RATELIMIT_ENABLED", "AUTH_FAILURES_PER_CLIENT"]


@pytest.mark.parametrize("raw, value", [("true", True), ("1", True), ("Yes", True), (" on ", True),
                                        ("false", False), ("0", False), ("NO", False), ("off", False)])
def test_booleans_take_only_their_words(raw, value):
    assert load_settings({"RATELIMIT_ENABLED": raw})["RATELIMIT_ENABLED"] is value


def test_good_values_are_parsed_by_their_kind():
    settings = load_settings({
        "DB_MAX_CONNECTIONS": "12", "AUTH_FAILURES_PER_CLIENT": "5/minute;50/day", "AUTH_FAILURES_PER_ADDRESS": "",
        "RATELIMIT_FAIL_MODE": "CLOSED", "LOG_LEVEL": "debug", "CORS_ORIGINS": "https://a.example, http://b.example:8080",
        "WEB_CONCURRENCY": "3"})
    assert settings["DB_MAX_CONNECTIONS"] == 12 and settings["WEB_CONCURRENCY"] == 3
    assert settings["AUTH_FAILURES_PER_CLIENT"] == "5/minute;50/day"
    assert settings["AUTH_FAILURES_PER_ADDRESS"] == ""  # empty, and only empty, switches it off
    assert (settings["RATELIMIT_FAIL_MODE"], settings["LOG_LEVEL"]) == ("closed", "DEBUG")


def test_defaults_are_the_table_and_string_overrides_are_read_like_the_environment():
    settings = load_settings({})
    assert {s.name: settings[s.name] for s in SETTINGS} == {s.name: s.default for s in SETTINGS}
    assert load_settings({}, {"DB_MAX_CONNECTIONS": "4"})["DB_MAX_CONNECTIONS"] == 4
    with pytest.raises(SettingsError):
        load_settings({}, {"RATELIMIT_ENABLED": "maybe"})
    assert load_settings({}, {"RATELIMIT_ENABLED": False, "TESTING": True})["TESTING"] is True


def test_every_setting_says_what_it_means_and_what_it_accepts():
    for setting in SETTINGS:
        assert setting.meaning and setting.kind.accepted and setting.shown, setting.name
    assert gunicorn_bind({"PORT": "9001"}) == "127.0.0.1:9001"


BAD = {"AUTH_FAILURES_PER_CLIENT": "lots", "RATELIMIT_ENABLED": "maybe", "DB_MAX_CONNECTIONS": "abc"}
EXPECTED = [
    "error: DB_MAX_CONNECTIONS='abc' is not accepted: expected a whole number from 1 (default: 8)",
    "error: RATELIMIT_ENABLED='maybe' is not accepted: expected one of true, false, 1, 0, yes, no, on, off "
    "(default: true)",
    "error: AUTH_FAILURES_PER_CLIENT='lots' is not accepted: expected a rate limit such as \"10 per minute\" or "
    "\"100/hour;1000/day\", or empty to switch it off (default: 10 per minute)",
]


def test_flask_commands_stop_with_one_line_per_bad_setting(tmp_path):
    result = python_with_settings(["-m", "flask", "--app", "wsgi", "db", "status"],
                                  DATABASE_URL=f"sqlite:///{tmp_path}/x.db", **BAD)
    assert (result.returncode, result.stderr.splitlines(), result.stdout) == (78, EXPECTED, "")


def test_gunicorn_stops_before_it_starts(tmp_path):
    result = python_with_settings(["-m", "gunicorn", "-c", "python:app.gunicorn_conf", "wsgi:app"],
                 DATABASE_URL=f"sqlite:///{tmp_path}/x.db", **BAD)
    assert (result.returncode, result.stderr.splitlines()) == (78, EXPECTED)


def test_app_serve_names_web_concurrency_which_gunicorn_reads_before_any_configuration(tmp_path):
    result = python_with_settings(["-m", "app.serve"], WEB_CONCURRENCY="x", MAX_CONTENT_LENGTH="1MB")
    assert result.returncode == 78
    assert result.stderr.splitlines() == [
        "error: MAX_CONTENT_LENGTH='1MB' is not accepted: expected a whole number from 1 (default: 1048576 (1 MiB))",
        "error: WEB_CONCURRENCY='x' is not accepted: expected a whole number from 1 (default: 2 × cores + 1)"]
