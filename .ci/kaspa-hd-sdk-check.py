#!/usr/bin/env python3
"""Seed phrases against the rusty-kaspa SDK (PyPI `kaspa` 2.1.0), issue 44.

Fresh random phrases of 12 and 24 words, with and without a BIP-39 passphrase, accounts 0 and 1:
Needs `pip install kaspa==2.1.0 mnemonic==0.21` (Trezor's BIP-39 reference, for its word list).
`tandem keys import --mnemonic-stdin` must give the SDK's chatting address
(`PrivateKeyGenerator(XPrv(seed), False, account).receive_key(0)`), and `tandem keys addresses`
the SDK's first addresses of the receive and change chains and of KaChat's spending account
(account 1's receive chain), and `tandem keys export --kpub` the SDK's account kpub. Phrases the SDK makes must be accepted, and a phrase with one word
changed must be refused by both.

Usage: python3 .ci/kaspa-hd-sdk-check.py [path/to/tandem] [rounds]
       python3 .ci/kaspa-hd-sdk-check.py --write-vectors FILE   (the fixed vectors of the unit tests)
Prints the seed (KASPA_HD_CHECK_SEED=N replays a run); exit status 0 when everything agrees.
"""
import json, os, random, shutil, subprocess, sys, tempfile

import kaspa
import mnemonic

REFERENCE = mnemonic.Mnemonic("english")
WORDS = REFERENCE.wordlist

COUNT = 3
failures = 0


def sdk_addresses(phrase, passphrase, account, network="mainnet"):
    seed = kaspa.Mnemonic(phrase).to_seed(passphrase or None)
    xprv = kaspa.XPrv(seed).to_string()
    own = kaspa.PrivateKeyGenerator(xprv, False, account)
    spending = kaspa.PrivateKeyGenerator(xprv, False, 1)
    out = []
    for chain, gen, method in (("receive", own, "receive_key"), ("change", own, "change_key"),
                               ("spending", spending, "receive_key")):
        for i in range(COUNT):
            key = getattr(gen, method)(i)
            out.append({"chain": chain, "index": i, "address": key.to_address(network).to_string()})
    return out


def write_vectors(path):
    """Deterministic entropies (not random): the unit tests' fixed oracle answers."""
    vectors = []
    for entropy_hex, passphrase, account in [
        ("00" * 16, "", 0), ("7f" * 16, "TREZOR", 0), ("80" * 32, "", 1),
        ("0123456789abcdef" * 4, "kasia passphrase", 0), ("fedcba9876543210" * 2, "", 1),
    ]:
        # The SDK's phrase for this entropy: the words of BIP-39 (the unit test checks them too).
        entropy = bytes.fromhex(entropy_hex)
        phrase = words_for(entropy)
        assert kaspa.Mnemonic.validate(phrase)
        vectors.append({"entropy": entropy_hex, "mnemonic": phrase, "passphrase": passphrase, "account": account,
                        "seed": kaspa.Mnemonic(phrase).to_seed(passphrase or None),
                        "kprv": kaspa.XPrv(kaspa.Mnemonic(phrase).to_seed(passphrase or None)).into_string("kprv"),
                        "kpub": kaspa.XPrv(kaspa.Mnemonic(phrase).to_seed(passphrase or None))
                        .derive_path(f"m/44'/111111'/{account}'").to_xpub().into_string("kpub"),
                        "addresses": sdk_addresses(phrase, passphrase, account)})
    doc = {"source": "rusty-kaspa SDK (PyPI kaspa %s): .ci/kaspa-hd-sdk-check.py --write-vectors" % kaspa_version(),
           "vectors": vectors}
    with open(path, "w") as f:
        f.write(json.dumps(doc, indent=2) + "\n")


def words_for(entropy):
    """BIP-39 words of `entropy` by the reference implementation (PyPI `mnemonic`, Trezor's)."""
    return REFERENCE.to_mnemonic(entropy)


def kaspa_version():
    from importlib.metadata import version
    return version("kaspa")


