"""Cross-user reads (issue 29): can one account read another's data through any read route?

Against a fresh `tandem serve` (rate limits off: this measures authorization, not the limits):
- three accounts, A (the one whose data must not leak), B (the one asking) and C (a third party),
  each signed up and given real data by `tandem` CLI profiles: signed Redo tasks synced, a saved
  filter (task preset records), a contact (sealed contact record), the chat history each
  pushes (sealed chat history records), device keys, task shares
  (A shares one task with C and, from a second device, one with B), relay submissions (a
  handshake, its self-stash and a message each way), and a chat profile;
- every GET and HEAD operation of the /openapi.json the server serves is looked up in ROUTES,
  the explicit table below; an operation without an entry fails the run, so a new read route
  is never skipped silently (and an entry the document lost fails it too);
- each route is asked with B's session using A's identifiers (user id, task and node ids,
  cursors from A's pulls, device keys, session ids, record ids, addresses, aliases), with B's
  own, and with hidden parameters naming A; the same requests go out without a session and
  with A's (the owner control: A's data must show up there, or the markers prove nothing);
- a leak is any of A's markers (ids, titles, record boxes, session ids and tokens, e-mail,
  username, display name, device key, wallet address on account routes) in an answer to B,
  headers included, unless B's own request carried it. Account routes must also answer B with
  B's data only (user ids, task ids, record ids, keys) or refuse; public routes (the Kasia
  indexer and stream, the app, health, the document) must answer the same bytes with A's
  session, B's and none;
- cookies made of A's session id or token hash must not authenticate;
- writes that would grant B read access — sharing A's task, answering the invitation A sent C,
  revoking A's key, pushing A's signed nodes — must be refused exactly like the same write on an
  id that does not exist.

Prints a summary and exits 1 on any leak or failed check; --json FILE writes every finding.
"""
import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tandem_http import Answer, Connection, Server, request, session_cookie, with_query  # noqa: E402

PASSWORD = "correct horse battery staple"
USER_AGENT = "cross-user-reads"


# ---------------------------------------------------------------------------------------------
# Accounts and their data, made through the CLI


@dataclass
class Account:
    label: str
    username: str
    email: str
    name: str
    profile: str
    address: str = ""
    user_id: str = ""
    cookie: str = ""
    token: str = ""
    facts: dict = field(default_factory=dict)


class CLI:
    """Runs `tandem` with one profile directory; answers are parsed JSON when asked for."""

    def __init__(self, tandem, base):
        self.tandem, self.base = tandem, base

    def run(self, account, *arguments, stdin=None, profile=None):
        command = [self.tandem, *arguments, "--profile", profile or account.profile]
        done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise SystemExit(f"cross-user-reads: {' '.join(command[1:])} failed: {done.stderr.strip()}")
        return json.loads(done.stdout) if "--json" in arguments else done.stdout

    def register(self, account):
        account.address = self.run(account, "keys", "new", "--json")["address"]
        user = self.run(account, "account", "register", "--server", self.base, "--username", account.username,
                        "--email", account.email, "--name", account.name, "--password-stdin", "--json",
                        stdin=PASSWORD + "\n")
        account.user_id = user["id"]


