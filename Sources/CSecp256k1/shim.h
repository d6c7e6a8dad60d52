#ifndef TANDEM_CSECP256K1_SHIM_H
#define TANDEM_CSECP256K1_SHIM_H

// Debian's libsecp256k1-dev (0.2.x) ships these modules enabled.
#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#endif
