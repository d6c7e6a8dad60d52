/// Row counts per kind, for `/kasia/metrics`.
public struct KasiaCounts: Sendable, Equatable {
    public var byKind: [KasiaRecordKind: Int64]

    public init(byKind: [KasiaRecordKind: Int64]) { self.byKind = byKind }

    public subscript(kind: KasiaRecordKind) -> Int64 { byKind[kind] ?? 0 }
}
