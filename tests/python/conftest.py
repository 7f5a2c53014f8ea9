"""Fixtures of the Python module's tests (tests/CMakeLists.txt runs them with pytest).

The module comes from HULHE_PYTHON_DIR (the build's python/ folder) and the CLI the answers
are checked against from HULHE_BINARY; both are set by ctest. Strategy files are made in
temporary folders by the CLI itself (solve + export), as the C++ CLI tests do.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE_DIR = Path(__file__).resolve().parents[2]
GAMES = SOURCE_DIR / "configs" / "games"

if os.environ.get("HULHE_PYTHON_DIR"):
    sys.path.insert(0, os.environ["HULHE_PYTHON_DIR"])

import hulhe  # noqa: E402


def hulhe_binary():
    path = os.environ.get("HULHE_BINARY")
    if not path:
        pytest.skip("HULHE_BINARY is not set (ctest sets it)")
    return path


class Cli:
    """The hulhe command, run in a folder: stdout, stderr and the exit status."""

    def __init__(self, cwd):
        self.cwd = Path(cwd)

    def run(self, *args, check=True):
        r = subprocess.run([hulhe_binary(), *map(str, args)], cwd=self.cwd,
                           capture_output=True, text=True)
        if check and r.returncode != 0:
            raise AssertionError(f"hulhe {' '.join(map(str, args))}: {r.returncode}\n{r.stderr}")
        return r

    def json(self, *args):
        return json.loads(self.run(*args).stdout)

    def error(self, *args):
        """The message of a refused command, without the 'hulhe: error: ' prefix."""
        r = self.run(*args, check=False)
        assert r.returncode == 2, (args, r.returncode, r.stderr)
        line = r.stderr.strip().splitlines()[-1]
        assert line.startswith("hulhe: error: "), line
        return line[len("hulhe: error: "):]


@pytest.fixture
def cli(tmp_path):
    return Cli(tmp_path)


def _solve_and_export(folder, game, iterations, name):
    """A lossless CFR+ solve of `game` by the CLI, exported: (strategy path, checkpoint)."""
    folder = Path(folder)
    config = (SOURCE_DIR / "configs" / "leduc.toml").read_text()
    config = config.replace('"games/leduc.game"', f'"{game}"')
    (folder / f"{name}.toml").write_text(config)
    cli = Cli(folder)
    cli.run("solve", "--config", f"{name}.toml", "--iterations", iterations, "--checkpoint",
            f"{name}.ckpt", "--overwrite")
    cli.run("export", "--checkpoint", f"{name}.ckpt", "--out", f"{name}.strategy")
    return folder / f"{name}.strategy", folder / f"{name}.ckpt"


@pytest.fixture(scope="session")
def leduc_strategy(tmp_path_factory):
    """Leduc, 300 iterations of CFR+, exported at 8 bits."""
    return _solve_and_export(tmp_path_factory.mktemp("leduc"), GAMES / "leduc.game", 300,
                             "leduc")[0]


@pytest.fixture(scope="session")
def toy_strategy(tmp_path_factory):
    """The 12-card, 2-round hold'em of configs/games (ranks Q K A), 30 iterations of CFR+,
    as docs/commands.md's `hulhe show` example."""
    return _solve_and_export(tmp_path_factory.mktemp("toy"),
                             GAMES / "holdem.limit.2p.12card.2rounds.game", 30, "toy")[0]


@pytest.fixture(scope="session")
def toy3_strategy(tmp_path_factory):
    """The 12-card, 3-round hold'em, 50 iterations of CFR+ (real-game best response)."""
    return _solve_and_export(tmp_path_factory.mktemp("toy3"),
                             GAMES / "holdem.limit.2p.12card.3rounds.game", 50, "toy3")[0]


# A small HULHE abstraction (169-8-8-8: flop and turn by E[HS], the river by OCHS so that a
# compact file can be exported), solved for a few seconds of external-sampling MCCFR and
# exported, full and compact: real HULHE strategy files in about five minutes (most of it the
# bucket map's features over every hand).
HULHE_TINY_CONFIG = """game = "{game}"
seed = 2
output = "tiny.buckets"
[preflop]
method = "lossless"
[flop]
method = "ehs"
buckets = 8
[turn]
method = "ehs"
buckets = 8
[river]
method = "ochs"
buckets = 8
sample = 2000
iterations = 3
opponent_clusters = 4
[solve]
algorithm = "external"
iterations = 400000
threads = 2
checkpoint = "tiny.ckpt"
"""


@pytest.fixture(scope="session")
def hulhe_strategy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hulhe")
    (folder / "tiny.toml").write_text(
        HULHE_TINY_CONFIG.format(game=GAMES / "holdem.limit.2p.reverse_blinds.game"))
    cli = Cli(folder)
    cli.run("abstract", "--config", "tiny.toml", "--threads", "2")
    cli.run("solve", "--config", "tiny.toml")
    cli.run("export", "--checkpoint", "tiny.ckpt", "--out", "tiny.strategy")
    cli.run("export", "--checkpoint", "tiny.ckpt", "--out", "tiny-compact.strategy", "--compact")
    return folder / "tiny.strategy"


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: minutes of CPU (ctest label slow)")
