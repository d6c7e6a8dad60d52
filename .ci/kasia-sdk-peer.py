#!/usr/bin/env python3
"""An independent Kasia peer chats with a Tandem profile over a simulated Kaspa node (issues 24, 43).

What it proves: a peer written only from kasia-protocol.md, the shared Kasia vectors
(../shared/vectors/kasia-vectors.json) and the rusty-kaspa Python SDK — none of Tandem's codecs,
and no Tandem command for its own crypto — exchanges handshakes and messages, both ways, with a
Tandem profile that `tandem kaspa connect` put on the Kaspa network.

The peer:
  - seals and opens with its own cipher (§3): raw-x ECDH on secp256k1 (`cryptography`'s ec.ECDH,
    checked to give the unhashed x), HKDF-SHA256 without salt or info, ChaCha20-Poly1305, laid out
    nonce ‖ ephemeral compressed key ‖ ciphertext ‖ tag; derives the "chat" aliases (§6.2); writes
    and reads the payloads (§4) and the handshake and saved-handshake JSON (§5.1, §5.4). All of it
    is first checked against every vector it covers;
  - takes its keys and addresses from the SDK (PrivateKey, to_address, Address,
    pay_to_address_script), and reaches the node only through the SDK's RpcClient (wRPC JSON):
    getUtxosByAddresses, getFeeEstimate, submitTransaction of transactions it builds and signs with
    the SDK (a handshake pays 0.2 KAS to its recipient, a message or stash is a one-output self-spend,
    §12), getMempoolEntriesByAddresses and getVirtualChainFromBlockV2 at High to read;
  - routes as KaChat does (§7): a new conversation gets a legacy alias of ours, announced in a
    KaChat hybrid handshake and used to send until the contact shows it derives deterministic
    aliases (a message on our deterministic incoming alias, or an alias-less handshake); then it
    sends with the deterministic theirAlias. It reads its deterministic myAlias and every alias
    the contact's handshakes announced.
  - draws every key, nonce, alias and id from one seed, printed at the start (KASIA_PEER_SEED=N
    replays a run; Tandem's own key and nonces are its own).

The scenario, on `tandem-simnode` (testnet-10), each step asserted:
  (a) the peer sends a handshake (and its saved-handshake stash); after `tandem chat sync` the
      peer is a contact and the conversation holds one incoming handshake row;
  (b) `tandem chat handshake` answers; the peer finds the handshake on chain (0.2 KAS to it, the
      binary form), opens it, parses it and learns the alias Tandem announces;
  (c) the peer sends three messages on the alias its routing says (its legacy alias: no evidence
      yet); `tandem chat sync` delivers them from the mempool, the block that accepts them adds
      nothing, and Tandem's history shows exactly those texts, once each;
  (d) `tandem chat send` three times; the peer finds them in the mempool and on chain, checks each
      payload byte by byte (prefix, the alias it expects, canonical base64, sealed layout) and
      each transaction (a one-output self-spend), opens them and gets exactly the texts;
  (e) Tandem's messages on the peer's deterministic myAlias are evidence (§7): the peer switches
      to its deterministic theirAlias, Tandem reads that message too, and a second sync adds
      nothing; the history holds every text once and both handshakes.
Then today's apps (kasia-protocol §16, issue 43), on a fresh Tandem profile:
  (k1–k4) KaChat of today writes its handshake and messages under `kchat:`; Tandem reads each once,
      answers its handshake, stash and message under `kchat:`, which the peer checks byte by byte;
  (k5) it pays Tandem with a `kchat:1:pay:` memo and sends a reaction to Tandem's message, a
      `payment_notice` and an `addr_pool` envelope: Tandem's sync shows the two payments with
      their amounts and memos and nothing else, a second sync nothing, the reaction on its target,
      no envelope as raw JSON;
  (k6) `tandem chat pay` to it is KaChat's form: `kchat:1:pay:` + binary, the amount in sompi;
  (w) a Kasia web peer (alias-less handshakes, `ciph_msg:` only) gets Tandem's handshake, stash,
      message and `chat pay` under `ciph_msg:`, the payment as `payment:` + hex text with the
      amount in KAS, and decodes each;
  (x) backups (issue 48 item 2): `tandem chat export --format kachat` opens with the spec's key
      (SHA-256 of Tandem's wallet key, derived by the SDK from `keys export --mnemonic`, and
      "kachat-backup-v1"; AES-256-GCM) and reads as KaChat's ChatHistoryArchive: every row the
      network took, once, with KaChat's members and values; an archive the peer writes as KaChat
      does, and a Kasia web export sealed with the peer's cipher, import once each.
Texts include accented letters, CJK and emoji. Where the spec is silent but something looks off,
a NOTE line says so without failing the run.

Usage: python3 .ci/kasia-sdk-peer.py path/to/tandem path/to/tandem-simnode [kasia-vectors.json]
The vectors default to $KASIA_VECTORS, else ../shared/vectors/kasia-vectors.json beside the
repository. Needs PyPI kaspa==2.1.0 and cryptography==44.0.0. Prints one line per failed check
and a summary; exit status 0 when every check passes.
"""
import asyncio, base64, hashlib, json, math, os, re, select, shutil, signal, subprocess, sys, tempfile, time, traceback
import urllib.error, urllib.request

import kaspa
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TANDEM = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/tandem"
SIMNODE = sys.argv[2] if len(sys.argv) > 2 else ".build/debug/tandem-simnode"
VECTORS = (sys.argv[3] if len(sys.argv) > 3 else os.environ.get("KASIA_VECTORS")
           or os.path.normpath(os.path.join(REPOSITORY, "..", "shared", "vectors", "kasia-vectors.json")))
NETWORK = "testnet-10"
HANDSHAKE_SOMPI = 20_000_000  # §12: a handshake pays 0.2 KAS to the recipient
KAS = 100_000_000
SECP256K1_ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141

PEER_TEXTS = ["Hello Tandem, a KaChat-compatible peer here",
              "Ça va ? Crème brûlée für Jürgen — naïve café 🎉🔐",
              "三つ目: 日本語のメッセージ 👋🏽"]
TANDEM_TEXTS = ["Hi peer, Tandem answering",
                "Déjà vu: señor Åke’s smörgåsbord 🍵✨",
                "last one — 🚀 done"]
EVIDENCE_TEXT = "now on the deterministic alias ✓ (élan)"


# MARK: checks

failures = []
counts = {}


class Abort(Exception):
    """A failed check, or a failed step, the scenario cannot go on from."""

    def __init__(self, message, counted=False):
        super().__init__(message)
        self.counted = counted


def check(group, label, ok, detail=""):
    counts[group] = counts.get(group, 0) + 1
    if not ok:
        failures.append(f"{group}: {label}")
        print(f"FAIL {group}: {label}{': ' + detail if detail else ''}", flush=True)
    return ok


def equal(group, label, got, want):
    return check(group, label, got == want, f"got {got!r}, want {want!r}")


def require(group, label, ok, detail=""):
    if not check(group, label, ok, detail):
        raise Abort(f"{group}: {label}", counted=True)


def require_equal(group, label, got, want):
    require(group, label, got == want, f"got {got!r}, want {want!r}")


notes = []


def note(text):
    """Something worth a look where the spec is silent: printed, never a failure."""
    notes.append(text)
    print(f"NOTE {text}", flush=True)


# MARK: seeded randomness

class SeededBytes:
    """Every key, nonce and id the peer draws: SHA-256 in counter mode over the seed and a label,
    so one seed replays a whole run."""

    def __init__(self, seed):
        self.seed = seed
        self.counter = 0

    def draw(self, label, length):
        out = b""
        while len(out) < length:
            self.counter += 1
            out += hashlib.sha256(f"kasia-sdk-peer/{self.seed}/{label}/{self.counter}".encode()).digest()
        return out[:length]

    def secret(self, label):
        """A secp256k1 private key (1 ≤ k < n) as 32 bytes."""
        while True:
            candidate = self.draw(label, 32)
            if 0 < int.from_bytes(candidate, "big") < SECP256K1_ORDER:
                return candidate


# MARK: the peer's cipher (kasia-protocol §2, §3)

class KasiaError(Exception):
    """Input the peer's codecs refuse; the text says what was wrong."""


CURVE = ec.SECP256K1()
NONCE_LENGTH, KEY_LENGTH, TAG_LENGTH = 12, 33, 16
MINIMUM_SEALED = NONCE_LENGTH + KEY_LENGTH + TAG_LENGTH


def private_key(secret):
    return ec.derive_private_key(int.from_bytes(secret, "big"), CURVE)


def compressed_public_key(secret):
    return private_key(secret).public_key().public_bytes(Encoding.X962, PublicFormat.CompressedPoint)


def x_only(secret):
    return compressed_public_key(secret)[1:]


