/// The largest Kasia payload Tandem keeps, relays or serves (issue 50 item 4): the relay's
/// submission limit, 10 KiB, which every payload of KaChat and Kasia web fits. One number for
/// the relay, the server's chain ingest, its reads and the client, which live in modules that
/// share only this one.
public enum KasiaPayloadLimit {
    public static let bytes = 10_240
}
