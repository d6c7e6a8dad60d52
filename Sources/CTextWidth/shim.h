#ifndef TANDEM_CTEXTWIDTH_SHIM_H
#define TANDEM_CTEXTWIDTH_SHIM_H

// The C library's wcwidth (POSIX/XSI, in libc: nothing to link). Glibc declares it only under
// _XOPEN_SOURCE, which the Swift Glibc module is not built with, so the prototype is repeated here.
#include <stddef.h>

int wcwidth(wchar_t c);

/// Terminal columns of one Unicode scalar under the calling thread's LC_CTYPE; -1 when not printable.
static inline int tandem_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }

#endif
