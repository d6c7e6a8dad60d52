#ifndef TANDEM_CNCURSESW_SHIM_H
#define TANDEM_CNCURSESW_SHIM_H

// Debian's libncurses-dev: the wide-character API (get_wch, addnwstr) needs this before curses.h.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>
#include <locale.h>
#include <langinfo.h>

// Attribute, colour and mouse masks are function-like macros, which Swift does not import;
// these inline wrappers give the thin curses layer of `tandem chat ui` their values.
static inline WINDOW *tandem_stdscr(void) { return stdscr; }
static inline int tandem_lines(void) { return getmaxy(stdscr); }
static inline int tandem_columns(void) { return getmaxx(stdscr); }
static inline attr_t tandem_attr_bold(void) { return A_BOLD; }
static inline attr_t tandem_attr_dim(void) { return A_DIM; }
static inline attr_t tandem_attr_reverse(void) { return A_REVERSE; }
static inline attr_t tandem_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t tandem_color_pair(short pair) { return (attr_t)COLOR_PAIR(pair); }
static inline mmask_t tandem_wheel_up_mask(void) { return BUTTON4_PRESSED; }
static inline mmask_t tandem_wheel_down_mask(void) { return BUTTON5_PRESSED; }
/// The button state of the pending mouse event, 0 when there is none.
static inline mmask_t tandem_mouse_state(void) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    return event.bstate;
}

#endif
