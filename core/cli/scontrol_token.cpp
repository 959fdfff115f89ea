// scontrol_token.cpp - scontrol token [lifespan=SECONDS] [username=USER]: a JSON Web Token from
// the controller (AuthAltTypes=auth/jwt), printed as "SLURM_JWT=<token>" for a shell to export.
#include <charconv>

#include "cli/rpc.hpp"
#include "cli/scontrol_token.hpp"
#include "cli/text.hpp"

namespace drover::cli {

namespace {

// lifespan='s seconds (Slurm also takes "infinite" and "unlimited": the longest a token holds).
bool parse_lifespan(std::string_view v, uint32_t *out) {
    if (iequals(v, "infinite") || iequals(v, "unlimited")) {
        *out = 0x7fffffff;
        return true;
    }
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), *out);
    return ec == std::errc() && end == v.data() + v.size() && *out > 0;
}

} // namespace

int fetch_token(std::span<const std::string> rest) {
    std::string username;
    uint32_t lifespan = 0;
    for (const std::string &w : rest) {
        std::string key = to_lower(w.substr(0, w.find('=') + 1));
        std::string_view value = std::string_view(w).substr(key.size());
        if (key == "lifespan=" && parse_lifespan(value, &lifespan)) continue;
        if (key == "username=" && !value.empty()) {
            username = value;
            continue;
        }
        write_err("Invalid option: `" + w + "`\n");
        return 1;
    }
    flatbuffers::FlatBufferBuilder fbb;
    auto req = proto::CreateTokenRequestDirect(fbb, username.empty() ? nullptr : username.c_str(),
                                               lifespan);
    net::Reply reply;
    const auto *r = ask_ctld<proto::TokenResponse>(
        reply, fbb, proto::Body::TokenRequest, req.Union(), error_line("Error fetching token: "));
    if (!r || !r->token()) return 1;
    write_out("SLURM_JWT=" + r->token()->str() + "\n");
    return 0;
}

} // namespace drover::cli