def populate(cli, accounts, tag, work):
    """Gives A and B data on every feature with a read route; returns the ids the CLI printed."""
    a, b, c = accounts["A"], accounts["B"], accounts["C"]
    made = {"A": {}, "B": {}}
    for account in (a, b, c):
        cli.register(account)

    # A: a private task, a task shared with C, a saved filter, a contact, chat to C.
    made["A"]["private"] = cli.run(a, "tasks", "add", f"A private {tag}", "--json")["taskId"]
    made["A"]["sharedWithC"] = cli.run(a, "tasks", "add", f"A shares with C {tag}", "--json")["taskId"]
    cli.run(a, "tasks", "preset", "save", f"a-filter-{tag}", "--search", f"alpha{tag}", "--json")
    cli.run(a, "contacts", "add", c.address, "--alias", f"A knows C {tag}", "--json")
    cli.run(a, "sync", "--json")
    cli.run(a, "tasks", "share", made["A"]["sharedWithC"], "--with", c.username, "--json")
    made["A"]["relay"] = relay_conversation(cli, a, c, tag)

    # A's second device signs a task it shares with B: B may read that task, and only that.
    second = os.path.join(work, "profile-A2")
    cli.run(a, "account", "login", "--server", cli.base, "--username", a.username, "--password-stdin",
            stdin=PASSWORD + "\n", profile=second)
    made["A"]["sharedWithB"] = cli.run(a, "tasks", "add", f"A shares with B {tag}", "--json",
                                       profile=second)["taskId"]
    cli.run(a, "tasks", "share", made["A"]["sharedWithB"], "--with", b.username, "--json", profile=second)
    # B accepts A's invitation; C leaves its own waiting (B may neither see nor answer it).
    cli.run(b, "tasks", "accept", made["A"]["sharedWithB"], "--json")

    # B: its own task, filter and contact (A's address, sealed), chat to A; pulls the shared task.
    made["B"]["own"] = cli.run(b, "tasks", "add", f"B own {tag}", "--json")["taskId"]
    cli.run(b, "tasks", "preset", "save", f"b-filter-{tag}", "--search", f"bravo{tag}", "--json")
    cli.run(b, "contacts", "add", a.address, "--alias", f"B knows A {tag}", "--json")
    cli.run(b, "sync", "--json")
    made["B"]["relay"] = relay_conversation(cli, b, a, tag)
    # Both push their chat history (each now holds the conversation with the other's relay rows).
    cli.run(a, "sync", "--json")
    cli.run(b, "sync", "--json")
    return made


def relay_conversation(cli, sender, receiver, tag):
    """A handshake (with its self-stash) and a message from sender to receiver; their tx ids."""
    handshake = cli.run(sender, "chat", "handshake", "--to", receiver.address, "--json")
    message = cli.run(sender, "chat", "send", "--to", receiver.address, f"{sender.label} to {receiver.label} {tag}",
                      "--force", "--json")
    return [handshake["txID"], message["txID"]]


def sign_in(base, account):
    """A session of the harness's own (not the CLI's), for raw requests."""
    answer = request(base, "POST", "/api/auth/sign-in/username",
                     {"username": account.username, "password": PASSWORD}, {"User-Agent": USER_AGENT})
    if answer.status != 200:
        raise SystemExit(f"cross-user-reads: sign-in of {account.label} answered {answer.status}: {answer.text}")
    account.cookie, account.token = session_cookie(answer), answer.json()["token"]


def set_profile(base, account, wallet_public_key):
    """Puts the wallet address and key on the chat profile, so /api/me/profile has A's data."""
    answer = request(base, "PUT", "/api/me/profile",
                     {"kaspaAddress": account.address, "publicKeys": [wallet_public_key]},
                     {"Cookie": account.cookie, "Origin": base})
    if answer.status != 200:
        raise SystemExit(f"cross-user-reads: profile of {account.label} answered {answer.status}: {answer.text}")


# ---------------------------------------------------------------------------------------------
# What each account can read, read as itself


def pages(connection, account, path):
    """Every page of a sync collection, one item a page, so every cursor the account saw is known."""
    items, cursors, after = [], [], None
    while True:
        answer = connection.request("GET", with_query(path, {"limit": 1, **({"after": after} if after else {})}),
                                    headers={"Cookie": account.cookie})
        page = answer.json()
        key = "nodes" if "nodes" in page else "records"
        items += page[key]
        cursors.append(page["cursor"])
        if not page["hasMore"]:
            return items, cursors
        after = page["cursor"]


def read_own(base, account):
    """The account's own view through the account routes: the facts probes and markers use."""
    connection = Connection(base)
    facts = {}
    facts["nodes"], facts["nodeCursors"] = pages(connection, account, "/api/redo/nodes")
    facts["contacts"], facts["contactCursors"] = pages(connection, account, "/api/contacts/records")
    facts["presets"], facts["presetCursors"] = pages(connection, account, "/api/tasks/presets")
    facts["chat"], facts["chatCursors"] = pages(connection, account, "/api/chat/history")
    for name, path in [("keys", "/api/me/keys"), ("profile", "/api/me/profile"),
                       ("sessions", "/api/auth/list-sessions"), ("session", "/api/auth/get-session")]:
        facts[name] = connection.request("GET", path, headers={"Cookie": account.cookie}).json()
    connection.close()
    return facts


