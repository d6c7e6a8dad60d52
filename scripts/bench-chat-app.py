"""The figures of `tandem app` (issue 47) in headless Chromium, each beside a baseline from the same
page and run, on a profile with 1,000 conversations and a 100,000-message history with one peer:
- message arrival → row on screen: from the event the app process sends (its `at`) to the
  animation frame that first has the row in the DOM, over a relay, for messages a CLI peer sends
  while the conversation is open; baseline: a `fetch('/api/me')` round trip from the page;
- opening the long conversation → first paint of its last page (click to the frame after the
  rows are in the DOM); baseline: fetching that page's JSON alone;
- the page's memory after scrolling from the newest message to the first of the 100,000: its JS
  heap after a forced GC, its DOM nodes, and the private memory of its renderer process;
  baseline: the same right after opening it.
Not a test: prints one JSON object. Use release binaries for figures of record.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chat_browser_steps import Processes, address_of
from headless_chromium import chromium

# Before the page's scripts: each live `message` event's latency, taken in the first animation
# frame after the page handled it (the page's own listener runs before that frame).
ARRIVALS = """
window.__arrivals = [];
const RealEventSource = window.EventSource;
window.EventSource = class extends RealEventSource {
  constructor(url) {
    super(url);
    this.addEventListener('message', (event) => {
      const data = JSON.parse(event.data);
      if (!data.live || data.message.direction !== 'in') return;
      requestAnimationFrame(() => {
        const shown = document.querySelector(`[data-message-id="${data.message.id}"]`) !== null;
        window.__arrivals.push({ ms: Date.now() - data.at, shown });
      });
    });
  }
};
"""

OPEN = """
const [peer, done] = arguments;
const list = document.getElementById('messages');
const start = performance.now();
const observer = new MutationObserver(() => {
  if (document.getElementById('chat-address').textContent !== peer) return;
  if (!list.querySelector('li[data-message-id]')) return;
  observer.disconnect();
  requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - start)));
});
observer.observe(list, { childList: true });
document.querySelector(`#conversations li[data-address="${peer}"] button.open`).click();
"""

FETCH_PAGE = """
const [peer, done] = arguments;
const start = performance.now();
fetch('/api/messages?' + new URLSearchParams({ with: peer, limit: 50 })).then((r) => r.json())
  .then(() => done(performance.now() - start));
