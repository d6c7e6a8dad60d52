"""Figures of the tasks web app (issue 28) in headless Chromium, each beside a baseline measured
in the same page, on the same cores, in the same run:

- first load of /app/: bytes transferred (uncompressed; the server does not compress) and the
  time until the first screen is usable (performance mark `tandem-interactive`), in a fresh
  browser profile; baseline: fetching the same files again from the same page;
- replay of 1,000 tasks (10,000 signed nodes made by the app's own producer): the app's replay
  (replay.js, every task from its nodes) — median of 9; baseline: JSON.parse of the same log's text;
- reopening the page with those 10,000 nodes in IndexedDB: until the list is drawn;
- a filter change re-rendering 1,000 rows (query + DOM + layout): median of 15, and the query
  alone; baseline: drawing 1,000 bare list items with the title alone.

Prints one JSON object; scripts/bench-web-app runs it.
"""
import argparse
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time

spec = importlib.util.spec_from_file_location("browser_test", os.path.join(os.path.dirname(__file__), "browser-test.py"))
browser_test = importlib.util.module_from_spec(spec)
spec.loader.exec_module(browser_test)

FIRST_LOAD = """
const done = arguments[0];
(async () => {
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
    .filter((entry) => new URL(entry.name).pathname.startsWith('/app/'));
  const mark = performance.getEntriesByName('tandem-interactive')[0];
  const bytes = entries.reduce((sum, entry) => sum + entry.transferSize, 0);
  const bodies = entries.reduce((sum, entry) => sum + entry.decodedBodySize, 0);
  // Baseline: the same files fetched again by this page, bypassing the cache.
  const started = performance.now();
  await Promise.all(entries.map((entry) => fetch(entry.name, { cache: 'no-store' }).then((r) => r.arrayBuffer())));
  const refetch = performance.now() - started;
  return { files: entries.length, bytes, bodies, interactiveMs: mark ? mark.startTime : null, refetchMs: refetch };
})().then(done, (error) => done({ error: String(error) }));
"""

MAKE_LOG = """
const [tasks, done] = arguments;
(async () => {
  const book = window.tandemTasks.book;
  const { appendNodes } = await import('/app/store.js');
  const account = (await (await fetch('/api/auth/get-session')).json()).user.id;
  let wall = Date.parse('2026-01-01T00:00:00.000Z');
  const next = () => new Date((wall += 1000)).toISOString();
  let all = [];
  for (let i = 0; i < tasks; i++) {
    const nodes = await book.addTask({ title: `Task ${i} water plants`, priority: 1 + (i % 5) }, next());
    book.add(nodes);
    all = all.concat(nodes);
    let task = book.tasks.get(nodes[0].taskId);
    const steps = [
      (t) => book.edit(t, { description: `notes for ${i}` }, next()),
      (t) => book.edit(t, { priority: 1 + ((i + 1) % 5) }, next()),
      (t) => book.snooze(t, new Date(wall + 86400000 * (1 + (i % 9))).toISOString(), next()),
      (t) => book.complete(t, next()),
      (t) => book.edit(t, { storyPoints: 2 + (i % 3) }, next()),
      (t) => book.edit(t, { title: `Task ${i} water the plants` }, next()),
      (t) => book.snooze(t, new Date(wall + 86400000 * (2 + (i % 7))).toISOString(), next()),
    ];
    for (const step of steps) {
      const made = await step(task);
      book.add(made);
      all = all.concat(made);
      task = book.tasks.get(task.taskId);
    }
  }
  for (let start = 0; start < all.length; start += 2000) await appendNodes(account, all.slice(start, start + 2000), true);
  return { nodes: all.length, tasks: book.tasks.size };
})().then(done, (error) => done({ error: String(error) }));
"""

