"""`tandem app` (issue 47) in headless Chromium through Selenium, against real processes.

Over a `tandem serve` relay, a profile in the browser and CLI profiles chat both ways:
- a wrong token, a foreign Host and a foreign Origin are refused (403), as is a request without
  the session cookie;
- the browser starts a chat by address ("New chat", "Address", "Start chat"); the CLI sees the
  handshake and replies; the reply is on screen, live, within 5 s;
- a message from the browser ("Message", "Send") is read by `tandem chat history`;
- a handshake from another CLI profile is accepted in the browser ("Accept");
- 200 messages arrive while the reader looks at an older page: the row under the reader's eye does
  not move by a pixel, in any frame;
- a message that arrives while the page is hidden creates a browser notification;
- contacts are renamed and searched ("Search").
Over `tandem-simnode` (testnet-10), the same chat, and a payment with a memo ("Pay", "Amount",
"Memo") read by the CLI; the balance shows, and the receive address's QR code, read from the
screen by zbarimg, is the address.
Throughout: no console error, no Content-Security-Policy violation; screenshots at 1280 px and
360 px.
"""
import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from headless_chromium import chromium
from chat_browser_steps import (Checks, Processes, address_of, button, field, message_rows, wait_rows,
                                wait_text)

# Before any page script: count notifications and CSP violations where the test can read them.
PROBES = """
window.__notes = [];
window.__csp = [];
document.addEventListener('securitypolicyviolation', (event) => window.__csp.push(event.violatedDirective + ' ' + event.blockedURI));
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      window.__notes.push({ title, body: options?.body ?? '' });
    }
  };
}
"""


def browser():
    driver = chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PROBES})
    return driver


def request(port, method, path, host=None, origin=None, cookie=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": host or f"127.0.0.1:{port}"}
    if origin:
        headers["Origin"] = origin
    if cookie:
        headers["Cookie"] = cookie
    if body is not None:
        headers["Content-Type"] = "application/json"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


class AppClient:
    """A script's session with a `tandem app`: the printed link traded for its cookie, then JSON
    requests from the app's own origin."""

    def __init__(self, app):
        self.port = app.port
        path = app.url.split(str(app.port), 1)[1]
        connection = http.client.HTTPConnection("127.0.0.1", app.port, timeout=10)
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{app.port}"})
        response = connection.getresponse()
        response.read()
        self.cookie = response.getheader("Set-Cookie").split(";", 1)[0]
        self.connection = connection

    def post(self, path, body):
        self.connection.request("POST", path, body=json.dumps(body), headers={
            "Host": f"127.0.0.1:{self.port}", "Origin": f"http://127.0.0.1:{self.port}", "Cookie": self.cookie,
            "Content-Type": "application/json"})
        response = self.connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")


def check_gate(checks, driver, app):
    """The gate: the token once, then the cookie; foreign Host and Origin refused."""
    port = app.port
    checks.expect(request(port, "GET", "/") == 403, "a page without the session cookie is refused")
    checks.expect(request(port, "GET", "/open?token=" + "0" * 64) == 403, "a wrong token is refused")
    driver.get(app.url)
    cookie = next((c for c in driver.get_cookies() if c["name"].startswith("tandem_app_")), None)
    checks.expect(cookie is not None and cookie.get("httpOnly"), "the link gives an HTTP-only session cookie")
    jar = f"{cookie['name']}={cookie['value']}" if cookie else ""
    checks.expect(request(port, "GET", app.url.split(str(port), 1)[1]) == 403, "the link works once")
    checks.expect(request(port, "GET", "/api/me", cookie=jar) == 200, "the cookie opens the API")
    checks.expect(request(port, "GET", "/api/me", host=f"evil.example:{port}", cookie=jar) == 403,
                  "a foreign Host is refused")
    checks.expect(request(port, "POST", "/api/read", origin="http://evil.example", cookie=jar, body="{}") == 403,
                  "a change from a foreign Origin is refused")
    checks.expect(request(port, "POST", "/api/read", origin=f"http://127.0.0.1:{port}", cookie=jar, body="{}") == 400,
                  "a change from the app's own Origin passes the gate (and its bad body is a 400)")
    wait_text(driver, "conversations-heading", "Conversations")


def start_chat(driver, peer):
    button(driver, "New chat").click()
    field(driver, "Address").send_keys(peer)
    button(driver, "Start chat").click()
    WebDriverWait(driver, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, f"#conversations li[data-address='{peer}']"))
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "chat-address").text == peer)


