// jwt_test.cpp - HS256 JWTs as auth/jwt uses them: base64url, a known token, sign/verify round
// trips, and the refusals (expired, tampered, wrong key, alg none and other algorithms, missing
// claims, garbage), plus reading the key file.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "common/jwt.hpp"

namespace drover::jwt {
namespace {

constexpr int64_t kNow = 1'650'000'000;

// header.payload.signature: the JSON parts base64url-encoded, the signature given.
std::string with_parts(const std::string &header, const std::string &payload,
                       const std::string &sig) {
    return base64url_encode(header) + "." + base64url_encode(payload) + "." + sig;
}

// An HS256 token with any payload, signed here with OpenSSL (sign_hs256 writes only its own).
std::string signed_token(const std::string &key, const std::string &payload) {
    std::string input =
        base64url_encode(R"({"alg":"HS256","typ":"JWT"})") + "." + base64url_encode(payload);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char *>(input.data()), input.size(), mac, &len);
    return input + "." + base64url_encode(std::string(reinterpret_cast<char *>(mac), len));
}

TEST(Jwt, Base64url) {
    EXPECT_EQ(base64url_encode(""), "");
    EXPECT_EQ(base64url_encode("f"), "Zg");
    EXPECT_EQ(base64url_encode("fo"), "Zm8");
    EXPECT_EQ(base64url_encode("foo"), "Zm9v");
    EXPECT_EQ(base64url_encode("\xfb\xff\xbf"), "-_-_");
    EXPECT_EQ(base64url_decode("Zm9vYg"), "foob");
    EXPECT_EQ(base64url_decode("-_-_"), "\xfb\xff\xbf");
    EXPECT_EQ(base64url_decode(""), "");
    EXPECT_EQ(base64url_decode("Zg=="), std::nullopt) << "padding";
    EXPECT_EQ(base64url_decode("+/+/"), std::nullopt);
    EXPECT_EQ(base64url_decode("Zm9vY"), std::nullopt) << "length 1 mod 4";
    EXPECT_EQ(base64url_decode("Zm 9"), std::nullopt);
    EXPECT_EQ(base64url_decode("Zh"), std::nullopt) << "non-zero unused bits";
    EXPECT_EQ(base64url_decode("Zm9"), std::nullopt) << "non-zero unused bits";
    for (int n = 0; n < 40; ++n) {
        std::string bytes;
        for (int i = 0; i < n; ++i) bytes.push_back(static_cast<char>(i * 37 + n));
        EXPECT_EQ(base64url_decode(base64url_encode(bytes)), bytes);
    }
}

TEST(Jwt, KnownToken) {
    // From python3: hmac.new(b"secret", header_b64 + b"." + payload_b64, hashlib.sha256).
    const std::string expected =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
        "eyJleHAiOjE3MDAwMDAwMDAsImlhdCI6MTYwMDAwMDAwMCwic3VuIjoiYWxpY2UifQ."
        "9yeS-JY_Mt2GIyXny0dNjG3hTwhS4x06cqfkM8MnoKo";
    EXPECT_EQ(sign_hs256("secret", "alice", 1600000000, 1700000000), expected);
    Claims c;
    EXPECT_EQ(verify_hs256("secret", expected, kNow, &c), "");
    EXPECT_EQ(c.user, "alice");
    EXPECT_EQ(c.iat, 1600000000);
    EXPECT_EQ(c.exp, 1700000000);
}

TEST(Jwt, RoundTripAndExpiry) {
    std::string t = sign_hs256("k3y", "b\"o\\b é", kNow - 10, kNow + 60);
    Claims c;
    EXPECT_EQ(verify_hs256("k3y", t, kNow, &c), "");
    EXPECT_EQ(c.user, "b\"o\\b é");
    EXPECT_EQ(verify_hs256("k3y", t, kNow, nullptr), "");
    EXPECT_EQ(verify_hs256("k3y", t, kNow + 60, &c), "token expired") << "exp <= now";
    EXPECT_EQ(verify_hs256("k3y", t, kNow + 59, nullptr), "");
    EXPECT_EQ(verify_hs256("wrong", t, kNow, nullptr), "bad signature");
    EXPECT_EQ(verify_hs256("", t, kNow, nullptr), "no key");
    EXPECT_EQ(verify_hs256("", sign_hs256("", "u", 0, kNow + 1), kNow, nullptr), "no key");
    std::string binary_key("\0\x01\xff", 3);
    EXPECT_EQ(verify_hs256(binary_key, sign_hs256(binary_key, "u", 0, kNow + 1), kNow, nullptr),
              "");
}

TEST(Jwt, TamperedTokens) {
    std::string t = sign_hs256("k", "alice", kNow, kNow + 60);
    std::size_t dot1 = t.find('.'), dot2 = t.rfind('.');
    // A payload naming root under alice's signature.
    std::string root = base64url_encode(R"({"exp":9999999999,"iat":0,"sun":"root"})");
    EXPECT_EQ(verify_hs256("k", t.substr(0, dot1 + 1) + root + t.substr(dot2), kNow, nullptr),
              "bad signature");
    std::string sig = t.substr(dot2 + 1);
    sig[3] = sig[3] == 'A' ? 'B' : 'A';
    EXPECT_EQ(verify_hs256("k", t.substr(0, dot2 + 1) + sig, kNow, nullptr), "bad signature");
    EXPECT_EQ(verify_hs256("k", t.substr(0, dot2 + 1), kNow, nullptr), "bad signature");
    EXPECT_EQ(verify_hs256("k", t + "A", kNow, nullptr), "bad signature");
    EXPECT_EQ(verify_hs256("k", t + ".", kNow, nullptr), "not three dot-separated parts");
}

TEST(Jwt, OtherAlgorithmsRefused) {
    std::string payload = R"({"exp":9999999999,"iat":0,"sun":"root"})";
    EXPECT_EQ(
        verify_hs256("k", with_parts(R"({"alg":"none","typ":"JWT"})", payload, ""), kNow, nullptr),
        "alg is not HS256");
    EXPECT_EQ(verify_hs256("k", with_parts(R"({"alg":"none"})", payload, ""), kNow, nullptr),
              "alg is not HS256");
    std::string real_sig = sign_hs256("k", "root", 0, 9999999999);
    real_sig = real_sig.substr(real_sig.rfind('.') + 1);
    for (const char *h : {R"({"alg":"RS256","typ":"JWT"})", R"({"alg":"HS384"})",
                          R"({"alg":"hs256"})", R"({"typ":"JWT"})", R"({"alg":["HS256"]})"})
        EXPECT_EQ(verify_hs256("k", with_parts(h, payload, real_sig), kNow, nullptr),
                  "alg is not HS256")
            << h;
    EXPECT_EQ(verify_hs256("k", with_parts("[1]", payload, real_sig), kNow, nullptr),
              "header is not a base64url JSON object");
    EXPECT_EQ(verify_hs256("k", "e30." + base64url_encode(payload) + ".", kNow, nullptr),
              "alg is not HS256"); // e30 is {}
}

TEST(Jwt, Claims) {
    Claims c;
    EXPECT_EQ(verify_hs256("k", signed_token("k", R"({"iat":1,"sun":"a"})"), kNow, &c),
              "exp missing or not an integer");
    EXPECT_EQ(verify_hs256("k", signed_token("k", R"({"exp":"9999999999","sun":"a"})"), kNow, &c),
              "exp missing or not an integer");
    EXPECT_EQ(verify_hs256("k", signed_token("k", R"({"exp":9999999999.5,"sun":"a"})"), kNow, &c),
              "exp missing or not an integer");
    EXPECT_EQ(verify_hs256("k", signed_token("k", R"({"exp":9999999999})"), kNow, &c),
              "no user name (sun or username)");
    EXPECT_EQ(verify_hs256("k", signed_token("k", R"({"exp":9999999999,"sun":""})"), kNow, &c),
              "no user name (sun or username)");
    EXPECT_EQ(verify_hs256("k", signed_token("k", R"({"exp":9999999999,"sun":7})"), kNow, &c),
              "no user name (sun or username)");
    EXPECT_EQ(verify_hs256("k", signed_token("k", R"([1])"), kNow, &c),
              "payload is not a base64url JSON object");
    EXPECT_EQ(verify_hs256("k", signed_token("k", R"({"exp":1,)"), kNow, &c),
              "payload is not a base64url JSON object");
    EXPECT_EQ(c.user, "") << "untouched on refusal";
    EXPECT_EQ(
        verify_hs256("k", signed_token("k", R"({"exp":9999999999,"username":"bob"})"), kNow, &c),
        "");
    EXPECT_EQ(c.user, "bob");
    EXPECT_EQ(c.iat, 0);
    EXPECT_EQ(c.exp, 9999999999);
}

TEST(Jwt, Garbage) {
    for (const char *t : {"", ".", "..", "...", "a.b.c", "abc", "a..", "..c", "eyJ.eyJ.",
                          "e30.e30.e30", "\xff.\xfe.\xfd", "e30=.e30.", "a.b.c.d"})
        EXPECT_NE(verify_hs256("k", t, kNow, nullptr), "") << t;
}

TEST(Jwt, ReadKey) {
    char dir[] = "/tmp/jwt_testXXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    std::string path = std::string(dir) + "/jwt.key";
    std::string bytes("k\0e\xffy\n", 6);
    std::ofstream(path, std::ios::binary) << bytes;
    std::string err;
    EXPECT_EQ(read_jwt_key(path, &err), bytes);
    EXPECT_EQ(err, "");
    std::ofstream(path, std::ios::binary | std::ios::trunc).flush();
    EXPECT_EQ(read_jwt_key(path, &err), "");
    EXPECT_EQ(err, path + " is empty");
    EXPECT_EQ(read_jwt_key(path + ".absent", &err), "");
    EXPECT_EQ(err, "cannot open " + path + ".absent: No such file or directory");
    EXPECT_EQ(read_jwt_key(dir, &err), "");
    EXPECT_EQ(err, "cannot read " + std::string(dir) + ": Is a directory");
    EXPECT_EQ(read_jwt_key(path + ".absent", nullptr), "");
    unlink(path.c_str());
    rmdir(dir);
}

} // namespace
} // namespace drover::jwt
