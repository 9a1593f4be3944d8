"""The servers the benches measure, each a child process on a free port: a real `arbitro --mock` (as the README
starts it) or the baseline (bench/baseline.py), with `environment` added to this process's and in the emulated
Zero's cgroups (bench/journal.py's `Zero`) when given one. Each is handed back once it answers GET /api/table."""
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import free_port  # noqa: E402

START = 60  # seconds a server may take to answer first (the emulated Zero's quota slows its imports)


def serve(command, environment=None, zero=None):
    """`command`, each "{port}" in it a free port, started; (the process, the port) once it answers. What it writes
    goes to a file, said if it does not start."""
    port = free_port()
    output = tempfile.TemporaryFile("w+")  # a file, not a pipe: a chatty server never blocks on it
    process = subprocess.Popen([part.replace("{port}", str(port)) for part in command], cwd=ROOT,
                               env={**os.environ, **(environment or {})}, stdout=output, stderr=subprocess.STDOUT,
                               text=True, preexec_fn=zero.enter if zero else None)
    deadline = time.monotonic() + START
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table", timeout=1).read()
            return process, port
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                stop(process)
                output.seek(0)
                raise RuntimeError(f"{' '.join(command)} did not start:\n{output.read()}") from None
            time.sleep(0.1)


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def baseline_server(environment=None, zero=None):
    return serve([sys.executable, str(ROOT / "bench" / "baseline.py"), "--port", "{port}"], environment, zero)


def box_server(data, environment=None, zero=None, *arguments):
    """`arbitro --mock` (on the default pin map, the 12-seat key matrix, unless `arguments` say another), its data
    in the folder `data`."""
    return serve([sys.executable, "-m", "device.cli", "--mock", "--port", "{port}", "--data", str(data),
                  *arguments], environment, zero)