"""

ROUND_TRIPS = """
const [count, done] = arguments;
(async () => {
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await (await fetch('/api/me')).json();
    times.push(performance.now() - start);
  }
  return times;
})().then(done);
"""

# Scrolls to the top `pages` times (each loads one older page) or to the first message.
SCROLL = """
const [pages, done] = arguments;
const scroller = document.getElementById('timeline');
const first = () => document.querySelector('#messages li[data-message-id]')?.dataset.messageId;
(async () => {
  let loaded = 0;
  while (loaded < pages) {
    if (document.getElementById('older').textContent.includes('beginning')) return { loaded, top: true };
    const before = first();
    scroller.scrollTop = 0;
    scroller.dispatchEvent(new Event('scroll'));
    const waited = performance.now();
    while (first() === before) {
      if (performance.now() - waited > 10000) return { loaded, top: false, stuck: true };
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    loaded += 1;
  }
  return { loaded, top: false };
})().then(done);
"""


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round((len(ordered) - 1) * fraction))] if ordered else None


def renderer_mb():
    """The private resident memory (what Chromium's task manager calls its footprint, without
    the shared libraries) of the largest Chromium renderer process: the page's, as this test runs
    one page; from /proc's smaps_rollup."""
    largest = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                command = file.read()
            # Chromium rewrites its argv as one string; the browser's own UI renderer is not the page.
            if b"chromium" not in command or b"--type=renderer" not in command or b"top-chrome-webui" in command:
                continue
            private = 0
            with open(f"/proc/{pid}/smaps_rollup") as file:
                for line in file:
                    if line.startswith(("Private_Clean:", "Private_Dirty:")):
                        private += int(line.split()[1])
            largest = max(largest, private)
        except OSError:
            continue
    return round(largest / 1024, 1)


def heap(driver):
    driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    metrics = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
    return {"heapMB": round(metrics["JSHeapUsedSize"] / 1_048_576, 1), "nodes": int(metrics["Nodes"]),
            "rendererPrivateMB": renderer_mb(),
            "rows": driver.execute_script("return document.querySelectorAll('#messages li[data-message-id]').length")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tandem", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--conversations", type=int, default=1_000)
    parser.add_argument("--arrivals", type=int, default=200)
    parser.add_argument("--opens", type=int, default=20)
    arguments = parser.parse_args()
    result = {"messages": arguments.messages, "conversations": arguments.conversations}
    with tempfile.TemporaryDirectory() as work, Processes(arguments.tandem, None, work) as processes:
        server = processes.serve()
        chat = ["--server", server]
        alice = processes.profile("alice")
        bob = processes.profile("bob")
        alice_address = address_of(processes, alice)
        bob_address = address_of(processes, bob)
        processes.tandem("chat", "handshake", "--to", bob_address, "--profile", alice, *chat)
        processes.tandem("chat", "sync", "--profile", bob, *chat)
        processes.tandem("chat", "send", "--to", alice_address, "hello", "--profile", bob, *chat)
        processes.tandem("chat", "sync", "--profile", alice, *chat)
        started = time.monotonic()
        subprocess.run([arguments.bench, "chat-app-seed", "--profile", alice, "--peer", bob_address, "--messages",
                        str(arguments.messages), "--conversations", str(arguments.conversations)], check=True,
                       stdout=subprocess.DEVNULL)
        result["seedSeconds"] = round(time.monotonic() - started, 1)
        app = processes.app(alice, chat)
        driver = chromium()
        try:
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ARRIVALS})
            driver.execute_cdp_cmd("Performance.enable", {})
            driver.set_script_timeout(900)
            driver.get(app.url)
            WebDriverWait(driver, 120).until(lambda d: len(d.find_elements(
                By.CSS_SELECTOR, "#conversations li")) == arguments.conversations)
            other = driver.find_elements(By.CSS_SELECTOR, "#conversations li")[-1].get_attribute("data-address")

            opens, fetches = [], []
            for _ in range(arguments.opens):
                driver.execute_async_script(OPEN, other)
                fetches.append(driver.execute_async_script(FETCH_PAGE, bob_address))
                opens.append(driver.execute_async_script(OPEN, bob_address))
            result["open"] = {"p50": percentile(opens, 0.5), "p99": percentile(opens, 0.99), "max": max(opens)}
            result["openBaselineFetch"] = {"p50": percentile(fetches, 0.5), "p99": percentile(fetches, 0.99)}

            script = ("for i in $(seq 1 \"$5\"); do \"$0\" chat send --to \"$1\" \"arrival $i\" --profile \"$2\" "
                      "\"$3\" \"$4\" >/dev/null || exit 1; done")
            subprocess.run(["bash", "-c", script, arguments.tandem, alice_address, bob, *chat,
                            str(arguments.arrivals)], check=True, timeout=900)
            WebDriverWait(driver, 120).until(lambda d: d.execute_script(
                "return window.__arrivals.length") >= arguments.arrivals)
            arrivals = driver.execute_script("return window.__arrivals")
            latencies = [a["ms"] for a in arrivals]
            trips = driver.execute_async_script(ROUND_TRIPS, arguments.arrivals)
            result["arrival"] = {"count": len(latencies), "shown": sum(a["shown"] for a in arrivals),
                                 "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99),
                                 "max": max(latencies)}
            result["arrivalBaselineRoundTrip"] = {"p50": percentile(trips, 0.5), "p99": percentile(trips, 0.99)}

            driver.execute_async_script(OPEN, bob_address)
            result["memoryOpen"] = heap(driver)
            started = time.monotonic()
            pages, peak = 0, dict(result["memoryOpen"])
            while True:
                step = driver.execute_async_script(SCROLL, 100)
                pages += step["loaded"]
                sample = heap(driver)
                peak = {key: max(peak[key], sample[key]) for key in peak}
                if step.get("stuck"):
                    sys.exit(f"bench-chat-app: scrolling stopped after {pages} pages")
                if step["top"]:
                    break
            result["scroll"] = {"pages": pages, "seconds": round(time.monotonic() - started, 1),
                                "reachedFirst": driver.execute_script(
                                    "return document.querySelector('#messages li[data-message-id] .bubble').textContent")}
            result["memoryTop"] = heap(driver)
            result["memoryPeak"] = peak
            driver.get("about:blank")
        finally:
            driver.quit()
        app.stop()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
