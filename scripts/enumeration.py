"""Account enumeration (issue 29): what the auth routes tell about which accounts exist.

1. Sign-in with a wrong password, for an EXISTING username (e-mail) and an UNKNOWN one, N
   samples each, in pairs (one of each class, sent together, seeded order): the answers must
   be byte-identical (status, body and every header but Date and X-Request-Id), and the
   latency distributions must overlap: the harness fails when the median over pairs of
   (unknown / existing - 1) is beyond MEDIAN_BOUND.
2. Sign-up and is-username-available ARE enumerable, by BetterAuth's design (sign-up says the
   username or e-mail is taken; the username plugin's availability check exists to say so):
   the harness shows both answers and fails only if they stopped differing (then this text is
   wrong).
3. Their rate limit holds: from one client address, the first LIMIT requests inside the window
   are answered, the next one is 429 with X-Retry-After; another address is still served. LIMIT
   and WINDOW are read from `tandem serve --help`.

The server keeps its rate limits on. Timing needs hundreds of sign-ins, which one address may
not make (LIMIT per WINDOW), so that server trusts loopback as a reverse proxy
(`--trusted-proxy 127.0.0.1/32`) and every timed request names a client address of its own in
X-Forwarded-For. A second server, with no trusted proxy, shows that the header is ignored
otherwise: varying it does not escape the limit.

Prints the figures and exits 1 on any failed check; --json FILE writes them.
"""
import argparse
import itertools
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tandem_http import Connection, Server  # noqa: E402

PASSWORD = "correct horse battery staple"
WRONG_PASSWORD = "not the password 0000"
# The answer headers that legitimately differ per request.
PER_REQUEST_HEADERS = {"date", "x-request-id"}
# Unknown and existing users must cost the same scrypt work (PasswordHasher.dummyVerify). If
# the unknown path skipped the hash, it would answer in ~1 ms against ~280 ms (debug build): a
# -99% gap; a cheaper dummy hash (say half the scrypt cost) would be -50%. 10% catches both with
# room to spare. It is a bound on pairs (one sign-in of each class sent at the same moment), not
# on the two classes' medians: on this shared 2-core machine a build doubles every latency
# while it runs, so the medians of the two classes can land on different modes by chance (a
# PostgreSQL run saw -6.5% between them with 5% between two halves of one class), while the
# two members of a pair always share the load.
MEDIAN_BOUND = 0.10


class Addresses:
    """Client addresses for X-Forwarded-For: 10.29.0.1, 10.29.0.2, …, each used once."""

    def __init__(self):
        self.counter = itertools.count(1)
        self.lock = threading.Lock()

    def next(self):
        with self.lock:
            n = next(self.counter)
        return f"10.29.{n >> 8 & 255}.{n & 255}" if n < 65536 else f"10.30.{n >> 8 & 255}.{n & 255}"


def read_limits(tandem):
    """(LIMIT, WINDOW) of sign-in/sign-up from `tandem serve --help`: "(3 per 10 s per IP)"."""
    text = subprocess.run([tandem, "serve", "--help"], capture_output=True, text=True, check=True).stdout
    found = re.search(r"\((\d+) per (\d+) s per IP\)", " ".join(text.split()))
    if not found:
        raise SystemExit("enumeration: `tandem serve --help` no longer states the sign-in limit as (N per S s per IP)")
    return int(found.group(1)), int(found.group(2))


def post(connection, path, body, address=None):
    headers = {"X-Forwarded-For": address} if address else {}
    return connection.request("POST", path, body, headers)


def signature(answer):
    """What an observer compares: status, body and the headers that are not per request."""
    headers = tuple(sorted((k.lower(), v) for k, v in answer.headers if k.lower() not in PER_REQUEST_HEADERS))
    return answer.status, headers, answer.body


# ---------------------------------------------------------------------------------------------
# 1. Sign-in timing and answers


def sign_up(base, addresses, username):
    connection = Connection(base)
    answer = post(connection, "/api/auth/sign-up/email",
                  {"name": username, "email": f"{username}@example.com", "password": PASSWORD, "username": username},
                  addresses.next())
    connection.close()
    if answer.status != 200:
        raise SystemExit(f"enumeration: sign-up of {username} answered {answer.status}: {answer.text}")


def sample_pairs(rng, samples, existing, route, tag):
    """`samples` pairs of request bodies, one existing and one unknown account each, in a
    seeded order within the pair. Existing samples rotate over the existing accounts; each
    unknown sample names a fresh account."""
    pairs = []
    for index in range(samples):
        names = {"existing": existing[index % len(existing)], "unknown": f"n{tag}{index:05d}"}
        kinds = ["existing", "unknown"]
        rng.shuffle(kinds)
        pairs.append([(kind, body_for(route, names[kind])) for kind in kinds])
    return pairs


