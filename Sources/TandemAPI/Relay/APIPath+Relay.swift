extension APIPath {
    /// `POST`: a signed Kasia payload (``RelaySubmission`` → ``RelayReceipt``).
    public static let kasiaTransactions = "/kasia/transactions"
    /// The kasia-indexer-compatible reads (kasia-protocol §10); point a Kasia client at
    /// `http://host:port/kasia`.
    public static let kasiaPrefix = "/kasia"
    public static let kasiaHandshakesBySender = "/kasia/handshakes/by-sender"
    public static let kasiaHandshakesByReceiver = "/kasia/handshakes/by-receiver"
    public static let kasiaContextualMessagesBySender = "/kasia/contextual-messages/by-sender"
    public static let kasiaPaymentsBySender = "/kasia/payments/by-sender"
    public static let kasiaPaymentsByReceiver = "/kasia/payments/by-receiver"
    public static let kasiaSelfStashByOwner = "/kasia/self-stash/by-owner"
    public static let kasiaMetrics = "/kasia/metrics"
    /// `GET`: Server-Sent Events of new rows for watched `alias=` and `address=` parameters.
    public static let kasiaStream = "/kasia/stream"
}
