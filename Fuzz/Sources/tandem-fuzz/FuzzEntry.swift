import Foundation

/// The target this process fuzzes, from `TANDEM_FUZZ_TARGET` (set by `scripts/fuzz`); read once.
let selectedTarget: FuzzTarget? = ProcessInfo.processInfo.environment["TANDEM_FUZZ_TARGET"].flatMap(FuzzTarget.init)

/// libFuzzer's entry point (issue 14 item 1): one input, one call. A broken invariant is a
/// `fatalError`, which libFuzzer reports as a crash and saves as a reproducer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = selectedTarget else {
        fatalError("set TANDEM_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    target.run(bytes)
    return 0
}

/// libFuzzer's driver, which parses the command line and runs the loop (LLVM ≥ 11).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable target's entry point under `<module>_main`; the module has no
/// top-level code (`-parse-as-library`), so this hands the process to libFuzzer's driver.
@_cdecl("tandem_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}
