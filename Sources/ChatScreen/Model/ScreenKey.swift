/// One key press or wheel step, as the terminal layer decodes it (issue 16 items 3–4). The
/// screen model maps keys to actions; it never sees escape sequences.
public enum ScreenKey: Hashable, Sendable {
    /// A printable character typed.
    case character(Character)
    case enter
    /// Alt+Enter (ESC then Enter): a newline in the composer.
    case altEnter
    case escape
    /// Ctrl+letter, lower-case (`"c"` is Ctrl-C, `"r"` retries a failed message).
    case control(Character)
    case backspace
    case delete
    case up
    case down
    case left
    case right
    case pageUp
    case pageDown
    case home
    case end
    case tab
    case wheelUp
    case wheelDown
}
