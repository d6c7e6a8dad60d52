"""The processes and page steps of scripts/chat-browser-test.py: real `tandem serve`, `tandem app`
and `tandem-simnode` processes in a scratch directory, and the page's controls found by their
accessible names (issue 47 item 3), as a person or a screen reader finds them."""
import json
import os
import subprocess
import sys
import time
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


class Checks:
    def __init__(self):
        self.failures = []
        self.passed = 0
        self.skipped = []

    def expect(self, condition, what):
        if condition:
            self.passed += 1
            print(f"ok: {what}", flush=True)
        else:
            self.fail(what)

    def fail(self, what):
        self.failures.append(what)
        print(f"FAIL: {what}", flush=True)

    def skip(self, what):
        self.skipped.append(what)
        print(f"SKIPPED: {what}", flush=True)

    def finish(self):
        print(f"chat-browser-test: {self.passed} passed, {len(self.failures)} failed, {len(self.skipped)} skipped")
        return 1 if self.failures else 0


class App:
    def __init__(self, process, url, log):
        self.process = process
        self.url = url
        self.port = int(url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
        self.log = log

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("tandem app did not stop within 15 s of SIGTERM")


class Processes:
    """Every child process, stopped when the test ends."""

    def __init__(self, binary, simnode, work):
        self.binary = binary
        self.simnode_binary = simnode
        self.work = work
        self.children = []
        self.logs = []

    def __enter__(self):
        return self

    def __exit__(self, *_):
        for child in self.children:
            if child.poll() is None:
                child.kill()
                child.wait()

    def spawn(self, name, arguments):
        log = os.path.join(self.work, f"{name}.log")
        out = os.path.join(self.work, f"{name}.out")
        self.logs.append(log)
        child = subprocess.Popen(arguments, stdout=open(out, "w+"), stderr=open(log, "w"))
        self.children.append(child)
        return child, out, log

    def announced(self, child, out, log, prefix, what):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with open(out) as lines:
                for line in lines:
                    if line.startswith(prefix):
                        return line[len(prefix):].strip()
            if child.poll() is not None:
                sys.exit(f"chat-browser-test: {what} exited: {open(log).read()[-2000:]}")
            time.sleep(0.05)
        sys.exit(f"chat-browser-test: {what} did not start within 60 s")

    def serve(self):
        child, out, log = self.spawn("serve", [self.binary, "serve", "--port", "0", "--data-dir",
                                               os.path.join(self.work, "relay"), "--no-rate-limit"])
        return self.announced(child, out, log, "listening on ", "tandem serve")

    def simnode(self):
        child, out, log = self.spawn("simnode", [self.simnode_binary, "--network", "testnet-10", "--port", "0",
                                                 "--block-interval-ms", "500"])
        return json.loads(self.announced(child, out, log, "", "tandem-simnode"))["ports"][0]

    def fund(self, port, address, sompi):
        body = json.dumps({"address": address, "amount": sompi}).encode()
        urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/sim/fund", data=body), timeout=10)

    def app(self, profile, extra):
        name = "app-" + os.path.basename(profile)
        child, out, log = self.spawn(name, [self.binary, "app", "--profile", profile, *extra])
        return App(child, self.announced(child, out, log, "open ", "tandem app"), log)

    def profile(self, name, network=None):
        directory = os.path.join(self.work, name)
        arguments = ["keys", "new", "--profile", directory]
        if network:
            arguments += ["--network", network]
        self.tandem(*arguments)
        return directory

    def tandem(self, *arguments):
        done = subprocess.run([self.binary, *arguments], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise AssertionError(f"tandem {' '.join(arguments[:3])} failed: {done.stderr.strip()}")
        return done.stdout

    def dump_logs(self):
        for log in self.logs:
            text = open(log).read()
            if text.strip():
                print(f"--- {os.path.basename(log)} (last 3000 characters)\n{text[-3000:]}", file=sys.stderr)


def address_of(processes, profile, network=None):
    arguments = ["keys", "show", "--profile", profile, "--json"]
    if network:
        arguments += ["--network", network]
    return json.loads(processes.tandem(*arguments))["address"]


def visible(elements):
    return [element for element in elements if element.is_displayed()]


def button(driver, name):
    """The one visible button named `name`."""
    found = visible(driver.find_elements(By.XPATH, f"//button[normalize-space(.)='{name}']"))
    if len(found) != 1:
        raise AssertionError(f"{len(found)} visible buttons named {name!r}, not one")
    return found[0]


def field(driver, name):
    """The one visible text field whose label is `name`."""
    found = visible(driver.find_elements(
        By.XPATH, f"//label[normalize-space(text())='{name}']//*[self::input or self::textarea]"))
    found += visible(driver.find_elements(By.XPATH, f"//*[@id=//label[normalize-space(.)='{name}']/@for]"))
    if len(found) != 1:
        raise AssertionError(f"{len(found)} visible fields named {name!r}, not one")
    return found[0]


ROWS = """
return [...document.querySelectorAll('#messages li[data-message-id]')].map((row) => ({
  id: row.dataset.messageId,
  direction: row.dataset.direction,
  kind: row.className,
  text: row.querySelector('.bubble').textContent,
  status: row.querySelector('.status')?.classList[1] ?? null,
}));
"""


def message_rows(driver):
    return driver.execute_script(ROWS)


def wait_rows(driver, condition, timeout):
    WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition(message_rows(d)))


def wait_text(driver, element_id, text):
    WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, element_id).text == text)
