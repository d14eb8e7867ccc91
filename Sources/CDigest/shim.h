#pragma once

// SHA-256 and SHA-1 from OpenSSL's libcrypto, which the build links already (libwebsockets'
// TLS), through its EVP interface (the one-shot `SHA256()` family is on OpenSSL 3's way out).

#include <openssl/evp.h>
#include <stddef.h>

/// The SHA-256 of `count` bytes at `data`, written to `out` (32 bytes). 1 on success.
static inline int digest_sha256(const void *data, size_t count, unsigned char out[32]) {
  return EVP_Digest(data, count, out, NULL, EVP_sha256(), NULL);
}

/// The SHA-1 of `count` bytes at `data`, written to `out` (20 bytes). 1 on success.
static inline int digest_sha1(const void *data, size_t count, unsigned char out[20]) {
  return EVP_Digest(data, count, out, NULL, EVP_sha1(), NULL);
}
