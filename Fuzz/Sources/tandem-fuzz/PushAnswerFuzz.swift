import Foundation
import TandemAPI

/// `POST /api/redo/nodes` answers as the sync client reads them (issue 49 item 6): first
/// ``RedoNodePushResponse/init(compactWire:)``, which takes only the server's exact compact form,
/// then `APIJSON.decoder()` for anything else.
///
/// Differential: the compact reader is a shortcut, so whatever it accepts `APIJSON.decoder()`
/// must accept too, as the same results; a text it declines is the decoder's to judge, as before.
enum PushAnswerFuzz {
    static func run(_ bytes: [UInt8]) {
        let data = Data(bytes)
        guard let compact = RedoNodePushResponse(compactWire: data) else { return }
        guard let reference = try? APIJSON.decoder().decode(RedoNodePushResponse.self, from: data) else {
            return invariant(false, "the compact reader accepted what the decoder rejects")
        }
        invariant(compact == reference, "the compact reader read other results than the decoder")
    }
}
