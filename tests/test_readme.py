"""The README's two commands, as written, on a fresh copy and a Python that refuses pip.

A Debian or Ubuntu Python is "externally managed" (PEP 668): ``pip install`` outside a
virtual environment stops with ``externally-managed-environment``, and there is no
``python`` command, only ``python3``.  The tests build such an interpreter (this one's,
with an ``EXTERNALLY-MANAGED`` marker in its standard library), put it alone on the
``PATH`` as ``python3``, give it an empty ``HOME`` and run the README's quick-start command
and its test command in a copy of the working tree.  They install packages, so they are
``slow`` (CI runs them).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support import ceiling

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def console_commands(text: str) -> list[str]:
    """The commands of the ```console blocks, one per line (``\\`` continuations joined)."""
    out: list[str] = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("  #")[0].strip()
            if line:
                out.append(" ".join(line.split()))
    return out


def quick_start() -> str:
    return next(c for c in console_commands(README) if c.endswith("hotdeath serve"))


def test_command() -> str:
    return next(c for c in console_commands(README) if "pytest" in c)


test_command.__test__ = False  # type: ignore[attr-defined]


def test_the_readme_has_the_two_commands_and_ci_runs_the_second() -> None:
    first, second = quick_start(), test_command()
    assert first.startswith("python3 -m venv .venv && ")
    assert second.startswith("python3 -m venv .venv && ")
    assert " python " not in f" {first} {second} "  # only python3 exists on Debian
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert second in [" ".join(line.split()) for line in ci.splitlines()]
    for tool in ("chromium", "tmux", "postgresql"):
        assert tool in README and tool in ci


def _externally_managed_python(root: Path) -> Path:
    """A copy of this interpreter whose standard library carries the PEP 668 marker."""
    base = Path(getattr(sys, "_base_executable", sys.executable)).resolve()
    stdlib = Path(sysconfig.get_path("stdlib"))
    ver = f"python{sys.version_info.major}.{sys.version_info.minor}"
    prefix = root / "system"
    (prefix / "bin").mkdir(parents=True)
    lib = prefix / "lib" / ver
    lib.mkdir(parents=True)
    for entry in stdlib.iterdir():
        if entry.name != "EXTERNALLY-MANAGED":
            (lib / entry.name).symlink_to(entry)
    (lib / "EXTERNALLY-MANAGED").write_text(
        "[externally-managed]\nError=This Python is managed by the system (a test).\n",
        encoding="utf-8")
    exe = prefix / "bin" / "python3"
    shutil.copy2(base, exe)
    bin_dir = root / "bin"  # the PATH: python3 and nothing else
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(exe)
    return bin_dir


def _fresh_copy(dest: Path) -> Path:
    """The working tree's files that git knows (tracked or not ignored), as a clone has."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("the working tree is not a git checkout")
    names = subprocess.run([git, "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, names):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def _env(root: Path, bin_dir: Path) -> dict[str, str]:
    """An empty HOME and only python3 on the PATH; the machine's pip settings are kept.

    All but ``PIP_REQUIRE_VIRTUALENV``: a machine that sets it would have pip refuse the
    system Python for that rule before the PEP 668 one this test looks for.
    """
    home = root / "home"
    home.mkdir()
    keep = {k: v for k, v in os.environ.items()
            if (k.startswith("PIP_") and k != "PIP_REQUIRE_VIRTUALENV")
            or k in ("LANG", "LC_ALL", "TMPDIR", "SSL_CERT_FILE")}
    return {**keep, "HOME": str(home), "PATH": str(bin_dir)}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("fresh")
    bin_dir = _externally_managed_python(root)
    repo = _fresh_copy(root / "hotdeath")
    env = _env(root, bin_dir)
    refused = subprocess.run(["python3", "-m", "pip", "install", "--dry-run", "hotdeath"],
                             cwd=repo, env=env, capture_output=True, text=True, check=False,
                             executable=str(bin_dir / "python3"))
    if "No module named pip" not in refused.stderr:  # pip is there: it must refuse
        assert refused.returncode != 0
        assert "externally-managed-environment" in refused.stdout + refused.stderr
    return repo, env


@pytest.mark.slow
def test_the_quick_start_installs_and_serves(fresh: tuple[Path, dict[str, str]]) -> None:
    repo, env = fresh
    proc = subprocess.Popen(["/bin/sh", "-c", quick_start()], cwd=repo, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + ceiling(1200)
        url = None
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            m = re.search(r"open (http://\S+/) in your browser", line)
            if m:
                url = m.group(1)
                break
        assert url is not None, "".join(lines[-40:])
        for _ in range(100):
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    assert r.status == 200 and b"<html" in r.read().lower()
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail(f"{url} did not answer")
        venv = repo / ".venv"
        assert (venv / "bin" / "hotdeath").exists()
        size = sum(f.stat().st_size for f in venv.rglob("*") if f.is_file() and not
                   f.is_symlink())
        assert size < 200 * 2**20, f"the base install is {size / 2**20:.0f} MiB"
        assert not any((venv / "lib").glob("python*/site-packages/matplotlib"))
        data = Path(env["HOME"]) / ".local" / "share" / "hotdeath"
        assert any(data.rglob("*.sqlite3")), "the games database is in the data directory"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.mark.slow
def test_the_test_command_says_what_is_missing(fresh: tuple[Path, dict[str, str]]) -> None:
    """Run as written, on a selection (PYTEST_ADDOPTS), without tmux on the PATH."""
    repo, env = fresh
    env = {**env, "PYTEST_ADDOPTS": "-p no:cacheprovider -k "
           "'test_hotdeath_play_in_tmux or test_there_are_enough_examples'"}
    done = subprocess.run(["/bin/sh", "-c", test_command()], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=2400, check=False)
    out = done.stdout + done.stderr
    assert "1 passed, 1 skipped" in out, out[-3000:]
    assert "NOT TESTED: tools are missing" in out
    assert "sudo apt-get install tmux" in out
    assert done.returncode == 1, "a run that skipped for a missing tool is not green"
