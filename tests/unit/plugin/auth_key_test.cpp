// auth_key_test.cpp - auth/key: round trip, tampering, replay, clock window, key file checks.
#include <sys/stat.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <fstream>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace drover::plugin::test {
namespace {

using Hash = std::array<uint8_t, 32>;
using Cred = std::vector<uint8_t>;

const std::string kKey = "0123456789abcdef0123456789abcdef-test-key";

void write_key(const std::string &path, const std::string &bytes, mode_t mode) {
    std::ofstream(path, std::ios::binary) << bytes;
    ::chmod(path.c_str(), mode);
}

Hash hash_of(uint8_t fill) {
    Hash h;
    h.fill(fill);
    return h;
}

// Milliseconds since the epoch, as auth/key stamps its credentials.
int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A credential in auth/key's documented layout (plugins/auth/key/key.cpp), signed with key: how
// a peer with a skewed clock, or an attacker replaying bytes, would present one. stamp is in ms.
Cred forge(const std::string &key, uint32_t uid, uint32_t gid, int64_t stamp, uint8_t nonce_fill,
           const Hash &body) {
    Cred c(65);
    auto put = [&](size_t at, uint64_t v, int n) {
        for (int i = n - 1; i >= 0; --i, v >>= 8) c[at + i] = static_cast<uint8_t>(v);
    };
    c[0] = 2;
    put(1, uid, 4);
    put(5, gid, 4);
    put(9, static_cast<uint64_t>(stamp), 8);
    std::fill(c.begin() + 17, c.begin() + 33, nonce_fill);
    std::array<uint8_t, 33 + 32> msg;
    std::copy(c.begin(), c.begin() + 33, msg.begin());
    std::copy(body.begin(), body.end(), msg.begin() + 33);
    unsigned int len = 32;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), msg.data(), msg.size(),
         c.data() + 33, &len);
    return c;
}

class PluginAuthKey : public ::testing::Test {
  protected:
    void SetUp() override {
        write_key(key_path_, kKey, 0600);
        conf_.raw["authinfo"] = "key=" + key_path_ + ",ttl=60";
    }

    // Loads auth/key with conf_; returns the LoadError text, or "" when it loaded.
    std::string load() {
        set_ = std::make_unique<PluginSet>(conf_, "ctld");
        try {
            set_->load("auth/slurm"); // Slurm's name, mapped to auth/key
        } catch (const LoadError &e) {
            return e.what();
        }
        return "";
    }

    Cred create(uint32_t uid, uint32_t gid, const Hash &body) {
        const auto &b = set_->auth();
        Cred c(DROVER_AUTH_CRED_MAX);
        uint32_t len = static_cast<uint32_t>(c.size());
        drover_error err{};
        EXPECT_EQ(b.ops.cred_create(b.state, uid, gid, body.data(), c.data(), &len, &err),
                  DROVER_OK)
            << err.text;
        c.resize(len);
        return c;
    }

    // cred_verify's code; the reason (or "uid:gid" on success) in *text.
    int verify(const Cred &c, const Hash &body, std::string *text) {
        const auto &b = set_->auth();
        uint32_t uid = 0, gid = 0;
        drover_error err{};
        int rc = b.ops.cred_verify(b.state, c.data(), static_cast<uint32_t>(c.size()), body.data(),
                                   &uid, &gid, &err);
        *text = rc == DROVER_OK ? std::to_string(uid) + ":" + std::to_string(gid) : err.text;
        return rc;
    }

    std::string refusal_prefix() const {
        return kRealPluginDir + "/auth_key.so: auth/key init failed: ";
    }

    TempDir dir_;
    std::string key_path_ = dir_ / "drover.key";
    Config conf_ = real_plugin_config();
    std::unique_ptr<PluginSet> set_;
};

TEST_F(PluginAuthKey, RoundTripCarriesUidAndGid) {
    ASSERT_EQ(load(), "");
    EXPECT_EQ(set_->auth().id, "auth/key");
    const Cred c = create(1000, 100, hash_of(7));
    EXPECT_EQ(c.size(), 65u);
    std::string text;
    EXPECT_EQ(verify(c, hash_of(7), &text), DROVER_OK);
    EXPECT_EQ(text, "1000:100");
}

TEST_F(PluginAuthKey, RefusesAnotherBodyOrAlteredBytes) {
    ASSERT_EQ(load(), "");
    Cred c = create(1000, 100, hash_of(7));
    std::string text;
    EXPECT_EQ(verify(c, hash_of(8), &text), DROVER_EPERM);
    EXPECT_EQ(text, "credential signature invalid");
    c[4] ^= 1; // claim another uid
    EXPECT_EQ(verify(c, hash_of(7), &text), DROVER_EPERM);
    EXPECT_EQ(text, "credential signature invalid");
    EXPECT_EQ(verify(Cred(c.begin(), c.begin() + 40), hash_of(7), &text), DROVER_EPERM);
}

TEST_F(PluginAuthKey, RefusesAReplay) {
    ASSERT_EQ(load(), "");
    const Cred c = create(0, 0, hash_of(1));
    std::string text;
    ASSERT_EQ(verify(c, hash_of(1), &text), DROVER_OK);
    EXPECT_EQ(verify(c, hash_of(1), &text), DROVER_EPERM);
    EXPECT_EQ(text, "credential replayed");
    EXPECT_EQ(verify(create(0, 0, hash_of(1)), hash_of(1), &text), DROVER_OK); // a fresh one
}

