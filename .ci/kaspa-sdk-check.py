#!/usr/bin/env python3
"""Independent check of `tandem kaspa …` against the rusty-kaspa SDK (PyPI `kaspa` 2.1.0), issue 15.

2.1.0 is the SDK release that wrote ../shared/vectors/kaspa-tx-vectors.json (its `meta.sdk`).
Fresh random keys, UTXO sets, amounts and payloads (not the vectors' own). For every Kasia kind
(handshake, contextual message, self-stash, payment with and without a `pay:` memo, compaction),
`tandem kaspa tx build --json` makes a signed transaction and the SDK must agree on:
  - its id (the SDK recomputes it; `tandem kaspa tx id` too);
  - every input's Schnorr and ECDSA SIGHASH_ALL digest (`tandem kaspa tx sighash`), and the
    other five sighash types (both variants) on one input of one kind a round;
  - its mass, storage mass and minimum fee (`tandem kaspa tx mass --json`);
  - the signatures: the SDK's `sign_transaction(tx, [], verify_sig=True)` signs nothing (no key)
    and verifies every input signature against its UTXO's script; a flipped signature byte must
    make it fail, so the check is live;
and the fee paid is that minimum (or, when change was left to the fee, at most that plus the
change output it saved and the 10,000-sompi dust). Outputs, amounts and the inputs chosen are
checked against the request. `tandem kaspa script` is compared for Schnorr, ECDSA and P2SH
addresses. A payment whose output is too small for the standard storage mass must be refused,
and the SDK must give no fee for it either.

Usage: python3 .ci/kaspa-sdk-check.py [path/to/tandem] [rounds]
Needs `pip install kaspa==2.1.0`. Prints the seed (KASPA_SDK_CHECK_SEED=N replays a run), one
line per round and a summary; exit status 0 when everything agrees.
"""
import copy, json, os, random, shutil, subprocess, sys, tempfile

import kaspa

TANDEM = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/tandem"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
NET = kaspa.NetworkId("mainnet")
MAX_MASS = 100_000
DUST = 10_000
SIGHASH_TYPES = [("all", kaspa.SighashType.All), ("none", getattr(kaspa.SighashType, "None")),
                 ("single", kaspa.SighashType.Single), ("all-anyonecanpay", kaspa.SighashType.AllAnyOneCanPay),
                 ("none-anyonecanpay", kaspa.SighashType.NoneAnyOneCanPay),
                 ("single-anyonecanpay", kaspa.SighashType.SingleAnyOneCanPay)]
failures = 0
counts = {}
RNG = random.Random()