def read_relay(base, account, expected, deadline_seconds=10):
    """The account's relay rows from the public stream (replayed from 0): until every tx id in
    `expected` has arrived, bounded by a deadline. Gives the aliases and self-stash scopes."""
    events = read_stream(base, with_query("/kasia/stream", {"address": account.address, "last_event_id": 0}),
                         {}, set(expected), deadline_seconds)
    rows = [json.loads(data) for _, _, data in events]
    rows = [row for row in rows if account.address in (row.get("sender"), row.get("owner"))]
    return {
        "txIDs": sorted({row["tx_id"] for row in rows}),
        "aliases": sorted({row["alias"] for row in rows if "alias" in row}),
        "scopes": sorted({row["scope"] for row in rows if "scope" in row}),
        "payloads": sorted({row.get("message_payload") or row.get("stashed_data") for row in rows} - {None}),
    }


def read_stream(base, path, headers, expected, deadline_seconds):
    """SSE events (event, id, data) up to and including the last of `expected` tx ids: the
    stream never ends, so it is read until those have arrived, bounded by a deadline."""
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=deadline_seconds)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    if response.status != 200:
        raise SystemExit(f"cross-user-reads: GET {path} answered {response.status}: {response.read()[:200]}")
    events, current, waiting = [], {}, set(expected)
    deadline = time.monotonic() + deadline_seconds
    try:
        while waiting and time.monotonic() < deadline:
            raw = response.readline()  # chunked framing undone
            if not raw:
                break  # the server ended the stream
            line = raw.decode().rstrip("\r\n")
            if line.startswith(":"):
                continue  # a comment: the greeting or a heartbeat
            if line == "":
                if "data" in current:
                    events.append((current.get("event", ""), current.get("id", ""), current["data"]))
                    waiting.discard(json.loads(current["data"]).get("tx_id"))
                current = {}
                continue
            name, _, value = line.partition(": ")
            current[name] = value
    except TimeoutError:
        pass
    finally:
        connection.close()
    if waiting:
        raise SystemExit(f"cross-user-reads: the stream {path} did not deliver {sorted(waiting)} in time")
    return events


# ---------------------------------------------------------------------------------------------
# Markers: strings of A's that B must never be shown


def markers_of(a, b, made, relay):
    """A's private markers (never in any answer to B) and relay markers (public by design on the
    Kasia routes, never on B's account routes). Strings that occur in the task A shared with B
    are B's to read and are left out, and so are record ids B holds too: every account's presets
    key anchor has the same well-known id."""
    facts = a.facts
    private = {
        "account id": [a.user_id], "e-mail": [a.email], "username": [a.username], "display name": [a.name],
        "task id": [made["private"], made["sharedWithC"]],
        "session id": [s["id"] for s in facts["sessions"]],
        "session token": [s["token"] for s in facts["sessions"]] + [a.token],
        "device key": [k["publicKey"] for k in facts["keys"]["keys"]],
    }
    shared = [n for n in facts["nodes"] if n["taskId"] == made["sharedWithB"]]
    for node in facts["nodes"]:
        if node["taskId"] != made["sharedWithB"]:
            private.setdefault("node id", []).append(node["id"])
            title = node["data"]["payload"].get("title")
            if title:
                private.setdefault("task title", []).append(title)
    for kind in ("contacts", "presets", "chat"):
        both = {r["id"] for r in b.facts[kind]}
        private[f"{kind} record id"] = [r["id"] for r in facts[kind] if r["id"] not in both]
        private[f"{kind} record box"] = [r["box"] for r in facts[kind]]
    public = {"wallet address": [a.address], "relay tx id": relay["txIDs"], "relay payload": relay["payloads"]}
    shared_text = json.dumps(shared)
    found = []
    for kind, values in list(private.items()) + list(public.items()):
        for value in sorted(set(values)):
            if len(value) < 8:
                raise SystemExit(f"cross-user-reads: marker {kind} {value!r} is too short to search for")
            if value not in shared_text:
                found.append(Marker(kind, value, public=kind in public))
    return found