def public_point(sec1):
    try:
        return ec.EllipticCurvePublicKey.from_encoded_point(CURVE, bytes(sec1))
    except ValueError:
        raise KasiaError("x-only key is not on secp256k1") from None


def ecdh_x(secret, peer_sec1):
    """§3 step 2: the raw 32-byte x of secret·peer (cryptography's ECDH gives exactly that)."""
    return private_key(secret).exchange(ec.ECDH(), public_point(peer_sec1))


def hkdf_sha256(ikm, info, length):
    """HKDF-SHA256 without salt (RFC 5869: HashLen zero bytes)."""
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=info).derive(ikm)


def address_script(address):
    """The locking script of an address, from the SDK (which also validates the address)."""
    try:
        parsed = kaspa.Address(address)
    except Exception as error:  # the SDK raises plain Exception for a bad address
        raise KasiaError(f"not a Kaspa address: {error}") from None
    return parsed.version, bytes.fromhex(kaspa.pay_to_address_script(parsed).script)


def recipient_key(address):
    """§2: the key to seal to. A v0 x-only key is lifted to even y; v1 is used as given."""
    version, script = address_script(address)
    if version == "PubKey":
        key = b"\x02" + script[1:33]
    elif version == "PubKeyECDSA":
        key = script[1:34]
    else:
        raise KasiaError("script-hash address carries no public key")
    public_point(key)
    return key


def address_x_only(address):
    """§2, §6.2: deterministic aliases need the 32-byte x of a v0 (Schnorr) address."""
    version, script = address_script(address)
    if version != "PubKey":
        raise KasiaError("deterministic aliases need a v0 (Schnorr) address")
    return script[1:33]


def message_key(shared_x):
    return hkdf_sha256(shared_x, b"", 32)


def seal(text, recipient_sec1, ephemeral_secret, nonce):
    """§3: nonce ‖ ephemeral compressed key ‖ ChaCha20-Poly1305(text) ‖ tag, no AAD."""
    key = message_key(ecdh_x(ephemeral_secret, recipient_sec1))
    body = ChaCha20Poly1305(key).encrypt(nonce, text.encode("utf-8"), None)
    return nonce + compressed_public_key(ephemeral_secret) + body


def open_sealed(sealed, secret):
    """§3 step 7: the text of a sealed message, or KasiaError saying why not."""
    if len(sealed) < MINIMUM_SEALED:
        raise KasiaError(f"sealed message too short ({len(sealed)} < {MINIMUM_SEALED})")
    ephemeral = sealed[NONCE_LENGTH:NONCE_LENGTH + KEY_LENGTH]
    if ephemeral[0] not in (2, 3):
        raise KasiaError("ephemeral key is not SEC1-compressed")
    key = message_key(ecdh_x(secret, ephemeral))
    try:
        plain = ChaCha20Poly1305(key).decrypt(sealed[:NONCE_LENGTH], sealed[NONCE_LENGTH + KEY_LENGTH:], None)
    except InvalidTag:
        raise KasiaError("AEAD authentication failed") from None
    try:
        return plain.decode("utf-8")
    except UnicodeDecodeError:
        raise KasiaError("plaintext is not valid UTF-8") from None


# MARK: aliases (§6.2, "chat" scheme)

def alias_info(shared_x, context):
    return b"chat" + shared_x + context


def alias_pair(secret, peer_address):
    """(myAlias, theirAlias): the one I watch (ctx = my x-only key) and the one I send with
    (ctx = the peer's)."""
    peer_x = address_x_only(peer_address)
    shared = ecdh_x(secret, b"\x02" + peer_x)
    return (hkdf_sha256(shared, alias_info(shared, x_only(secret)), 6).hex(),
            hkdf_sha256(shared, alias_info(shared, peer_x), 6).hex())


def is_alias(text):
    return isinstance(text, str) and len(text) == 12 and all(c in "0123456789abcdefABCDEF" for c in text)


# MARK: payloads (§4)

MAGIC = b"ciph_msg:"
KCHAT = b"kchat:"  # §16: KaChat's root since 2026; the bytes after it are the same as after ciph_msg:
ROOTS = (MAGIC, KCHAT)
HEX_DIGITS = b"0123456789abcdefABCDEF"
SAVED_HANDSHAKE = "saved_handshake"


def handshake_payload(sealed, root=MAGIC):
    return root + b"1:handshake:" + sealed


def comm_payload(alias, sealed, root=MAGIC):
    return root + b"1:comm:" + alias.encode() + b":" + base64.b64encode(sealed)


def self_stash_payload(scope, sealed, root=MAGIC):
    return root + b"1:self_stash:" + (scope.encode() + b":" if scope else b"") + sealed


def pay_payload(sealed, root=KCHAT):
    """§4, §16: KaChat's payment memo, binary sealed after `pay:`."""
    return root + b"1:pay:" + sealed


def split_root(payload):
    """(root, rest) for a payload under either root (§16), else (None, payload)."""
    for root in ROOTS:
        if payload.startswith(root):
            return root, payload[len(root):]
    return None, payload


def looks_sealed(data):
    return len(data) >= MINIMUM_SEALED and data[NONCE_LENGTH] in (2, 3)


def sealed_body(body):
    """§4's robust reader for handshake, payment and stash bodies: hex text when it is all hex
    and decodes to something shaped like a sealed message, else binary."""
    if not body:
        raise KasiaError("empty body")
    if len(body) % 2 == 0 and all(b in HEX_DIGITS for b in body) and looks_sealed(bytes.fromhex(body.decode())):
        return bytes.fromhex(body.decode()), "hex"
    return bytes(body), "binary"


def comm_body(text):
    """§4: a comm body is hex text when all hex digits of even length, else padded base64."""
    if not text:
        raise KasiaError("empty body")
    if len(text) % 2 == 0 and all(b in HEX_DIGITS for b in text):
        return bytes.fromhex(text.decode()), "hex"
    try:
        return base64.b64decode(text, validate=True), "base64"
    except ValueError:
        raise KasiaError("comm body is neither hex nor base64") from None


def sealed_item(kind, body):
    sealed, encoding = sealed_body(body)
    return {"kind": kind, "body": body, "sealed": sealed, "encoding": encoding}


def parse_payload(payload):
    """A transaction payload read as the Kasia indexer reads it (§4 notes): a dict with `kind`,
    the stored `body` and, where it has one, the `sealed` bytes, `alias`, `scope` or `channel`."""
    root, rest = split_root(bytes(payload))
    if root is None or not rest:
        raise KasiaError("not a Kasia payload")
    return dict(parse_after_root(rest), root=root[:-1].decode())


def parse_after_root(rest):
    """Everything after the root, which is the same under both roots (§16)."""
    if not rest.startswith(b"1:"):
        if rest.startswith(b"pay:"):
            return sealed_item("payment", rest[4:])
        return sealed_item("legacy", rest)
    operation, colon, body = rest[2:].partition(b":")
    if not colon:
        raise KasiaError("unknown Kasia operation")
    if operation == b"handshake":
        return sealed_item("handshake", body)
    if operation == b"comm":
        alias, colon, text = body.partition(b":")
        if not colon:
            raise KasiaError("comm payload without alias delimiter")
        sealed, encoding = comm_body(text)
        return {"kind": "comm", "alias": alias.decode("ascii", "replace"), "body": text, "sealed": sealed,
                "encoding": encoding}
    if operation in (b"pay", b"payment"):
        return sealed_item("payment", body)
    if operation == b"self_stash":
        # The optional scope is printable ASCII up to the first ':'.
        scope, colon, sealed = body.partition(b":")
        if not colon or not scope or not all(0x21 <= b <= 0x7e for b in scope):
            scope, sealed = b"", body
        return dict(sealed_item("self_stash", sealed), scope=scope.decode() or None)
    if operation == b"bcast":
        channel, colon, text = body.partition(b":")
        if not colon:
            raise KasiaError("broadcast without channel delimiter")
        return {"kind": "broadcast", "channel": channel.decode(), "body": text, "text": text.decode("utf-8")}
    raise KasiaError("unknown Kasia operation")


# MARK: handshake JSON (§5.1, §5.4)

def compact_json(members):
    return json.dumps(dict(members), separators=(",", ":"), ensure_ascii=False)


def kachat_handshake(alias, timestamp, conversation_id, recipient, is_response):
    """KaChat HEAD's hybrid form: camelCase, then the snake_case duplicates."""
    members = [("type", "handshake"), ("alias", alias), ("timestamp", timestamp),
               ("conversationId", conversation_id), ("version", 1), ("recipientAddress", recipient),
               ("sendToRecipient", True)]
    if is_response:
        members.append(("isResponse", True))
    members += [("conversation_id", conversation_id), ("recipient_address", recipient), ("send_to_recipient", True)]
    if is_response:
        members.append(("is_response", True))
    return compact_json(members)