TEST_F(PluginAuthKey, RefusesStaleAndFutureTimestamps) {
    ASSERT_EQ(load(), "");
    std::string text;
    const int64_t now = now_ms();
    EXPECT_EQ(verify(forge(kKey, 5, 5, now - 75'000, 1, hash_of(2)), hash_of(2), &text),
              DROVER_EPERM);
    EXPECT_TRUE(text == "credential expired (age 75 s)" || text == "credential expired (age 76 s)")
        << text;
    EXPECT_EQ(verify(forge(kKey, 5, 5, now + 600'000, 2, hash_of(2)), hash_of(2), &text),
              DROVER_EPERM);
    EXPECT_EQ(text.rfind("credential from the future", 0), 0u) << text;
    // Inside the window, a peer's credential is good: one made ahead of this clock, or after this
    // daemon started.
    EXPECT_EQ(verify(forge(kKey, 5, 6, now + 30'000, 4, hash_of(2)), hash_of(2), &text), DROVER_OK);
    EXPECT_EQ(verify(forge(kKey, 5, 6, now_ms(), 6, hash_of(2)), hash_of(2), &text), DROVER_OK);
    // Inside the window but made before this daemon started: it may have been spent before a
    // restart, and the nonces seen then are gone.
    EXPECT_EQ(verify(forge(kKey, 5, 6, now - 30'000, 3, hash_of(2)), hash_of(2), &text),
              DROVER_EPERM);
    EXPECT_EQ(text.rfind("credential made ", 0), 0u) << text;
    EXPECT_NE(text.find(" ms before this daemon started"), std::string::npos) << text;
    EXPECT_EQ(verify(forge("another key, as long as the first", 5, 6, now, 5, hash_of(2)),
                     hash_of(2), &text),
              DROVER_EPERM);
}

TEST_F(PluginAuthKey, RefusesAKeyFileOthersCanRead) {
    ::chmod(key_path_.c_str(), 0644);
    EXPECT_EQ(load(), refusal_prefix() + "key file " + key_path_ +
                          " has mode 0644: group or others may use it (chmod 600)");
    ::chmod(key_path_.c_str(), 0620);
    EXPECT_EQ(load(), refusal_prefix() + "key file " + key_path_ +
                          " has mode 0620: group or others may use it (chmod 600)");
}

TEST_F(PluginAuthKey, RefusesAShortOrMissingKey) {
    write_key(key_path_, "too short", 0600);
    EXPECT_EQ(load(),
              refusal_prefix() + "key file " + key_path_ + " holds 9 bytes, expected 32 to 65536");
    conf_.raw["authinfo"] = "key=" + dir_ / "absent.key";
    EXPECT_EQ(load(),
              refusal_prefix() + "key file " + dir_ / "absent.key" + ": No such file or directory");
    conf_.raw["authinfo"] = "key=" + key_path_ + ",ttl=soon";
    EXPECT_EQ(load(), refusal_prefix() + "AuthInfo ttl=soon: expected 1 to 86400 seconds");
}

TEST_F(PluginAuthKey, FindsTheKeyNextToSlurmConfByDefault) {
    conf_.raw.erase("authinfo");
    conf_.path = dir_ / "slurm.conf";
    ASSERT_EQ(load(), "");
    std::string text;
    EXPECT_EQ(verify(forge(kKey, 1, 2, now_ms(), 9, hash_of(3)), hash_of(3), &text), DROVER_OK);
    EXPECT_EQ(text, "1:2");
}

TEST_F(PluginAuthKey, ReadsTheDirectoryTheCoreNames) {
    TempDir other;
    write_key(other / "drover.key", kKey, 0400);
    conf_.raw.erase("authinfo");
    conf_.raw["drover.config_dir"] = other.path() + "/"; // as the daemons set it
    ASSERT_EQ(load(), "");
    std::string text;
    EXPECT_EQ(verify(create(3, 4, hash_of(5)), hash_of(5), &text), DROVER_OK);
}

} // namespace
} // namespace drover::plugin::test

namespace drover::plugin::test {
namespace {

// A credential spent before a restart cannot be replayed after it: the daemon that comes back has
// lost the nonces it had seen, so it refuses every credential made before it started.
TEST_F(PluginAuthKey, RefusesCredentialsMadeBeforeItStarted) {
    ASSERT_EQ(load(), "");
    Cred before = create(7, 7, hash_of(4));
    std::string text;
    EXPECT_EQ(verify(before, hash_of(4), &text), DROVER_OK);
    std::this_thread::sleep_for(std::chrono::milliseconds(5)); // the clock must move past it
    ASSERT_EQ(load(), "");                                     // the daemon restarted
    EXPECT_EQ(verify(before, hash_of(4), &text), DROVER_EPERM);
    EXPECT_NE(text.find("before this daemon started"), std::string::npos) << text;
    EXPECT_EQ(verify(create(7, 7, hash_of(4)), hash_of(4), &text), DROVER_OK);
}

} // namespace
} // namespace drover::plugin::test
