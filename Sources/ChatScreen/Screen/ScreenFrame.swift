/// How a piece of the screen is drawn; the terminal layer maps each to curses attributes, and
/// to colours unless `NO_COLOR` is set (issue 16 item 6).
public enum FrameStyle: Hashable, Sendable {
    case normal
    case title
    case dim
    case selected
    case unread
    case incoming
    case outgoing
    case error
    case marker
    case separator
}

/// A run of text in one style.
public struct FrameSegment: Hashable, Sendable {
    public var text: String
    public var style: FrameStyle

    public init(_ text: String, _ style: FrameStyle = .normal) {
        self.text = text
        self.style = style
    }
}

/// One screen row: segments whose display columns add up to the frame's width exactly.
public struct FrameLine: Hashable, Sendable {
    public var segments: [FrameSegment]

    public init(_ segments: [FrameSegment] = []) { self.segments = segments }

    /// The row as plain text (what `tmux capture-pane -p` would show).
    public var text: String { segments.map(\.text).joined() }

    /// A row holding `text` in `style`, cut or padded to `width` columns.
    public static func filled(_ text: String, width: Int, style: FrameStyle = .normal) -> FrameLine {
        FrameLine([FrameSegment(DisplayWidth.fit(text, width: width), style)])
    }

    /// Appends `text` cut or padded to exactly `width` columns.
    public mutating func append(_ text: String, width: Int, style: FrameStyle = .normal) {
        segments.append(FrameSegment(DisplayWidth.fit(text, width: width), style))
    }
}

/// The off-screen buffer a render produces: exactly `height` rows of `width` columns and where
/// the terminal cursor goes. The curses layer copies it to the screen; tests and benchmarks read
/// it directly.
public struct ScreenFrame: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public var lines: [FrameLine]
    /// Row and column of the visible cursor, `nil` to hide it.
    public var cursor: ScreenPoint?

    public init(width: Int, height: Int, lines: [FrameLine], cursor: ScreenPoint?) {
        self.width = width
        self.height = height
        self.lines = lines
        self.cursor = cursor
    }

    public var text: [String] { lines.map(\.text) }
}

/// A cell position on the screen.
public struct ScreenPoint: Hashable, Sendable {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}