def send_from_browser(driver, text):
    box = field(driver, "Message")
    box.send_keys(text)
    button(driver, "Send").click()
    WebDriverWait(driver, 30).until(lambda d: any(
        row["direction"] == "out" and text in row["text"] and row["status"] in ("sent", "confirmed")
        for row in message_rows(d)))


def relay_scenario(checks, processes, driver, shots):
    server = processes.serve()
    alice = processes.profile("alice")
    bob = processes.profile("bob")
    carol = processes.profile("carol")
    chat = ["--server", server]
    app = processes.app(alice, chat)
    check_gate(checks, driver, app)
    bob_address = address_of(processes, bob)
    alice_address = address_of(processes, alice)

    start_chat(driver, bob_address)
    synced = processes.tandem("chat", "sync", "--profile", bob, *chat)
    checks.expect("wants to chat" in synced, "the CLI sees the browser's handshake")
    processes.tandem("chat", "send", "--to", alice_address, "reply from the cli", "--profile", bob, *chat)
    sent_at = time.monotonic()
    wait_rows(driver, lambda rows: any(r["direction"] == "in" and r["text"] == "reply from the cli" for r in rows),
              timeout=15)
    live = time.monotonic() - sent_at
    checks.expect(live < 5, f"the CLI's reply is on screen within 5 s (took {live:.2f} s)")

    send_from_browser(driver, "hello from the browser")
    processes.tandem("chat", "sync", "--profile", bob, *chat)
    history = json.loads(processes.tandem("chat", "history", "--with", alice_address, "--json", "--profile", bob,
                                          *chat))
    checks.expect(any(m["text"] == "hello from the browser" and m["direction"] == "incoming"
                      for m in history["messages"]), "tandem chat history reads the browser's message")

    # Carol asks; the browser accepts from the list.
    carol_address = address_of(processes, carol)
    processes.tandem("chat", "handshake", "--to", alice_address, "--profile", carol, *chat)
    row = f"#conversations li[data-address='{carol_address}']"
    WebDriverWait(driver, 15).until(lambda d: d.find_elements(By.CSS_SELECTOR, row + " button"))
    driver.save_screenshot(os.path.join(shots, "chat-request-1280.png"))
    accept = driver.find_element(By.XPATH, f"//li[@data-address='{carol_address}']//button[normalize-space(.)='Accept']")
    accept.click()
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "chat-address").text == carol_address)
    WebDriverWait(driver, 15).until(lambda d: not d.find_elements(
        By.XPATH, "//button[normalize-space(.)='Accept'][not(ancestor::*[@hidden])]"))
    answered = processes.tandem("chat", "sync", "--profile", carol, *chat)
    checks.expect("wants to chat" in answered, "the accepted handshake reaches the CLI that asked")

    # Rename Carol and find her by the new name.
    driver.find_element(By.CSS_SELECTOR, "#contact-menu summary").click()
    name = field(driver, "Name")
    name.clear()
    name.send_keys("Carol")
    button(driver, "Rename").click()
    driver.find_element(By.CSS_SELECTOR, "#contact-menu summary").click()
    driver.find_element(By.ID, "contact-muted").click()
    driver.find_element(By.CSS_SELECTOR, "#contact-menu summary").click()
    WebDriverWait(driver, 10).until(lambda d: "(muted)" in d.find_element(
        By.CSS_SELECTOR, row + " button.open").text)
    search = field(driver, "Search")
    search.send_keys("caro")
    WebDriverWait(driver, 10).until(lambda d: [e.get_attribute("data-address") for e in d.find_elements(
        By.CSS_SELECTOR, "#conversations li")] == [carol_address])
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.BACKSPACE)
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#conversations li")) == 2)

    reading_place(checks, processes, driver, bob, bob_address, alice_address, chat)
    notification(checks, processes, driver, bob, carol, alice_address, chat)

    keyboard_only(checks, driver)
    for width, name in [(1280, "1280"), (360, "360")]:
        driver.set_window_size(width, 900)
        driver.save_screenshot(os.path.join(shots, f"chat-conversation-{name}.png"))
    button(driver, "Back").click()
    driver.save_screenshot(os.path.join(shots, "chat-list-360.png"))
    driver.set_window_size(1280, 900)
    leave(checks, driver, app)


