// OpenSSL's libcrypto: the only source of cryptographic primitives in this package.
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/hmac.h>
