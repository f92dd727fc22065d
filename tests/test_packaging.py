"""The wheel carries the package with lists/ and datasheets/ inside it."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_the_data(tmp_path):
    done = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path),
                           str(ROOT)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    [wheel] = tmp_path.glob("listbuilder-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("lists", "datasheets"):
        for source in (ROOT / folder).rglob("*.yaml"):
            assert f"listbuilder/_data/{source.relative_to(ROOT).as_posix()}" in names
    assert "listbuilder/demo/ultramarines.yaml" in names
    assert "listbuilder/cli.py" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "listbuilder = listbuilder.__main__:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
