#!/usr/bin/env python3
"""A hostile Kaspa node against the real `tandem` binary (issue 50, "Tests").

One loopback WebSocket server speaking the node's wRPC JSON frames (kaspa-node.md §2), written
independently of Tandem's own simulated node, that lies in one way per mode. Each mode runs a
`tandem` command against it and asserts the bound the issue sets: nothing submitted, resident
memory under a limit sampled from /proc, a walk that ends, an amount refused. Every mode is
bounded in time; the whole run takes about a minute.

    hostile-node.py --tandem .build/debug/tandem [--mode MODE ...]

Exits 0 when every mode held, 1 with one line per failure otherwise.
"""

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time

import websockets

NETWORK = "testnet-10"
# The resident memory a flooded process may reach. A debug `tandem` idles at 30-60 MB; before
# issue 50 the floods below took it past 1 GB within seconds.
RSS_LIMIT_MB = 300
FLOOD_SECONDS = 8


def random_hash():
    return secrets.token_hex(32)


class Node:
    """The node's answers; `mode` says what it lies about."""

    def __init__(self, mode, address=None, script=None):
        self.mode = mode
        self.address = address
        self.script = script
        self.calls = {}
        self.pruning_point = random_hash()
        self.sink = random_hash()
        self.sink_score = 1_000_000 + 20_000
        if mode == "endless-absurd-sink":
            self.sink_score = 2**63
        self.next_score = 1_000_001
        self.loop_blocks = [random_hash(), random_hash()]
        self.flood_frames = 0
        self.hostile_rows = []

    def count(self, method):
        self.calls[method] = self.calls.get(method, 0) + 1

    def answer(self, method, params):
        if method == "getServerInfo":
            return {"rpcApiVersion": 1, "rpcApiRevision": 0, "serverVersion": "1.1.0", "networkId": NETWORK,
                    "hasUtxoIndex": True, "isSynced": True, "virtualDaaScore": 1_000_000}
        if method == "getBlockDagInfo":
            return {"network": NETWORK, "blockCount": 10, "headerCount": 10, "tipHashes": [self.sink],
                    "difficulty": 1, "pastMedianTime": int(time.time() * 1000), "virtualParentHashes": [self.sink],
                    "pruningPointHash": self.pruning_point, "virtualDaaScore": self.sink_score, "sink": self.sink}
        if method == "ping" or method == "unsubscribe":
            return {}
        if method == "subscribe":
            return {"id": 1}
        if method == "getFeeEstimate":
            # greedy-fee: a million sompi per gram, 100 x the wallet's default ceiling.
            rate = 1_000_000 if self.mode == "greedy-fee" else 1
            return {"estimate": {"priorityBucket": {"feerate": rate, "estimatedSeconds": 1},
                                 "normalBuckets": [{"feerate": rate, "estimatedSeconds": 10}],
                                 "lowBuckets": [{"feerate": rate, "estimatedSeconds": 60}]}}
        if method == "getUtxosByAddresses":
            return {"entries": self.utxos()}
        if method == "getBalanceByAddress":
            return {"balance": 0}
        if method == "getMempoolEntriesByAddresses":
            return {"entries": [{"address": a, "sending": [], "receiving": []} for a in params.get("addresses", [])]}
        if method == "getVirtualChainFromBlockV2":
            return self.chain_page(params.get("startHash", ""))
        if method == "submitTransaction":
            return {"transactionId": random_hash()}
        return None

    def utxos(self):
        if self.address is None:
            return []
        if self.mode == "absurd-amounts":
            # Two coins whose sum overflows 64 bits, each above all the KAS there will ever be.
            amounts = [2**63, 2**63 + 5]
        else:
            amounts = [10 * 100_000_000]
        return [{"address": self.address,
                 "outpoint": {"transactionId": random_hash(), "index": 0},
                 "utxoEntry": {"amount": amount, "scriptPublicKey": self.script, "blockDaaScore": 1,
                               "isCoinbase": False, "covenantId": None}} for amount in amounts]

    def handshake(self, sender, receiver, receiver_script, payload):
        """A handshake transaction as a chain walk at level High shows it (kaspa-node.md §5)."""
        txid = random_hash()
        return {"version": 0, "lockTime": 0, "subnetworkId": "00" * 20, "gas": 0, "mass": 0,
                "payload": payload.hex(),
                "inputs": [{"previousOutpoint": {"transactionId": random_hash(), "index": 0},
                            "signatureScript": "41" + "ab" * 64 + "01", "sequence": 0, "sigOpCount": 1,
                            "verboseData": {"utxoEntry": {"amount": 100_000_000, "scriptPublicKey": receiver_script,
                                                          "blockDaaScore": 1, "isCoinbase": False,
                                                          "verboseData": {"scriptPublicKeyType": "PubKey",
                                                                          "scriptPublicKeyAddress": sender}}}}],
                "outputs": [{"value": 20_000_000, "scriptPublicKey": receiver_script,
                             "verboseData": {"scriptPublicKeyType": "PubKey", "scriptPublicKeyAddress": receiver}}],
                "verboseData": {"transactionId": txid, "hash": txid, "computeMass": 0, "blockHash": self.sink,
                                "blockTime": int(time.time() * 1000)}}

    def block(self, hashed, score):
        return {"acceptedTransactions": [],
                "chainBlockHeader": {"hash": hashed, "version": 1, "parentsByLevel": [], "hashMerkleRoot": "00" * 32,
                                     "acceptedIdMerkleRoot": "00" * 32, "utxoCommitment": None,
                                     "timestamp": int(time.time() * 1000), "bits": 1, "nonce": 0,
                                     "daaScore": score, "blueWork": "01", "blueScore": score, "pruningPoint": None}}

    def chain_page(self, start):
        if self.mode == "looping-pages":
            # From anywhere, the same two blocks: the second page ends where the first did.
            blocks = [(h, 1_000_001 + i) for i, h in enumerate(self.loop_blocks)]
        elif self.mode == "hostile-rows":
            blocks = [(self.sink, 1_000_001)] if start == self.pruning_point else []
            return {"removedChainBlockHashes": [], "addedChainBlockHashes": [h for h, _ in blocks],
                    "chainBlockAcceptedTransactions": [
                        {**self.block(h, s), "acceptedTransactions": self.hostile_rows} for h, s in blocks]}
        elif self.mode.startswith("endless"):
            # Fresh blocks with rising scores, never the sink the DAG info named.
            blocks = []
            for _ in range(500):
                blocks.append((random_hash(), self.next_score))
                self.next_score += 1
        else:
            blocks = []
        return {"removedChainBlockHashes": [], "addedChainBlockHashes": [h for h, _ in blocks],
                "chainBlockAcceptedTransactions": [self.block(h, s) for h, s in blocks]}

    def flood_frame(self, large, counter):
        if large:
            # About 1 MB: UtxosChanged removing coins of the watched address that never existed.
            entry = {"address": self.address or "kaspatest:qqkl0ct62rv6dz74pff2kx5sfyasl4z28uekevau23g877r5gt6userwyrmtt",
                     "outpoint": {"transactionId": "ab" * 32, "index": 0},
                     "utxoEntry": {"amount": 1, "scriptPublicKey": self.script or "00", "blockDaaScore": 1,
                                   "isCoinbase": False}}
            body = {"UtxosChanged": {"added": [], "removed": [entry] * 3_500}}
            return json.dumps({"method": "utxosChangedNotification", "params": body})
        return json.dumps({"method": "virtualDaaScoreChangedNotification",
                           "params": {"VirtualDaaScoreChanged": {"virtualDaaScore": 1_000_000 + counter}}})

    async def serve(self, socket):
        flood = None
        try:
            async for text in socket:
                request = json.loads(text)
                method = request.get("method", "")
                self.count(method)
                params = self.answer(method, request.get("params") or {})
                if params is None:
                    await socket.send(json.dumps({"id": request.get("id"), "method": method,
                                                  "error": {"message": f"{method} is not served here"}}))
                else:
                    await socket.send(json.dumps({"id": request.get("id"), "method": method, "params": params}))
                if self.mode.startswith("flood") and flood is None and method == "ping":
                    flood = asyncio.ensure_future(self.flood(socket, large=self.mode in ("flood-large", "flood-server")))
        except websockets.ConnectionClosed:
            pass
        finally:
            if flood is not None:
                flood.cancel()

    async def flood(self, socket, large):
        # As fast as the peer takes them: `send` waits when the peer's TCP window is full.
        frame = self.flood_frame(large, 0)
        counter = 0
        while True:
            counter += 1
            if not large:
                frame = self.flood_frame(False, counter)
            await socket.send(frame)
            self.flood_frames += 1