def kachat_saved_handshake(alias, timestamp, their_alias, partner, is_response):
    """§5.4: the stash KaChat seals to its own address; null members are dropped."""
    members = [("type", "handshake"), ("alias", alias), ("timestamp", timestamp), ("version", 1),
               ("theirAlias", their_alias), ("partnerAddress", partner), ("recipientAddress", partner),
               ("isResponse", True if is_response else None)]
    return compact_json((k, v) for k, v in members if v is not None)


HANDSHAKE_PREFIXES = ("ciph_msg:1:handshake:", "kchat:1:handshake:")


def parse_handshake(plaintext):
    """§5.1 parsing rules: the legacy prefix stripped, camelCase or snake_case, alias fields
    optional but 12 hex characters when present, version at most 1."""
    form, text = "json", plaintext
    for prefix in HANDSHAKE_PREFIXES:
        if text.startswith(prefix):
            form, text = "prefixed-json", text[len(prefix):]
    try:
        obj = json.loads(text)
    except ValueError:
        raise KasiaError("handshake plaintext is not JSON") from None
    if not isinstance(obj, dict):
        raise KasiaError("handshake JSON is not an object")

    def field(*names):
        return next((obj[n] for n in names if obj.get(n) is not None), None)

    kind = field("type") or "handshake"
    if kind != "handshake":
        raise KasiaError(f"not a handshake (type={kind!r})")
    version = field("version")
    version = 1 if version is None else version
    if version > 1:
        raise KasiaError(f"unsupported handshake version {version}")
    alias, their_alias = field("alias"), field("theirAlias", "their_alias")
    for value in (alias, their_alias):
        if value is not None and not is_alias(value):
            raise KasiaError("alias must be 12 hex characters")
    return {"form": form, "type": kind, "alias": alias, "theirAlias": their_alias, "timestamp": field("timestamp"),
            "version": version, "conversationId": field("conversationId", "conversation_id"),
            "recipientAddress": field("recipientAddress", "recipient_address"),
            "sendToRecipient": field("sendToRecipient", "send_to_recipient"),
            "isResponse": bool(field("isResponse", "is_response")),
            "aliasless": alias is None and their_alias is None}


# MARK: 1. the codecs against the shared vectors

VECTOR_CHECKS = "vectors"


def secrets_of(vectors):
    return {key["name"]: bytes.fromhex(key["private_key"]) for key in vectors["keys"]}


def check_keys(vectors):
    """SDK addresses, and the keys the cipher seals to (§1, §2)."""
    group = VECTOR_CHECKS
    for key in vectors["keys"]:
        name, secret, sdk_key = key["name"], bytes.fromhex(key["private_key"]), kaspa.PrivateKey(key["private_key"])
        for network in ("mainnet", "testnet"):
            equal(group, f"key {name} SDK {network} address", sdk_key.to_address(network).to_string(),
                  key[f"address_{network}"])
        equal(group, f"key {name} compressed key", compressed_public_key(secret).hex(), key["public_key_compressed"])
        equal(group, f"key {name} SDK compressed key", sdk_key.to_public_key().to_string(),
              key["public_key_compressed"])
        equal(group, f"key {name} recipient key from address", recipient_key(key["address_mainnet"]).hex(),
              key["recipient_pubkey_from_address"])
        equal(group, f"key {name} recipient key from ECDSA address",
              recipient_key(key["address_mainnet_ecdsa"]).hex(), key["public_key_compressed"])
    # Raw x, not a hash: k·(m·G) must be the x of (k·m)·G, computed without ECDH.
    secrets = secrets_of(vectors)
    k, m = secrets["sha256_kasia-ref-key-2"], secrets["sha256_kasia-ref-key-3"]
    product = (int.from_bytes(k, "big") * int.from_bytes(m, "big") % SECP256K1_ORDER).to_bytes(32, "big")
    equal(group, "ec.ECDH gives the raw shared x", ecdh_x(k, compressed_public_key(m)), x_only(product))


def check_aliases(vectors):
    """§6.2: the shared x, the HKDF info and both sides' pairs, on either network."""
    group, secrets = VECTOR_CHECKS, secrets_of(vectors)
    for pair in vectors["alias_pairs"]:
        name, chat = f"aliases {pair['A']}/{pair['B']}", pair["chat"]
        a, b = secrets[pair["A"]], secrets[pair["B"]]
        shared = ecdh_x(a, recipient_key(pair["B_address"]))
        equal(group, f"{name} ECDH x", shared.hex(), pair["ecdh_x"])
        check(group, f"{name} ECDH x is not libsecp256k1's hashed output",
              shared.hex() != pair["libsecp256k1_default_ecdh_output_for_contrast"])
        equal(group, f"{name} info bytes", alias_info(shared, x_only(a)).hex(), chat["hkdf_info_A_myAlias_hex"])
        equal(group, f"{name} A's pair", alias_pair(a, pair["B_address"]), (chat["A_myAlias"], chat["A_theirAlias"]))
        equal(group, f"{name} B's pair", alias_pair(b, pair["A_address"]), (chat["B_myAlias"], chat["B_theirAlias"]))
        testnet_b = kaspa.PrivateKey(b.hex()).to_address("testnet").to_string()
        equal(group, f"{name} testnet address, same pair", alias_pair(a, testnet_b),
              (chat["A_myAlias"], chat["A_theirAlias"]))


def check_encryption(vectors):
    """§3: deterministic seals with the vectors' ephemeral key and nonce; every listed key opens."""
    group, secrets = VECTOR_CHECKS, secrets_of(vectors)
    for vector in vectors["encryption"]:
        name = f"encryption to {vector['recipient']}"
        ephemeral, nonce = bytes.fromhex(vector["ephemeral_private_key"]), bytes.fromhex(vector["nonce"])
        recipient = recipient_key(vector["recipient_address"])
        equal(group, f"{name} ECDH x", ecdh_x(ephemeral, recipient).hex(), vector["ecdh_x"])
        equal(group, f"{name} key", message_key(ecdh_x(ephemeral, recipient)).hex(), vector["chacha_key"])
        sealed = seal(vector["plaintext_utf8"], recipient, ephemeral, nonce)
        equal(group, f"{name} sealed", sealed.hex(), vector["sealed_hex"])
        equal(group, f"{name} base64", base64.b64encode(sealed).decode(), vector["sealed_base64"])
        for opener in vector["decrypts_with"]:
            equal(group, f"{name} opens with {opener}",
                  open_sealed(bytes.fromhex(vector["sealed_hex"]), secrets[opener]), vector["plaintext_utf8"])


def check_payloads(vectors):
    """§4: every on-chain form parses to the indexer's stored body and sealed bytes, opens to the
    vectors' plaintext, and the forms the peer writes come out byte for byte."""
    group, payloads = VECTOR_CHECKS, vectors["tx_payloads"]
    # Either parity of a key opens what was sealed to its address (§2).
    by_address = {key["address_mainnet"]: secrets_of(vectors)[key["name"]] for key in vectors["keys"]}
    owner = {"handshake": payloads["recipient_B"], "comm": payloads["recipient_B"],
             "payment": payloads["recipient_B"], "self_stash": payloads["sender_A"]}
    writers = {"handshake_v2": lambda item, sealed: handshake_payload(sealed),
               "comm_base64": lambda item, sealed: comm_payload(item["alias"], sealed),
               "self_stash_saved_handshake": lambda item, sealed: self_stash_payload(SAVED_HANDSHAKE, sealed)}
    for item in payloads["items"]:
        name = f"payload {item['label']}"
        parsed = parse_payload(bytes.fromhex(item["tx_payload_hex"]))
        equal(group, f"{name} kind", parsed["kind"], item["kind"])
        equal(group, f"{name} stored body", parsed["body"].hex(), item["indexer_stored_hex"])
        for field in ("alias", "scope", "channel", "text"):
            if field in item:
                equal(group, f"{name} {field}", parsed.get(field), item[field])
        if "sealed_hex_after_body_decode" not in item:
            continue
        equal(group, f"{name} sealed", parsed["sealed"].hex(), item["sealed_hex_after_body_decode"])
        equal(group, f"{name} opens", open_sealed(parsed["sealed"], by_address[owner[item["kind"]]]),
              payloads["plaintexts"][item["kind"]])
        if item["label"] in writers:
            equal(group, f"{name} written back", writers[item["label"]](item, parsed["sealed"]).hex(),
                  item["tx_payload_hex"])