@dataclass
class Marker:
    kind: str
    value: str
    public: bool  # relay data: readable by anyone on the Kasia routes

    def forms(self):
        # As sent, and as a JSON encoder that escapes "/" would write it.
        return {self.value, self.value.replace("/", "\\/")}


def leaks_in(answer, probe_text, markers, account_route):
    """The markers an answer shows that its request did not carry."""
    probe_text = urllib.parse.unquote(probe_text)
    shown = answer.text + "\n" + "\n".join(f"{k}: {v}" for k, v in answer.headers)
    found = []
    for marker in markers:
        if marker.public and not account_route:
            continue
        if marker.value in probe_text:
            continue  # B sent it: an echo shows nothing B did not know
        if any(form in shown for form in marker.forms()):
            found.append(marker)
    return found


# ---------------------------------------------------------------------------------------------
# The route table: one entry per GET/HEAD operation of the document


@dataclass
class Ids:
    """The identifiers probes use: A's (the other account's) and B's (the caller's own)."""
    a: Account
    b: Account
    made: dict
    relay: dict  # label -> read_relay()


def cursor_queries(ids, kind):
    """Absent, 0, every cursor A and B were given, ids that are no cursor, and hidden filters."""
    cursors = ["0"] + ids.a.facts[kind] + ids.b.facts[kind]
    queries = [{}] + [{"after": c} for c in dict.fromkeys(cursors)] + [{"after": c, "limit": 1} for c in
                                                                      dict.fromkeys(ids.a.facts[kind])]
    queries += [{"after": ids.made["A"]["private"]}, {"limit": 1000},
                {"userId": ids.a.user_id, "taskId": ids.made["A"]["private"], "user": ids.a.username}]
    return queries


def hidden_queries(ids):
    """A route that takes no parameter, asked plainly and with parameters naming A."""
    return [{}, {"userId": ids.a.user_id, "user_id": ids.a.user_id, "username": ids.a.username,
                 "publicKey": ids.a.facts["keys"]["keys"][0]["publicKey"]}]


def address_queries(ids):
    addresses = [ids.a.address, ids.b.address]
    return [{"address": address, "limit": 50} for address in addresses] + [{"address": ids.a.address,
                                                                            "block_time": 0}]


def alias_queries(ids):
    pairs = [(ids.a.address, alias) for alias in ids.relay["A"]["aliases"]]
    pairs += [(ids.b.address, alias) for alias in ids.relay["B"]["aliases"]]
    pairs += [(ids.b.address, alias) for alias in ids.relay["A"]["aliases"]]  # A's alias, B's address
    return [{"address": address, "alias": alias, "limit": 50} for address, alias in pairs]


def stash_queries(ids):
    scopes = ids.relay["A"]["scopes"] + [""]
    return [{"owner": address, "scope": scope, "limit": 50} for address in (ids.a.address, ids.b.address)
            for scope in scopes]


def app_files(ids):
    """Real files and A's identifiers as file names (a 404 must not say more than that)."""
    names = ["index.html", "main.js", "sync.js", ids.made["A"]["private"], ids.a.user_id,
             ids.a.facts["keys"]["keys"][0]["publicKey"], "..%2Fauth-secret", "../auth-secret"]
    return [{"file": name} for name in names]


def stream_queries(ids):
    return ([{"address": ids.a.address, "last_event_id": 0}]
            + [{"alias": alias, "last_event_id": 0} for alias in ids.relay["A"]["aliases"]])


@dataclass
class Route:
    """How to probe one operation. scope: "account" (answers belong to the session's account),
    "public" (the same for every caller), "volatile" (public, but changes between requests:
    only searched for markers) or "stream" (public Server-Sent Events)."""
    scope: str
    queries: object = None  # ids -> [query dict]; None: the plain request only
    owner: object = None  # (B's answer as JSON, ids) -> what in it is not B's, or None; account routes
    path_parameter: str = None  # the {name} in the path the queries fill in


