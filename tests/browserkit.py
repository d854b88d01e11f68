"""Headless Chromium for the browser tests (Debian's `chromium` and `chromium-driver`, driven by
selenium: no browser is downloaded): one session a module. Without Chromium a test skips,
except under CI (JUDGE_CI=1, set by .ci/run, which installs it), where it fails."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def chromium(size: str = "900,1100", logging: bool = False):
    """A driver, yielded, then quit (a pytest fixture's body). `logging`: the browser's
    performance log is kept (every request the page makes: driver.get_log("performance"))."""
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        if os.environ.get("JUDGE_CI"):
            pytest.fail("CI must run the browser tests: apt-get install chromium chromium-driver")
        pytest.skip("no Chromium: apt-get install chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="judge-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={profile}", f"--window-size={size}", "--hide-scrollbars"):
        options.add_argument(arg)
    if logging:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
