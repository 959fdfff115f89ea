// jwt.cpp - HS256 JSON Web Tokens: base64url, signing and verifying with OpenSSL's HMAC, and
// reading the key file.
#include "common/jwt.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "common/json_value.hpp"
#include "common/json_writer.hpp"

namespace drover::jwt {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int sextet(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-') return 62;
    if (c == '_') return 63;
    return -1;
}

// HMAC-SHA256(key, msg) as 32 raw bytes.
std::string hmac_sha256(std::string_view key, std::string_view msg) {
    static const char empty = 0; // OpenSSL wants a non-null key pointer even for length 0
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), key.empty() ? &empty : key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char *>(msg.data()), msg.size(), mac, &len);
    return std::string(reinterpret_cast<const char *>(mac), len);
}

// The JSON object that a base64url part decodes to, or nullopt.
std::optional<json::Value> decode_object(std::string_view part) {
    std::optional<std::string> bytes = base64url_decode(part);
    if (!bytes) return std::nullopt;
    try {
        json::Value v = json::parse(*bytes, 16);
        if (v.is_object()) return v;
    } catch (const json::ParseError &) {}
    return std::nullopt;
}

// The claims of a verified payload: "" and *out filled, or why not.
std::string read_claims(const json::Value &payload, int64_t now, Claims *out) {
    const json::Value *exp = payload.find("exp");
    if (!exp || !exp->as_int()) return "exp missing or not an integer";
    if (*exp->as_int() <= now) return "token expired";
    const json::Value *iat = payload.find("iat");
    if (iat && !iat->as_int()) return "iat not an integer";
    const json::Value *user = payload.find("sun");
    if (!user) user = payload.find("username");
    if (!user || !user->is_string() || user->as_string().empty())
        return "no user name (sun or username)";
    if (out) {
        out->user = user->as_string();
        out->iat = iat ? *iat->as_int() : 0;
        out->exp = *exp->as_int();
    }
    return "";
}

} // namespace

std::string base64url_encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() * 4 + 2) / 3);
    std::size_t i = 0;
    auto b = [&](std::size_t k) {
        return static_cast<uint32_t>(static_cast<unsigned char>(bytes[k]));
    };
    for (; i + 3 <= bytes.size(); i += 3) {
        uint32_t n = b(i) << 16 | b(i + 1) << 8 | b(i + 2);
        for (int s = 18; s >= 0; s -= 6) out.push_back(kAlphabet[(n >> s) & 63]);
    }
    std::size_t rest = bytes.size() - i; // 0, 1 or 2 bytes: 0, 2 or 3 characters
    if (rest == 0) return out;
    uint32_t n = b(i) << 16 | (rest == 2 ? b(i + 1) << 8 : 0);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    if (rest == 2) out.push_back(kAlphabet[(n >> 6) & 63]);
    return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
    if (text.size() % 4 == 1) return std::nullopt;
    std::string out;
    out.reserve(text.size() * 3 / 4);
    uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
        int v = sextet(c);
        if (v < 0) return std::nullopt;
        acc = (acc << 6 | static_cast<uint32_t>(v)) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((acc >> bits) & 0xff));
        }
    }
    // The 2 or 4 bits left over must be zero: another spelling of the same bytes is refused.
    if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) return std::nullopt;
    return out;
}

std::string sign_hs256(std::string_view key, std::string_view user, int64_t iat, int64_t exp) {
    std::string header = R"({"alg":"HS256","typ":"JWT"})";
    std::string payload = "{\"exp\":" + std::to_string(exp) + ",\"iat\":" + std::to_string(iat) +
                          ",\"sun\":\"" + json_escape(user) + "\"}";
    std::string signing_input = base64url_encode(header) + "." + base64url_encode(payload);
    return signing_input + "." + base64url_encode(hmac_sha256(key, signing_input));
}

std::string verify_hs256(std::string_view key, std::string_view token, int64_t now, Claims *out) {
    if (key.empty()) return "no key";
    std::size_t dot1 = token.find('.');
    std::size_t dot2 = dot1 == std::string_view::npos ? dot1 : token.find('.', dot1 + 1);
    if (dot2 == std::string_view::npos || token.find('.', dot2 + 1) != std::string_view::npos)
        return "not three dot-separated parts";
    std::optional<json::Value> header = decode_object(token.substr(0, dot1));
    if (!header) return "header is not a base64url JSON object";
    // Only HS256: "none" (no signature) and every other algorithm are refused before anything
    // else is looked at, whatever the token claims.
    const json::Value *alg = header->find("alg");
    if (!alg || !alg->is_string() || alg->as_string() != "HS256") return "alg is not HS256";
    std::optional<std::string> sig = base64url_decode(token.substr(dot2 + 1));
    std::string want = hmac_sha256(key, token.substr(0, dot2));
    if (!sig || sig->size() != want.size() ||
        CRYPTO_memcmp(sig->data(), want.data(), want.size()) != 0)
        return "bad signature";
    std::optional<json::Value> payload = decode_object(token.substr(dot1 + 1, dot2 - dot1 - 1));
    if (!payload) return "payload is not a base64url JSON object";
    return read_claims(*payload, now, out);
}

std::string read_jwt_key(const std::string &path, std::string *err) {
    std::string key, why;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) why = "cannot open " + path + ": " + std::strerror(errno);
    char buf[4096];
    while (fd >= 0) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) why = "cannot read " + path + ": " + std::strerror(errno);
        if (n <= 0) break;
        key.append(buf, static_cast<std::size_t>(n));
    }
    if (fd >= 0) ::close(fd);
    if (why.empty() && key.empty()) why = path + " is empty";
    if (why.empty()) return key;
    if (err) *err = why;
    return "";
}

} // namespace drover::jwt