def owner_session(body, ids):
    if body is None:
        return None
    ids_seen = {body["user"]["id"], body["session"]["userId"]}
    return None if ids_seen == {ids.b.user_id} else f"session of {sorted(ids_seen)}"


def owner_sessions(body, ids):
    users = {s["userId"] for s in body}
    return None if users <= {ids.b.user_id} else f"sessions of {sorted(users)}"


def owner_nodes(body, ids):
    readable = {ids.made["B"]["own"], ids.made["A"]["sharedWithB"]}
    tasks = {n["taskId"] for n in body["nodes"]}
    return None if tasks <= readable else f"nodes of tasks {sorted(tasks - readable)}"


def owner_records(kind):
    def check(body, ids):
        own = {r["id"] for r in ids.b.facts[kind]}
        seen = {r["id"] for r in body["records"]}
        return None if seen <= own else f"{kind} records {sorted(seen - own)}"
    return check


def owner_keys(body, ids):
    own = {k["publicKey"] for k in ids.b.facts["keys"]["keys"]}
    seen = {k["publicKey"] for k in body["keys"]}
    return None if seen <= own else f"keys {sorted(seen - own)}"


def owner_invitations(body, ids):
    # B accepted the one A sent it; C's invitation from A must never show up in B's list.
    seen = {i["taskId"] for i in body["invitations"]}
    return None if seen <= {ids.made["A"]["sharedWithB"]} else f"invitations to tasks {sorted(seen)}"


def owner_profile(body, ids):
    return None if body["userId"] == ids.b.user_id else f"profile of {body['userId']}"


ROUTES = {
    ("GET", "/api/auth/get-session"): Route(
        "account", lambda ids: [{}, {"disableRefresh": "true"}, {"disableCookieCache": "true"}] + hidden_queries(ids),
        owner_session),
    ("GET", "/api/auth/list-sessions"): Route("account", hidden_queries, owner_sessions),
    ("GET", "/api/contacts/records"): Route(
        "account", lambda ids: cursor_queries(ids, "contactCursors"), owner_records("contacts")),
    ("GET", "/api/tasks/presets"): Route(
        "account", lambda ids: cursor_queries(ids, "presetCursors"), owner_records("presets")),
    ("GET", "/api/chat/history"): Route(
        "account", lambda ids: cursor_queries(ids, "chatCursors"), owner_records("chat")),
    ("GET", "/api/redo/nodes"): Route("account", lambda ids: cursor_queries(ids, "nodeCursors"), owner_nodes),
    ("GET", "/api/me/keys"): Route("account", hidden_queries, owner_keys),
    ("GET", "/api/redo/invitations"): Route("account", hidden_queries, owner_invitations),
    ("GET", "/api/me/profile"): Route("account", hidden_queries, owner_profile),
    ("GET", "/health"): Route("public"),
    ("HEAD", "/health"): Route("public"),
    ("GET", "/openapi.json"): Route("public"),
    ("GET", "/metrics"): Route("volatile"),  # counters move with every request; labels are routes
    ("GET", "/kasia/metrics"): Route("public"),
    ("GET", "/kasia/handshakes/by-sender"): Route("public", address_queries),
    ("GET", "/kasia/handshakes/by-receiver"): Route("public", address_queries),
    ("GET", "/kasia/payments/by-sender"): Route("public", address_queries),
    ("GET", "/kasia/payments/by-receiver"): Route("public", address_queries),
    ("GET", "/kasia/contextual-messages/by-sender"): Route("public", alias_queries),
    ("GET", "/kasia/self-stash/by-owner"): Route("public", stash_queries),
    ("GET", "/kasia/stream"): Route("stream", stream_queries),
    ("GET", "/"): Route("public"),  # a redirect to /app/, the same for everyone
    ("HEAD", "/"): Route("public"),
    ("GET", "/app/"): Route("public"),
    ("HEAD", "/app/"): Route("public"),
    ("GET", "/app/{file}"): Route("public", app_files, path_parameter="file"),
    ("HEAD", "/app/{file}"): Route("public", app_files, path_parameter="file"),
}


