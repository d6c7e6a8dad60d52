import Logging

extension Logger {
    /// A logger that writes only critical lines: the servers tests start stay quiet.
    static func quiet(_ label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = .critical
        return logger
    }
}
