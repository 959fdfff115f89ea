// key.cpp - auth/key: credentials signed with HMAC-SHA256 under a key file shared by the cluster.
//
// A credential is 65 bytes, integers big-endian:
//   [0]      version (2)
//   [1..5)   uid
//   [5..9)   gid
//   [9..17)  timestamp, milliseconds since the epoch (signed)
//   [17..33) nonce, 16 random bytes
//   [33..65) HMAC-SHA256(key, bytes [0..33) || body_hash)
// The body hash is not carried: the receiver hashes what it got (the core hashes a frame's seal,
// which names the receiver), so a credential moved to another message or receiver fails its
// signature. A credential is accepted for ttl seconds either side of the receiver's clock, and only
// once: its nonce is remembered until it would have expired anyway. The nonces live in memory, so
// a credential made before this process started is refused too (the start fence): one captured
// before a restart cannot be replayed after it. Hosts' clocks must agree (NTP), as for the ttl.
//
// Configuration: AuthInfo=key=PATH,ttl=SECONDS. Without key=, the file is drover.key next to
// slurm.conf. The file must hold at least 32 bytes and be readable by its owner only.
#include <sys/stat.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <drover/auth.h>
#include <drover/plugin.hpp>

namespace {

using drover::sdk::guard;
using drover::sdk::set_error;
using drover::sdk::set_errorf;

constexpr uint8_t kVersion = 2;
constexpr size_t kSignedLen = 33;            // version .. nonce
constexpr size_t kCredLen = kSignedLen + 32; // + MAC
constexpr size_t kNonceOffset = 17;
constexpr size_t kMinKeyLen = 32;
constexpr size_t kMaxKeyLen = 64 * 1024;
constexpr int64_t kDefaultTtl = 60;
static_assert(kCredLen <= DROVER_AUTH_CRED_MAX);

using Nonce = std::array<uint8_t, 16>;

// Nonces seen recently. Each is kept at least until its credential's timestamp + ttl, after which
// the credential is refused as expired anyway. Expired ones are dropped whenever the cache has
// doubled since the last sweep, so memory stays within twice the message rate * ttl: 40 bytes a
// nonce (a controller registering 16,384 nodes holds them all for a ttl).
class ReplayCache {
  public:
    // Returns false if nonce was seen before.
    bool insert(const Nonce &nonce, int64_t expires, int64_t now) {
        std::lock_guard lock(mu_);
        if (seen_.size() >= sweep_at_) {
            std::erase_if(seen_, [now](const auto &kv) { return kv.second < now; });
            sweep_at_ = std::max<size_t>(kMinSweep, seen_.size() * 2);
        }
        return seen_.emplace(nonce, expires).second;
    }

  private:
    // Nonces are random: any 8 of their bytes hash them.
    struct NonceHash {
        size_t operator()(const Nonce &n) const noexcept {
            uint64_t h;
            std::memcpy(&h, n.data(), sizeof h);
            return static_cast<size_t>(h);
        }
    };
    static constexpr size_t kMinSweep = 1024;
    std::mutex mu_;
    std::unordered_map<Nonce, int64_t, NonceHash> seen_; // nonce -> when it expires
    size_t sweep_at_ = kMinSweep;
};

int64_t now_ms() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

struct State {
    drover::sdk::Host host;
    std::string key; // secret bytes, cleansed at fini
    int64_t ttl = kDefaultTtl;
    int64_t fence_ms = now_ms(); // credentials made before this are refused
    ReplayCache replay;
};

void put_be(uint8_t *p, uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i, v >>= 8) p[i] = static_cast<uint8_t>(v);
}

uint64_t get_be(const uint8_t *p, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = v << 8 | p[i];
    return v;
}

// HMAC over the signed part of cred and the body hash.
void sign(const State &s, const uint8_t *cred, const uint8_t body_hash[32], uint8_t mac[32]) {
    uint8_t msg[kSignedLen + 32];
    std::memcpy(msg, cred, kSignedLen);
    std::memcpy(msg + kSignedLen, body_hash, 32);
    unsigned int len = 32;
    HMAC(EVP_sha256(), s.key.data(), static_cast<int>(s.key.size()), msg, sizeof msg, mac, &len);
}

// One option of AuthInfo ("key=/etc/drover/key,ttl=60"), if present.
std::optional<std::string_view> auth_option(std::string_view info, std::string_view name) {
    while (!info.empty()) {
        auto comma = info.find(',');
        std::string_view item = info.substr(0, comma);
        info = comma == std::string_view::npos ? std::string_view() : info.substr(comma + 1);
        auto eq = item.find('=');
        if (item.substr(0, eq) == name)
            return eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
    }
    return std::nullopt;
}

// Reads and checks the key file; on failure returns false with the reason in err.
bool load_key(const std::string &path, std::string &key, drover_error *err) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
        set_errorf(err, "key file %s: %s", path.c_str(), std::strerror(errno));
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        set_errorf(err, "key file %s is not a regular file", path.c_str());
        return false;
    }
    if (st.st_mode & 077) {
        set_errorf(err, "key file %s has mode %04o: group or others may use it (chmod 600)",
                   path.c_str(), static_cast<unsigned>(st.st_mode & 07777));
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    key.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
        set_errorf(err, "key file %s: cannot read it", path.c_str());
        return false;
    }
    if (key.size() < kMinKeyLen || key.size() > kMaxKeyLen) {
        set_errorf(err, "key file %s holds %zu bytes, expected %zu to %zu", path.c_str(),
                   key.size(), kMinKeyLen, kMaxKeyLen);
        return false;
    }
    return true;
}