def read_operations(document):
    return sorted((method.upper(), path) for path, item in document["paths"].items()
                  for method in item if method in ("get", "head"))


# ---------------------------------------------------------------------------------------------
# Probing


class Run:
    """Counts and findings of one run."""

    def __init__(self):
        self.requests = 0
        self.leaks = []
        self.failures = []
        self.routes = []
        self.seen_by_owner = set()

    def leak(self, where, markers):
        for marker in markers:
            self.leaks.append({"request": where, "marker": marker.kind, "value": marker.value})

    def fail(self, where, problem):
        self.failures.append({"request": where, "problem": problem})


def probe_path(path, route, query):
    if route.path_parameter:
        query = dict(query)
        path = path.replace("{" + route.path_parameter + "}", query.pop(route.path_parameter))
    return with_query(path, query)


def probe_route(run, base, ids, markers, method, path, route):
    """Each of the route's queries as B, without a session and as A; every answer checked."""
    queries = route.queries(ids) if route.queries else [{}]
    before = run.requests
    connection = Connection(base)
    callers = {"B": {"Cookie": ids.b.cookie}, "anonymous": {}, "A": {"Cookie": ids.a.cookie}}
    for query in queries:
        target = probe_path(path, route, query)
        where = f"{method} {target}"
        if route.scope == "stream":
            answers = {name: stream_answer(base, target, headers, ids) for name, headers in callers.items()}
        else:
            answers = {name: connection.request(method, target, headers=headers) for name, headers in callers.items()}
        run.requests += len(answers)
        account = route.scope == "account"
        run.leak(where + " as B", leaks_in(answers["B"], target, markers, account))
        run.leak(where + " without a session", leaks_in(answers["anonymous"], target, markers, account))
        run.seen_by_owner |= {m.value for m in markers if any(f in answers["A"].text for f in m.forms())}
        if account:
            check_account_answers(run, where, answers, route, ids)
        elif route.scope in ("public", "stream"):
            check_public_answers(run, where, answers)
    connection.close()
    run.routes.append({"operation": f"{method} {path}", "scope": route.scope, "queries": len(queries),
                       "requests": run.requests - before})


def stream_answer(base, target, headers, ids):
    """A stream's replay, up to A's last relay row it watches, as one answer (the events as body)."""
    handshake, message = ids.made["A"]["relay"]
    # An address stream carries A's handshake and message; an alias stream only the message.
    expected = {handshake, message} if "address=" in target else {message}
    events = read_stream(base, target, headers, expected, deadline_seconds=10)
    return Answer(200, [], json.dumps(events).encode(), 0.0)


def check_account_answers(run, where, answers, route, ids):
    b, anonymous = answers["B"], answers["anonymous"]
    if b.status == 200:
        problem = route.owner(b.json(), ids)
        if problem:
            run.leak(where + " as B", [Marker("another account's data", problem, public=False)])
    elif b.status not in (400, 403, 404):
        run.fail(where + " as B", f"answered {b.status}: {b.text[:200]}")
    signed_out = anonymous.status == 401 or (anonymous.status == 200 and anonymous.body.strip() == b"null")
    if not signed_out:
        run.fail(where + " without a session", f"answered {anonymous.status}: {anonymous.text[:200]}")


def check_public_answers(run, where, answers):
    # The same bytes whoever asks: a session must change nothing on a public route.
    reference = answers["anonymous"]
    for caller in ("A", "B"):
        other = answers[caller]
        if (other.status, other.body) != (reference.status, reference.body):
            run.fail(where + f" as {caller}", f"answers {other.status} ({len(other.body)} bytes) where no session "
                                               f"gets {reference.status} ({len(reference.body)} bytes)")


