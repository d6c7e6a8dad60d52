import Foundation
import TandemBasics

/// The conversation list's keys (issue 51 item 4): letters typed there filter the list, as a
/// search box does, so typing can never accept, decline, delete or quit. Actions are Ctrl-keys,
/// and those that cost money or cannot be undone ask first.
extension ChatScreen {
    /// The keys `?` shows, and the receipts' legend.
    public static let helpLines = [
        "Keys in the list",
        "  letters      filter the list (Backspace edits, Esc clears)",
        "  ↑ ↓  Enter   choose and open a conversation",
        "  Ctrl-N       new conversation (address or contact name)",
        "  Ctrl-R       rename the contact",
        "  Ctrl-O       mute or unmute",
        "  Ctrl-A       accept a request to chat (asks first)",
        "  Ctrl-D       decline a request to chat (asks first)",
        "  Ctrl-X       delete the conversation's contact (asks first)",
        "  Esc          quit (with an empty filter); Ctrl-C quits",
        "Keys in a conversation",
        "  Enter send · Alt+Enter newline · PgUp/PgDn scroll · End newest",
        "  Ctrl-R retry a failed message · Esc back to the list",
        "Receipts",
        "  …sending   ✓ sent   ✓✓ confirmed   ✗ failed",
        "? or Esc closes this",
    ]

    /// The indices of ``conversations`` the filter lets through, in list order.
    public var visibleIndices: [Int] {
        let wanted = TextFolding.folded(filter.string)
        guard !wanted.isEmpty else { return Array(conversations.indices) }
        return conversations.indices.filter { index in
            let entry = conversations[index]
            return TextFolding.folded(entry.name).contains(wanted) || entry.address.lowercased().contains(wanted)
        }
    }

    mutating func handleList(_ key: ScreenKey) -> [ScreenAction] {
        if showsHelp, key == .escape || key == .character("?") {
            showsHelp = false
            return []
        }
        showsHelp = false
        let visible = visibleIndices
        let selected = visible.contains(selection) ? conversations[selection] : nil
        switch key {
        case .up: moveSelection(by: -1, within: visible)
        case .down: moveSelection(by: 1, within: visible)
        case .enter, .right: if let selected { return open(selected.address) }
        case .tab: if pane != nil { focus = .chat }
        case .escape:
            guard filter.isBlank else {
                filter.clear()
                return []
            }
            return [.quit]
        case .character("?") where filter.isBlank:
            showsHelp = true
        case .character, .backspace, .delete, .left, .home, .end, .control("u"):
            _ = filter.edit(key)
            if let first = visibleIndices.first, !visibleIndices.contains(selection) { selection = first }
        case .control("n"):
            promptText.clear()
            focus = .prompt(.newConversation)
        case .control("r"):
            if let selected {
                promptText = Composer(selected.name)
                focus = .prompt(.rename(address: selected.address))
            }
        case .control("o"):
            if let selected { return [.setMuted(address: selected.address, muted: !selected.isMuted)] }
        case .control("a"):
            if let selected, selected.isPendingHandshake {
                return confirmingCost(
                    "Accept \(selected.name)'s request to chat?", [.acceptConversation(address: selected.address)],
                    opens: selected.address)
            }
            notice = "no request to accept here"
        case .control("d"):
            if let selected, selected.isPendingHandshake {
                ask(
                    "Decline \(selected.name)'s request? The contact is removed.",
                    [.declineConversation(address: selected.address)])
            } else {
                notice = "no request to decline here"
            }
        case .control("x"):
            if let selected {
                ask(
                    "Delete \(selected.name)? The contact leaves every device; the history stays.",
                    [.deleteConversation(address: selected.address)])
            }
        default: break
        }
        return []
    }

    /// Moves the selection `step` rows within the filtered list.
    mutating func moveSelection(by step: Int, within visible: [Int]) {
        guard !visible.isEmpty else { return }
        let position = visible.firstIndex(of: selection) ?? 0
        selection = visible[min(max(0, position + step), visible.count - 1)]
    }

    /// Asks `question` before `actions` (and opening `opens`).
    mutating func ask(_ question: String, _ actions: [ScreenAction], opens: String? = nil) {
        focus = .prompt(.confirm(question: question + " y/N", actions: actions, opens: opens))
    }

    /// What an action that may start a chat does: over Kaspa it pays 0.2 KAS, so it asks first;
    /// on a relay it costs nothing and runs at once.
    mutating func confirmingCost(_ question: String, _ actions: [ScreenAction], opens: String) -> [ScreenAction] {
        guard account?.isKaspa ?? true else { return actions + open(opens) }
        ask(question + " It pays 0.2 KAS and a fee.", actions, opens: opens)
        return []
    }
}