def check_handshake_json(vectors):
    """§5.1, §5.4: every example parses as the vectors say; KaChat's forms are written exactly."""
    group = VECTOR_CHECKS
    for example in vectors["handshake_examples"]:
        name, parsed = f"handshake {example['label']}", example["parsed"]
        equal(group, f"{name} parsed", parse_handshake(example["plaintext"]), parsed)
        if example["label"].startswith("kachat_hybrid"):
            written = kachat_handshake(parsed["alias"], parsed["timestamp"], parsed["conversationId"],
                                       parsed["recipientAddress"], parsed["isResponse"])
            equal(group, f"{name} written", written, example["plaintext"])
    stash_text = vectors["tx_payloads"]["plaintexts"]["self_stash"]
    stash = json.loads(stash_text)
    equal(group, "saved handshake written", kachat_saved_handshake(
        stash["alias"], stash["timestamp"], stash.get("theirAlias"), stash["partnerAddress"], False), stash_text)


def check_vectors(vectors):
    for part in (check_keys, check_aliases, check_encryption, check_payloads, check_handshake_json,
                 check_malformed):
        try:
            part(vectors)
        except KasiaError as error:
            check(VECTOR_CHECKS, f"{part.__name__} runs", False, str(error))


def check_malformed(vectors):
    """Every malformed input the peer's codecs handle must be refused as the vectors say."""
    group = VECTOR_CHECKS

    def refused(call):
        try:
            call()
        except KasiaError:
            return True
        return False

    for case in vectors["malformed"]:
        kind, label = case["input_kind"], f"malformed {case['input_kind']} {case['case']}"
        if kind == "address" and case["expect"] == "reject":
            check(group, label, not kaspa.Address.validate(case["address"]))
        elif kind == "address":
            check(group, f"{label} decodes", kaspa.Address.validate(case["address"]))
            check(group, f"{label} has no key", refused(lambda: recipient_key(case["address"])))
        elif kind == "sealed":
            check(group, label, refused(lambda: open_sealed(bytes.fromhex(case["sealed_hex"]),
                                                            bytes.fromhex(case["private_key"]))))
        elif kind == "handshake_plaintext":
            check(group, label, refused(lambda: parse_handshake(case["plaintext"])))
        elif kind == "tx_payload":
            check(group, label, refused(lambda: parse_payload(bytes.fromhex(case["tx_payload_hex"]))))
        elif kind == "alias_derivation":
            check(group, label, refused(lambda: alias_pair(b"\x01" * 32, case["address"])))
        elif kind == "encrypt":
            check(group, label, refused(lambda: recipient_key(case["address"])))


# MARK: the simulated node and the Tandem CLI