def run(*args):
    out = subprocess.run([TANDEM, *args], capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr


def check(label, ours, theirs):
    global failures
    counts[label.split(" ")[-1]] = counts.get(label.split(" ")[-1], 0) + 1
    if ours != theirs:
        failures += 1
        print(f"MISMATCH {label}: tandem {ours!r} != SDK {theirs!r}")


def fail(label, message):
    global failures
    failures += 1
    print(f"MISMATCH {label}: {message}")


def utxo(address, amount, rng):
    spk = kaspa.pay_to_address_script(kaspa.Address(address))
    outpoint = {"transactionId": rng.randbytes(32).hex(), "index": rng.randrange(4)}
    return {"address": address, "outpoint": outpoint, "amount": amount,
            "scriptPublicKey": {"version": 0, "script": spk.script},
            "blockDaaScore": rng.randrange(1, 10**7), "isCoinbase": False, "covenantId": None}


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def sdk_verifies(tx_dict):
    """True when the SDK verifies every input signature (no key given: it signs nothing)."""
    tx = kaspa.Transaction.from_dict(tx_dict)
    try:
        signed = kaspa.sign_transaction(tx, [], True)
    except Exception as error:  # the SDK raises on a bad signature
        return False, str(error)
    scripts = [i["signatureScript"] for i in signed.to_dict()["inputs"]]
    return scripts == [i["signatureScript"] for i in tx_dict["inputs"]], "signature scripts changed"


def check_scripts(work, rng):
    peer = kaspa.PrivateKey(rng.randbytes(32).hex())
    redeem = "20" + rng.randbytes(32).hex() + "ac"  # OP_DATA_32 key OP_CHECKSIG
    addresses = [peer.to_address("mainnet"), peer.to_address_ecdsa("mainnet"),
                 kaspa.address_from_script_public_key(kaspa.pay_to_script_hash_script(redeem), "mainnet")]
    for kind, address in zip(["schnorr", "ecdsa", "p2sh"], addresses):
        text = address.to_string()
        code, out, err = run("kaspa", "script", text, "--json")
        if code != 0:
            fail(f"{kind} script", err.strip())
            continue
        spk = kaspa.pay_to_address_script(kaspa.Address(text))
        check(f"{kind} script", json.loads(out), {"version": spk.version, "script": spk.script})


def check_transaction(kind, work, ours, utxos, me_script, recipient, amount, typed=False):
    tx = kaspa.Transaction.from_dict(ours)
    check(f"{kind} id", ours["id"], tx.id)
    tx_path = write(os.path.join(work, "tx.json"), json.dumps(ours))
    check(f"{kind} tx-id", run("kaspa", "tx", "id", tx_path)[1].strip(), tx.id)
    for index in range(len(ours["inputs"])):
        schnorr = run("kaspa", "tx", "sighash", tx_path, "--input", str(index))[1].strip()
        ecdsa = run("kaspa", "tx", "sighash", tx_path, "--input", str(index), "--ecdsa")[1].strip()
        check(f"{kind} input-{index} schnorr-sighash", schnorr, str(kaspa.compute_sighash(tx, index)))
        check(f"{kind} input-{index} ecdsa-sighash", ecdsa, str(kaspa.compute_sighash(tx, index, ecdsa=True)))
    index = RNG.randrange(len(ours["inputs"]))
    for name, sdk_type in SIGHASH_TYPES[1:] if typed else []:
        for ecdsa in (False, True):
            args = ["kaspa", "tx", "sighash", tx_path, "--input", str(index), "--type", name] + (["--ecdsa"] if ecdsa else [])
            check(f"{kind} {name}{'-ecdsa' if ecdsa else ''} typed-sighash", run(*args)[1].strip(),
                  str(kaspa.compute_sighash(tx, index, sdk_type, ecdsa)))
    sdk_mass = kaspa.calculate_transaction_mass(NET, tx)
    sdk_fee = kaspa.calculate_transaction_fee(NET, tx)
    sdk_storage = kaspa.calculate_storage_mass(NET, [u["utxo"]["amount"] for u in ours["inputs"]],
                                               [o["value"] for o in ours["outputs"]])
    mass = json.loads(run("kaspa", "tx", "mass", tx_path, "--json")[1])
    check(f"{kind} mass", mass["mass"], sdk_mass)
    check(f"{kind} storage-mass", mass["storageMass"], sdk_storage)
    check(f"{kind} compute-mass", max(mass["computeMass"], mass["storageMass"]), sdk_mass)
    check(f"{kind} fee", mass["fee"], sdk_fee)
    ok, why = sdk_verifies(ours)
    check(f"{kind} signatures", ok, True) if ok else fail(f"{kind} signatures", why)
    bad = copy.deepcopy(ours)
    victim = bad["inputs"][RNG.randrange(len(bad["inputs"]))]
    script = bytearray.fromhex(victim["signatureScript"])
    script[1 + RNG.randrange(64)] ^= 1 << RNG.randrange(8)
    victim["signatureScript"] = script.hex()
    check(f"{kind} flipped-signature", sdk_verifies(bad)[0], False)

    # What was spent and paid: inputs from the set, each once; the recipient first; change to us.
    given = {(u["outpoint"]["transactionId"], u["outpoint"]["index"]) for u in utxos}
    spent = [(i["previousOutpoint"]["transactionId"], i["previousOutpoint"]["index"]) for i in ours["inputs"]]
    check(f"{kind} inputs-from-set", set(spent) <= given and len(set(spent)) == len(spent), True)
    outputs = ours["outputs"]
    if recipient is not None:
        check(f"{kind} recipient", (outputs[0]["value"], outputs[0]["scriptPublicKey"]["script"]),
              (amount, kaspa.pay_to_address_script(kaspa.Address(recipient)).script))
    rest = outputs[1:] if recipient is not None else outputs
    check(f"{kind} change-to-self", all(o["scriptPublicKey"]["script"] == me_script for o in rest), True)
    total_in = sum(u["utxo"]["amount"] for u in ours["inputs"])
    total_out = sum(o["value"] for o in outputs)
    if total_out > total_in:
        fail(f"{kind} balance", f"outputs {total_out} > inputs {total_in}")
        return
    paid = total_in - total_out
    if rest:
        check(f"{kind} fee-paid", paid, sdk_fee)
    else:
        # No change: the change output would have cost its own mass; what it would have held
        # (at most the dust) went to the fee as well.
        with_change = copy.deepcopy(ours)
        with_change["outputs"].append({"value": DUST, "scriptPublicKey": {"version": 0, "script": me_script}})
        change_cost = kaspa.calculate_transaction_fee(NET, kaspa.Transaction.from_dict(with_change)) or 0
        change_cost = max(change_cost, sdk_fee)
        if not (sdk_fee <= paid <= change_cost + DUST):
            fail(f"{kind} fee-paid", f"paid {paid}, minimum {sdk_fee}, with change {change_cost}")
        else:
            check(f"{kind} fee-paid-no-change", True, True)


def build(work, key_path, utxos, extra):
    utxo_path = write(os.path.join(work, "utxos.json"), json.dumps(utxos))
    return run("kaspa", "tx", "build", "--utxos", utxo_path, "--key-file", key_path, *extra, "--json")


def no_change_fee(me, peer, entry, amount):
    """The SDK's fee of one input paying `amount` to `peer` with no change, signed (the SDK counts
    a signature's bytes on top of the signature script, so a signed transaction's fee is higher)."""
    tx = kaspa.Transaction.from_dict({
        "id": "00" * 32, "version": 0, "lockTime": 0, "subnetworkId": "00" * 20, "gas": 0, "payload": "",
        "mass": 0,
        "inputs": [{"previousOutpoint": entry["outpoint"], "signatureScript": "41" + "00" * 65, "sequence": 0, "sigOpCount": 1,
                    "computeBudget": 0, "utxo": entry}],
        "outputs": [{"value": amount, "scriptPublicKey": {"version": 0, "script": kaspa.pay_to_address_script(kaspa.Address(peer)).script}}]})
    return kaspa.calculate_transaction_fee(NET, tx)


def main():
    seed = int(os.environ.get("KASPA_SDK_CHECK_SEED", "0")) or int.from_bytes(os.urandom(8), "little")
    RNG.seed(seed)
    rng = RNG
    print(f"kaspa-sdk-check: SDK kaspa {getattr(kaspa, '__version__', '2.1.0')}, seed {seed}, {ROUNDS} rounds")
    work = tempfile.mkdtemp()
    built = refused = 0
    for round_ in range(ROUNDS):
        key = kaspa.PrivateKey(rng.randbytes(32).hex())
        me = key.to_address("mainnet").to_string()
        me_script = kaspa.pay_to_address_script(kaspa.Address(me)).script
        other = kaspa.PrivateKey(rng.randbytes(32).hex())
        peer = (other.to_address if rng.random() < 0.7 else other.to_address_ecdsa)("mainnet").to_string()
        key_path = write(os.path.join(work, "key"), key.to_string() + "\n")
        check_scripts(work, rng)

        def big():
            return rng.randrange(5 * 10**7, 2 * 10**9)

        def mixed(count):
            return [rng.randrange(2 * 10**7, 2 * 10**9) if rng.random() < 0.6 else rng.randrange(10**6, 2 * 10**7)
                    for _ in range(count)]

        memo = b"pay:".hex() + rng.randbytes(rng.randrange(8, 80)).hex()
        pay = rng.randrange(2 * 10**7, 10**9)
        kinds = [
            ("handshake", peer, 20_000_000, [big() for _ in range(rng.randrange(1, 6))],
             ["--payload", rng.randbytes(rng.randrange(100, 400)).hex()]),
            ("message", None, 0, mixed(rng.randrange(0, 5)) + [big()], ["--payload", rng.randbytes(rng.randrange(60, 2000)).hex()]),
            ("self-stash", None, 0, mixed(rng.randrange(0, 3)) + [big()], ["--payload", rng.randbytes(rng.randrange(200, 4000)).hex()]),
            ("payment-memo", peer, pay, mixed(rng.randrange(1, 8)) + [pay + big()], ["--payload", memo]),
            ("payment", peer, pay, mixed(rng.randrange(1, 8)) + [pay + big()], []),
            ("payment-multi", peer, pay, [pay // 3 + rng.randrange(10**6, 10**7) for _ in range(4)], []),
            ("compaction", None, 0, [big() for _ in range(rng.randrange(2, 13))], ["--compaction"]),
        ]
        typed_kind = kinds[round_ % len(kinds)][0]  # the other five sighash types: one kind a round
        for kind, recipient, amount, amounts, extra in kinds:
            utxos = [utxo(me, a, rng) for a in amounts]
            args = (["--to", recipient, "--amount", str(amount)] if recipient else []) + extra
            code, out, err = build(work, key_path, utxos, args)
            if code != 0:
                fail(f"{kind} build", err.strip())
                continue
            built += 1
            ours = json.loads(out)
            check_transaction(kind, work, ours, utxos, me_script, recipient, amount, kind == typed_kind)
            if kind == "compaction":
                chosen = sorted(i["utxo"]["amount"] for i in ours["inputs"])
                check("compaction smallest-eight", chosen, sorted(amounts)[:8])

        # No change: what is left after the fee is at most the dust, so it all goes to the fee.
        entry = utxo(me, big(), rng)
        fee0 = no_change_fee(me, peer, entry, entry["amount"] - 300_000)
        amount = entry["amount"] - fee0 - rng.randrange(0, DUST + 1)
        code, out, err = build(work, key_path, [entry], ["--to", peer, "--amount", str(amount)])
        if code != 0:
            fail("no-change build", err.strip())
        else:
            built += 1
            check_transaction("no-change", work, json.loads(out), [entry], me_script, peer, amount)

        # Refused: an output too small for the standard storage mass, and the SDK gives no fee.
        entry = utxo(me, big(), rng)
        small = rng.randrange(10**4, 5 * 10**6)
        code, out, err = build(work, key_path, [entry], ["--to", peer, "--amount", str(small)])
        change = entry["amount"] - small - 300_000
        storage = kaspa.calculate_storage_mass(NET, [entry["amount"]], [small, change])
        check("small-output sdk-storage-over-limit", storage is None or storage > MAX_MASS, True)
        check("small-output refused", code != 0 and "storage mass" in err, True)
        refused += code != 0
        print(f"round {round_ + 1}/{ROUNDS}: {built} built, {refused} refused, {failures} mismatches so far")
    shutil.rmtree(work, ignore_errors=True)
    checked = sum(counts.values())
    print(f"{checked} comparisons over {built} transactions and {refused} refusals: "
          + ("OK" if failures == 0 else f"FAILED: {failures} mismatches"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
