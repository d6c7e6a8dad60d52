#ifndef TANDEM_CTEXTWIDTH_H
#define TANDEM_CTEXTWIDTH_H

/// Terminal columns of one Unicode scalar under the calling thread's LC_CTYPE (the C library's
/// wcwidth); -1 when not printable.
int tandem_wcwidth(unsigned int scalar);

#endif