class Simnode:
    """`tandem-simnode` on free ports, and its control API (kaspa-node.md §10)."""

    def __init__(self):
        self.process = subprocess.Popen([SIMNODE, "--network", NETWORK, "--port", "0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.port = self.url = None

    def wait_ready(self):
        ready, _, _ = select.select([self.process.stdout], [], [], 30)
        if not ready:
            raise Abort("tandem-simnode printed no ports line within 30 s")
        line = json.loads(self.process.stdout.readline())
        require("setup", "simnode network", line.get("network") == NETWORK, repr(line))
        self.port = line["ports"][0]
        self.url = f"ws://127.0.0.1:{self.port}"

    def control(self, path, body=None):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/sim/{path}", method="POST",
                                         data=json.dumps(body or {}).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as error:
            raise Abort(f"/sim/{path} {body!r} answered {error.code}: {error.read().decode()!r}") from None

    def mine(self):
        return self.control("mine", {"blocks": 1})

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class TandemProfile:
    """One Tandem profile driven through its CLI only."""

    def __init__(self, directory, home):
        self.directory = directory
        self.environment = dict(os.environ, HOME=home, TANDEM_PROFILE=directory)

    def run(self, *args):
        command = [TANDEM, *args, "--profile", self.directory]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=self.environment)
        except subprocess.TimeoutExpired:
            raise Abort(f"`tandem {' '.join(args)}` did not finish within 60 s") from None
        if done.returncode != 0:
            raise Abort(f"`tandem {' '.join(args)}` exited {done.returncode}: {done.stderr.strip()}")
        return done.stdout

    def json(self, *args):
        return json.loads(self.run(*args, "--json"))

    def json_lines(self, *args):
        """Commands that print one JSON object per item."""
        text, decoder, items, at = self.run(*args, "--json"), json.JSONDecoder(), [], 0
        while True:
            while at < len(text) and text[at].isspace():
                at += 1
            if at == len(text):
                return items
            item, at = decoder.raw_decode(text, at)
            items.append(item)

    def history(self, peer):
        return self.json("chat", "history", "--with", peer, "--limit", "1000")["messages"]


# MARK: the peer

class KaChatRouting:
    """One contact's routing state as KaChat keeps it (kasia-protocol §7, seed 000 §3)."""

    def __init__(self, my_alias, their_alias):
        self.my_alias, self.their_alias = my_alias, their_alias
        self.legacy_incoming, self.legacy_outgoing = set(), set()
        self.mode = "deterministicOnly"
        self.peer_supports_deterministic = False
        self.conversation_id = None

    def add_legacy_outgoing(self, alias):
        self.legacy_outgoing.add(alias)
        self.mode = "hybrid"

    def incoming(self):
        legacy = self.legacy_incoming if self.mode != "deterministicOnly" else set()
        return {self.my_alias} | legacy

    def send_alias(self):
        if self.mode == "hybrid" and not self.peer_supports_deterministic and self.legacy_outgoing:
            return min(self.legacy_outgoing)
        return self.their_alias

    def receive_handshake(self, handshake):
        if handshake["aliasless"]:
            self.peer_supports_deterministic = True
        if handshake["alias"]:
            self.legacy_incoming.add(handshake["alias"].lower())
            if self.mode == "deterministicOnly":
                self.mode = "hybrid"

    def receive_message(self, alias):
        """True when the alias is one this conversation reads; our myAlias is evidence."""
        if alias == self.my_alias:
            self.peer_supports_deterministic = True
        return alias in self.incoming()


def sender_of(transaction):
    """kaspa-node.md §5: the first input's address (the owner of the spent output)."""
    inputs = transaction.get("inputs") or []
    entry = (inputs[0].get("verboseData") or {}).get("utxoEntry") if inputs else None
    return ((entry or {}).get("verboseData") or {}).get("scriptPublicKeyAddress")


def output_addresses(transaction):
    return [(o.get("verboseData") or {}).get("scriptPublicKeyAddress") for o in transaction["outputs"]]


def transaction_id(transaction):
    return transaction["verboseData"]["transactionId"]


class Peer:
    """The KaChat-compatible side: keys from the seed, the node through the SDK's RpcClient only."""

    def __init__(self, draws, client):
        self.draws = draws
        self.client = client
        self.secret = draws.secret("wallet key")
        self.key = kaspa.PrivateKey(self.secret.hex())
        self.address = self.key.to_address("testnet").to_string()
        self.coins = []
        self.cursor = None

    # Spending

    async def refresh_coins(self):
        entries = (await self.client.get_utxos_by_addresses({"addresses": [self.address]}))["entries"]
        self.coins = [self.coin(e["outpoint"]["transactionId"], e["outpoint"]["index"], e["utxoEntry"]["amount"],
                                e["utxoEntry"]["blockDaaScore"]) for e in entries]

    def coin(self, txid, index, amount, daa=0):
        script = kaspa.pay_to_address_script(kaspa.Address(self.address)).script
        return {"address": self.address, "outpoint": {"transactionId": txid, "index": index}, "amount": amount,
                "scriptPublicKey": {"version": 0, "script": script}, "blockDaaScore": daa, "isCoinbase": False,
                "covenantId": None}

    async def send(self, payload, pay_to=None, amount=0):
        """§12: one input (KaChat prefers a single UTXO, even an unconfirmed change), `amount` to
        `pay_to` first when given, the rest back to us; the fee is the SDK's mass at the node's
        normal fee rate. Returns the node's transaction id."""
        coin = max(self.coins, key=lambda c: c["amount"])
        paid = [{"address": pay_to, "amount": amount}] if pay_to else []
        feerate = (await self.client.get_fee_estimate())["estimate"]["normalBuckets"][0]["feerate"]
        fee = 0
        while True:  # the change's storage mass moves with the fee; two rounds settle it
            change = coin["amount"] - amount - fee
            tx = kaspa.create_transaction([coin], paid + [{"address": self.address, "amount": change}], 0,
                                          payload.hex(), 1)
            needed = math.ceil(kaspa.calculate_transaction_mass(NETWORK, tx) * feerate)
            if needed <= fee:
                break
            fee = needed
        signed = kaspa.sign_transaction(tx, [self.key], True)
        answer = await self.client.submit_transaction({"transaction": signed, "allowOrphan": False})
        require("peer", "submitTransaction answers the SDK's id", answer["transactionId"] == signed.id,
                f"{answer!r} vs {signed.id}")
        self.coins.remove(coin)
        self.coins.append(self.coin(signed.id, len(paid), change))
        return signed.id

    def seal_to(self, text, address):
        return seal(text, recipient_key(address), self.draws.secret("ephemeral key"), self.draws.draw("nonce", 12))

    # Reading

    async def start_reading(self):
        self.cursor = (await self.client.get_block_dag_info())["sink"]

    async def mempool_from(self, address):
        """The contact's pending transactions: spending its coins, so written by it (§7)."""
        answer = await self.client.get_mempool_entries_by_addresses(
            {"addresses": [address], "includeOrphanPool": False, "filterTransactionPool": False})
        return [s["transaction"] for e in answer["entries"] if e["address"] == address for s in e["sending"]]

    async def accepted_since_cursor(self):
        """Every transaction the virtual chain accepted after the cursor, page after page (§5)."""
        accepted = []
        while True:
            page = await self.client.get_virtual_chain_from_block_v2(
                {"startHash": self.cursor, "dataVerbosityLevel": "High"})
            require("peer", "no reorg under the chain walk", not page["removedChainBlockHashes"],
                    repr(page["removedChainBlockHashes"]))
            for block in page["chainBlockAcceptedTransactions"]:
                accepted += block["acceptedTransactions"]
            if not page["addedChainBlockHashes"]:
                return accepted
            self.cursor = page["addedChainBlockHashes"][-1]

    async def kasia_from(self, address):
        """The contact's Kasia transactions the chain accepted since the last read, in order."""
        return [t for t in await self.accepted_since_cursor()
                if sender_of(t) == address and split_root(bytes.fromhex(t.get("payload") or ""))[0]]


# MARK: 2. setting up

async def set_up(tandem, peer, simnode):
    """A Tandem profile on the simulated node, both wallets funded; answers Tandem's address."""
    group = "setup"
    info = await peer.client.get_server_info()
    require(group, "the SDK reaches the simulated node",
            (info["networkId"], info["isSynced"], info["hasUtxoIndex"]) == (NETWORK, True, True), repr(info))
    keys = tandem.json("keys", "new", "--network", "testnet")
    address = keys["address"]
    require(group, "Tandem's address is a testnet Schnorr address of its key",
            address.startswith("kaspatest:") and address_x_only(address).hex() == keys["publicKey"], repr(keys))
    status = tandem.json("kaspa", "connect", "--network", NETWORK, "--node", simnode.url)
    require(group, "kaspa connect", (status.get("network"), status.get("synced"), status.get("address"))
            == (NETWORK, True, address), repr(status))
    # Two coins each: KaChat stashes its handshake with other coins than the handshake spends.
    for target in (address, address, peer.address, peer.address):
        simnode.control("fund", {"address": target, "amount": 5 * KAS})
    balances = (await peer.client.get_balances_by_addresses({"addresses": [address, peer.address]}))["entries"]
    require_equal(group, "both funded", [b["balance"] for b in balances], [10 * KAS, 10 * KAS])
    await peer.refresh_coins()
    await peer.start_reading()
    print(f"  Tandem {address}\n  peer   {peer.address}", flush=True)
    return address


# MARK: 3–4. the conversation

async def peer_opens(tandem, peer, simnode, me):
    """(a) A KaChat hybrid handshake from the peer, then its saved-handshake stash (§5.1, §5.4,
    §12); answers the peer's routing state for Tandem."""
    group = "(a) peer → Tandem handshake"
    routing = KaChatRouting(*alias_pair(peer.secret, me))
    # A new contact: KaChat makes a legacy alias of its own and announces it (§6.1, §7).
    routing.add_legacy_outgoing(peer.draws.draw("legacy alias", 6).hex())
    now = int(time.time() * 1000)
    routing.conversation_id = peer.draws.draw("conversation id", 6).hex()
    handshake = kachat_handshake(routing.send_alias(), now, routing.conversation_id, me, is_response=False)
    handshake_tx = await peer.send(handshake_payload(peer.seal_to(handshake, me)), pay_to=me, amount=HANDSHAKE_SOMPI)
    stash = kachat_saved_handshake(routing.send_alias(), now, None, me, is_response=False)
    await peer.send(self_stash_payload(SAVED_HANDSHAKE, peer.seal_to(stash, peer.address)))
    simnode.mine()

    arrived = tandem.json_lines("chat", "sync")
    require_equal(group, "sync delivers the handshake (and not the peer's own stash)",
                  [(i["kind"], i["from"], i["txID"]) for i in arrived], [("handshake", peer.address, handshake_tx)])
    contacts = [c["address"] for c in tandem.json("chat", "conversations")]
    require(group, "the peer is a contact", peer.address in contacts, repr(contacts))
    rows = tandem.history(peer.address)
    require_equal(group, "history: one incoming handshake row",
                  [(r["kind"], r["direction"], r["txID"]) for r in rows], [("handshake", "incoming", handshake_tx)])
    equal(group, "KaChat's placeholder for a request (§8)", rows[0]["text"], "[Request to communicate]")
    print(f"  (a) peer handshake {handshake_tx[:16]}… announcing legacy alias {routing.send_alias()}", flush=True)
    return routing


def parsed_payload(group, transaction):
    try:
        return parse_payload(bytes.fromhex(transaction.get("payload") or ""))
    except KasiaError as error:
        check(group, f"payload of {transaction_id(transaction)} parses", False,
              f"{error}: {transaction.get('payload', '')[:80]}")
        return {"kind": None}


async def read_tandem(group, peer, simnode, me):
    """Tandem's Kasia transactions: seen pending in the mempool, then accepted by a mined block
    (the chain walk), both views the same."""
    pending = await peer.mempool_from(me)
    simnode.mine()
    accepted = await peer.kasia_from(me)
    equal(group, "mempool and chain walk show the same transactions",
          [(transaction_id(t), t["payload"]) for t in pending], [(transaction_id(t), t["payload"]) for t in accepted])
    return accepted


async def tandem_answers(tandem, peer, simnode, me, routing):
    """(b) `tandem chat handshake`; the peer finds it, opens it and learns what Tandem announces."""
    group = "(b) Tandem → peer handshake"
    receipt = tandem.json("chat", "handshake", "--to", peer.address)
    found = [(t, parsed_payload(group, t)) for t in await read_tandem(group, peer, simnode, me)]
    handshakes = [(t, p) for t, p in found if p["kind"] == "handshake"]
    require_equal(group, "one handshake from Tandem on chain, under the id it printed",
                  [transaction_id(t) for t, _ in handshakes], [receipt["txID"]])
    transaction, payload = handshakes[0]
    outputs = output_addresses(transaction)
    equal(group, "first output pays the peer 0.2 KAS (§12)", (outputs[0], transaction["outputs"][0]["value"]),
          (peer.address, HANDSHAKE_SOMPI))
    equal(group, "other outputs are Tandem's change", set(outputs[1:]) - {me}, set())
    equal(group, "binary sealed body, as KaChat writes it (§4)", payload["encoding"], "binary")
    try:
        plaintext = open_sealed(payload["sealed"], peer.secret)
        handshake = parse_handshake(plaintext)
    except KasiaError as error:
        require(group, "the peer opens and parses Tandem's handshake", False, str(error))
    print(f"  (b) Tandem handshake {receipt['txID'][:16]}…: {plaintext}", flush=True)
    equal(group, "version 1 (§5.1)", handshake["version"], 1)
    check(group, "marked as a response (§5.1: isResponse on responses)", handshake["isResponse"], plaintext)
    check(group, "recipientAddress names the peer", handshake["recipientAddress"] in (None, peer.address), plaintext)
    # KaChat keeps one conversation id per contact (§7 conversationIds; the vectors' KaChat request
    # and response share one): the response carries the request's.
    equal(group, "the response carries the request's conversationId (§5.1, §7)",
          handshake["conversationId"], routing.conversation_id)
    routing.receive_handshake(handshake)

    stashes = [(t, p) for t, p in found if p["kind"] == "self_stash"]
    equal(group, "Tandem stashes its handshake (§5.4)", [p.get("scope") for _, p in stashes], [SAVED_HANDSHAKE])
    for stash, payload in stashes:
        equal(group, "the stash is a one-output self-spend", output_addresses(stash), [me])
        check(group, "the stash is binary sealed", payload["encoding"] == "binary" and looks_sealed(payload["sealed"]))
    equal(group, "nothing else from Tandem", sorted(p["kind"] for _, p in found), ["handshake", "self_stash"])
    return handshake


async def peer_sends(tandem, peer, simnode, me, routing, texts, group):
    """(c), (e) The peer's messages on the alias its routing says; Tandem's sync delivers each."""
    alias = routing.send_alias()
    sent = []
    for text in texts:
        sent.append((await peer.send(comm_payload(alias, peer.seal_to(text, me))), text))
    want = sorted(("text", peer.address, txid, text) for txid, text in sent)
    # A contact's pending messages are read from the mempool (§7; kaspa-node.md §8), and the
    # block that accepts them later adds nothing.
    pending = tandem.json_lines("chat", "sync")
    equal(group, f"sync delivers the pending messages sent on {alias}",
          sorted((i["kind"], i["from"], i["txID"], i["text"]) for i in pending), want)
    simnode.mine()
    accepted = tandem.json_lines("chat", "sync")
    equal(group, "sync after the block adds nothing new",
          sorted((i["kind"], i["from"], i["txID"], i["text"]) for i in accepted),
          sorted(i for i in want if i[2] not in {p["txID"] for p in pending}))
    return alias


def tandem_message_text(group, transaction, peer, me, routing, expected_alias, root=MAGIC):
    """One of Tandem's messages, checked byte by byte as the peer reads it (§4, §12)."""
    raw = bytes.fromhex(transaction["payload"])
    prefix = root + b"1:comm:"
    name = transaction_id(transaction)[:16]
    require(group, f"{name} starts with {prefix.decode()}", raw.startswith(prefix), repr(raw[:40]))
    # The alias runs up to the first ':' (§4 notes), the body is the rest.
    alias, delimiter, body = raw[len(prefix):].partition(b":")
    require(group, f"{name} alias then ':'", delimiter == b":", repr(raw[:40]))
    alias = alias.decode("ascii", "replace")
    equal(group, f"{name} alias is the one the peer expects for Tandem → peer", alias, expected_alias)
    check(group, f"{name} alias is one the peer's routing reads", routing.receive_message(alias),
          f"{alias!r} not in {sorted(routing.incoming())}")
    try:
        sealed = base64.b64decode(body, validate=True)
    except ValueError:
        require(group, f"{name} body is base64", False, repr(body[:40]))
    equal(group, f"{name} body is canonical padded base64", base64.b64encode(sealed), body)
    check(group, f"{name} sealed layout (nonce, compressed key, tag)", looks_sealed(sealed), sealed[:16].hex())
    equal(group, f"{name} is a one-output self-spend", output_addresses(transaction), [me])
    try:
        return open_sealed(sealed, peer.secret)
    except KasiaError as error:
        check(group, f"{name} opens", False, str(error))
        return None


async def tandem_sends(tandem, peer, simnode, me, routing, announced):
    """(d) `tandem chat send` three times; the peer reads exactly those texts."""
    group = "(d) Tandem → peer messages"
    receipts = []
    for text in TANDEM_TEXTS:
        row = tandem.json("chat", "send", "--to", peer.address, text)
        equal(group, f"send stores {text!r} as sent",
              (row["direction"], row["status"], row["kind"], row["text"]), ("outgoing", "sent", "text", text))
        receipts.append(row["txID"])
    found = await read_tandem(group, peer, simnode, me)
    require_equal(group, "the chain accepted Tandem's messages in the order sent",
                  [transaction_id(t) for t in found], receipts)
    # Tandem tags its messages with the alias its handshake announced (seed 000 §7 item 6); an
    # alias-less handshake means the deterministic one.
    expected = announced["alias"] or routing.my_alias
    texts = [tandem_message_text(group, t, peer, me, routing, expected) for t in found]
    equal(group, "the peer reads exactly Tandem's texts", texts, TANDEM_TEXTS)
    print(f"  (d) Tandem sent {len(found)} messages on {expected}"
          f" ({'our deterministic myAlias' if expected == routing.my_alias else 'a legacy alias'})", flush=True)


def check_history(tandem, peer, incoming, outgoing):
    group = "history"
    rows = tandem.history(peer.address)

    def texts(direction):
        return sorted(r["text"] for r in rows if r["kind"] == "text" and r["direction"] == direction)
    equal(group, "incoming texts, once each", texts("incoming"), sorted(incoming))
    equal(group, "outgoing texts, once each", texts("outgoing"), sorted(outgoing))
    equal(group, "handshake rows: theirs and ours",
          sorted(r["direction"] for r in rows if r["kind"] == "handshake"), ["incoming", "outgoing"])
    equal(group, "no row twice", len({r["txID"] for r in rows}), len(rows))


async def conversation(draws, simnode, work):
    tandem = TandemProfile(os.path.join(work, "tandem-profile"), work)
    client = kaspa.RpcClient(url=simnode.url, encoding="json", network_id=NETWORK)
    await client.connect(timeout_duration=5000, strategy="fallback")
    try:
        peer = Peer(draws, client)
        me = await set_up(tandem, peer, simnode)
        routing = await peer_opens(tandem, peer, simnode, me)
        announced = await tandem_answers(tandem, peer, simnode, me, routing)
        alias = await peer_sends(tandem, peer, simnode, me, routing, PEER_TEXTS, "(c) peer → Tandem messages")
        print(f"  (c) peer sent {len(PEER_TEXTS)} messages on {alias}", flush=True)
        check_history(tandem, peer, PEER_TEXTS, [])
        await tandem_sends(tandem, peer, simnode, me, routing, announced)

        group = "(e) peer → Tandem after the evidence"
        if routing.peer_supports_deterministic:
            check(group, "a message on our deterministic myAlias switched the peer to its theirAlias (§7)",
                  routing.send_alias() == routing.their_alias, f"sends on {routing.send_alias()}")
        else:
            note("Tandem wrote on a legacy alias, so the peer keeps sending on its own legacy alias")
        alias = await peer_sends(tandem, peer, simnode, me, routing, [EVIDENCE_TEXT], group)
        kind = "deterministic theirAlias" if alias == routing.their_alias else "legacy alias"
        print(f"  (e) peer sent 1 message on {alias} (its {kind})", flush=True)
        equal(group, "a second sync adds nothing", tandem.json_lines("chat", "sync"), [])
        check_history(tandem, peer, PEER_TEXTS + [EVIDENCE_TEXT], TANDEM_TEXTS)
    finally:
        await client.disconnect()


# MARK: 5. today's apps: KaChat under kchat: and Kasia web (§16, issue 43)

TODAY_TEXTS = ["kchat: hello from KaChat of today 👋", "second one — ünïcödé 🍜"]


def kasia_items(group, transactions):
    return [(t, parsed_payload(group, t)) for t in transactions]


def payment_memo(group, name, payload, secret):
    """A Tandem payment memo, opened and parsed (§5.3)."""
    try:
        return json.loads(open_sealed(payload["sealed"], secret))
    except (KasiaError, ValueError) as error:
        check(group, f"{name} opens to JSON", False, str(error))
        return {}


async def kachat_today(draws, simnode, work):
    """KaChat of today writes everything under kchat: and reads both roots; Tandem must read its
    handshake, messages, pay: payment, reaction and payment notice once each, answer it under
    kchat:, and answer a Kasia web peer (alias-less handshakes, ciph_msg: only) under ciph_msg:,
    each payment memo in the form that peer reads."""
    tandem = TandemProfile(os.path.join(work, "tandem-today"), work)
    client = kaspa.RpcClient(url=simnode.url, encoding="json", network_id=NETWORK)
    await client.connect(timeout_duration=5000, strategy="fallback")
    try:
        peer = Peer(draws, client)
        me = await set_up(tandem, peer, simnode)
        group = "(k1) KaChat of today → Tandem handshake under kchat:"
        routing = KaChatRouting(*alias_pair(peer.secret, me))
        conversation_id = peer.draws.draw("conversation id", 6).hex()
        # KaChat of today announces the alias it sends with: its deterministic theirAlias.
        handshake = kachat_handshake(routing.their_alias, int(time.time() * 1000), conversation_id, me, False)
        handshake_tx = await peer.send(handshake_payload(peer.seal_to(handshake, me), KCHAT), pay_to=me,
                                       amount=HANDSHAKE_SOMPI)
        simnode.mine()
        arrived = tandem.json_lines("chat", "sync")
        require_equal(group, "sync delivers the kchat: handshake",
                      [(i["kind"], i["from"], i["txID"]) for i in arrived], [("handshake", peer.address, handshake_tx)])

        group = "(k2) Tandem → KaChat of today handshake"
        receipt = tandem.json("chat", "handshake", "--to", peer.address)
        found = kasia_items(group, await read_tandem(group, peer, simnode, me))
        equal(group, "Tandem's handshake and stash go under kchat:, the root the peer wrote",
              sorted((p["kind"], p.get("root")) for _, p in found), [("handshake", "kchat"), ("self_stash", "kchat")])
        answer = next((p for t, p in found if transaction_id(t) == receipt["txID"]), None)
        require(group, "the handshake is on chain under the id Tandem printed", answer is not None)
        try:
            routing.receive_handshake(parse_handshake(open_sealed(answer["sealed"], peer.secret)))
        except KasiaError as error:
            require(group, "the peer opens Tandem's handshake", False, str(error))

        group = "(k3) KaChat of today → Tandem messages under kchat:"
        sent = [(await peer.send(comm_payload(routing.their_alias, peer.seal_to(text, me), KCHAT)), text)
                for text in TODAY_TEXTS]
        pending = tandem.json_lines("chat", "sync")
        equal(group, "sync delivers both, once", sorted((i["txID"], i["text"]) for i in pending), sorted(sent))
        simnode.mine()
        equal(group, "the block that accepts them adds nothing", tandem.json_lines("chat", "sync"), [])

        group = "(k4) Tandem → KaChat of today message"
        row = tandem.json("chat", "send", "--to", peer.address, "to KaChat of today ✓")
        found = await read_tandem(group, peer, simnode, me)
        require_equal(group, "one message on chain", [transaction_id(t) for t in found], [row["txID"]])
        equal(group, "the peer reads it under kchat: on its myAlias",
              tandem_message_text(group, found[0], peer, me, routing, routing.my_alias, KCHAT),
              "to KaChat of today ✓")

        group = "(k5) KaChat's payment, reaction, payment notice and address pool"
        memo = {"type": "payment", "message": "for the tickets 🎟", "amount": 125_000_000,
                "timestamp": int(time.time() * 1000), "version": 1}
        pay_tx = await peer.send(pay_payload(peer.seal_to(compact_json(memo.items()), me), KCHAT), pay_to=me,
                                 amount=125_000_000)
        notice_tx = peer.draws.draw("notice tx", 32).hex()
        envelopes = [
            compact_json([("type", "reaction"), ("targetTxId", row["txID"]), ("emoji", "👍"), ("action", "add")]),
            compact_json([("type", "payment_notice"), ("txId", notice_tx), ("amountSompi", 30_000_000),
                          ("address", peer.address), ("memo", "pool tip")]),
            compact_json([("type", "addr_pool"), ("addresses", [peer.address])]),
        ]
        sent_envelopes = []
        for envelope in envelopes:
            sent_envelopes.append(await peer.send(comm_payload(routing.their_alias, peer.seal_to(envelope, me), KCHAT)))
        simnode.mine()
        arrived = tandem.json_lines("chat", "sync")
        equal(group, "sync shows the payment and the notice as payments, the reaction on its target, and nothing else",
              sorted((i["kind"], i["txID"], i.get("amountSompi"), i["text"]) for i in arrived),
              sorted([("payment", pay_tx, 125_000_000, memo["message"]), ("payment", notice_tx, 30_000_000, "pool tip"),
                      ("reaction", sent_envelopes[0], None, "👍")]))
        equal(group, "the reaction names the message it changed",
              [i["id"] for i in arrived if i["kind"] == "reaction"], [row["id"]])
        equal(group, "replays change nothing: a second sync adds nothing", tandem.json_lines("chat", "sync"), [])
        rows = tandem.history(peer.address)
        reacted = [r for r in rows if r["txID"] == row["txID"]]
        equal(group, "the reaction shows on the message it targets", [r.get("reactions") for r in reacted], [["👍"]])
        equal(group, "no envelope is shown as raw JSON", [r["text"] for r in rows if (r["text"] or "").startswith("{")],
              [])
        equal(group, "the payment row has the amount on chain and the memo",
              [(r["amountSompi"], r["text"]) for r in rows if r["txID"] == pay_tx], [(125_000_000, memo["message"])])

        group = "(k6) tandem chat pay → KaChat of today"
        paid = tandem.json("chat", "pay", "--to", peer.address, "--amount", "0.5", "--memo", "thanks 🙏")
        found = kasia_items(group, await read_tandem(group, peer, simnode, me))
        payments = [(t, p) for t, p in found if p["kind"] == "payment"]
        require_equal(group, "one payment on chain, under the printed id", [transaction_id(t) for t, _ in payments],
                      [paid["transactionId"]])
        transaction, payload = payments[0]
        equal(group, "KaChat's form: kchat:1:pay: with binary sealed bytes",
              (payload["root"], bytes.fromhex(transaction["payload"])[:12], payload["encoding"]),
              ("kchat", b"kchat:1:pay:", "binary"))
        equal(group, "the first output pays the peer 0.5 KAS",
              (output_addresses(transaction)[0], transaction["outputs"][0]["value"]), (peer.address, 50_000_000))
        opened = payment_memo(group, "the memo", payload, peer.secret)
        equal(group, "the memo is KaChat's JSON: sompi as an integer",
              (opened.get("type"), opened.get("message"), opened.get("amount"), opened.get("version")),
              ("payment", "thanks 🙏", 50_000_000, 1))
        check(group, "the memo's amount is an integer", isinstance(opened.get("amount"), int), repr(opened))

        group = "(w) Kasia web peer: ciph_msg: only"
        web = Peer(draws, client)
        for _ in range(2):
            simnode.control("fund", {"address": web.address, "amount": 5 * KAS})
        await web.refresh_coins()
        await web.start_reading()
        web_handshake = compact_json([("type", "handshake"), ("timestamp", int(time.time() * 1000)), ("version", 1)])
        await web.send(handshake_payload(web.seal_to(web_handshake, me)), pay_to=me, amount=HANDSHAKE_SOMPI)
        simnode.mine()
        equal(group, "sync delivers the web handshake", [i["kind"] for i in tandem.json_lines("chat", "sync")],
              ["handshake"])
        tandem.json("chat", "handshake", "--to", web.address)
        tandem.json("chat", "send", "--to", web.address, "hello web")
        tandem.json("chat", "pay", "--to", web.address, "--amount", "0.25", "--memo", "web tip")
        found = kasia_items(group, await read_tandem(group, web, simnode, me))
        equal(group, "everything to the web peer goes under ciph_msg:",
              sorted((p["kind"], p.get("root")) for _, p in found),
              [("comm", "ciph_msg"), ("handshake", "ciph_msg"), ("payment", "ciph_msg"), ("self_stash", "ciph_msg")])
        web_routing = KaChatRouting(*alias_pair(web.secret, me))
        for transaction, payload in found:
            if payload["kind"] == "comm":
                equal(group, "the web peer reads the message on its myAlias",
                      tandem_message_text(group, transaction, web, me, web_routing, web_routing.my_alias), "hello web")
            if payload["kind"] == "payment":
                equal(group, "Kasia web's form: ciph_msg:1:payment: with the sealed bytes as hex text",
                      (bytes.fromhex(transaction["payload"])[:19], payload["encoding"]),
                      (b"ciph_msg:1:payment:", "hex"))
                opened = payment_memo(group, "the web memo", payload, web.secret)
                equal(group, "the memo is the web's JSON: the amount in KAS",
                      (opened.get("type"), opened.get("message"), opened.get("amount")), ("payment", "web tip", 0.25))
                equal(group, "the first output pays the web peer 0.25 KAS",
                      (output_addresses(transaction)[0], transaction["outputs"][0]["value"]), (web.address, 25_000_000))
        print(f"  (k) KaChat of today and Kasia web: {len(found)} web transactions read", flush=True)
        backups(tandem, peer, me, work)
    finally:
        await client.disconnect()


# MARK: (x) backups

ISO_SECONDS = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"
UPPER_UUID = r"^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$"


def tandem_secret(group, tandem, me):
    """Tandem's wallet key, derived by the SDK from the words `keys export` prints."""
    exported = tandem.json("keys", "export", "--mnemonic")
    require(group, "Tandem's words have no BIP-39 passphrase", exported.get("bip39Passphrase") is False, repr(exported))
    seed = kaspa.Mnemonic(exported["mnemonic"]).to_seed(None)
    key = kaspa.PrivateKeyGenerator(kaspa.XPrv(seed).to_string(), False, exported["account"]).receive_key(0)
    require_equal(group, "the SDK derives Tandem's address from its words", key.to_address("testnet").to_string(), me)
    return bytes.fromhex(key.to_string())


def kachat_envelope(archive_text, key, nonce, wallet):
    """KaChat's encrypted backup envelope v1 (§16) around an archive's JSON text."""
    return {"kachatEncryptedBackup": 1, "cipher": "aes-256-gcm", "nonce": base64.b64encode(nonce).decode(),
            "ciphertext": base64.b64encode(AESGCM(key).encrypt(nonce, archive_text.encode("utf-8"), None)).decode(),
            "walletHint": hashlib.sha256(wallet.encode()).digest()[:8].hex()}


def backups(tandem, peer, me, work):
    group = "(x) backups: KaChat's archive and Kasia web's export"
    secret = tandem_secret(group, tandem, me)
    key = hashlib.sha256(secret + b"kachat-backup-v1").digest()
    exported = os.path.join(work, "tandem-kachat-backup.json")
    written = tandem.json("chat", "export", "--format", "kachat", "--out", exported)
    with open(exported, encoding="utf-8") as file:
        envelope = json.load(file)
    equal(group, "the envelope has the spec's members", sorted(envelope),
          ["cipher", "ciphertext", "kachatEncryptedBackup", "nonce", "walletHint"])
    equal(group, "version, cipher and wallet hint",
          (envelope.get("kachatEncryptedBackup"), envelope.get("cipher"), envelope.get("walletHint")),
          (1, "aes-256-gcm", hashlib.sha256(me.encode()).digest()[:8].hex()))
    try:
        plain = AESGCM(key).decrypt(base64.b64decode(envelope["nonce"]), base64.b64decode(envelope["ciphertext"]), None)
    except (InvalidTag, KeyError, ValueError) as error:
        require(group, "the archive opens with SHA-256(wallet key ‖ kachat-backup-v1)", False, repr(error))
    archive = json.loads(plain)
    equal(group, "schema 1 of this wallet, exported in whole seconds",
          (archive.get("schemaVersion"), archive.get("walletAddress"),
           bool(re.match(ISO_SECONDS, archive.get("exportedAt", "")))), (1, me, True))
    conversations = [c for c in archive.get("conversations", []) if c.get("contactAddress") == peer.address]
    require_equal(group, "one conversation with the peer", len(conversations), 1)
    messages = conversations[0]["messages"]
    rows = tandem.history(peer.address)
    took = sorted(r["transactionId"] for r in rows if r["status"] in ("sent", "confirmed") and r["transactionId"])
    equal(group, "every row the network took, once", sorted(m["txId"] for m in messages), took)
    equal(group, "the export counts what it wrote", written["messages"],
          sum(len(c["messages"]) for c in archive["conversations"]))
    kinds = {"text": "contextual", "payment": "payment", "handshake": "handshake", "audio": "audio"}
    by_tx = {r["transactionId"]: r for r in rows}
    shapes = []
    for message in messages:
        row = by_tx.get(message["txId"], {})
        outgoing = row.get("direction") == "outgoing"
        shapes.append((
            message["messageType"] == kinds.get(row.get("kind")), message["isOutgoing"] is outgoing,
            (message["senderAddress"], message["receiverAddress"]) == ((me, peer.address) if outgoing
                                                                       else (peer.address, me)),
            message["deliveryStatus"] == "sent", bool(re.match(UPPER_UUID, message["id"])),
            bool(re.match(ISO_SECONDS, message["timestamp"])), isinstance(message["blockTime"], int)))
    equal(group, "each message has KaChat's type, direction, addresses, status, id and dates",
          [s for s in shapes if not all(s)], [])
    texts = {r["transactionId"]: r["text"] for r in rows if r["kind"] == "text" and r["text"] is not None}
    equal(group, "texts as Tandem shows them", sorted(m["content"] for m in messages if m["txId"] in texts),
          sorted(texts.values()))
    equal(group, "the peer's payment reads as KaChat writes it",
          [m["content"] for m in messages if m["messageType"] == "payment" and not m["isOutgoing"]
           and m["content"].endswith("for the tickets 🎟")], ["Received 1.25 KAS — for the tickets 🎟"])

    # An archive the peer writes as KaChat does: one message Tandem never saw, one unsent.
    draws = peer.draws
    new_tx = draws.draw("archived tx", 32).hex()
    archived = {"schemaVersion": 1, "exportedAt": "2026-11-30T10:00:00Z", "walletAddress": me, "conversations": [{
        "contactAddress": peer.address, "contactAlias": "KaChat peer", "unreadCount": 0, "messages": [
            {"id": draws.draw("archived id", 16).hex().upper()[:8] + "-0000-4000-8000-000000000001", "txId": new_tx,
             "senderAddress": peer.address, "receiverAddress": me, "content": "from the peer's archive ✓",
             "timestamp": "2026-11-30T09:59:00Z", "blockTime": 1796032740000, "isOutgoing": False,
             "messageType": "contextual", "deliveryStatus": "sent"},
            {"id": "6F9619FF-8B86-D011-B42D-00C04FC96499", "txId": "pending_6F9619FF", "senderAddress": me,
             "receiverAddress": peer.address, "content": "draft", "timestamp": "2026-11-30T09:59:30Z",
             "blockTime": 1796032770000, "isOutgoing": True, "messageType": "contextual",
             "deliveryStatus": "pending"}]}]}
    written_by_peer = os.path.join(work, "peer-kachat-backup.json")
    with open(written_by_peer, "w", encoding="utf-8") as file:
        json.dump(kachat_envelope(json.dumps(archived, indent=2, sort_keys=True, ensure_ascii=False), key,
                                  draws.draw("backup nonce", 12), me), file)
    report = tandem.json("chat", "import", written_by_peer)
    equal(group, "the peer's KaChat archive imports: one new message, the unsent one skipped",
          (report["format"], report["messagesAdded"], report["messagesSkipped"]), ("kachat", 1, 1))
    equal(group, "Tandem shows it", [r["text"] for r in tandem.history(peer.address) if r["transactionId"] == new_tx],
          ["from the peer's archive ✓"])
    equal(group, "a second import adds nothing", tandem.json("chat", "import", written_by_peer)["messagesAdded"], 0)
    equal(group, "Tandem's own export imported back adds and updates nothing",
          [tandem.json("chat", "import", exported)[k] for k in ("messagesAdded", "messagesUpdated")], [0, 0])

    # Kasia web's export, sealed to Tandem's key with the peer's cipher.
    web_tx = draws.draw("web backup tx", 32).hex()
    inner = {"version": "1.0", "timestamp": 1796032800000, "type": "kaspa-messages-backup",
             "data": {me: [{"transactionId": web_tx, "senderAddress": peer.address, "recipientAddress": me,
                            "timestamp": 1796032800000, "content": "from Kasia web's backup", "amount": 0.2,
                            "payload": ""}]},
             "nicknames": {}, "conversations": {"active": [], "pending": []}}
    sealed = seal(json.dumps(inner), recipient_key(me), draws.secret("backup ephemeral key"), draws.draw("nonce", 12))
    web_file = os.path.join(work, "kasia-web-backup.json")
    with open(web_file, "w", encoding="utf-8") as file:
        json.dump({"type": "kaspa-messages-backup", "data": sealed.hex()}, file)
    report = tandem.json("chat", "import", web_file)
    equal(group, "Kasia web's export imports its message", (report["format"], report["messagesAdded"]), ("kasia-web", 1))
    equal(group, "Tandem shows it", [r["text"] for r in tandem.history(peer.address) if r["transactionId"] == web_tx],
          ["from Kasia web's backup"])
    equal(group, "a second import adds nothing", tandem.json("chat", "import", web_file)["messagesAdded"], 0)
    print(f"  (x) backups: {len(messages)} messages exported as KaChat's, 2 imported", flush=True)


# MARK: main

def stop(*_):
    """SIGTERM ends the run as Ctrl-C does, through the clean-up below."""
    raise KeyboardInterrupt


async def converse(seed, simnode, work):
    """The conversation within its time limit; inside the event loop SIGTERM cancels it, so the
    node connection closes on the way out."""
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)
    draws = SeededBytes(seed)
    await asyncio.wait_for(conversation(draws, simnode, work), 100)
    await asyncio.wait_for(kachat_today(draws, simnode, work), 100)