def running(pid):
    """Whether `pid` is alive and not a zombie (/proc/PID/stat's state field)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        return 0.0
    return 0.0


class Harness:
    def __init__(self, tandem):
        self.tandem = tandem
        self.failures = []

    def run(self, *args, timeout=60):
        started = time.monotonic()
        done = subprocess.run([self.tandem, *args], capture_output=True, text=True, timeout=timeout)
        return done, time.monotonic() - started

    def check(self, mode, condition, what):
        print(f"  {'ok  ' if condition else 'FAIL'} {what}")
        if not condition:
            self.failures.append(f"{mode}: {what}")

    def profile(self, port):
        directory = tempfile.mkdtemp(prefix="tandem-hostile-")
        done, _ = self.run("keys", "new", "--profile", directory)
        assert done.returncode == 0, done.stderr
        shown, _ = self.run("keys", "show", "--network", "testnet", "--json", "--profile", directory)
        key = json.loads(shown.stdout)
        connected, _ = self.run("kaspa", "connect", "--network", NETWORK, "--node", f"ws://127.0.0.1:{port}",
                                "--profile", directory)
        assert connected.returncode == 0, connected.stderr
        # Version 0, a 32-byte push, the x-only key, OP_CHECKSIG.
        return directory, key["address"], "0000" + "20" + key["publicKey"] + "ac"

    async def with_node(self, mode, body):
        node = Node(mode)
        async with websockets.serve(node.serve, "127.0.0.1", 0, max_size=None) as server:
            port = server.sockets[0].getsockname()[1]
            await body(node, port)

    async def sample_rss(self, process, seconds):
        """The largest resident size of `process` over `seconds`, sampled four times a second."""
        peak = 0.0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and running(process.pid):
            peak = max(peak, rss_mb(process.pid))
            await asyncio.sleep(0.25)
        return peak

    async def greedy_fee(self):
        async def body(node, port):
            directory, address, script = await asyncio.to_thread(self.profile, port)
            node.address, node.script = address, script
            done, _ = await asyncio.to_thread(
                self.run, "wallet", "send", "--to", address, "--amount", "1", "--profile", directory)
            self.check("greedy-fee", done.returncode == 1, f"wallet send exits 1 (exit {done.returncode})")
            self.check("greedy-fee", len(done.stderr.strip().splitlines()) == 1 and "max-feerate" in done.stderr,
                       f"one line naming how to allow it: {done.stderr.strip()[:160]!r}")
            self.check("greedy-fee", node.calls.get("submitTransaction", 0) == 0, "nothing was submitted")
        await self.with_node("greedy-fee", body)

    async def absurd_amounts(self):
        async def body(node, port):
            directory, address, script = await asyncio.to_thread(self.profile, port)
            node.address, node.script = address, script
            done, _ = await asyncio.to_thread(self.run, "wallet", "balance", "--json", "--profile", directory)
            self.check("absurd-amounts", done.returncode == 1, f"wallet balance exits 1 (exit {done.returncode})")
            self.check("absurd-amounts", done.stdout.strip() == "", "no balance is printed")
            self.check("absurd-amounts", len(done.stderr.strip().splitlines()) == 1,
                       f"one line: {done.stderr.strip()[:160]!r}")
        await self.with_node("absurd-amounts", body)

    async def endure_flood(self, mode, node, process, what, least_frames):
        """Samples `process` through the flood, stops it, and checks that it lived, that the
        flood reached it, and the RSS bound."""
        peak = await self.sample_rss(process, FLOOD_SECONDS)
        alive = running(process.pid)
        if alive:
            process.terminate()
        await process.wait()
        print(f"  {node.flood_frames} frames sent; peak RSS {peak:.0f} MB")
        # Either it goes on (reconnecting to the flooding node with backoff), or, when the flood
        # broke its first reads, it gave up with exit 1 and one line; never a crash or a kill.
        said = ""
        if not alive and process.stderr is not None:
            said = (await process.stderr.read()).decode().strip()
            print(f"  it exited {process.returncode}: {said[-300:]!r}")
        self.check(mode, alive or (process.returncode == 1 and len(said.splitlines()) == 1),
                   f"{what} survived the flood, or stopped with exit 1 and one line")
        self.check(mode, node.flood_frames > least_frames, f"the flood reached it ({node.flood_frames} frames)")
        self.check(mode, peak < RSS_LIMIT_MB, f"peak RSS {peak:.0f} MB < {RSS_LIMIT_MB} MB")

    async def flood_watch(self, mode):
        async def body(node, port):
            directory, address, script = await asyncio.to_thread(self.profile, port)
            node.address, node.script = address, script
            process = await asyncio.create_subprocess_exec(
                self.tandem, "wallet", "watch", "--profile", directory,
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
            # A subscribed reader decodes each 1 MB frame, so fewer of those get through.
            await self.endure_flood(mode, node, process, "wallet watch", 10 if mode == "flood-large" else 1_000)
        await self.with_node(mode, body)

    async def flood_server(self, mode):
        async def body(node, port):
            data = tempfile.mkdtemp(prefix="tandem-hostile-server-")
            process = await asyncio.create_subprocess_exec(
                self.tandem, "serve", "--port", "0", "--data-dir", data, "--kaspa-node", f"ws://127.0.0.1:{port}",
                "--kaspa-network", NETWORK, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
                env={**os.environ, "LOG_LEVEL": "error"})
            line = await asyncio.wait_for(process.stdout.readline(), 60)
            self.check(mode, line.startswith(b"listening on"), f"the server started: {line[:60]!r}")
            await self.endure_flood(mode, node, process, "tandem serve", 20)
        await self.with_node(mode, body)

    async def walk(self, mode):
        async def body(node, port):
            directory, address, script = await asyncio.to_thread(self.profile, port)
            node.address, node.script = address, script
            limit = ["--time-limit", "3"] if mode == "endless-absurd-sink" else []
            process = await asyncio.create_subprocess_exec(
                self.tandem, "chat", "sync", *limit, "--profile", directory,
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
            peak = 0.0
            started = time.monotonic()
            while process.returncode is None and time.monotonic() - started < 45:
                peak = max(peak, rss_mb(process.pid))
                try:
                    await asyncio.wait_for(process.wait(), 0.25)
                except asyncio.TimeoutError:
                    pass
            ended = process.returncode is not None
            if not ended:
                process.kill()
            stderr = (await process.stderr.read()).decode()
            await process.wait()
            pages = node.calls.get("getVirtualChainFromBlockV2", 0)
            print(f"  {pages} pages asked in {time.monotonic() - started:.1f} s; peak RSS {peak:.0f} MB")
            self.check(mode, ended, "chat sync ended on its own")
            self.check(mode, process.returncode == 0, f"and exited 0 (exit {process.returncode}): {stderr.strip()[:200]!r}")
            self.check(mode, peak < RSS_LIMIT_MB, f"peak RSS {peak:.0f} MB < {RSS_LIMIT_MB} MB")
            cursor_file = os.path.join(directory, "kaspa-chain-cursor.json")
            if mode == "looping-pages":
                self.check(mode, pages <= 3, f"the loop was seen at once ({pages} pages)")
                self.check(mode, "stopped advancing" in stderr, "one line says the pages stopped advancing")
                with open(cursor_file) as saved:
                    self.check(mode, json.load(saved).get("block") == node.loop_blocks[-1],
                               "the rows before the loop were kept (the cursor is at its last block)")
            elif mode == "endless-pages":
                self.check(mode, 40 <= pages <= 42, f"the walk stopped at the sink's score ({pages} pages of 500)")
                self.check(mode, stderr.strip() == "", "it ended as a whole walk (nothing on stderr)")
            else:
                self.check(mode, "time limit" in stderr, "one line says the time limit stopped it")
                self.check(mode, os.path.exists(cursor_file), "what it read was kept (a cursor is saved)")
        await self.with_node(mode, body)


    async def hostile_rows(self):
        mode = "hostile-rows"

        async def body(node, port):
            # Two real testnet keys: the honest sender and the receiver every row pays.
            _, sender, _ = await asyncio.to_thread(self.profile, port)
            _, receiver, receiver_script = await asyncio.to_thread(self.profile, port)
            node.sink_score = 1_000_001
            node.hostile_rows = [
                node.handshake(sender, receiver, receiver_script, b"ciph_msg:1:handshake:" + b"ab" * 10),
                node.handshake("<script>alert(1)</script>", receiver, receiver_script, b"ciph_msg:1:handshake:cd"),
                node.handshake(sender, receiver, receiver_script, b"ciph_msg:1:handshake:" + b"ef" * 750_000),
            ]
            data = tempfile.mkdtemp(prefix="tandem-hostile-server-")
            process = await asyncio.create_subprocess_exec(
                self.tandem, "serve", "--port", "0", "--data-dir", data, "--kaspa-node", f"ws://127.0.0.1:{port}",
                "--kaspa-network", NETWORK, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
                env={**os.environ, "LOG_LEVEL": "error"})
            line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
            base = line.strip().removeprefix("listening on ")
            url = f"{base}/kasia/handshakes/by-receiver?address={receiver}"
            rows, status = [], None
            # The ingest's first walk stores the block; read until it has (bounded).
            for _ in range(80):
                status = json.loads((await asyncio.to_thread(fetch, f"{base}/health")) or "{}").get("kaspa", {})
                if status.get("lagBlocks") == 0 and status.get("synced"):
                    rows = json.loads(await asyncio.to_thread(fetch, url))
                    break
                await asyncio.sleep(0.25)
            process.terminate()
            await process.wait()
            print(f"  kaspa status {status}; {len(rows)} row(s) served")
            self.check(mode, len(rows) == 1, f"one row kept of the three ({len(rows)})")
            self.check(mode, all(row.get("sender") == sender for row in rows), "the kept row is the honest sender's")
            self.check(mode, all(len(row.get("message_payload", "")) < 100 for row in rows),
                       "the 1.5 MB payload was not kept")
        await self.with_node(mode, body)


def fetch(url):
    import urllib.request
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode()


MODES = ["greedy-fee", "absurd-amounts", "flood-small", "flood-large", "flood-server", "endless-pages",
         "endless-absurd-sink", "looping-pages", "hostile-rows"]


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tandem", required=True, help="the tandem binary")
    parser.add_argument("--mode", action="append", choices=MODES, help="one attack (repeatable; default all)")
    options = parser.parse_args()
    harness = Harness(os.path.abspath(options.tandem))
    for mode in options.mode or MODES:
        print(f"hostile node: {mode}")
        if mode == "greedy-fee":
            await harness.greedy_fee()
        elif mode == "absurd-amounts":
            await harness.absurd_amounts()
        elif mode in ("flood-small", "flood-large"):
            await harness.flood_watch(mode)
        elif mode == "flood-server":
            await harness.flood_server(mode)
        elif mode == "hostile-rows":
            await harness.hostile_rows()
        else:
            await harness.walk(mode)
    if harness.failures:
        for failure in harness.failures:
            print(f"hostile node: FAILED {failure}", file=sys.stderr)
        sys.exit(1)
    print("hostile node: every bound held")


if __name__ == "__main__":
    asyncio.run(main())
