"""Finding the browser the browser tests drive: Debian's ``chromium`` (.ci/run installs
it), and Playwright (the ``[test]`` extra) for the tests that click. Without them a test
is skipped with the line that installs them, except under CI (``CI`` set to true, as
.ci/run does), where it fails."""

from __future__ import annotations

import os
import shutil

import pytest

NO_CHROMIUM = ("the browser tests need Chromium, which is not installed: apt-get install "
               "chromium (Debian; .ci/run installs it)")
NO_PLAYWRIGHT = ("the page tests drive Chromium with Playwright, which is not installed: "
                 "pip install -e '.[test]'")
#: Chromium's switches for a headless run in a container, with nothing fetched from outside.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def missing(reason: str) -> None:
    """Skip with ``reason``, or fail under CI."""
    if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason}; CI is set, so a missing browser fails the run")
    pytest.skip(reason)


def chromium() -> str:
    """The Chromium binary (skipped or failed as :func:`missing` says without one)."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path:
        return path
    missing(NO_CHROMIUM)