def keyboard_only(checks, driver):
    """Every control has a name a screen reader says; a conversation is opened and a message sent
    with the keyboard alone."""
    unnamed = []
    for node in driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]:
        role = node.get("role", {}).get("value")
        if node.get("ignored") or role not in ("button", "textbox", "searchbox", "checkbox", "link"):
            continue
        if not node.get("name", {}).get("value", "").strip():
            unnamed.append(role)
    checks.expect(unnamed == [], f"every control has an accessible name ({unnamed})")
    active = lambda d: d.switch_to.active_element  # noqa: E731: a one-line query
    active(driver).send_keys(Keys.ESCAPE)
    WebDriverWait(driver, 10).until(lambda d: active(d).get_attribute("id") == "search")
    active(driver).send_keys(Keys.TAB)
    focused = active(driver)
    checks.expect(focused.get_attribute("class") == "open", "Tab from Search reaches the first conversation")
    address = driver.execute_script("return document.activeElement.closest('li').dataset.address")
    focused.send_keys(Keys.ENTER)
    WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "chat-address").text == address)
    WebDriverWait(driver, 10).until(lambda d: active(d).get_attribute("id") == "message")
    active(driver).send_keys("typed with the keyboard" + Keys.ENTER)
    wait_rows(driver, lambda rows: any(r["direction"] == "out" and r["text"] == "typed with the keyboard"
                                        for r in rows), timeout=15)
    checks.expect(True, "a conversation opened and a message sent with the keyboard alone")


def open_conversation(driver, peer):
    driver.find_element(By.CSS_SELECTOR, f"#conversations li[data-address='{peer}'] button.open").click()
    WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "chat-address").text == peer)


