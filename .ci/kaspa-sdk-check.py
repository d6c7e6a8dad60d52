#!/usr/bin/env python3
"""Independent check of `tandem kaspa tx …` against the rusty-kaspa SDK (PyPI `kaspa` 2.1.0), issue 15.

Fresh random keys, UTXO sets, amounts and payloads (not the vectors' own): for every Kasia kind,
`tandem kaspa tx build --json` makes a signed transaction, and the SDK must agree on its id, the
Schnorr and ECDSA SIGHASH_ALL digests of every input, its mass and minimum fee, and that the fee
paid is that minimum (or, without change, at most the 10,000-sompi dust above it). `tx mass`,
`tx id`, `tx sighash` and `script` are compared on the same transactions.

Usage: python3 .ci/kaspa-sdk-check.py [path/to/tandem] [rounds]
Needs `pip install kaspa==2.1.0`. Exit status 0 when everything agrees.
"""
import json, os, random, subprocess, sys, tempfile

import kaspa

TANDEM = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/tandem"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
NET = kaspa.NetworkId("mainnet")
failures = 0


def run(*args):
    out = subprocess.run([TANDEM, *args], capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr


def check(label, ours, theirs):
    global failures
    if ours != theirs:
        failures += 1
        print(f"MISMATCH {label}: tandem {ours!r} != SDK {theirs!r}")


def utxo(address, amount, rng):
    spk = kaspa.pay_to_address_script(kaspa.Address(address))
    outpoint = {"transactionId": rng.randbytes(32).hex(), "index": rng.randrange(4)}
    return {"address": address, "outpoint": outpoint, "amount": amount,
            "scriptPublicKey": {"version": 0, "script": spk.script},
            "blockDaaScore": rng.randrange(1, 10**7), "isCoinbase": False, "covenantId": None}


def main():
    rng = random.Random(int.from_bytes(os.urandom(8), "little"))
    work = tempfile.mkdtemp()
    for round_ in range(ROUNDS):
        key = kaspa.PrivateKey(rng.randbytes(32).hex())
        me = key.to_address("mainnet").to_string()
        peer = kaspa.PrivateKey(rng.randbytes(32).hex()).to_address("mainnet").to_string()
        key_path = os.path.join(work, "key")
        with open(key_path, "w") as f:
            f.write(key.to_string() + "\n")
        code, out, _ = run("kaspa", "script", peer, "--json")
        check("script", json.loads(out)["script"], kaspa.pay_to_address_script(kaspa.Address(peer)).script)
        kinds = [
            ("handshake", ["--to", peer, "--amount", "20000000", "--payload", rng.randbytes(rng.randrange(100, 400)).hex()]),
            ("comm", ["--payload", rng.randbytes(rng.randrange(60, 2000)).hex()]),
            ("payment", ["--to", peer, "--amount", str(rng.randrange(10**7, 10**9)), "--payload", b"pay:".hex() + rng.randbytes(40).hex()]),
            ("compaction", ["--compaction"]),
        ]
        for kind, extra in kinds:
            count = 8 if kind == "compaction" else rng.randrange(1, 6)
            utxos = [utxo(me, rng.randrange(5 * 10**7, 2 * 10**9), rng) for _ in range(count)]
            utxo_path = os.path.join(work, "utxos.json")
            with open(utxo_path, "w") as f:
                json.dump(utxos, f)
            code, out, err = run("kaspa", "tx", "build", "--utxos", utxo_path, "--key-file", key_path, *extra, "--json")
            if code != 0:
                check(f"{kind} build", err.strip(), "")
                continue
            ours = json.loads(out)
            tx = kaspa.Transaction.from_dict(ours)
            check(f"{kind} id", ours["id"], tx.id)
            tx_path = os.path.join(work, "tx.json")
            with open(tx_path, "w") as f:
                f.write(out)
            check(f"{kind} tx id", run("kaspa", "tx", "id", tx_path)[1].strip(), tx.id)
            for index in range(len(ours["inputs"])):
                schnorr = run("kaspa", "tx", "sighash", tx_path, "--input", str(index))[1].strip()
                ecdsa = run("kaspa", "tx", "sighash", tx_path, "--input", str(index), "--ecdsa")[1].strip()
                check(f"{kind} schnorr sighash {index}", schnorr, str(kaspa.compute_sighash(tx, index)))
                check(f"{kind} ecdsa sighash {index}", ecdsa, str(kaspa.compute_sighash(tx, index, ecdsa=True)))
            sdk_mass = kaspa.calculate_transaction_mass(NET, tx)
            sdk_fee = kaspa.calculate_transaction_fee(NET, tx)
            mass = json.loads(run("kaspa", "tx", "mass", tx_path, "--json")[1])
            check(f"{kind} mass", mass["mass"], sdk_mass)
            check(f"{kind} fee", mass["fee"], sdk_fee)
            paid = sum(u["utxo"]["amount"] for u in ours["inputs"]) - sum(o["value"] for o in ours["outputs"])
            has_change = ours["outputs"][-1]["scriptPublicKey"]["script"] == utxos[0]["scriptPublicKey"]["script"]
            if has_change:
                check(f"{kind} fee paid", paid, sdk_fee)
            elif not (sdk_fee <= paid <= sdk_fee + 20000):
                check(f"{kind} fee paid (no change)", paid, sdk_fee)
        print(f"round {round_ + 1}/{ROUNDS}: {failures} mismatches so far")
    print("OK" if failures == 0 else f"FAILED: {failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
