"""Runs every end-to-end scenario inside the VM, once the guest's services
are up (guest/boot.sh). Prints one line per scenario, the tail of every
log when one fails, figures, and a closing 'N passed, N failed, N skipped'.

Usage: main.py [--only SUBSTRING ...] [--repeat N] [--allow-skip]
--repeat runs the selected scenarios N times over (for hunting flakes).
Without --allow-skip a skipped scenario counts as a failure: skips are for
development while the bridge lacks a feature.
"""
from __future__ import annotations

import argparse
import glob
import importlib.util
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "emulator"))

from processes import tail  # noqa: E402
from rig import SCENARIOS, Rig, Skip  # noqa: E402


def load_scenarios() -> None:
    for path in sorted(glob.glob(os.path.join(HERE, "..", "scenarios", "*.py"))):
        name = "scenario_" + os.path.basename(path)[:-3]
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


def print_logs(rig: Rig) -> None:
    for path in sorted(glob.glob(os.path.join(rig.logs, "*.log"))):
        print(f"    ----- tail of {os.path.basename(path)} -----")
        for line in tail(path, 25).splitlines():
            print(f"    | {line}")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--allow-skip", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    load_scenarios()
    selected = [s for s in SCENARIOS
                if not args.only or any(o in s.name or o == s.function.__name__ for o in args.only)]
    if not selected:
        print(f"e2e: no scenario matches {args.only}; names: {[s.function.__name__ for s in SCENARIOS]}")
        print("e2e: 0 passed, 1 failed")
        return 1
    rig = Rig()
    started = time.monotonic()
    try:
        rig.start()
    except Exception as error:
        print(f"e2e: FATAL: the rig did not start: {error}")
        traceback.print_exc()
        print_logs(rig)
        print(f"0 passed, {len(selected)} failed")
        return 1
    rig.figure(f"rig start (emulator, bluetoothd, hci0 powered): {time.monotonic() - started:.1f} s")

    results = []
    for scenario in selected * max(1, args.repeat):
        began = time.monotonic()
        status, reason = "PASS", ""
        missing = [c for c in scenario.needs if c not in rig.bridge_commands()]
        if missing:
            status, reason = "SKIP", f"the bridge has no '{' '.join(missing)}' command yet"
        else:
            print(f"--- {scenario.name}: {scenario.doc}", flush=True)
            try:
                mark = rig.emulator.mark()
                scenario.function(rig)
                rig.check_nothing_forbidden(since=mark)
            except Skip as skip:
                status, reason = "SKIP", str(skip)
            except AssertionError as error:
                status, reason = "FAIL", str(error)
            except Exception as error:  # a rig problem or a crash: fail loudly
                status, reason = "FAIL", f"{type(error).__name__}: {error}\n{traceback.format_exc()}"
            if status == "FAIL" and (unready := rig.unready_bridge()):
                status, reason = "SKIP", unready
        took = time.monotonic() - began
        line = f"{status} {scenario.name} ({took:.1f} s)"
        if reason:
            line += ": " + reason.replace("\n", "\n    ")
        print(line, flush=True)
        if status == "FAIL":
            print_logs(rig)
        results.append({"name": scenario.name, "status": status, "reason": reason, "seconds": round(took, 1)})
        try:
            rig.reset()
        except Exception as error:
            print(f"e2e: FATAL: could not reset the rig after {scenario.name}: {error}")
            print_logs(rig)
            results.append({"name": "reset", "status": "FAIL", "reason": str(error), "seconds": 0})
            break
    try:
        rig.close()
    except Exception:
        pass

    passed = sum(r["status"] == "PASS" for r in results)
    failed = sum(r["status"] == "FAIL" for r in results)
    skipped = sum(r["status"] == "SKIP" for r in results)
    print("e2e figures:")
    for figure in rig.figures:
        print(f"  {figure}")
    out = os.environ.get("E2E_OUT")
    if out:
        with open(os.path.join(out, "results.json"), "w") as file:
            json.dump({"results": results, "figures": rig.figures}, file, indent=1)
    if skipped and not args.allow_skip:
        print(f"e2e: {skipped} scenario(s) skipped: a full run counts them as failures")
        failed += skipped
        skipped = 0
    print(f"e2e: {passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
