#!/usr/bin/env python3
"""Ends a failed `swift test` log with what a truncated CI log would lose.

The log of a crashed test process ends with a backtrace, and CI may show only part of the
output. This prints, last, the runtime's fatal-error lines, the failures Swift Testing recorded,
and the tests that started but never ended (the ones running when the process died).

    .ci/test-summary.py LOG
"""

import re
import sys
from collections import Counter

FATAL = re.compile(r"Fatal error|Precondition failed|Assertion failed|Program crashed|crashed:|signal code")
STARTED = re.compile(r"^◇ Test (?!run started)(.+) started\.$")
ENDED = re.compile(r"^[✔✘] Test (.+?)( with \d+ test cases?)? (passed|failed)( after .*)?\.?$")
FAILED = re.compile(r"^✘ ")


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: test-summary.py LOG", file=sys.stderr)
        return 1
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        lines = [line.rstrip("\n") for line in log]

    # Names repeat across suites, and two such tests may run at once: count, do not set.
    running: Counter[str] = Counter()
    fatal, failed = [], []
    for line in lines:
        if FATAL.search(line):
            fatal.append(line)
        if FAILED.match(line):
            failed.append(line)
        if line.startswith("◇ Test case "):
            continue
        if started := STARTED.match(line):
            running[started.group(1)] += 1
        elif (ended := ENDED.match(line)) and running[ended.group(1)] > 0:
            running[ended.group(1)] -= 1

    print("ci: swift test failed. What it said, in short:")
    for title, entries in (("runtime", fatal), ("failures", failed), ("still running", sorted(running.elements()))):
        print(f"ci: {title} ({len(entries)}):")
        for entry in entries[:40]:
            print(f"  {entry[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
