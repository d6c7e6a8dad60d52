import KaspaCrypto
import KaspaRPC
import KaspaTransaction

extension RPCScriptVerboseData {
    /// What a node's verbose data says of `script`: its class name (kaspa-node.md §3) and address
    /// (empty for a script with none).
    init(_ script: KaspaScriptPublicKey, network: KaspaNetwork) {
        self.init(
            scriptPublicKeyType: Self.scriptClass(script),
            scriptPublicKeyAddress: script.address(network: network)?.description ?? "")
    }

    /// The script class names of verbose data.
    static func scriptClass(_ script: KaspaScriptPublicKey) -> String {
        if script.schnorrPublicKey != nil { return "PubKey" }
        if script.ecdsaPublicKey != nil { return "PubKeyECDSA" }
        if script.isScriptHash { return "ScriptHash" }
        return "NonStandard"
    }
}