def body_for(route, name):
    identity = {"username": name} if route.endswith("username") else {"email": f"{name}@example.com"}
    return {**identity, "password": WRONG_PASSWORD}


def run_pairs(base, route, pairs, addresses, concurrency):
    """Sends each pair's two sign-ins at the same moment on two connections (concurrency 2: the
    server hashes them on its two cores) or back to back on one; (class, seconds, signature)
    per sample, pair by pair. Either way the two members of a pair meet the same machine: this
    2-core machine's load moves in steps (a build starting doubles every latency), and a pair
    shares the step."""
    results = [[None, None] for _ in pairs]

    def send(connection, index, slot):
        kind, body = pairs[index][slot]
        answer = post(connection, route, body, addresses.next())
        results[index][slot] = (kind, answer.seconds, signature(answer))

    if concurrency == 1:
        connection = Connection(base)
        for index in range(len(pairs)):
            send(connection, index, 0)
            send(connection, index, 1)
        connection.close()
        return results
    barrier = threading.Barrier(2)

    def worker(slot):
        connection = Connection(base)
        for index in range(len(pairs)):
            barrier.wait()  # both members of pair `index` leave together
            send(connection, index, slot)
        connection.close()

    threads = [threading.Thread(target=worker, args=(slot,)) for slot in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def percentile(sorted_values, p):
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, min(len(sorted_values), math.ceil(p / 100 * len(sorted_values))))
    return sorted_values[rank - 1]


