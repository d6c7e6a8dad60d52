"""The tasks web app (issue 28) in headless Chromium through Selenium, against a real `tandem serve`.

Checks, in order:
- /app/ loads; sign up, sign out and sign in through the screen's labelled controls;
- after each sign-in, the browser's device key is in IndexedDB, non-extractable, bound to the
  account with the proof-of-possession route, and the only key the server lists;
- the Redo vectors' canonical bodies, content ids and Ed25519 signatures are reproduced byte
  for byte by the app's own modules (jcs.js, redo.js) in the browser, with WebCrypto;
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

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait


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


def browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


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


KEY_CHECK = """
const done = arguments[0];
(async () => {
  const session = await (await fetch('/api/auth/get-session')).json();
  const { keys } = await (await fetch('/api/me/keys')).json();
  const { deviceKey } = await import('/app/store.js');
  const key = await deviceKey(session.user.id);
  let exported = true;
  try { await crypto.subtle.exportKey('pkcs8', key.privateKey); } catch { exported = false; }
  return { server: keys.map((k) => k.publicKey), local: key.publicKey, bound: key.bound, exported };
})().then(done, (error) => done({ error: String(error) }));
"""


def check_key(driver, failures, when):
    """The server lists exactly this browser's key, bound, and its private half cannot be exported."""
    key = driver.execute_async_script(KEY_CHECK)
    if key.get("error") or key["server"] != [key["local"]] or not key["bound"] or key["exported"]:
        failures.append(f"device key {when}: {key}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tandem", required=True)
    parser.add_argument("--vectors", required=True)
    parser.add_argument("--screenshots", required=True)
    arguments = parser.parse_args()
    os.makedirs(arguments.screenshots, exist_ok=True)
    vectors = json.load(open(arguments.vectors))
    failures = []
    with tempfile.TemporaryDirectory() as work:
        server, base = start_server(arguments.tandem, work)
        driver = browser()
        try:
            wait = WebDriverWait(driver, 15)

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
            check_key(driver, failures, "after sign-up")
            shoot("tasks")

            # The app's modules reproduce the Redo vectors byte for byte.
            driver.set_script_timeout(60)
            result = driver.execute_async_script(VECTOR_CHECK, vectors)
            failures += result["failures"]
            expected = len(vectors["canonicalization"]) + len(vectors["validNodes"])
            if result["checked"] != expected:
                failures.append(f"checked {result['checked']} vectors of {expected}")

            # Sign out, then in again.
            button(driver, "Sign out").click()
            wait.until(ready.visibility_of_element_located((By.ID, "sign-in-form")))
            field(driver, "sign-in-form", "Username").send_keys("ann")
            field(driver, "sign-in-form", "Password").send_keys("correct horse battery")
            button(driver, "Sign in").click()
            wait.until(ready.visibility_of(button(driver, "Sign out")))
            wait.until(lambda d: d.find_element(By.ID, "device").text.startswith("This device: web-"))
            check_key(driver, failures, "after signing in again")

            # No console error, no CSP violation.
            for entry in driver.get_log("browser"):
                if entry["level"] in ("SEVERE", "WARNING") or "Content Security Policy" in entry["message"]:
                    failures.append(f"browser log: {entry['level']} {entry['message']}")
        finally:
            driver.quit()
            server.terminate()
            server.wait(timeout=10)
    if failures:
        for failure in failures:
            print("browser-test: " + failure, file=sys.stderr)
        sys.exit(1)
    print(f"browser-test: ok ({expected} vectors; screenshots in {arguments.screenshots})")


if __name__ == "__main__":
    main()
