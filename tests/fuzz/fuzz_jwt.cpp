// fuzz_jwt.cpp - fuzz target: arbitrary bytes verified as an HS256 token under a fixed key must
// be refused without a crash (random input cannot carry that key's HMAC); and a token signed for
// a user name taken from the input must verify, naming that user.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/json_value.hpp"
#include "common/json_writer.hpp"
#include "common/jwt.hpp"

using namespace drover::jwt;

namespace {

constexpr std::string_view kKey = "fuzz-key-\x01\x02\x03";
constexpr int64_t kNow = 1'700'000'000;

// The user verify must give back for name: sign_hs256 writes it through json_escape, which
// turns bytes that are not UTF-8 into U+FFFD.
std::string expected_user(std::string_view name) {
    return drover::json::parse("\"" + drover::json_escape(name) + "\"").as_string();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, std::size_t size) {
    std::string_view data(reinterpret_cast<const char *>(bytes), size);
    Claims c;
    if (verify_hs256(kKey, data, kNow, &c).empty()) std::abort();
    (void)base64url_decode(data);
    if (base64url_decode(base64url_encode(data)) != data) std::abort();

    std::string_view name = data.substr(0, 64);
    std::string token = sign_hs256(kKey, name, kNow - 1, kNow + 1);
    std::string why = verify_hs256(kKey, token, kNow, &c);
    if (name.empty()) {
        if (why.empty()) std::abort(); // no user: refused
        return 0;
    }
    if (!why.empty() || c.user != expected_user(name) || c.iat != kNow - 1 || c.exp != kNow + 1)
        std::abort();
    if (verify_hs256(kKey, token, kNow + 1, nullptr).empty()) std::abort(); // expired
    if (verify_hs256("other", token, kNow, nullptr).empty()) std::abort();
    return 0;
}