def main():
    seed = int(os.environ.get("KASIA_PEER_SEED", "0")) or int.from_bytes(os.urandom(8), "little")
    print(f"kasia-sdk-peer: seed {seed} (KASIA_PEER_SEED={seed} replays the peer), vectors {VECTORS}", flush=True)
    signal.signal(signal.SIGTERM, stop)
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="kasia-sdk-peer-")
    simnode = None
    try:
        with open(VECTORS, encoding="utf-8") as file:
            check_vectors(json.load(file))
        if failures:
            raise Abort("the peer's codecs disagree with the vectors; not talking to Tandem")
        simnode = Simnode()
        simnode.wait_ready()
        asyncio.run(converse(seed, simnode, work))
    except Abort as error:
        if not error.counted:
            check("run", str(error), False)
        print("ABORT: the scenario cannot go on after that failure")
    except (TimeoutError, asyncio.TimeoutError):
        check("run", "each scenario finishes within 100 s", False)
    except (KeyboardInterrupt, asyncio.CancelledError):
        check("run", "not interrupted", False)
    except Exception as error:  # a bug here, or an answer the peer cannot read: say where
        traceback.print_exc()
        check("run", f"no unexpected {type(error).__name__}", False, str(error))
    finally:
        if simnode:
            simnode.stop()
        shutil.rmtree(work, ignore_errors=True)
    total = sum(counts.values())
    groups = ", ".join(f"{group} {count}" for group, count in counts.items())
    tail = f"in {time.monotonic() - started:.1f} s, {len(notes)} note(s)"
    if failures:
        print(f"kasia-sdk-peer: {len(failures)} of {total} checks failed ({groups}) {tail}, seed {seed}")
        sys.exit(1)
    print(f"kasia-sdk-peer: all {total} checks passed ({groups}) {tail}")


if __name__ == "__main__":
    main()