REPLAY = """
const done = arguments[0];
(async () => {
  const { replay } = await import('/app/replay.js');
  const book = window.tandemTasks.book;
  const nodes = [...book.byId.values()];
  const text = JSON.stringify(nodes);
  const median = (runs) => runs.sort((a, b) => a - b)[runs.length >> 1];
  const timed = (work) => { const started = performance.now(); work(); return performance.now() - started; };
  const replays = [];
  const parses = [];
  let tasks = 0;
  for (let run = 0; run < 9; run++) {
    parses.push(timed(() => JSON.parse(text)));
    replays.push(timed(() => { tasks = replay(nodes).tasks.length; }));
  }
  return { nodes: nodes.length, tasks, replayMs: median(replays), parseMs: median(parses), logBytes: text.length };
})().then(done, (error) => done({ error: String(error) }));
"""

RENDER = """
const done = arguments[0];
(async () => {
  const median = (runs) => runs.sort((a, b) => a - b)[runs.length >> 1];
  const list = document.getElementById('task-list');
  const sort = document.getElementById('sort');
  const { runQuery, defaultQuery } = await import('/app/query.js');
  const renders = [];
  const bare = [];
  const queries = [];
  const keys = ['rank', 'title', 'due', 'priority', 'created'];
  for (let run = 0; run < 15; run++) {
    sort.value = keys[run % keys.length];
    let started = performance.now();
    window.tandemTasks.render();
    void list.offsetHeight;
    renders.push(performance.now() - started);
    const query = { ...defaultQuery(), status: 'all', sort: sort.value };
    started = performance.now();
    runQuery(window.tandemTasks.book.all(), query, { now: Date.now(), accountKeys: new Set() });
    queries.push(performance.now() - started);
    const titles = [...window.tandemTasks.book.tasks.values()].map((task) => task.title);
    started = performance.now();
    const fragment = document.createDocumentFragment();
    for (const title of titles) {
      const item = document.createElement('li');
      item.textContent = title;
      fragment.append(item);
    }
    list.replaceChildren(fragment);
    void list.offsetHeight;
    bare.push(performance.now() - started);
  }
  window.tandemTasks.render();
  return { rows: list.children.length, renderMs: median(renders), queryMs: median(queries), bareMs: median(bare) };
})().then(done, (error) => done({ error: String(error) }));
"""


def check(result, what):
    if result.get("error"):
        sys.exit(f"bench-web-app: {what} failed: {result['error']}")
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tandem", required=True)
    parser.add_argument("--tasks", type=int, default=1000)
    arguments = parser.parse_args()
    figures = {}
    with tempfile.TemporaryDirectory() as work:
        server, base = browser_test.start_server(arguments.tandem, work)
        driver = browser_test.browser()
        try:
            driver.set_script_timeout(900)
            wait = browser_test.WebDriverWait(driver, 60)
            driver.get(base + "/app/")
            wait.until(lambda d: d.execute_script("return performance.getEntriesByName('tandem-interactive').length") > 0)
            figures["firstLoad"] = check(driver.execute_async_script(FIRST_LOAD), "first load")

            driver.find_element(browser_test.By.CSS_SELECTOR, "#sign-up-box summary").click()
            for label, value in [("Name", "Bench"), ("Email", "bench@example.com"), ("Username", "bench"),
                                 ("Password", "correct horse battery")]:
                browser_test.field(driver, "sign-up-form", label).send_keys(value)
            browser_test.button(driver, "Sign up").click()
            wait.until(lambda d: d.find_element(browser_test.By.ID, "sync-state").get_attribute("data-phase") == "idle")
            started = time.monotonic()
            figures["log"] = check(driver.execute_async_script(MAKE_LOG, arguments.tasks), "making the log")
            figures["log"]["madeSeconds"] = round(time.monotonic() - started, 1)
            figures["replay"] = check(driver.execute_async_script(REPLAY), "replay")

            # Reopen: the list drawn from IndexedDB's 10,000 nodes.
            driver.get(base + "/app/")
            wait.until(lambda d: d.execute_script("return document.querySelectorAll('#task-list li').length") > 0)
            figures["reopenMs"] = driver.execute_script(
                "return performance.getEntriesByName('tandem-interactive')[0].startTime")
            driver.execute_script("document.getElementById('status').value = 'all'; window.tandemTasks.render();")
            figures["render"] = check(driver.execute_async_script(RENDER), "render")
        finally:
            driver.quit()
            server.terminate()
            server.wait(timeout=10)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
