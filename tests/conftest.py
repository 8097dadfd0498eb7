"""Shared test settings: hypothesis profiles, shared helpers, and the kernel warm-up."""

import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Helpers that assert, shared by several test files: pytest explains their failures too.
pytest.register_assert_rewrite("chart_replay")

settings.register_profile("ci", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
WARM_KERNELS = ROOT / "scripts" / "warm_kernels.py"
#: GINSIM_WARM_KERNELS=0 never warms up, =1 warms up for any selection of tests.
WARM_SETTING = "GINSIM_WARM_KERNELS"
_warm_up_failure: list[str] = []


def _runs_whole_suite(config: pytest.Config) -> bool:
    """Whether the run names the tests directory (or the repository) rather than some
    of its files: only then is compiling every kernel group first worth it."""
    for arg in config.args:  # testpaths are relative to the rootdir, others to the cwd
        bases = (config.invocation_params.dir, config.rootpath)
        if not any(Path(base, arg.split("::")[0]).resolve() in (TESTS, ROOT) for base in bases):
            return False
    return True


def _wants_warm_up(config: pytest.Config) -> bool:
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the controller has warmed up already
        return False
    setting = os.environ.get(WARM_SETTING, "")
    if setting == "0" or config.option.collectonly or config.option.help:
        return False
    return setting == "1" or _runs_whole_suite(config)


def pytest_configure(config: pytest.Config) -> None:
    """Before any test (and before xdist starts its workers): compile the numba kernels
    the suite uses, once, in parallel processes over disjoint kernel groups
    (scripts/warm_kernels.py), so the workers load them from numba's cache instead of
    each compiling them. A warm cache makes this a second's check; a failure is shown
    and fails the run (the tests still run, compiling what they need)."""
    if not _wants_warm_up(config):
        return
    spec = find_spec("ginsim")  # the ginsim the tests import, not necessarily ROOT's
    package_root = str(Path(spec.origin).parents[1]) if spec and spec.origin else str(ROOT)
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(filter(None, [package_root,
                                                       os.environ.get("PYTHONPATH")]))}
    capture = config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():  # its lines show as it goes
        returncode = subprocess.run([sys.executable, str(WARM_KERNELS)], env=env,
                                    cwd=ROOT).returncode
    if returncode != 0:
        _warm_up_failure.append(f"kernel warm-up (scripts/warm_kernels.py) failed with "
                                f"exit status {returncode}; its report is at the top")


def pytest_terminal_summary(terminalreporter) -> None:
    for line in _warm_up_failure:
        terminalreporter.write_line(line, red=True, bold=True)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _warm_up_failure and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
