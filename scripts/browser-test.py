"""The tasks web app (issue 28) in headless Chromium through Selenium, against a real `tandem serve`.

Checks, in order:
- /app/ loads; sign up, sign out and sign in through the screen's labelled controls; signing out
  asks first while a change has not reached the server, then leaves nothing of the account in
  IndexedDB and revokes the browser's key;
- after each sign-in, the browser's device key is in IndexedDB, non-extractable, bound to the
  account with the proof-of-possession route, and the only key the server lists;
- the Redo vectors' canonical bodies, content ids and Ed25519 signatures are reproduced byte
  for byte by the app's own modules (jcs.js, redo.js) in the browser, with WebCrypto (the
  validator's codes and the replay scenarios run under Node: Tests/WebApp, issue 45 item 4);
- tasks added, edited and completed in the browser reach a `tandem` CLI device of the same
  account after `tandem sync`, and the CLI's changes appear in the browser after a sync;
- with the browser's network cut, a task added there waits, shown as offline, survives a reload
  (the service worker serves the app, IndexedDB the log), and syncs when the network is back;
- saved filters (presets) travel both ways between the browser and a CLI device, sealed with the
  account's presets key, which the browser wraps for the CLI's slot;
- every node the browser made validates with the Swift validator (`tandem redo validate
  --require-signature`), and the browser's replay of its whole log equals `tandem redo replay`;
- the browser logged no console error and no Content-Security-Policy violation;
- screenshots of the screens at 1280 px and 360 px wide, saved for review.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import Select, WebDriverWait

from headless_chromium import chromium


def start_server(tandem, work):
    stdout = open(os.path.join(work, "stdout"), "w+")
    log = open(os.path.join(work, "server.log"), "w")
    server = subprocess.Popen(
        [tandem, "serve", "--port", "0", "--data-dir", os.path.join(work, "data"), "--no-rate-limit"],
        stdout=stdout, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        stdout.seek(0)
        for line in stdout:
            if line.startswith("listening on "):
                return server, line.split(" ", 2)[2].strip()
        if server.poll() is not None:
            sys.exit("browser-test: tandem serve exited: " + open(os.path.join(work, "server.log")).read())
        time.sleep(0.1)
    server.kill()
    sys.exit("browser-test: tandem serve did not announce itself within 30 s")


def field(driver, form, label):
    return driver.find_element(By.XPATH, f"//form[@id='{form}']//label[normalize-space(text())='{label}']/input")


def button(driver, name):
    return driver.find_element(By.XPATH, f"//button[normalize-space(.)='{name}']")


VECTOR_CHECK = """
const [vectors, done] = arguments;
(async () => {
  const { canonicalize } = await import('/app/jcs.js');
  const redo = await import('/app/redo.js');
  const seeds = Object.fromEntries(vectors.keys.map((key) => [key.label, key.seedHex]));
  const failures = [];
  let checked = 0;
  for (const item of vectors.canonicalization) {
    const got = canonicalize(JSON.parse(item.input));
    if (got !== item.canonical) failures.push(`canonical ${item.name}: ${got}`);
    checked++;
  }
  for (const item of vectors.validNodes) {
    const body = redo.body(item.node);
    const text = canonicalize(body);
    if (text !== item.canonicalBody) failures.push(`body ${item.name}`);
    const id = await redo.contentID(body);
    if (id !== item.node.id) failures.push(`id ${item.name}: ${id}`);
    if (item.node.signature !== undefined) {
      const key = await redo.importSeed(seeds[item.signer]);
      const signature = await redo.signBytes(key, new TextEncoder().encode(text));
      if (signature !== item.node.signature) failures.push(`signature ${item.name}`);
    }
    checked++;
  }
  return { checked, failures };
})().then(done, (error) => done({ checked: 0, failures: [String(error)] }));
"""

# The field table (issue 46 item 5): the browser's fields.js holds the rows Swift wrote to
# redo-fields.json, and its validator, merge and editor accept exactly the probes Swift accepts.
FIELD_CHECK = """
const [file, done] = arguments;
(async () => {
  const { FIELDS, FIELD } = await import('/app/fields.js');
  const { fieldAccepts, readPayload } = await import('/app/validate.js');
  const { manualValue } = await import('/app/replay.js');
  const { checkFields } = await import('/app/tasks.js');
  const failures = [];
  const passes = (run) => { try { run(); return true; } catch { return false; } };
  const { canonicalize } = await import('/app/jcs.js');
  if (canonicalize(FIELDS) !== canonicalize(file.fields)) failures.push('fields.js differs from redo-fields.json');
  let checked = 0;
  for (const { key, value, accepted } of file.probes) {
    const row = FIELD[key];
    const what = `${key} = ${JSON.stringify(value)}`;
    if (fieldAccepts(row, value) !== accepted) failures.push(`fieldAccepts ${what}`);
    if ((manualValue(value, key) !== undefined) !== accepted) failures.push(`manualValue ${what}`);
    if (row.inTaskPayload) {
      if (passes(() => readPayload({ [key]: value }, 'UPDATE')) !== accepted) failures.push(`readPayload ${what}`);
      if (passes(() => checkFields({ [key]: value })) !== accepted) failures.push(`checkFields ${what}`);
    }
    checked++;
  }
  return { checked, failures };
})().then(done, (error) => done({ checked: 0, failures: [String(error)] }));
"""

# The browser's query (query.js) over its replayed tasks: the ordered task ids.
BROWSER_QUERY = """
const [changes, done] = arguments;
(async () => {
  const { runQuery, defaultQuery } = await import('/app/query.js');
  const book = window.tandemTasks.book;
  const rows = runQuery(book.all(), { ...defaultQuery(), ...changes }, { now: Date.now(), accountKeys: new Set() });
  return rows.map((row) => row.task.taskId);
})().then(done, (error) => done([String(error)]));
"""

# The browser's statistics (stats.js) at a given instant, and its time zone.
BROWSER_STATS = """
const [now, done] = arguments;
(async () => {
  const { statistics } = await import('/app/stats.js');
  const { lastEightWeeks, ...stats } = statistics(window.tandemTasks.book.all(), Date.parse(now));
  return { stats, zone: Intl.DateTimeFormat().resolvedOptions().timeZone };
})().then(done, (error) => done({ error: String(error) }));
"""

# The browser's replayed tasks, and its log (every node, and the ones this device signed).
BROWSER_STATE = """
const done = arguments[0];
(async () => {
  const book = window.tandemTasks.book;
  const { replay } = await import('/app/replay.js');
  const nodes = [...book.byId.values()];
  const result = replay(nodes);
  result.tasks = result.tasks.map(({ updated, ...task }) => task);
  const mine = nodes.filter((node) => node.author.publicKey === book.signer.author.publicKey);
  return { tasks: [...book.tasks.values()], nodes, mine, replay: result };
})().then(done, (error) => done({ error: String(error) }));
"""


# What IndexedDB holds for an account (the signed-in one when none is named): its device key,
# how many log nodes, how many bookkeeping rows.
ACCOUNT_ROWS = """
const done = arguments[arguments.length - 1];
const named = arguments.length > 1 ? arguments[0] : null;
(async () => {
  const account = named ?? (await (await fetch('/api/auth/get-session')).json()).user.id;
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open('tandem-tasks');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const ask = (store, query, method) => new Promise((resolve, reject) => {
    const r = db.transaction(store).objectStore(store)[method](query);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const key = await ask('keys', account, 'get');
  const nodes = await new Promise((resolve, reject) => {
    const r = db.transaction('nodes').objectStore('nodes').index('account').count(account);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const meta = await ask('meta', IDBKeyRange.bound([account], [account, []]), 'count');
  db.close();
  return { account, key: key !== undefined, nodes, meta };
})().then(done, (error) => done({ error: String(error) }));
"""


KEY_CHECK = """
const done = arguments[0];
(async () => {
  const session = await (await fetch('/api/auth/get-session')).json();
  const { keys } = await (await fetch('/api/me/keys')).json();
  const { deviceKey } = await import('/app/store.js');
  const key = await deviceKey(session.user.id);
  let exported = true;
  try { await crypto.subtle.exportKey('pkcs8', key.privateKey); } catch { exported = false; }
  const live = keys.filter((k) => !k.revokedAt);
  return { server: live.map((k) => k.publicKey), revoked: keys.length - live.length, local: key.publicKey,
           bound: key.bound, exported };
})().then(done, (error) => done({ error: String(error) }));
"""


def check_key(driver, failures, when, others=0, revoked=0):
    """The server lists this browser's key (and `others` more live ones: the CLI device's; and
    `revoked` revoked ones: this browser's before it signed out), bound, and its private half
    cannot be exported."""
    key = driver.execute_async_script(KEY_CHECK)
    if (key.get("error") or key["local"] not in key["server"] or len(key["server"]) != 1 + others
            or key["revoked"] != revoked or not key["bound"] or key["exported"]):
        failures.append(f"device key {when}: {key}")


class CLI:
    """A `tandem` CLI device: its own profile, signed in to the same account."""

    def __init__(self, tandem, profile, failures):
        self.tandem = tandem
        self.profile = profile
        self.failures = failures

    def run(self, *arguments, stdin=None):
        # The redo interop tools work on files alone, without a profile.
        profile = [] if arguments[0] == "redo" else ["--profile", self.profile]
        done = subprocess.run([self.tandem, *arguments, *profile], input=stdin,
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise SystemExit(f"browser-test: tandem {' '.join(arguments)} failed: {done.stderr.strip()}")
        return done.stdout

    def tasks(self):
        self.run("sync")
        return {row["title"]: row for row in json.loads(self.run("tasks", "list", "--status", "all", "--json"))}


def wait_synced(driver, wait):
    """The sync state says idle with nothing waiting."""
    wait.until(lambda d: d.find_element(By.ID, "sync-state").get_attribute("data-phase") == "idle"
               and d.find_element(By.ID, "sync-state").get_attribute("data-waiting") == "0")


ROW_ID = """
const title = arguments[0];
const row = [...document.querySelectorAll('#task-list [data-task-id]')]
  .find((item) => item.querySelector('.task-title').textContent === title);
return row ? row.dataset.taskId : null;
"""


def row(driver, title):
    """The task id of the list's row with this title, or None (read in one step: rows re-render)."""
    return driver.execute_script(ROW_ID, title)


def press(driver, wait, task_id, name):
    """Clicks the row's button `name`, again if a re-render replaced the row meanwhile."""
    def attempt(d):
        d.find_element(By.XPATH, f"//li[@data-task-id='{task_id}']//button[normalize-space(.)='{name}']").click()
        return True
    wait.until(attempt)


def add_task(driver, wait, title):
    box = driver.find_element(By.XPATH, "//label[normalize-space(text())='New task']/input")
    box.send_keys(title)
    button(driver, "Add").click()
    wait.until(lambda d: row(d, title) is not None)
    return row(driver, title)


def browser_state(driver):
    state = driver.execute_async_script(BROWSER_STATE)
    if state.get("error"):
        raise SystemExit("browser-test: reading the browser's state failed: " + state["error"])
    return state


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tandem", required=True)
    parser.add_argument("--vectors", required=True)
    parser.add_argument("--fields", default="Tests/TestSupport/Vectors/redo-fields.json")
    parser.add_argument("--screenshots", required=True)
    arguments = parser.parse_args()
    os.makedirs(arguments.screenshots, exist_ok=True)
    vectors = json.load(open(arguments.vectors))
    failures = []
    with tempfile.TemporaryDirectory() as work:
        server, base = start_server(arguments.tandem, work)
        driver = chromium()
        try:
            wait = WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException])

            def shoot(name):
                for width, height in [(1280, 900), (360, 780)]:
                    driver.set_window_size(width, height)
                    driver.save_screenshot(os.path.join(arguments.screenshots, f"{name}-{width}.png"))
                driver.set_window_size(1280, 900)

            driver.get(base + "/app/")
            wait.until(ready.visibility_of_element_located((By.ID, "sign-in-form")))
            shoot("sign-in")

            # Sign up through the labelled controls.
            driver.find_element(By.CSS_SELECTOR, "#sign-up-box summary").click()
            for label, value in [("Name", "Ann Example"), ("Email", "ann@example.com"), ("Username", "ann"),
                                 ("Password", "correct horse battery")]:
                field(driver, "sign-up-form", label).send_keys(value)
            button(driver, "Sign up").click()
            wait.until(ready.visibility_of(button(driver, "Sign out")))
            account = driver.find_element(By.ID, "account").text
            if "ann" not in account:
                failures.append(f"after sign-up the screen says {account!r}")
            wait.until(lambda d: d.find_element(By.ID, "device").text.startswith("This device: web-"))
            wait_synced(driver, wait)
            check_key(driver, failures, "after sign-up")

            # The app's modules reproduce the Redo vectors.
            driver.set_script_timeout(120)
            result = driver.execute_async_script(VECTOR_CHECK, vectors)
            failures += result["failures"]
            expected = len(vectors["canonicalization"]) + len(vectors["validNodes"])
            if result["checked"] != expected:
                failures.append(f"checked {result['checked']} vectors of {expected}")

            # The app's field table is Swift's.
            fields = json.load(open(arguments.fields))
            result = driver.execute_async_script(FIELD_CHECK, fields)
            failures += result["failures"]
            if result["checked"] != len(fields["probes"]):
                failures.append(f"checked {result['checked']} field probes of {len(fields['probes'])}")

            # Add, edit and complete tasks in the browser.
            plants = add_task(driver, wait, "Water the plants")
            add_task(driver, wait, "Call the bank")
            add_task(driver, wait, "Book trains")
            press(driver, wait, plants, "Edit")
            editor = driver.find_element(By.ID, "edit-form")
            wait.until(ready.visibility_of(editor))
            shoot("editor")
            for name, value in [("description", "Balcony and kitchen"), ("priority", "5"), ("storyPoints", "2"),
                                ("frequencyDays", "3"), ("notes", "use rain water")]:
                box = editor.find_element(By.NAME, name)
                box.clear()
                box.send_keys(value)
            editor.find_element(By.XPATH, ".//button[normalize-space(.)='Save']").click()
            wait.until(ready.invisibility_of_element_located((By.ID, "editor")))
            press(driver, wait, row(driver, "Call the bank"), "Complete")
            wait_synced(driver, wait)

            # A CLI device of the same account sees them after `tandem sync`.
            cli = CLI(arguments.tandem, os.path.join(work, "cli"), failures)
            cli.run("account", "login", "--server", base, "--username", "ann", "--password-stdin",
                    stdin="correct horse battery\n")
            # Its first sync finds the account's presets key named by the browser (at its own first
            # sync) and not yet wrapped for this device: it publishes its slot and waits.
            first = json.loads(cli.run("sync", "--json"))
            if not first.get("presets", {}).get("waitingForKey"):
                failures.append(f"the CLI device read the browser's presets key before it was wrapped: {first}")
            seen = cli.tasks()
            for title in ["Water the plants", "Call the bank", "Book trains"]:
                if title not in seen:
                    failures.append(f"the CLI does not see {title!r}: {sorted(seen)}")
            edited = seen.get("Water the plants", {})
            if (edited.get("taskId"), edited.get("priority"), edited.get("description"), edited.get("storyPoints"),
                    edited.get("frequencyDays")) != (plants, 5, "Balcony and kitchen", 2, 3):
                failures.append(f"the CLI sees the edited task as {edited}")
            shown = json.loads(cli.run("tasks", "show", plants, "--json"))
            if "use rain water" not in json.dumps(shown):
                failures.append("the note added in the browser is not in the CLI's task")
            bank = json.loads(cli.run("tasks", "show", seen.get("Call the bank", {}).get("taskId", "x"), "--json"))
            if sum(1 for todo in bank.get("todoTasks", []) if todo.get("completed")) != 1:
                failures.append(f"the completion made in the browser is not in the CLI's task: {bank}")

            # The CLI's changes appear in the browser after a sync.
            cli.run("tasks", "add", "Renew passport", "--priority", "4")
            cli.run("tasks", "edit", seen["Book trains"]["taskId"], "--title", "Book night trains")
            cli.run("sync")
            button(driver, "Sync").click()
            wait.until(lambda d: row(d, "Renew passport") is not None and row(d, "Book night trains") is not None)
            if row(driver, "Book trains") is not None:
                failures.append("the browser still shows the title the CLI changed")

            # Offline: the network is cut, a task added waits, and syncs when it is back.
            driver.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
            add_task(driver, wait, "Written offline")
            wait.until(lambda d: d.find_element(By.ID, "sync-state").get_attribute("data-phase") == "offline")
            if driver.find_element(By.ID, "sync-state").get_attribute("data-waiting") == "0":
                failures.append("offline, the sync state shows nothing waiting")
            shoot("offline")
            # A reload with no network opens the app from its service worker and the log from
            # IndexedDB; what was written offline is still there, still waiting.
            driver.refresh()
            wait.until(lambda d: row(d, "Written offline") is not None and row(d, "Water the plants") is not None)
            wait.until(lambda d: d.find_element(By.ID, "sync-state").get_attribute("data-phase") == "offline")
            driver.delete_network_conditions()
            wait_synced(driver, wait)
            if "Written offline" not in cli.tasks():
                failures.append("the task written offline did not reach the CLI device")

            # The browser's query selects and orders tasks as `tandem tasks list` does.
            for changes, options in [
                ({"sort": "title"}, ["--sort", "title"]),
                ({"sort": "priority", "status": "all"}, ["--sort", "priority", "--status", "all"]),
                ({"sort": "due"}, ["--sort", "due"]),
                ({"search": "WATER plänts"}, ["--search", "WATER plänts"]),
                ({"status": "all", "priorityMin": 4, "sort": "created"},
                 ["--status", "all", "--priority-min", "4", "--sort", "created"]),
                ({"status": "completed"}, ["--status", "completed"]),
            ]:
                mine = driver.execute_async_script(BROWSER_QUERY, changes)
                theirs = [r["taskId"] for r in json.loads(cli.run("tasks", "list", *options, "--json"))]
                if mine != theirs:
                    failures.append(f"query {changes}: the browser lists {mine}, the CLI {theirs}")

            # Share with another account from the editor; its CLI device reads the task.
            bob = CLI(arguments.tandem, os.path.join(work, "bob"), failures)
            bob.run("account", "register", "--server", base, "--username", "bob", "--email", "bob@example.com",
                    "--name", "Bob", "--password-stdin", stdin="another good password\n")
            passport = row(driver, "Renew passport")
            editor = driver.find_element(By.ID, "edit-form")  # the page was reloaded offline
            press(driver, wait, passport, "Edit")
            wait.until(ready.visibility_of(editor))
            editor.find_element(By.NAME, "shareWith").send_keys("bob")
            editor.find_element(By.XPATH, ".//button[normalize-space(.)='Share']").click()
            # Bob has not accepted a share from Ann before: an invitation, and nothing until he accepts
            wait.until(lambda d: d.find_element(By.ID, "edit-error").text.startswith("Invited bob"))
            editor.find_element(By.XPATH, ".//button[normalize-space(.)='Cancel']").click()
            if "Renew passport" in bob.tasks():
                failures.append("an invitation gave the task before it was accepted")
            bob.run("tasks", "accept", passport, "--server", base)
            if bob.tasks().get("Renew passport", {}).get("taskId") != passport:
                failures.append("the account the browser shared with does not see the task")

            # A stranger's share waits in the page's invitations; accepting brings the task in.
            carol = CLI(arguments.tandem, os.path.join(work, "carol"), failures)
            carol.run("account", "register", "--server", base, "--username", "carol", "--email",
                      "carol@example.com", "--name", "Carol", "--password-stdin", stdin="a third good password\n")
            hostile = "Carol's <img src=x onerror=alert(1)> plan"
            carols = json.loads(carol.run("tasks", "add", hostile, "--json"))["taskId"]
            carol.run("tasks", "share", carols, "--with", "ann", "--server", base)
            driver.find_element(By.ID, "sync-now").click()
            invitation = (By.XPATH, f"//li[@data-task-id='{carols}']")
            wait.until(ready.visibility_of_element_located(invitation))
            shown = driver.find_element(*invitation).find_element(By.CLASS_NAME, "title").text
            if shown != hostile:
                failures.append(f"the invitation's title shows as {shown!r}, not as its text")
            if row(driver, hostile) is not None:
                failures.append("a stranger's task is in the list before it was accepted")
            driver.find_element(*invitation).find_element(By.XPATH, ".//button[normalize-space(.)='Accept']").click()
            wait.until(lambda d: row(d, hostile) == carols)
            wait.until(ready.invisibility_of_element_located((By.ID, "invitations")))

            # Archive and delete from the editor: the list and the CLI device follow.
            for title, action in [("Call the bank", "Archive"), ("Written offline", "Delete")]:
                press(driver, wait, row(driver, title), "Edit")
                wait.until(ready.visibility_of(editor))
                editor.find_element(By.XPATH, f".//button[normalize-space(.)='{action}']").click()
                wait.until(ready.invisibility_of_element_located((By.ID, "editor")))
                wait.until(lambda d: row(d, title) is None)
            wait_synced(driver, wait)
            seen = cli.tasks()
            if not seen.get("Call the bank", {}).get("archived") or "Written offline" in seen:
                failures.append(f"after archive and delete in the browser the CLI lists {sorted(seen)}")

            # Saved filters: by now the browser has wrapped the account's presets key for the CLI
            # device's slot, so both read and write the same presets. The CLI gets a wallet key,
            # which would name a key of its own, but the account's key is the one the browser named.
            cli.run("keys", "new")
            cli.run("tasks", "preset", "save", "urgent", "--priority-min", "4", "--sort", "due")
            second = json.loads(cli.run("sync", "--json"))
            if second.get("presets", {}).get("waitingForKey") or second.get("presets", {}).get("pushed") != 1:
                failures.append(f"the CLI device did not get the presets key from the browser: {second}")
            button(driver, "Sync").click()
            wait.until(lambda d: "urgent" in [o.text for o in d.find_elements(By.CSS_SELECTOR, "#preset option")])
            Select(driver.find_element(By.ID, "preset")).select_by_visible_text("urgent")
            urgent = [r["taskId"] for r in json.loads(cli.run("tasks", "list", "--preset", "urgent", "--json"))]
            wait.until(lambda d: [r.get_attribute("data-task-id")
                                  for r in d.find_elements(By.CSS_SELECTOR, "#task-list [data-task-id]")] == urgent)
            if not urgent:
                failures.append("the preset saved on the CLI selects no task")
            Select(driver.find_element(By.ID, "preset")).select_by_visible_text("None")
            search = driver.find_element(By.XPATH, "//label[normalize-space(text())='Search']/input")
            search.send_keys("passport")
            name = driver.find_element(By.XPATH, "//label[normalize-space(text())='Preset name']/input")
            name.clear()
            name.send_keys("papers")
            button(driver, "Save preset").click()
            wait.until(lambda d: "papers" in [o.text for o in d.find_elements(By.CSS_SELECTOR, "#preset option")])
            wait_synced(driver, wait)
            cli.run("sync")
            saved = {p["name"]: p["query"] for p in json.loads(cli.run("tasks", "preset", "list", "--json"))}
            if saved.get("papers") != {"search": "passport"}:
                failures.append(f"the preset saved in the browser reads on the CLI as {saved}")
            papers = [r["title"] for r in json.loads(cli.run("tasks", "list", "--preset", "papers", "--json"))]
            if papers != ["Renew passport"]:
                failures.append(f"the browser's preset lists {papers} on the CLI")
            Select(driver.find_element(By.ID, "preset")).select_by_visible_text("None")
            search.clear()
            shoot("presets")

            # The browser's statistics are `tandem tasks stats --json`'s, at the same instant.
            now = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
            browser_stats = driver.execute_async_script(BROWSER_STATS, now)
            cli_stats = json.loads(cli.run("tasks", "stats", "--json", "--now", now,
                                           "--time-zone", browser_stats.get("zone", "UTC")))
            mine = browser_stats.get("stats", {})
            # The CLI names a prediction's time `expectedCompletionAt` (docs/cli-json.md), as the
            # library and the page name it `expectedCompletion`; the old CLI name stays beside it.
            cli_stats["predictions"] = [{"taskId": p["taskId"], "expectedCompletion": p["expectedCompletionAt"]}
                                        for p in cli_stats.get("predictions", [])
                                        if p.get("expectedCompletion") == p.get("expectedCompletionAt")]
            for key in sorted(set(cli_stats) | set(mine)):
                a, b = mine.get(key), cli_stats.get(key)
                close = isinstance(a, float) and isinstance(b, (int, float)) and abs(a - b) <= 1e-9 * max(1, abs(b))
                if a != b and not close:
                    failures.append(f"statistics {key}: the browser has {a!r}, the CLI {b!r}")
            if cli_stats.get("completions", 0) < 1:
                failures.append(f"no completion to compare statistics over: {cli_stats}")

            # Search and filters select rows as the CLI's query does.
            search = driver.find_element(By.XPATH, "//label[normalize-space(text())='Search']/input")
            search.send_keys("KITCHEN")
            wait.until(lambda d: [r.get_attribute("data-task-id")
                                  for r in d.find_elements(By.CSS_SELECTOR, "#task-list [data-task-id]")] == [plants])
            search.clear()
            search.send_keys(" ")
            shoot("tasks")

            # Every node made in the browser validates with the Swift validator; the browser's
            # replay of its whole log equals the CLI's.
            state = browser_state(driver)
            for index, node in enumerate(state["mine"]):
                path = os.path.join(work, f"node-{index}.json")
                with open(path, "w") as handle:
                    json.dump(node, handle)
                verdict = json.loads(cli.run("redo", "validate", path, "--require-signature", "--json"))
                if not verdict.get("valid"):
                    failures.append(f"the Swift validator refuses browser node {node['action']}: {verdict}")
            if len(state["mine"]) < 9:
                failures.append(f"only {len(state['mine'])} nodes made in the browser")
            log = os.path.join(work, "log.json")
            with open(log, "w") as handle:
                json.dump(state["nodes"], handle)
            swift = json.loads(cli.run("redo", "replay", log, "--require-signature", "--json"))
            if json.dumps(swift, sort_keys=True) != json.dumps(state["replay"], sort_keys=True):
                failures.append("the browser's replay of its log differs from `tandem redo replay`")

            # Signing out with a change the server lacks asks first; declining keeps everything.
            account = driver.execute_async_script(ACCOUNT_ROWS)
            driver.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
            add_task(driver, wait, "Written before signing out")
            button(driver, "Sign out").click()
            prompt = wait.until(ready.alert_is_present())
            if "not reached the server and will be lost" not in prompt.text:
                failures.append(f"the sign-out prompt says {prompt.text!r}")
            prompt.dismiss()
            if row(driver, "Written before signing out") is None or not button(driver, "Sign out").is_displayed():
                failures.append("declining the sign-out prompt did not keep the account open")
            driver.delete_network_conditions()
            wait_synced(driver, wait)

            # Sign out: nothing of the account stays in the browser, and its key is revoked.
            button(driver, "Sign out").click()
            wait.until(ready.visibility_of_element_located((By.ID, "sign-in-form")))
            left = driver.execute_async_script(ACCOUNT_ROWS, account["account"])
            if left.get("error") or left["key"] or left["nodes"] or left["meta"]:
                failures.append(f"after signing out the browser still holds the account's data: {left}")
            if account["nodes"] < 9 or not account["key"]:
                failures.append(f"before signing out the browser held too little to prove removal: {account}")

            # Sign in again: the log comes back from the server, under a new device key.
            field(driver, "sign-in-form", "Username").send_keys("ann")
            field(driver, "sign-in-form", "Password").send_keys("correct horse battery")
            button(driver, "Sign in").click()
            wait.until(ready.visibility_of(button(driver, "Sign out")))
            wait.until(lambda d: d.find_element(By.ID, "device").text.startswith("This device: web-"))
            wait.until(lambda d: row(d, "Water the plants") is not None)
            wait.until(lambda d: row(d, "Written before signing out") is not None)
            check_key(driver, failures, "after signing in again", others=1, revoked=1)

            # No console error, no CSP violation (the offline step's refused requests are the
            # network's doing, not the page's, and are expected).
            for entry in driver.get_log("browser"):
                message = entry["message"]
                if "ERR_INTERNET_DISCONNECTED" in message:
                    continue
                if entry["level"] in ("SEVERE", "WARNING") or "Content Security Policy" in message:
                    failures.append(f"browser log: {entry['level']} {message}")
        finally:
            driver.quit()
            server.terminate()
            server.wait(timeout=10)
    if failures:
        for failure in failures:
            print("browser-test: " + failure, file=sys.stderr)
        sys.exit(1)
    print(f"browser-test: ok ({expected} vectors, {len(fields['probes'])} field probes; browser and CLI in sync "
          "both ways, offline too; "
          f"screenshots in {arguments.screenshots})")


if __name__ == "__main__":
    main()
