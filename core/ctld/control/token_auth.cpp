// token_auth.cpp - tokens checked and minted with the controller's jwt_key.
#include "ctld/control/token_auth.hpp"

#include <pwd.h>

#include <stdexcept>
#include <vector>

#include "common/config.hpp"
#include "common/jwt.hpp"
#include "net/client.hpp"
#include "net/server.hpp"

namespace drover::ctld {

namespace {

struct Account {
    uint32_t uid = 0, gid = 0;
    std::string name;
};

// The user's account, or false when the name service knows no such user (never root by default).
bool account_of(std::string_view name, Account *out) {
    std::string n(name);
    passwd pw{}, *found = nullptr;
    std::vector<char> buf(16384);
    if (::getpwnam_r(n.c_str(), &pw, buf.data(), buf.size(), &found) != 0 || !found) return false;
    *out = {pw.pw_uid, pw.pw_gid, pw.pw_name};
    return true;
}

bool account_of(uint32_t uid, Account *out) {
    passwd pw{}, *found = nullptr;
    std::vector<char> buf(16384);
    if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &found) != 0 || !found) return false;
    *out = {pw.pw_uid, pw.pw_gid, pw.pw_name};
    return true;
}

Status refused(const std::string &why) {
    return {net::kTokenRefused, "Protocol authentication error: " + why};
}

} // namespace

TokenAuth::TokenAuth(const Config &conf, uint32_t slurm_uid) : slurm_uid_(slurm_uid) {
    if (!conf.jwt_enabled()) return;
    std::optional<std::string> path = conf.auth_alt_option("jwt_key");
    if (!path || path->empty())
        throw std::runtime_error("AuthAltTypes=auth/jwt needs AuthAltParameters=jwt_key=PATH");
    std::string err;
    key_ = jwt::read_jwt_key(*path, &err);
    if (key_.empty()) throw std::runtime_error("AuthAltParameters jwt_key=" + *path + ": " + err);
}

Status TokenAuth::admit(std::string_view token, std::string_view user, int64_t now,
                        net::Peer &peer) const {
    if (token.empty()) {
        // drover-restd in rest_auth/local mode, run as root or SlurmUser, names its local client.
        if (!is_admin(peer.uid)) return refused("only root and SlurmUser may act for another user");
        Account as;
        if (!account_of(user, &as)) return refused("unknown user " + std::string(user));
        peer.uid = as.uid;
        peer.gid = as.gid;
        return {};
    }
    if (!enabled()) return refused("tokens are not accepted here (AuthAltTypes has no auth/jwt)");
    jwt::Claims claims;
    if (std::string why = jwt::verify_hs256(key_, token, now, &claims); !why.empty())
        return refused(why);
    Account holder;
    if (!account_of(claims.user, &holder))
        return refused("the token's user " + claims.user + " is unknown here");
    Account as = holder;
    if (!user.empty() && user != holder.name) {
        // X-SLURM-USER-NAME: speaking for someone else is for root's and SlurmUser's tokens.
        if (!is_admin(holder.uid))
            return refused("user " + holder.name + " may not act as " + std::string(user));
        if (!account_of(user, &as)) return refused("unknown user " + std::string(user));
    }
    peer.uid = as.uid;
    peer.gid = as.gid;
    return {};
}

Status TokenAuth::mint(uint32_t caller, std::string_view username, uint32_t lifespan, int64_t now,
                       std::string *token) const {
    if (!enabled()) return {DROVER_EINVAL, "Authentication plugin auth/jwt is not configured"};
    Account who;
    if (!username.empty()) {
        if (!is_admin(caller) && (!account_of(caller, &who) || who.name != username))
            return {DROVER_EPERM, "Only root or SlurmUser may request tokens for other users"};
        if (!account_of(username, &who))
            return {DROVER_EINVAL, "Invalid user: " + std::string(username)};
    } else if (!account_of(caller, &who)) {
        return {DROVER_EINVAL, "uid " + std::to_string(caller) + " has no user name"};
    }
    int64_t span = lifespan ? lifespan : kDefaultTokenLifespan;
    *token = jwt::sign_hs256(key_, who.name, now, now + span);
    return {};
}

} // namespace drover::ctld
