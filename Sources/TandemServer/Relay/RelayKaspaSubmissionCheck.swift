import KasiaProtocol
import KaspaCrypto
import KaspaTransaction
import TandemAPI
import TandemBasics
import TandemServerStore

/// Turns a signed Kaspa transaction (``RelayKaspaSubmission``, issue 15 item 4) into the row to
/// store, or the refusal to answer.
///
/// The transaction stands in for the relay's own signed form: every input's signature must
/// verify against the script of the UTXO it spends (BIP-340 for Schnorr UTXOs, ECDSA for ECDSA
/// ones); a pay-to-script-hash input is refused with `UNSUPPORTED_SCRIPT`, since its redeem
/// script needs a script engine. The row is then what the
/// kasia-indexer makes of a transaction: sender = the first input's address, `tx_id` = the Kaspa
/// transaction id, payload = the transaction's payload, and for handshakes and payments
/// receiver and amount = the first output (self-spends keep neither, as in the signed form).
/// `nonce` is 0 and `signature` the first input's signature, so a row can still be re-verified.
struct RelayKaspaSubmissionCheck {
    /// Bounds the verification work of one request: far above a standard-mass transaction (≈ 84 inputs).
    static let maxInputs = 128
    static let maxOutputs = 128

    let transaction: KaspaTransaction

    init(_ transaction: KaspaTransaction) throws(APIFailure) {
        guard transaction.payload.count <= RelaySubmissionCheck.maxPayloadBytes else {
            throw APIFailure(
                .contentTooLarge, .payloadTooLarge,
                "payload is larger than \(RelaySubmissionCheck.maxPayloadBytes) bytes")
        }
        guard !transaction.inputs.isEmpty, transaction.inputs.count <= Self.maxInputs,
            !transaction.outputs.isEmpty, transaction.outputs.count <= Self.maxOutputs
        else {
            throw APIFailure.validation([
                "[body.transaction] Invalid input: 1 to \(Self.maxInputs) inputs and 1 to \(Self.maxOutputs) outputs"
            ])
        }
        guard transaction.version == 0, transaction.isNativeSubnetwork, transaction.gas == 0 else {
            throw APIFailure.validation([
                "[body.transaction] Invalid input: a Kasia transaction has version 0, the native subnetwork and gas 0"
            ])
        }
        self.transaction = transaction
    }

    /// Verifies the signatures, classifies the payload and applies the receiver rules.
    func draft() throws(APIFailure) -> (draft: KasiaRecordDraft, sender: KaspaAddress) {
        do { try transaction.verifySignatures() } catch {
            switch error {
            case .scriptHashUnsupported, .unsupportedScript:
                throw APIFailure(.badRequest, .unsupportedScript, error.description)
            case .missingUTXO, .malformedSignatureScript, .sighashType:
                throw APIFailure.validation(["[body.transaction] Invalid input: \(error.description)"])
            default:
                throw APIFailure(.badRequest, .invalidSignature, error.description)
            }
        }
        // verifySignatures passed: every input has a UTXO with a Schnorr or ECDSA
        // pay-to-public-key script, so the first input names a standard address.
        guard let firstUTXO = transaction.inputs.first?.utxo,
            let sender = firstUTXO.scriptPublicKey.address(network: firstUTXO.address?.network ?? .mainnet)
        else { throw APIFailure(.badRequest, .unsupportedScript, "the first input does not spend a standard address") }
        let envelope: KasiaEnvelope
        do { envelope = try KasiaEnvelope(parsing: transaction.payload) } catch {
            throw APIFailure(.badRequest, .notAKasiaPayload, "payload: \(error.description)")
        }
        let payload = envelope.payload
        guard envelope.encoded == transaction.payload else {
            throw APIFailure(.badRequest, .notAKasiaPayload, "payload is not in the canonical form of its kind")
        }
        let (kind, tag) = RelaySubmissionCheck.classify(payload)
        let needsReceiver = kind == .handshake || kind == .payment
        var receiver: String?
        var amount: Int64 = 0
        if needsReceiver, let first = transaction.outputs.first {
            guard let address = first.scriptPublicKey.address(network: sender.network) else {
                throw APIFailure(.badRequest, .invalidAddress, "the first output does not pay a standard address")
            }
            guard first.value <= UInt64(Int64.max) else {
                throw APIFailure(.badRequest, .validationError, "amount exceeds \(Int64.max) sompi")
            }
            receiver = address.description
            amount = Int64(first.value)
        }
        let signature = Hex.encode(transaction.inputs[0].signatureScript[1..<65])
        let draft = KasiaRecordDraft(
            txID: Hex.encode(transaction.id), kind: kind, sender: sender.description, receiver: receiver,
            amount: amount, tag: tag, body: payload.indexerStoredBody, payload: transaction.payload, nonce: 0,
            signature: signature)
        return (draft, sender)
    }
}
