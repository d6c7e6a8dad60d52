/// The mutation an anchor correction compensated for.
public enum CorrectionCause: Hashable, Sendable {
    case reveal
    case pageLoaded
    case tailArrived
    case upsert
    case delete
    case heightChanged
    case viewportChanged
    case trim
}