int key_cred_create(void *state, uint32_t uid, uint32_t gid, const uint8_t body_hash[32],
                    uint8_t *cred, uint32_t *cred_len, drover_error *err) {
    const auto &s = *static_cast<State *>(state);
    if (*cred_len < kCredLen) {
        set_errorf(err, "credential buffer holds %u bytes, a credential needs %zu", *cred_len,
                   kCredLen);
        return DROVER_EINVAL;
    }
    cred[0] = kVersion;
    put_be(cred + 1, uid, 4);
    put_be(cred + 5, gid, 4);
    put_be(cred + 9, static_cast<uint64_t>(now_ms()), 8);
    if (RAND_bytes(cred + kNonceOffset, static_cast<int>(sizeof(Nonce))) != 1) {
        set_error(err, "no random bytes for the credential nonce");
        return DROVER_EIO;
    }
    sign(s, cred, body_hash, cred + kSignedLen);
    *cred_len = kCredLen;
    return DROVER_OK;
}

int key_cred_verify(void *state, const uint8_t *cred, uint32_t cred_len,
                    const uint8_t body_hash[32], uint32_t *uid, uint32_t *gid, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        if (cred_len != kCredLen || cred[0] != kVersion) {
            set_errorf(err, "credential malformed (%u bytes, version %u)", cred_len,
                       cred_len ? cred[0] : 0u);
            return DROVER_EPERM;
        }
        uint8_t mac[32];
        sign(s, cred, body_hash, mac);
        if (CRYPTO_memcmp(mac, cred + kSignedLen, sizeof mac) != 0) {
            set_error(err, "credential signature invalid");
            return DROVER_EPERM;
        }
        const int64_t stamp = static_cast<int64_t>(get_be(cred + 9, 8));
        const int64_t now = now_ms();
        const int64_t age = now - stamp;
        if (age > s.ttl * 1000) {
            set_errorf(err, "credential expired (age %lld s)", static_cast<long long>(age / 1000));
            return DROVER_EPERM;
        }
        if (-age > s.ttl * 1000) {
            set_errorf(err, "credential from the future (%lld s ahead)",
                       static_cast<long long>(-age / 1000));
            return DROVER_EPERM;
        }
        if (stamp < s.fence_ms) {
            set_errorf(err, "credential made %lld ms before this daemon started (replayed?)",
                       static_cast<long long>(s.fence_ms - stamp));
            return DROVER_EPERM;
        }
        Nonce nonce;
        std::memcpy(nonce.data(), cred + kNonceOffset, nonce.size());
        if (!s.replay.insert(nonce, stamp + s.ttl * 1000, now)) {
            set_error(err, "credential replayed");
            return DROVER_EPERM;
        }
        *uid = static_cast<uint32_t>(get_be(cred + 1, 4));
        *gid = static_cast<uint32_t>(get_be(cred + 5, 4));
        return DROVER_OK;
    });
}

// The default key file in the directory of slurm.conf ("" means the current directory).
std::string key_next_to(std::string_view dir) {
    if (dir.empty()) return "drover.key";
    return std::string(dir) + (dir.back() == '/' ? "" : "/") + "drover.key";
}

// Reads AuthInfo and the key into s; false with the reason in err.
bool configure(State &s, drover_error *err) {
    const std::string_view info = s.host.conf("AuthInfo").value_or("");
    if (auto ttl = auth_option(info, "ttl")) {
        int64_t v = 0;
        auto [end, ec] = std::from_chars(ttl->data(), ttl->data() + ttl->size(), v);
        if (ec != std::errc() || end != ttl->data() + ttl->size() || v <= 0 || v > 86400) {
            set_errorf(err, "AuthInfo ttl=%.*s: expected 1 to 86400 seconds",
                       static_cast<int>(ttl->size()), ttl->data());
            return false;
        }
        s.ttl = v;
    }
    std::string path;
    if (auto key = auth_option(info, "key"); key && !key->empty())
        path = *key;
    else if (auto dir = s.host.conf("drover.config_dir"))
        path = key_next_to(*dir);
    else {
        set_error(err, "no key file: set AuthInfo=key=PATH or put drover.key next to slurm.conf");
        return false;
    }
    if (!load_key(path, s.key, err)) return false;
    s.host.debug("key from " + path + ", ttl " + std::to_string(s.ttl) + " s");
    return true;
}

void key_fini(void *state) {
    auto *s = static_cast<State *>(state);
    if (!s->key.empty()) OPENSSL_cleanse(s->key.data(), s->key.size());
    delete s;
}

int key_init(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err) {
    return guard(err, [&] {
        std::unique_ptr<State, void (*)(void *)> s(new State, key_fini);
        s->host = drover::sdk::Host(ctx, host);
        if (!configure(*s, err)) return DROVER_EPERM;
        *state_out = s.release();
        return DROVER_OK;
    });
}

const drover_auth_ops key_ops = {
    .struct_size = sizeof(drover_auth_ops),
    .cred_create = key_cred_create,
    .cred_verify = key_cred_verify,
};

} // namespace

DROVER_PLUGIN("auth", "key", "0.1.0", key_init, key_fini, &key_ops)
