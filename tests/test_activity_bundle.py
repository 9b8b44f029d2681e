"""The Activity's script (bot/web/static/activity.js) is committed built, so that running the
bot needs no node: it must be exactly what `npm run build` makes from bot/web/static_src/
activity.js and the Embedded App SDK pinned in package-lock.json. Without node_modules' esbuild
(`npm ci`) this skips with one line; with CI=true it fails."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
BUILT = ROOT / "bot" / "web" / "static" / "activity.js"


def build_command(outfile: Path) -> list[str]:
    """package.json's `build` script, writing to `outfile` instead."""
    script = json.loads((ROOT / "package.json").read_text())["scripts"]["build"]
    words = shlex.split(script)
    assert words[0] == "esbuild", script
    words = [w for w in words if not w.startswith("--outfile=")]
    return [str(ESBUILD), *words[1:], f"--outfile={outfile}"]


def test_the_committed_bundle_is_the_build(tmp_path: Path) -> None:
    if not ESBUILD.exists() or not (ROOT / "node_modules" / "@discord" /
                                    "embedded-app-sdk").is_dir():
        why = "esbuild or the Embedded App SDK is not installed (npm ci)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"the Activity bundle cannot be checked: {why}", pytrace=False)
        pytest.skip(f"Activity bundle check skipped: {why}")
    out = tmp_path / "activity.js"
    done = subprocess.run(build_command(out), cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == BUILT.read_bytes(), (
        "bot/web/static/activity.js differs from its build: run `npm run build` and commit it")


def test_the_bundle_needs_no_eval_nor_network() -> None:
    """The page's CSP is script-src 'self': no eval (lodash's `Function("return this")` is
    behind `self`, which browsers have), no script loaded from elsewhere."""
    text = BUILT.read_text()
    assert "eval(" not in text and "new Function" not in text
    assert "||Function(" in text.replace(" ", "")  # the one guarded use, after `self`
    assert "import(" not in text and "importScripts" not in text
