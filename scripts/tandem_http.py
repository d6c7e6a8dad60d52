"""A `tandem serve` child process and plain HTTP exchanges, shared by the issue 29 harnesses
(scripts/cross-user-reads.py, scripts/enumeration.py). Python standard library only.
"""
import http.client
import json
import os
import subprocess
import time
import urllib.parse
from dataclasses import dataclass


class Server:
    """`tandem serve --port 0` on a fresh data directory; `base` is the URL it announced.

    Use as a context manager: the child is stopped (SIGTERM, then SIGKILL after 10 s) on exit.
    """

    def __init__(self, tandem, work, name, options=(), database_url=None):
        self.log_path = os.path.join(work, f"{name}.log")
        self.stdout_path = os.path.join(work, f"{name}.stdout")
        command = [tandem, "serve", "--port", "0", "--data-dir", os.path.join(work, f"{name}-data"), *options]
        if database_url:
            command += ["--database-url", database_url]
        self.command = command
        self.process = None
        self.base = None

    def __enter__(self):
        with open(self.stdout_path, "w") as stdout, open(self.log_path, "w") as log:
            self.process = subprocess.Popen(self.command, stdout=stdout, stderr=log)
        self.base = self._announced_base(deadline=time.monotonic() + 30)
        return self

    def __exit__(self, *_):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def _announced_base(self, deadline):
        # The server prints one `listening on http://HOST:PORT` line once the socket is bound:
        # poll the file for it (bounded), failing early when the child has already exited.
        while time.monotonic() < deadline:
            with open(self.stdout_path) as stdout:
                for line in stdout:
                    if line.startswith("listening on "):
                        return line.split(" ", 2)[2].strip()
            if self.process.poll() is not None:
                raise SystemExit(f"tandem serve exited ({self.process.returncode}): {self.log_tail()}")
            time.sleep(0.05)
        self.process.kill()
        raise SystemExit("tandem serve did not announce itself within 30 s")

    def log_tail(self, lines=20):
        with open(self.log_path) as log:
            return "".join(log.readlines()[-lines:])


@dataclass
class Answer:
    status: int
    headers: list  # [(name, value)] in the order received
    body: bytes
    seconds: float  # from sending the request to the end of the body

    def header(self, name):
        return next((value for key, value in self.headers if key.lower() == name.lower()), None)

    def json(self):
        return json.loads(self.body)

    @property
    def text(self):
        return self.body.decode("utf-8", "replace")


class Connection:
    """One keep-alive HTTP/1.1 connection to `base`, reopened when the server closes it."""

    def __init__(self, base, timeout=30):
        parts = urllib.parse.urlsplit(base)
        self.host, self.port, self.timeout = parts.hostname, parts.port, timeout
        self.connection = None

    def request(self, method, path, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        sent = dict(headers or {})
        if data is not None:
            sent.setdefault("Content-Type", "application/json")
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            started = time.perf_counter()
            try:
                self.connection.request(method, path, body=data, headers=sent)
                response = self.connection.getresponse()
                payload = response.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # A keep-alive connection the server closed between requests: reopen once.
                self.close()
                if attempt == 1:
                    raise
                continue
            answer = Answer(response.status, response.getheaders(), payload, time.perf_counter() - started)
            if (answer.header("Connection") or "").lower() == "close":
                self.close()
            return answer

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def request(base, method, path, body=None, headers=None):
    """One exchange on a connection of its own."""
    connection = Connection(base)
    try:
        return connection.request(method, path, body=body, headers=headers)
    finally:
        connection.close()


def with_query(path, query):
    """`path?query` with the pairs percent-encoded; `query` is a dict or a list of pairs."""
    pairs = list(query.items()) if isinstance(query, dict) else list(query)
    return path + ("?" + urllib.parse.urlencode(pairs) if pairs else "")


def session_cookie(answer):
    """The `name=value` pair of the session cookie a sign-in or sign-up answer set."""
    for name, value in answer.headers:
        if name.lower() == "set-cookie" and "session_token=" in value.split(";", 1)[0]:
            return value.split(";", 1)[0]
    return None
