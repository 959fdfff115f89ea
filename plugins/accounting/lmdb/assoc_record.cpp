// assoc_record.cpp - packs and unpacks sacctmgr's records (format in assoc_record.hpp).
#include "assoc_record.hpp"

#include <algorithm>
#include <cstring>

#include "codec.hpp"

namespace drover::acct_lmdb {

namespace {

constexpr uint8_t kVersion = 2; // 2 added attrs (ABI 1.8)

template <class Rec, class F>
void strings(Rec &r, F &&f) {
    for (auto *s : {&r.name, &r.cluster, &r.account, &r.user, &r.partition, &r.parent,
                    &r.description, &r.organization, &r.default_account, &r.attrs})
        f(*s);
}

} // namespace

AssocRecord AssocRecord::from(const drover_acct_assoc &in) {
    drover_acct_assoc a{};
    std::memcpy(&a, &in, std::min<size_t>(in.struct_size, sizeof a));
    AssocRecord r;
    r.kind = a.kind;
    r.admin_level = a.admin_level;
    const drover_str from[] = {
        a.name,        a.cluster,      a.account,         a.user, a.partition, a.parent,
        a.description, a.organization, a.default_account, a.attrs};
    int i = 0;
    strings(r, [&](std::string &s) { s = copy(from[i++]); });
    return r;
}

drover_acct_assoc AssocRecord::view() const {
    auto str = [](const std::string &s) { return drover_str{s.data(), s.size()}; };
    drover_acct_assoc a{};
    a.struct_size = sizeof a;
    a.kind = kind;
    a.admin_level = admin_level;
    a.name = str(name);
    a.cluster = str(cluster);
    a.account = str(account);
    a.user = str(user);
    a.partition = str(partition);
    a.parent = str(parent);
    a.description = str(description);
    a.organization = str(organization);
    a.default_account = str(default_account);
    a.attrs = str(attrs);
    return a;
}

std::string AssocRecord::key() const {
    std::string k(1, static_cast<char>(kind));
    if (kind == DROVER_ACCT_ASSOC)
        return k + cluster + '\0' + account + '\0' + user + '\0' + partition;
    return k + name;
}

std::string AssocRecord::pack() const {
    Writer w;
    w.u8(kVersion);
    w.u32(kind);
    w.u32(admin_level);
    AssocRecord self = *this;
    strings(self, [&](std::string &s) { w.str(drover_str{s.data(), s.size()}); });
    return w.take();
}

std::optional<AssocRecord> AssocRecord::unpack(std::string_view bytes) {
    Reader r(bytes);
    const uint8_t version = r.u8();
    if (version != 1 && version != kVersion) return std::nullopt;
    AssocRecord rec;
    rec.kind = r.u32();
    rec.admin_level = r.u32();
    strings(rec, [&](std::string &s) {
        if (version > 1 || &s != &rec.attrs) s = r.str();
    });
    if (!r.ok()) return std::nullopt;
    return rec;
}

} // namespace drover::acct_lmdb
