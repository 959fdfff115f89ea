// jwt.hpp - JSON Web Tokens as Slurm's auth/jwt uses them: HS256 only, signed with the
// cluster's jwt_key, the user in "sun" (or "username"), "exp" required. Base64url helpers, a
// signer, a verifier that refuses every other algorithm (alg=none included), and the key reader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace drover::jwt {

// RFC 4648 section 5 alphabet, without padding.
std::string base64url_encode(std::string_view bytes);
// The bytes, or nullopt for padding, '+' or '/', any other byte outside the alphabet, a length
// that is 1 mod 4, or unused trailing bits that are not zero (so each token has one spelling).
std::optional<std::string> base64url_decode(std::string_view text);

// header.payload.signature with header {"alg":"HS256","typ":"JWT"}, payload
// {"exp":EXP,"iat":IAT,"sun":"USER"} (user JSON-escaped) and HMAC-SHA256 under key.
std::string sign_hs256(std::string_view key, std::string_view user, int64_t iat, int64_t exp);

struct Claims {
    std::string user; // "sun", else "username"
    int64_t iat = 0;  // 0 when the token has none
    int64_t exp = 0;
};

// "" when token is an HS256 JWT signed with key, not expired at now (exp > now), and naming a
// user; *out (may be null) then holds its claims. Otherwise a short reason ("token expired",
// "bad signature", ...) and *out is untouched. An empty key refuses every token.
std::string verify_hs256(std::string_view key, std::string_view token, int64_t now, Claims *out);

// The bytes of the jwt_key= file (the whole file, binary, as Slurm reads it). On an unreadable
// or empty file returns "" and sets *err (when err is not null) to why.
std::string read_jwt_key(const std::string &path, std::string *err);

} // namespace drover::jwt
