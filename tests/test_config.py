"""Settings: environment over .env, and a clear exit when the token is missing."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE, ConfigError, load_settings

ROOT = Path(__file__).resolve().parents[1]


def test_missing_token_exits_1_with_a_message_and_no_traceback(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CORRAL_"))}
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "discord.com/developers/applications" in result.stderr
    assert "Traceback" not in result.stderr


def test_dotenv_file_is_read_and_the_environment_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nCORRAL_DATABASE=/tmp/x.sqlite3\n")
    settings = load_settings({}, env_file)
    assert settings.token == "from-file" and settings.database == "/tmp/x.sqlite3"
    settings = load_settings({"DISCORD_TOKEN": "from-env"}, env_file)
    assert settings.token == "from-env"
    assert load_settings({"DISCORD_TOKEN": "t"}, tmp_path / "none").database == DEFAULT_DATABASE


def test_bad_guild_id_is_named():
    with pytest.raises(ConfigError, match="DISCORD_GUILD_ID='abc'"):
        load_settings({"DISCORD_TOKEN": "t", "DISCORD_GUILD_ID": "abc"}, "/nonexistent/.env")


@pytest.mark.parametrize(("name", "value"), [("CORRAL_LOG_LEVEL", "loud"),
                                             ("CORRAL_WORKERS", "many"),
                                             ("CORRAL_TICK_SECONDS", "٣"),
                                             ("CORRAL_WEB_BIND", "8080"),
                                             ("CORRAL_WEB_URL", "corral.example.org"),
                                             ("CORRAL_BACKUP_EVERY", "often"),
                                             ("CORRAL_BACKUP_KEEP", "0")])
def test_a_bad_setting_exits_2_with_one_line_and_no_traceback(tmp_path, name, value):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CORRAL_"))}
    # a closed local port: if the setting were accepted, the bot must not reach Discord itself
    env.update({"DISCORD_TOKEN": "t", name: value, "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
                "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9"})
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_operations_settings():
    base = {"DISCORD_TOKEN": "t"}
    settings = load_settings(base, "/nonexistent/.env")
    assert settings.web_bind == ("127.0.0.1", 8080)
    assert settings.backup_every is None and settings.backup_keep == 7
    settings = load_settings({**base, "CORRAL_WEB_BIND": "[::1]:9100", "CORRAL_BACKUP_EVERY": "6h",
                              "CORRAL_BACKUP_KEEP": "30", "CORRAL_BACKUP_DIR": "/srv/b"},
                             "/nonexistent/.env")
    assert settings.web_bind == ("::1", 9100)
    assert settings.backup_every == 6 * 3600 and settings.backup_keep == 30
    assert settings.backup_dir == "/srv/b"
    assert load_settings({**base, "CORRAL_WEB_BIND": "off"}, "/nonexistent/.env").web_bind is None
    assert load_settings({**base, "CORRAL_BACKUP_EVERY": "1d"},
                         "/nonexistent/.env").backup_every == 86400
    assert load_settings({**base, "CORRAL_BACKUP_EVERY": "off"},
                         "/nonexistent/.env").backup_every is None


def test_the_web_url_setting():
    base = {"DISCORD_TOKEN": "t"}
    assert load_settings(base, "/nonexistent/.env").web_url is None
    for given, kept in (("https://corral.example.org/", "https://corral.example.org"),
                        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
                        ("https://example.org/corral", "https://example.org/corral")):
        assert load_settings({**base, "CORRAL_WEB_URL": given}, "/nonexistent/.env").web_url \
            == kept
    for bad in ("javascript:alert(1)", "https://", "ftp://x.org", "https://a.org/?q=<x>",
                "https://例え.jp", "https://a b.org"):
        with pytest.raises(ConfigError, match="CORRAL_WEB_URL"):
            load_settings({**base, "CORRAL_WEB_URL": bad}, "/nonexistent/.env")