def mann_whitney_auc(xs, ys):
    """P(x > y) + P(x = y)/2 over all pairs: 0.5 when neither class tends to be slower."""
    ranked = sorted([(v, 0) for v in xs] + [(v, 1) for v in ys])
    ranks, i = [0.0] * len(ranked), 0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and ranked[j + 1][0] == ranked[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1  # ties share their average rank
        i = j + 1
    rank_sum = sum(r for r, (_, group) in zip(ranks, ranked) if group == 0)
    u = rank_sum - len(xs) * (len(xs) + 1) / 2
    return u / (len(xs) * len(ys))


def describe(seconds):
    values = sorted(seconds)
    return {f"p{p}": round(percentile(values, p) * 1000, 2) for p in (5, 10, 50, 90, 95, 99)} | {"n": len(values)}


def timing_check(base, route, samples, existing, addresses, rng, tag, concurrency):
    """Sign-in with a wrong password, existing vs unknown: identical answers, overlapping times."""
    results = run_pairs(base, route, sample_pairs(rng, samples, existing, route, tag), addresses, concurrency)
    flat = [sample for pair in results for sample in pair]
    times = {kind: [s for k, s, _ in flat if k == kind] for kind in ("existing", "unknown")}
    answers = {kind: {sig for k, _, sig in flat if k == kind} for kind in ("existing", "unknown")}
    by_kind = [{kind: seconds for kind, seconds, _ in pair} for pair in results]
    paired = statistics.median(p["unknown"] / p["existing"] - 1 for p in by_kind)
    existing_sorted = sorted(times["existing"])
    low, high = percentile(existing_sorted, 5), percentile(existing_sorted, 95)
    medians = {kind: statistics.median(values) for kind, values in times.items()}
    # The machine's own noise: the existing samples split in two by pair order.
    halves = times["existing"][0::2], times["existing"][1::2]
    noise = abs(statistics.median(halves[0]) - statistics.median(halves[1])) / medians["existing"]
    figure = {
        "route": route,
        "existing_ms": describe(times["existing"]),
        "unknown_ms": describe(times["unknown"]),
        "paired_median_difference": round(paired, 4),
        "median_difference": round((medians["unknown"] - medians["existing"]) / medians["existing"], 4),
        "noise": round(noise, 4),
        "unknown_within_existing_p5_p95": round(sum(low <= s <= high for s in times["unknown"]) / samples, 3),
        "auc_unknown_slower": round(mann_whitney_auc(times["unknown"], times["existing"]), 3),
        "distinct_answers": len(answers["existing"] | answers["unknown"]),
        "answer": answer_text(next(iter(answers["existing"]))),
    }
    problems = []
    if figure["distinct_answers"] != 1:
        problems.append(f"{route}: existing and unknown accounts get different answers: "
                        + "; ".join(answer_text(a) for a in answers["existing"] | answers["unknown"]))
    if abs(paired) > MEDIAN_BOUND:
        problems.append(f"{route}: an unknown account's sign-in takes {paired:+.1%} of an existing one's "
                        f"(median over pairs; bound ±{MEDIAN_BOUND:.0%})")
    return figure, problems


def answer_text(sig):
    status, headers, body = sig
    return f"{status} {body.decode(errors='replace')} [{', '.join(f'{k}: {v}' for k, v in headers)}]"


# ---------------------------------------------------------------------------------------------
# 2. Enumerable by design, and 3. the rate limit


def by_design(base, addresses, taken, tag):
    """Sign-up and is-username-available on a taken and a free name: different answers, shown."""
    connection = Connection(base)
    free = f"f{tag}"
    asked = {
        "sign-up, taken username": ("/api/auth/sign-up/email", sign_up_body(taken, f"other.{tag}@example.com")),
        "sign-up, taken e-mail": ("/api/auth/sign-up/email", sign_up_body(f"o{tag}", f"{taken}@example.com")),
        "sign-up, both free": ("/api/auth/sign-up/email", sign_up_body(free, f"{free}@example.com")),
        "is-username-available, taken": ("/api/auth/is-username-available", {"username": taken}),
        "is-username-available, free": ("/api/auth/is-username-available", {"username": f"g{tag}"}),
    }
    shown = {}
    for label, (path, body) in asked.items():
        shown[label] = gist(post(connection, path, body, addresses.next()))
    connection.close()
    problems = []
    for route in ("sign-up", "is-username-available"):
        pairs = [v for k, v in shown.items() if k.startswith(route)]
        if len(set(pairs)) < 2:
            problems.append(f"{route} no longer tells a taken name from a free one: update the harness's text")
    return shown, problems


def gist(answer):
    """Status and what tells the answers apart: the error code, availability, or a new account."""
    body = answer.json()
    if "code" in body:
        return f"{answer.status} {body['code']}"
    if "available" in body:
        return f"{answer.status} available={str(body['available']).lower()}"
    return f"{answer.status} account created" if "user" in body else f"{answer.status} {sorted(body)}"


def sign_up_body(username, email):
    return {"name": username, "email": email, "password": PASSWORD, "username": username}


def limited_requests(taken):
    """One request per strictly limited route that an enumerator would repeat; none creates an
    account (the taken name is refused before any hashing), so repeating them is harmless."""
    return {
        "/api/auth/sign-in/username": {"username": taken, "password": WRONG_PASSWORD},
        "/api/auth/sign-in/email": {"email": f"{taken}@example.com", "password": WRONG_PASSWORD},
        "/api/auth/sign-up/email": sign_up_body(taken, f"x{taken}@example.com"),
        "/api/auth/is-username-available": {"username": taken},
    }


def limit_holds(base, route, body, limit, window, address, other_address):
    """From one address: LIMIT answers, then 429 with X-Retry-After; another address is served."""
    connection = Connection(base)
    started = time.monotonic()
    statuses = [post(connection, route, body, address).status for _ in range(limit)]
    over = post(connection, route, body, address)
    elapsed = time.monotonic() - started
    other = post(connection, route, body, other_address)
    connection.close()
    retry = over.header("X-Retry-After")
    figure = {"route": route, "statuses": statuses + [over.status], "retry_after": retry,
              "other_address": other.status, "seconds": round(elapsed, 2)}
    problems = []
    if elapsed >= window:
        problems.append(f"{route}: {limit + 1} requests took {elapsed:.1f} s, longer than the {window} s window")
    elif 429 in statuses or over.status != 429:
        problems.append(f"{route}: statuses {figure['statuses']} from one address, expected {limit} answers then 429")
    elif not retry or not 1 <= int(retry) <= window:
        problems.append(f"{route}: 429 with X-Retry-After {retry!r}")
    if other.status == 429:
        problems.append(f"{route}: another address got 429 too: the limit is not per address")
    return figure, problems


def forwarded_for_ignored(base, route, body, limit, addresses):
    """Without --trusted-proxy, X-Forwarded-For names no client: varying it does not reset the count."""
    connection = Connection(base)
    statuses = [post(connection, route, body, addresses.next()).status for _ in range(limit + 1)]
    connection.close()
    problems = [] if statuses[-1] == 429 and 429 not in statuses[:-1] else [
        f"{route} without a trusted proxy: statuses {statuses} with a new X-Forwarded-For each time"]
    return {"route": route, "statuses": statuses}, problems


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tandem", required=True, help="the tandem binary")
    parser.add_argument("--database-url", help="serve on PostgreSQL instead of SQLite")
    # 120 a class keeps a debug-build run near a minute on the 2-core machine (~280 ms of scrypt
    # a sign-in, ~540 ms while a build shares the cores); the standard error of the AUC is then 0.04.
    parser.add_argument("--samples", type=int, default=120, help="sign-ins per class on sign-in/username")
    parser.add_argument("--email-samples", type=int, help="sign-ins per class on sign-in/email (default samples/4)")
    parser.add_argument("--concurrency", type=int, choices=(1, 2), default=2,
                        help="2: a pair's sign-ins at the same moment; 1: back to back")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--json", dest="json_out", help="write the figures here")
    arguments = parser.parse_args()
    email_samples = arguments.email_samples or max(20, arguments.samples // 4)
    rng = random.Random(arguments.seed)
    # Seeded names, plus the run's start second so a reused PostgreSQL database never holds them.
    tag = "%05x%x" % (rng.getrandbits(20), int(time.time()) % 0xFFFFF)
    limit, window = read_limits(arguments.tandem)
    addresses = Addresses()
    figures, problems = {"limit": limit, "window_seconds": window, "median_bound": MEDIAN_BOUND}, []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        proxied = ["--trusted-proxy", "127.0.0.1/32"]
        with Server(arguments.tandem, work, "proxied", proxied, arguments.database_url) as server:
            existing = [f"e{tag}{i}" for i in range(4)]
            for name in existing:
                sign_up(server.base, addresses, name)
            figures["timing"] = []
            for route, samples in (("/api/auth/sign-in/username", arguments.samples),
                                   ("/api/auth/sign-in/email", email_samples)):
                figure, found = timing_check(server.base, route, samples, existing, addresses, rng, tag,
                                             arguments.concurrency)
                figures["timing"].append(figure)
                problems += found
            figures["by_design"], found = by_design(server.base, addresses, existing[0], tag)
            problems += found
            figures["limits"] = []
            for route, body in limited_requests(existing[0]).items():
                figure, found = limit_holds(server.base, route, body, limit, window, addresses.next(),
                                            addresses.next())
                figures["limits"].append(figure)
                problems += found
        with Server(arguments.tandem, work, "direct", [], arguments.database_url) as server:
            route = "/api/auth/is-username-available"
            figures["forwarded_for_without_proxy"], found = forwarded_for_ignored(
                server.base, route, {"username": existing[0]}, limit, addresses)
            problems += found
    figures["seconds"] = round(time.monotonic() - started, 1)
    report(figures, problems, arguments)


def report(figures, problems, arguments):
    backend = "PostgreSQL" if arguments.database_url else "SQLite"
    for figure in figures["timing"]:
        e, u = figure["existing_ms"], figure["unknown_ms"]
        print(f"{figure['route']} wrong password, {e['n']} existing / {u['n']} unknown ({backend}):")
        for label, d in (("existing", e), ("unknown", u)):
            print(f"  {label:8} ms  p10 {d['p10']:.1f}  p50 {d['p50']:.1f}  p90 {d['p90']:.1f}  p99 {d['p99']:.1f}")
        print(f"  unknown vs existing, median over pairs {figure['paired_median_difference']:+.1%} "
              f"(bound ±{MEDIAN_BOUND:.0%}); between the medians {figure['median_difference']:+.1%} "
              f"(between two halves of the existing samples {figure['noise']:.1%}); "
              f"unknown within existing p5–p95: {figure['unknown_within_existing_p5_p95']:.0%}, "
              f"P(unknown slower) {figure['auc_unknown_slower']:.2f} (0.5: no tendency)")
        print(f"  answers: {figure['distinct_answers']} distinct, {figure['answer']}")
    print("Enumerable by design (BetterAuth): sign-up tells a taken username or e-mail, "
          "is-username-available exists to tell; both are held to the sign-in rate limit:")
    for label, shown in figures["by_design"].items():
        print(f"  {label}: {shown[:160]}")
    print(f"Rate limit ({figures['limit']} per {figures['window_seconds']} s per client address, "
          "from `tandem serve --help`):")
    for figure in figures["limits"]:
        print(f"  {figure['route']}: {figure['statuses']} in {figure['seconds']} s, X-Retry-After "
              f"{figure['retry_after']}; another address then: {figure['other_address']}")
    ignored = figures["forwarded_for_without_proxy"]
    print(f"  without --trusted-proxy, a new X-Forwarded-For each time on {ignored['route']}: {ignored['statuses']}")
    for problem in problems:
        print(f"FAIL {problem}")
    print(f"enumeration ({backend}): {len(problems)} failed checks, {figures['seconds']:.0f} s")
    if arguments.json_out:
        with open(arguments.json_out, "w") as out:
            json.dump({"backend": backend, "seed": arguments.seed, **figures, "failures": problems}, out, indent=2)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
