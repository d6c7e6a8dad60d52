import CNcursesw
import ChatScreen
import Foundation

/// The thin curses layer of `tandem chat ui` (issue 16 item 1): ncursesw puts the terminal in
/// the alternate screen, decodes keys and draws a ``ScreenFrame``; everything else is the
/// screen model's. One thread owns it: curses is not thread-safe.
final class ChatTerminal {
    /// What one read returned.
    enum Input {
        case key(ScreenKey)
        case resize
        /// The terminal went away (its tmux pane or ssh connection closed, no SIGHUP seen).
        case hangup
        case none
    }

    let colors: Bool
    private var stopped = false

    /// Enters curses mode: raw keys (Ctrl-C is a key, not a signal), no echo, keypad and wheel
    /// decoding, colours unless `NO_COLOR` is set (no-color.org).
    init(colors: Bool) {
        // ncursesw draws multibyte text only under a UTF-8 LC_CTYPE.
        setlocale(LC_ALL, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        set_escdelay(25)
        initscr()
        raw()
        noecho()
        nonl()
        keypad(tandem_stdscr(), true)
        mousemask(tandem_wheel_up_mask() | tandem_wheel_down_mask(), nil)
        wtimeout(tandem_stdscr(), 40)
        self.colors = colors && has_colors()
        if self.colors {
            start_color()
            use_default_colors()
            init_pair(1, Int16(COLOR_CYAN), -1)
            init_pair(2, Int16(COLOR_GREEN), -1)
            init_pair(3, Int16(COLOR_RED), -1)
            init_pair(4, Int16(COLOR_YELLOW), -1)
            init_pair(5, Int16(COLOR_MAGENTA), -1)
        }
    }

    /// Leaves curses mode and restores the terminal; safe to call twice.
    /// The terminal's bell (curses `beep`: audible, or a flash where the terminal has no bell).
    func beep() { _ = CNcursesw.beep() }

    func stop() {
        guard !stopped else { return }
        stopped = true
        endwin()
    }

    var size: (width: Int, height: Int) { (Int(tandem_columns()), Int(tandem_lines())) }

    /// Waits up to 40 ms for a key.
    func read() -> Input {
        var code: wint_t = 0
        let result = wget_wch(tandem_stdscr(), &code)
        if result == ERR { return Self.terminalHungUp() ? .hangup : .none }
        if result == KEY_CODE_YES { return functionKey(Int32(code)) }
        switch code {
        case 10, 13: return .key(.enter)
        case 27: return escapeSequence()
        case 9: return .key(.tab)
        case 8, 127: return .key(.backspace)
        case 1...26: return .key(.control(Character(Unicode.Scalar(UInt8(code) + 96))))
        default:
            guard let scalar = Unicode.Scalar(UInt32(code)), code >= 32 else { return .none }
            return .key(.character(Character(scalar)))
        }
    }

    /// Whether standard input's terminal hung up. Curses then returns from every read at once
    /// instead of after its timeout, and the key loop would spin a core until killed.
    static func terminalHungUp() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) >= 0 else { return false }
        return descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// ESC alone, or ESC then Enter (Alt+Enter); other Alt combinations are ignored.
    private func escapeSequence() -> Input {
        wtimeout(tandem_stdscr(), 30)
        defer { wtimeout(tandem_stdscr(), 40) }
        var next: wint_t = 0
        let result = wget_wch(tandem_stdscr(), &next)
        if result == ERR { return .key(.escape) }
        if result == OK, next == 10 || next == 13 { return .key(.altEnter) }
        return .none
    }

    private func functionKey(_ code: Int32) -> Input {
        if code == KEY_MOUSE {
            let state = tandem_mouse_state()
            if state & tandem_wheel_up_mask() != 0 { return .key(.wheelUp) }
            if state & tandem_wheel_down_mask() != 0 { return .key(.wheelDown) }
            return .none
        }
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC: return .key(.delete)
        case KEY_ENTER: return .key(.enter)
        case KEY_RESIZE: return .resize
        default: return .none
        }
    }

    /// Copies a frame to the screen in one update.
    func draw(_ frame: ScreenFrame) {
        let window = tandem_stdscr()
        for (row, line) in frame.lines.enumerated() {
            wmove(window, Int32(row), 0)
            for segment in line.segments {
                let (attributes, pair) = style(segment.style)
                wattr_set(window, attributes, pair, nil)
                waddstr(window, segment.text)
            }
        }
        wattr_set(window, 0, 0, nil)
        if let cursor = frame.cursor {
            curs_set(1)
            wmove(window, Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        wnoutrefresh(window)
        doupdate()
    }

    /// Attributes and colour pair of a style; without colours, attributes alone tell them apart.
    private func style(_ style: FrameStyle) -> (attr_t, Int16) {
        switch style {
        case .normal: (0, 0)
        case .title, .selected: (tandem_attr_reverse(), 0)
        case .dim: (tandem_attr_dim(), 0)
        case .unread: (tandem_attr_bold(), 0)
        case .incoming: (0, colors ? 1 : 0)
        case .outgoing: (0, colors ? 2 : 0)
        case .error: (tandem_attr_bold(), colors ? 3 : 0)
        case .marker: (tandem_attr_bold(), colors ? 4 : 0)
        case .separator: (colors ? 0 : tandem_attr_dim(), colors ? 5 : 0)
        }
    }
}