def probe_forged_sessions(run, base, ids, markers):
    """Cookies built from A's session ids and token hashes (list-sessions shows both) must not
    sign anyone in."""
    forged = [s["id"] for s in ids.a.facts["sessions"]] + [s["token"] for s in ids.a.facts["sessions"]
                                                            if s["token"] != ids.a.token]
    name = ids.a.cookie.split("=", 1)[0]
    for value in forged:
        for path in ("/api/auth/get-session", "/api/redo/nodes", "/api/me/profile"):
            answer = request(base, "GET", path, headers={"Cookie": f"{name}={value}"})
            run.requests += 1
            where = f"GET {path} with A's session id or token hash as the cookie"
            run.leak(where, leaks_in(answer, value, markers, account_route=True))
            if not (answer.status == 401 or answer.body.strip() == b"null"):
                run.fail(where, f"answered {answer.status}: {answer.text[:200]}")


def probe_escalations(run, base, ids, markers, rng):
    """Writes that would give B read access to A's data: refused, and refused exactly as the
    same write on an id nobody has (so the answer does not even confirm the id exists)."""
    headers = {"Cookie": ids.b.cookie, "Origin": base}
    unknown_task = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    unknown_key = "%064x" % rng.getrandbits(256)
    cases = []
    for task in (ids.made["A"]["private"], ids.made["A"]["sharedWithC"]):
        cases.append(("POST", f"/api/redo/tasks/{task}/share", f"/api/redo/tasks/{unknown_task}/share",
                      {"username": ids.b.username}))
    for answer in ("accept", "decline"):
        cases.append(("POST", f"/api/redo/invitations/{ids.made['A']['sharedWithC']}/{answer}",
                      f"/api/redo/invitations/{unknown_task}/{answer}", None))
    a_key = ids.a.facts["keys"]["keys"][0]["publicKey"]
    cases.append(("DELETE", f"/api/me/keys/{a_key}", f"/api/me/keys/{unknown_key}", None))
    for method, path, control, body in cases:
        answer = request(base, method, path, body, headers)
        reference = request(base, method, control, body, headers)
        run.requests += 2
        where = f"{method} {path} as B"
        run.leak(where, leaks_in(answer, path, markers, account_route=True))
        if answer.status not in (403, 404) or (answer.status, answer.body) != (reference.status, reference.body):
            run.fail(where, f"answered {answer.status} {answer.text[:200]}; an unknown id gets "
                            f"{reference.status} {reference.text[:200]}")

    # A's own signed nodes, pushed by B: none may be accepted (into B's feed) or called a duplicate.
    a_nodes = [n for n in ids.a.facts["nodes"] if n["taskId"] == ids.made["A"]["private"]]
    answer = request(base, "POST", "/api/redo/nodes", {"nodes": a_nodes}, headers)
    run.requests += 1
    statuses = [r["status"] for r in answer.json().get("results", [])] if answer.status == 200 else []
    if answer.status != 200 or set(statuses) != {"rejected"}:
        run.fail("POST /api/redo/nodes (A's nodes) as B", f"answered {answer.status}: {answer.text[:300]}")

    # A still holds its key; B's feed from the start still shows nothing of A's.
    keys = request(base, "GET", "/api/me/keys", headers={"Cookie": ids.a.cookie}).json()["keys"]
    if any(k["publicKey"] == a_key and k.get("revokedAt") for k in keys):
        run.fail(f"DELETE /api/me/keys/{a_key} as B", "revoked A's key")
    for path in ("/api/redo/nodes", "/api/contacts/records", "/api/tasks/presets", "/api/chat/history",
                 "/api/me/keys", "/api/redo/invitations"):
        after = request(base, "GET", path, headers={"Cookie": ids.b.cookie})
        run.requests += 2
        run.leak(f"GET {path} as B after the writes", leaks_in(after, path, markers, account_route=True))


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tandem", required=True, help="the tandem binary")
    parser.add_argument("--database-url", help="serve on PostgreSQL instead of SQLite")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--json", dest="json_out", help="write the findings here")
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    # Names are seeded, plus the run's start second so a reused PostgreSQL database never
    # already holds them.
    tag = "%06x%x" % (rng.getrandbits(24), int(time.time()) % 0xFFFFF)
    started = time.monotonic()
    run = Run()
    with tempfile.TemporaryDirectory() as work:
        options = ["--no-rate-limit", "--metrics"]
        with Server(arguments.tandem, work, "server", options, arguments.database_url) as server:
            base = server.base
            accounts = {label: Account(label, f"x{label.lower()}_{tag}", f"x{label.lower()}.{tag}@example.com",
                                       f"Person {label} {tag}", os.path.join(work, f"profile-{label}"))
                        for label in "ABC"}
            cli = CLI(arguments.tandem, base)
            made = populate(cli, accounts, tag, work)
            a, b = accounts["A"], accounts["B"]
            for account in (a, b):
                sign_in(base, account)
                key = cli.run(account, "keys", "show", "--json")["publicKey"]
                set_profile(base, account, key)
            for account in (a, b):
                account.facts = read_own(base, account)
            relay = {"A": read_relay(base, a, made["A"]["relay"]), "B": read_relay(base, b, made["B"]["relay"])}
            ids = Ids(a, b, made, relay)
            markers = markers_of(a, b, made["A"], relay["A"])
            check_setup(a, b, made, markers)

            document = request(base, "GET", "/openapi.json").json()
            operations = read_operations(document)
            unprobed = [op for op in operations if op not in ROUTES]
            stale = [op for op in ROUTES if op not in operations]
            for method, path in unprobed:
                run.fail(f"{method} {path}", "a read operation of the document has no probe in ROUTES")
            for method, path in stale:
                run.fail(f"{method} {path}", "ROUTES probes an operation the document no longer lists")
            for method, path in operations:
                if (method, path) in ROUTES:
                    probe_route(run, base, ids, markers, method, path, ROUTES[(method, path)])
            probe_forged_sessions(run, base, ids, markers)
            probe_escalations(run, base, ids, markers, rng)
            for marker in markers:
                if marker.value not in run.seen_by_owner and not marker.public:
                    run.fail(f"marker {marker.kind}", f"{marker.value[:40]} never showed in an answer to A: "
                                                      "the probes do not reach it")
    report(run, markers, arguments, time.monotonic() - started)


