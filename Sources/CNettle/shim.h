#ifndef TANDEM_CNETTLE_SHIM_H
#define TANDEM_CNETTLE_SHIM_H

// Debian's nettle-dev: RIPEMD-160, the one hash BIP-32 needs that swift-crypto lacks (a key's
// fingerprint is the first 4 bytes of RIPEMD-160(SHA-256(compressed public key))).
#include <nettle/ripemd160.h>

#endif
