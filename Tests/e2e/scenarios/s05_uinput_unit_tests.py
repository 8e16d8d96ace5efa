"""The unit tests that need a real /dev/uinput (they skip on machines
without it, saying so) run here, where the kernel has it."""
from __future__ import annotations

import os
import re
import subprocess

from rig import scenario

SUITE = "UInputDeviceTests"


@scenario("unit: the real-uinput tests of VirtualDeviceTests, on this kernel's /dev/uinput")
def unit_uinput_tests(rig):
    """The package's test binary, filtered to the real uinput suite: every test
    runs (none skipped for want of /dev/uinput) and passes."""
    binary = os.path.join(rig.bin, "daydream-bridgePackageTests.xctest")
    assert os.path.exists(binary), f"no {binary}: build the tests first (swift build --build-tests)"
    # `make e2e` gives the bundle `make test` builds, under AddressSanitizer: its leak check
    # needs the suppressions of the toolchain's own leaks, as scripts/sanitize gives them.
    env = dict(os.environ)
    env.setdefault("LSAN_OPTIONS", f"suppressions={rig.repo}/scripts/lsan.supp:print_suppressions=0")
    result = subprocess.run([binary, "--testing-library", "swift-testing", "--filter", SUITE],
                            capture_output=True, text=True, timeout=300, cwd=rig.repo, env=env)
    output = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)  # Swift Testing's colours
    with open(os.path.join(rig.logs, "uinput-unit-tests.log"), "w", encoding="utf-8") as log:
        log.write(output)
    assert "skipping the real uinput tests" not in output, f"the tests skipped here:\n{output[-2000:]}"
    passed = [line for line in output.splitlines() if line.startswith("✔ Test ") and "passed" in line
              and not line.startswith("✔ Test run")]
    assert result.returncode == 0, f"the uinput tests failed ({result.returncode}):\n{output[-3000:]}"
    assert passed, f"no test ran:\n{output[-2000:]}"
    rig.figure(f"real-uinput unit tests: {len(passed)} passed in the guest")
