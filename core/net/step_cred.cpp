// step_cred.cpp - sign and check job step credentials.
#include "net/step_cred.hpp"

#include <cstring>

#include "net/authenticator.hpp"

namespace drover::net {

std::vector<uint8_t> sign_step_cred(const Authenticator &auth, std::span<const uint8_t> cred) {
    std::vector<uint8_t> sig = auth.sign_as_self(cred);
    flatbuffers::FlatBufferBuilder fbb(cred.size() + sig.size() + 64);
    auto b = fbb.CreateVector(cred.data(), cred.size());
    auto s = fbb.CreateVector(sig);
    fbb.Finish(proto::CreateSignedCred(fbb, b, s));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

bool CheckedCreds::seen(const std::string &key, int64_t now) {
    for (auto it = expiry_.begin(); it != expiry_.end();)
        it = it->second < now ? expiry_.erase(it) : std::next(it);
    return expiry_.count(key) != 0;
}

void CheckedCreds::add(std::string key, int64_t expires) {
    expiry_[std::move(key)] = expires;
}

void StepCredCopy::assign(std::span<const uint8_t> body) {
    words_.assign((body.size() + 7) / 8, 0);
    std::memcpy(words_.data(), body.data(), body.size());
}

const proto::StepCred *StepCredCopy::get() const {
    return words_.empty() ? nullptr : flatbuffers::GetRoot<proto::StepCred>(words_.data());
}

namespace {

// Every refusal of a credential: the request is not allowed (DROVER_EPERM).
Status refused(std::string why) {
    return {DROVER_EPERM, std::move(why)};
}

} // namespace

Status check_step_cred(const Authenticator &auth, std::span<const uint8_t> signed_cred,
                       const std::function<bool(uint32_t)> &is_admin, uint32_t requester_uid,
                       const std::string &node, int64_t now, StepCredCopy *out,
                       CheckedCreds *checked, bool bcast) {
    flatbuffers::Verifier v(signed_cred.data(), signed_cred.size());
    if (!v.VerifyBuffer<proto::SignedCred>(nullptr)) return refused("job credential is malformed");
    const auto *sc = flatbuffers::GetRoot<proto::SignedCred>(signed_cred.data());
    if (!sc->body() || !sc->sig()) return refused("job credential is malformed");
    flatbuffers::Verifier bv(sc->body()->data(), sc->body()->size());
    if (!bv.VerifyBuffer<proto::StepCred>(nullptr)) return refused("job credential is malformed");
    // What can be refused from the body alone is refused before the signature is checked: a
    // checked signature is spent (the auth plugin keeps it against replay).
    out->assign({sc->body()->data(), sc->body()->size()});
    const auto *c = out->get();
    if (c->expires() < now) return refused("job credential expired");
    if (c->uid() != requester_uid && !is_admin(requester_uid))
        return refused("job credential is for uid " + std::to_string(c->uid()) + ", not uid " +
                       std::to_string(requester_uid));
    bool here = false;
    if (c->nodes())
        for (const auto *n : *c->nodes()) here = here || n->str() == node;
    if (!here) return refused("job credential does not name node " + node);
    if (c->bcast() != bcast)
        return refused(c->bcast() ? "job credential is for a file broadcast, not a step launch"
                                  : "job credential is for a step launch, not a file broadcast");
    std::string key(reinterpret_cast<const char *>(signed_cred.data()), signed_cred.size());
    if (!checked || !checked->seen(key, now)) {
        uint32_t uid = 0, gid = 0;
        std::string why = auth.verify({sc->sig()->data(), sc->sig()->size()},
                                      {sc->body()->data(), sc->body()->size()}, &uid, &gid);
        if (!why.empty()) return refused("invalid job credential: " + why);
        if (!is_admin(uid)) return refused("invalid job credential: not signed by the controller");
        if (checked) checked->add(std::move(key), c->expires());
    }
    return {};
}

} // namespace drover::net