def tandem(binary, args, stdin=None):
    return subprocess.run([binary] + args, input=stdin, capture_output=True, text=True)


def check(binary, rng, round_number):
    global failures
    words = rng.choice([12, 24])
    phrase = kaspa.Mnemonic.random(words).phrase
    passphrase = rng.choice(["", "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in range(rng.randint(1, 24)))])
    account = rng.choice([0, 1])
    directory = tempfile.mkdtemp(prefix="tandem-hd-")
    try:
        args = ["keys", "import", "--mnemonic-stdin", "--json", "--profile", directory + "/p"]
        if account:
            args += ["--account", str(account)]
        if passphrase:
            with open(directory + "/bip39", "w") as f:
                f.write(passphrase + "\n")
            args += ["--bip39-passphrase-file", directory + "/bip39"]
        run = tandem(binary, args, phrase + "\n")
        expected = sdk_addresses(phrase, passphrase, account)
        label = f"round {round_number}: {words} words, passphrase {'yes' if passphrase else 'no'}, account {account}"
        if run.returncode != 0:
            failures += 1
            print(f"FAIL {label}: import exited {run.returncode}: {run.stderr.strip()}")
            return
        shown = json.loads(run.stdout)
        if shown["address"] != expected[0]["address"] or shown.get("source") != "mnemonic":
            failures += 1
            print(f"FAIL {label}: chatting address {shown['address']} != SDK {expected[0]['address']}")
        listed = tandem(binary, ["keys", "addresses", "--count", str(COUNT), "--json", "--profile", directory + "/p"])
        got = [{"chain": a["chain"], "index": a["index"], "address": a["address"]} for a in json.loads(listed.stdout)["addresses"]] if listed.returncode == 0 else listed.stderr
        if got != expected:
            failures += 1
            print(f"FAIL {label}: addresses differ\n  tandem {got}\n  sdk    {expected}")
        # The account's kpub, as a watch-only Kaspa wallet imports it.
        seed = kaspa.Mnemonic(phrase).to_seed(passphrase or None)
        sdk_kpub = kaspa.XPrv(seed).derive_path(f"m/44'/111111'/{account}'").to_xpub().into_string("kpub")
        kpub = tandem(binary, ["keys", "export", "--kpub", "--profile", directory + "/p"]).stdout.strip()
        if kpub != sdk_kpub:
            failures += 1
            print(f"FAIL {label}: kpub {kpub} != SDK {sdk_kpub}")
        # One word changed: the SDK and Tandem both refuse it (or both accept, by a 1/16 or
        # 1/256 checksum chance; then the addresses must agree again).
        changed = phrase.split()
        changed[rng.randrange(words)] = rng.choice(WORDS)
        changed = " ".join(changed)
        bad = tandem(binary, ["keys", "import", "--mnemonic-stdin", "--json", "--profile", directory + "/q"], changed + "\n")
        if kaspa.Mnemonic.validate(changed) != (bad.returncode == 0):
            failures += 1
            print(f"FAIL {label}: a changed phrase: SDK valid={kaspa.Mnemonic.validate(changed)}, tandem exit {bad.returncode}")
        elif bad.returncode != 0 and (os.path.exists(directory + "/q/wallet.seed") or len(bad.stderr.strip().splitlines()) != 1):
            failures += 1
            print(f"FAIL {label}: a refused phrase wrote a seed or said more than one line: {bad.stderr!r}")
        print(f"ok   {label}")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--write-vectors":
        write_vectors(sys.argv[2])
        sys.exit(0)
    TANDEM = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/tandem"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    seed = int(os.environ.get("KASPA_HD_CHECK_SEED", random.SystemRandom().randrange(1 << 32)))
    print(f"seed {seed}")
    rng = random.Random(seed)
    for n in range(rounds):
        check(TANDEM, rng, n + 1)
    print(f"{rounds} rounds, {failures} failure(s)")
    sys.exit(1 if failures else 0)
