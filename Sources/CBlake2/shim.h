#ifndef TANDEM_CBLAKE2_SHIM_H
#define TANDEM_CBLAKE2_SHIM_H

// Debian's libb2-dev: the BLAKE2 reference library. Kaspa keys BLAKE2b-256 with domain strings
// shorter than 16 bytes ("TransactionID"), which libb2's blake2b_init_key accepts (1...64 bytes).
#include <blake2.h>

#endif