def reading_place(checks, processes, driver, bob, bob_address, alice_address, chat):
    """200 arrivals while the reader looks at an older page: the row in view stays put."""
    open_conversation(driver, bob_address)
    driver.set_script_timeout(120)
    failures = driver.execute_async_script("""
      const [to, done] = arguments;
      (async () => {
        const failures = [];
        for (let i = 0; i < 150; i += 1) {
          const response = await fetch('/api/messages', { method: 'POST', headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ to, text: `older ${i}` }) });
          if (!response.ok) failures.push(await response.text());
        }
        return failures;
      })().then(done, (error) => done([String(error)]));
    """, bob_address)
    checks.expect(failures == [], f"150 earlier messages sent from the page ({failures[:2]})")
    # Open again: the newest page, then older pages as the reader scrolls up.
    driver.find_element(By.CSS_SELECTOR, "#conversations li:not([data-address='%s']) button.open" % bob_address).click()
    open_conversation(driver, bob_address)
    for _ in range(3):
        before = len(message_rows(driver))
        driver.execute_script("document.getElementById('timeline').scrollTop = 0")
        WebDriverWait(driver, 15).until(lambda d: len(message_rows(d)) > before or "beginning" in d.find_element(
            By.ID, "older").text)
    driver.execute_script("const t = document.getElementById('timeline'); t.scrollTop = t.scrollHeight / 3")
    anchor = driver.execute_script("""
      const timeline = document.getElementById('timeline');
      const top = timeline.getBoundingClientRect().top + timeline.clientHeight / 2;
      const row = [...document.querySelectorAll('#messages li[data-message-id]')].find((r) => r.getBoundingClientRect().bottom > top);
      window.__drift = 0;
      const start = row.getBoundingClientRect().top;
      const watch = () => {
        window.__drift = Math.max(window.__drift, Math.abs(row.getBoundingClientRect().top - start));
        window.__watching = requestAnimationFrame(watch);
      };
      watch();
      return { id: row.dataset.messageId, text: row.innerText };
    """)
    # Bob sends the burst through his own `tandem app` (200 CLI processes would take half a minute).
    bob_app = processes.app(bob, chat)
    sender = AppClient(bob_app)
    for index in range(1, 201):
        status, answer = sender.post("/api/messages", {"to": alice_address, "text": f"arrival {index}"})
        if status != 200:
            raise AssertionError(f"Bob's app refused arrival {index}: {status} {answer}")
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "jump").text == "New messages (200)")
    drift = driver.execute_script("cancelAnimationFrame(window.__watching); return window.__drift")
    still = driver.execute_script("""
      const row = document.querySelector(`[data-message-id="${arguments[0]}"]`);
      const timeline = document.getElementById('timeline');
      return row && row.getBoundingClientRect().bottom > timeline.getBoundingClientRect().top;
    """, anchor["id"])
    checks.expect(drift is not None and drift < 1, f"the row under the reader's eye did not move (at most {drift} px)")
    checks.expect(still, "the reader's row is still in view")
    on_page = driver.execute_script("return document.querySelectorAll('#messages li[data-message-id]').length")
    checks.expect(on_page <= 300, f"at most 300 rows on the page while the reader is away ({on_page})")
    jump = driver.find_element(By.ID, "jump")
    checks.expect(jump.is_displayed(), "the page says 200 new messages wait")
    jump.click()
    wait_rows(driver, lambda rows: rows and rows[-1]["text"] == "arrival 200", timeout=15)
    pinned = driver.execute_script(
        "const t = document.getElementById('timeline'); return t.scrollHeight - t.scrollTop - t.clientHeight")
    checks.expect(pinned < 8, f"the jump shows the newest row at the bottom ({pinned} px from it)")
    # A client that stalls mid-request (headers sent, body never) does not keep Ctrl-C from
    # stopping the app: after the grace period the app is cancelled, and exits 0.
    stalled = socket.create_connection(("127.0.0.1", bob_app.port))
    stalled.sendall((f"POST /api/read HTTP/1.1\r\nHost: 127.0.0.1:{bob_app.port}\r\n"
                     f"Origin: http://127.0.0.1:{bob_app.port}\r\nCookie: {sender.cookie}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{").encode())
    bob_app.process.send_signal(signal.SIGINT)
    try:
        code = bob_app.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        bob_app.process.kill()
        code = None
    checks.expect(code == 0, f"Ctrl-C stops the app despite a stalled request (exit {code})")
    stalled.close()


def notification(checks, processes, driver, bob, carol, alice_address, chat):
    """A message while the page is hidden shows a notification, unless its contact is muted
    (Carol, muted before: her message goes first, so it was handled when Bob's shows)."""
    origin = driver.execute_script("return location.origin")
    driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["notifications"], "origin": origin})
    driver.minimize_window()
    hidden = driver.execute_script("return document.visibilityState")
    checks.expect(hidden == "hidden", f"the app's window is hidden (minimized: {hidden})")
    processes.tandem("chat", "send", "--to", alice_address, "muted carol", "--profile", carol, *chat)
    processes.tandem("chat", "send", "--to", alice_address, "while you were away", "--profile", bob, *chat)
    WebDriverWait(driver, 15).until(lambda d: d.execute_script(
        "return window.__notes.some((n) => n.body === 'while you were away')"))
    notes = driver.execute_script("return window.__notes")
    checks.expect([n["body"] for n in notes] == ["while you were away"],
                  f"one notification, for the unmuted contact's message: {notes}")
    driver.set_window_rect(0, 0, 1280, 900)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.visibilityState") == "visible")