def check_setup(a, b, made, markers):
    """The data the probes rely on is there: else a clean run would prove nothing."""
    problems = []
    b_tasks = {n["taskId"] for n in b.facts["nodes"]}
    if made["A"]["sharedWithB"] not in b_tasks or made["B"]["own"] not in b_tasks:
        problems.append(f"B's pull lacks its own or the shared task: {sorted(b_tasks)}")
    for kind in ("contacts", "presets", "chat"):
        if not a.facts[kind] or not b.facts[kind]:
            problems.append(f"no {kind} records for A or B")
    if len(a.facts["keys"]["keys"]) < 2:
        problems.append("A should have two device keys")
    if not any(m.kind == "task title" for m in markers):
        problems.append("no task title among A's markers")
    if problems:
        raise SystemExit("cross-user-reads: setup incomplete: " + "; ".join(problems))


def report(run, markers, arguments, seconds):
    backend = "PostgreSQL" if arguments.database_url else "SQLite"
    for leak in run.leaks:
        print(f"LEAK {leak['request']}: {leak['marker']} {leak['value'][:80]}")
    for failure in run.failures:
        print(f"FAIL {failure['request']}: {failure['problem']}")
    counts = {}
    for marker in markers:
        counts[marker.kind] = counts.get(marker.kind, 0) + 1
    scopes = {}
    for route in run.routes:
        scopes[route["scope"]] = scopes.get(route["scope"], 0) + 1
    print(f"cross-user-reads ({backend}): {len(run.routes)} read operations probed "
          f"({', '.join(f'{n} {k}' for k, n in scopes.items())}), {run.requests} requests, "
          f"{len(markers)} markers of A ({', '.join(f'{n} {k}' for k, n in counts.items())}), "
          f"{len(run.leaks)} leaks, {len(run.failures)} failed checks, {seconds:.0f} s")
    if arguments.json_out:
        with open(arguments.json_out, "w") as out:
            json.dump({"backend": backend, "seed": arguments.seed, "routes": run.routes, "requests": run.requests,
                       "markers": counts, "leaks": run.leaks, "failures": run.failures,
                       "seconds": round(seconds, 1)}, out, indent=2)
    sys.exit(1 if run.leaks or run.failures else 0)


if __name__ == "__main__":
    main()
