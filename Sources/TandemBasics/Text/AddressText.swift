/// The one short form of a Kaspa address that every screen and human line shows where a person
/// has no name (issue 51 item 5): the first six and last four characters of the address's body,
/// without the network prefix (`qqyvvv…67cf`). JSON always carries the whole address.
public enum AddressText {
    public static func short(_ address: String) -> String {
        let body = address.split(separator: ":").last.map(String.init) ?? address
        guard body.count > 12 else { return address }
        return String(body.prefix(6)) + "…" + String(body.suffix(4))
    }
}