def kaspa_scenario(checks, processes, driver, shots, zbar):
    node = processes.simnode()
    alice = processes.profile("alice-kaspa", network="testnet")
    bob = processes.profile("bob-kaspa", network="testnet")
    alice_address = address_of(processes, alice, network="testnet")
    bob_address = address_of(processes, bob, network="testnet")
    for address in (alice_address, bob_address):
        processes.fund(node, address, 1_000_000_000)
    for profile in (alice, bob):
        processes.tandem("kaspa", "connect", "--network", "testnet-10", "--node", f"ws://127.0.0.1:{node}",
                         "--profile", profile)
    app = processes.app(alice, [])
    driver.get(app.url)
    wait_text(driver, "conversations-heading", "Conversations")
    WebDriverWait(driver, 30).until(lambda d: "KAS" in d.find_element(By.ID, "balance").text)
    checks.expect(driver.find_element(By.ID, "receive-address").text == alice_address, "the receive address shows")
    if zbar:
        image = os.path.join(processes.work, "qr.png")
        with open(image, "wb") as out:
            out.write(driver.find_element(By.ID, "receive-qr").screenshot_as_png)
        read = subprocess.run(["zbarimg", "-q", "--raw", image], capture_output=True, text=True).stdout.strip()
        checks.expect(read == alice_address, f"the QR code on screen reads as the address ({read!r})")
    else:
        checks.skip("the QR code on screen (needs zbarimg: apt-get install zbar-tools)")

    start_chat(driver, bob_address)
    deadline = time.monotonic() + 30
    synced = ""
    while "wants to chat" not in synced and time.monotonic() < deadline:
        synced += processes.tandem("chat", "sync", "--profile", bob)
    checks.expect("wants to chat" in synced, "over Kaspa, the CLI sees the browser's handshake")
    processes.tandem("chat", "send", "--to", alice_address, "hi over kaspa", "--profile", bob)
    sent_at = time.monotonic()
    wait_rows(driver, lambda rows: any(r["direction"] == "in" and r["text"] == "hi over kaspa" for r in rows),
              timeout=20)
    live = time.monotonic() - sent_at
    checks.expect(live < 5, f"over Kaspa, the CLI's message is on screen within 5 s (took {live:.2f} s)")

    field(driver, "Amount").send_keys("1.5")
    field(driver, "Memo").send_keys("for lunch")
    button(driver, "Pay").click()
    wait_rows(driver, lambda rows: any(r["direction"] == "out" and r["kind"] == "payment" for r in rows), timeout=30)
    paid = []
    deadline = time.monotonic() + 30
    while not paid and time.monotonic() < deadline:
        processes.tandem("chat", "sync", "--profile", bob)
        history = json.loads(processes.tandem("chat", "history", "--with", alice_address, "--json", "--profile", bob))
        paid = [m for m in history["messages"] if m["kind"] == "payment" and m["direction"] == "incoming"]
    checks.expect(any(m["amountSompi"] == 150_000_000 and m["text"] == "for lunch" for m in paid),
                  f"the CLI reads the payment and its memo ({paid})")
    driver.save_screenshot(os.path.join(shots, "chat-kaspa-1280.png"))
    leave(checks, driver, app)


def leave(checks, driver, app):
    """Leaves the page before its app stops (a stream cut by a stopped app is no page error),
    checking that the page logged no error and no CSP violation."""
    violations = driver.execute_script("return window.__csp")
    checks.expect(violations == [], f"no CSP violation ({violations})")
    driver.get("about:blank")
    problems = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    checks.expect(problems == [], f"no console error ({problems[:3]})")
    app.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tandem", required=True)
    parser.add_argument("--simnode", required=True)
    parser.add_argument("--screenshots", required=True)
    arguments = parser.parse_args()
    os.makedirs(arguments.screenshots, exist_ok=True)
    zbar = subprocess.run(["sh", "-c", "command -v zbarimg"], capture_output=True).returncode == 0
    checks = Checks()
    with tempfile.TemporaryDirectory() as work, Processes(arguments.tandem, arguments.simnode, work) as processes:
        driver = browser()
        try:
            relay_scenario(checks, processes, driver, arguments.screenshots)
            kaspa_scenario(checks, processes, driver, arguments.screenshots, zbar)
        except Exception as error:  # noqa: BLE001: any failure is reported with the logs
            checks.fail(f"{type(error).__name__}: {error}")
            driver.save_screenshot(os.path.join(arguments.screenshots, "chat-failure.png"))
            processes.dump_logs()
        finally:
            driver.quit()
    sys.exit(checks.finish())


if __name__ == "__main__":
    main()
