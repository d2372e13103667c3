#!/usr/bin/env python3
"""SIGTERM at a random moment (issue 61): how long `bnsl learn --time T` takes to end after a
SIGTERM sent at a random moment of its run, against what the promise allows: 1 s plus the time
the run itself says it spent writing its final outputs (--stats: outputs.final_write_seconds).
Each run's outputs are then checked with `bnsl check` (every DAG re-scored from the data).

usage: bench/sigterm.py DATA.csv [DATA.csv ...] [--runs 10] [--time 30] [--busy 0]
                        [--seed 1] [--bnsl build/bnsl] [--out out/sigterm]
    bench/sigterm.py datasets/alarm-5000.csv --runs 10 --time 30
    bench/sigterm.py ../shared/datasets/samples/andes-5000.csv --runs 5 --busy 2

The moments are drawn uniformly from [0.05 s, T) with the given seed, so the same command sends
the same signals. Prints one row per run (data, moment, exit status, seconds from the signal to
the exit, the final write's seconds, whether the exit came within 1 s plus that, the check's
verdict) and a summary line; exits 1 if any run broke the promise or failed its check.
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from deadline import busy, stop_all  # noqa: E402  (bench/deadline.py: the same load)


def one_run(args, data, moment, prefix):
    for suffix in (".pool.json", ".stats.json"):
        if os.path.exists(prefix + suffix):
            os.remove(prefix + suffix)
    argv = [args.bnsl, "learn", data, "-o", prefix, "--time", str(args.time), "--threads", "2",
            "--stats", prefix + ".stats.json", "-q"]
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE)
    start = time.monotonic()
    while time.monotonic() - start < moment and proc.poll() is None:
        time.sleep(min(0.01, max(0.0, moment - (time.monotonic() - start))))
    sent = time.monotonic()
    signalled = proc.poll() is None
    if signalled:
        proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=args.time + 120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return {"exit": "hang", "after": None, "write": None, "ok": False, "check": "-"}
    after = time.monotonic() - sent
    write = None
    try:
        with open(prefix + ".stats.json") as f:
            write = json.load(f).get("outputs", {}).get("final_write_seconds")
    except (OSError, ValueError):
        pass
    check = subprocess.run([args.bnsl, "check", data, prefix + ".pool.json"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    ok = signalled and proc.returncode == 128 + signal.SIGTERM and write is not None and \
        after <= 1.0 + write
    if not signalled:  # the run ended before the moment: nothing to measure
        ok = proc.returncode == 0
    return {"exit": proc.returncode if signalled else f"{proc.returncode} (before)",
            "after": after if signalled else None, "write": write, "ok": ok,
            "check": "ok" if check == 0 else f"exit {check}",
            "stderr": err.decode(errors="replace").strip()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--time", type=float, default=30)
    ap.add_argument("--busy", type=int, default=0, help="processes keeping a core busy each")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bnsl", default="build/bnsl")
    ap.add_argument("--out", default="out/sigterm")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    print(f"{'data':<24} {'moment_s':>8} {'exit':>10} {'after_s':>8} {'write_s':>8} "
          f"{'within':>6} {'check':>6}")
    load = busy(args.busy)
    failures = 0
    worst = 0.0
    try:
        for data in args.data:
            name = os.path.splitext(os.path.basename(data))[0]
            for i in range(args.runs):
                moment = rng.uniform(0.05, args.time)
                r = one_run(args, data, moment, os.path.join(args.out, f"{name}-{i}"))
                after = "-" if r["after"] is None else f"{r['after']:.2f}"
                write = "-" if r["write"] is None else f"{r['write']:.2f}"
                if r["after"] is not None and r["write"] is not None:
                    worst = max(worst, r["after"] - r["write"])
                good = r["ok"] and r["check"] == "ok"
                failures += not good
                print(f"{name:<24} {moment:8.2f} {str(r['exit']):>10} {after:>8} {write:>8} "
                      f"{'yes' if r['ok'] else 'NO':>6} {r['check']:>6}", flush=True)
                if not good and r.get("stderr"):
                    print("    " + r["stderr"].replace("\n", "\n    "), file=sys.stderr)
    finally:
        stop_all(load)
    print(f"# {failures} of {args.runs * len(args.data)} runs broke the promise or their check; "
          f"worst (seconds after the signal less the final write): {worst:.2f} s; "
          f"busy processes: {args.busy}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
