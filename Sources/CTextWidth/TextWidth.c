// The C library's wcwidth (POSIX/XSI, in libc on Linux and Apple platforms: nothing to link).
// Glibc declares it only under _XOPEN_SOURCE, which the Swift Glibc module is not built with,
// so this one C file asks for it and wraps it.
#define _XOPEN_SOURCE 700
#include <wchar.h>

#include "CTextWidth.h"

int tandem_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }
