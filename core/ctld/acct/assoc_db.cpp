// assoc_db.cpp - the controller's copy of clusters, accounts, users and associations.
#include "ctld/acct/assoc_db.hpp"

#include "proto/fb_read.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "plugin/cstr.hpp"
#include "proto/message_generated.h"
#include "common/ascii.hpp"

namespace drover::ctld {

namespace {

std::string text(drover_str s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}

constexpr std::string_view kRefused = "Invalid account or account/partition combination specified";

} // namespace

std::string AssocRec::key() const {
    std::string k(1, char('0' + kind));
    if (kind == DROVER_ACCT_ASSOC)
        return k + cluster + '\0' + account + '\0' + user + '\0' + partition;
    return k + name;
}

drover_acct_assoc AssocRec::view() const {
    drover_acct_assoc a{};
    a.struct_size = sizeof a;
    a.kind = kind;
    a.name = plugin::cstr(name);
    a.cluster = plugin::cstr(cluster);
    a.account = plugin::cstr(account);
    a.user = plugin::cstr(user);
    a.partition = plugin::cstr(partition);
    a.parent = plugin::cstr(parent);
    a.description = plugin::cstr(description);
    a.organization = plugin::cstr(organization);
    a.default_account = plugin::cstr(default_account);
    a.admin_level = admin_level;
    a.attrs = plugin::cstr(attrs_);
    return a;
}

void AssocRec::set_attrs(std::string attrs) {
    attrs_ = std::move(attrs);
    limits_ = policy::Limits::from(policy::decode(attrs_));
}

AssocRec AssocRec::from(const drover_acct_assoc &in) {
    drover_acct_assoc a{};
    std::memcpy(&a, &in, std::min<std::size_t>(in.struct_size, sizeof a));
    AssocRec r;
    r.kind = a.kind;
    r.name = text(a.name);
    r.cluster = text(a.cluster);
    r.account = text(a.account);
    r.user = text(a.user);
    r.partition = text(a.partition);
    r.parent = text(a.parent);
    r.description = text(a.description);
    r.organization = text(a.organization);
    r.default_account = text(a.default_account);
    r.admin_level = a.admin_level;
    r.set_attrs(text(a.attrs));
    return r;
}

AssocRec AssocRec::qos_rec(std::string name) {
    AssocRec r;
    r.kind = DROVER_ACCT_QOS;
    r.name = std::move(name);
    return r;
}

AssocRec AssocRec::cluster_rec(std::string name) {
    AssocRec r;
    r.kind = DROVER_ACCT_CLUSTER;
    r.name = std::move(name);
    return r;
}

AssocRec AssocRec::assoc(std::string cluster, std::string account, std::string user,
                         std::string partition, std::string parent) {
    AssocRec r;
    r.kind = DROVER_ACCT_ASSOC;
    r.cluster = std::move(cluster);
    r.account = std::move(account);
    r.user = std::move(user);
    r.partition = std::move(partition);
    r.parent = std::move(parent);
    return r;
}

const char *admin_level_name(uint32_t level) {
    switch (level) {
    case DROVER_ADMIN_OPERATOR:
        return "Operator";
    case DROVER_ADMIN_ADMINISTRATOR:
        return "Administrator";
    default:
        return "None";
    }
}

int parse_admin_level(std::string_view text) {
    std::string t = ascii_lower(text);
    if (t == "none") return DROVER_ADMIN_NONE;
    if (t == "operator") return DROVER_ADMIN_OPERATOR;
    if (t == "admin" || t == "administrator") return DROVER_ADMIN_ADMINISTRATOR;
    return -1;
}

bool acct_enforce_associations(std::string_view enforce) {
    return policy::Enforce::parse(enforce).associations;
}

void AssocDb::replace(std::vector<AssocRec> recs) {
    recs_.clear();
    for (auto &r : recs) {
        std::string k = r.key();
        recs_[k] = std::move(r);
    }
    loaded_ = true;
}

void AssocDb::apply(const AssocChange &c) {
    for (const auto &r : c.removes) recs_.erase(r.key());
    for (const auto &r : c.puts) recs_[r.key()] = r;
}

const AssocRec *AssocDb::find(const AssocRec &key) const {
    auto it = recs_.find(key.key());
    return it == recs_.end() ? nullptr : &it->second;
}

const AssocRec *AssocDb::cluster(std::string_view name) const {
    AssocRec k;
    k.kind = DROVER_ACCT_CLUSTER;
    k.name = name;
    return find(k);
}

const AssocRec *AssocDb::account(std::string_view name) const {
    AssocRec k;
    k.kind = DROVER_ACCT_ACCOUNT;
    k.name = name;
    return find(k);
}

const AssocRec *AssocDb::user(std::string_view name) const {
    AssocRec k;
    k.kind = DROVER_ACCT_USER;
    k.name = name;
    return find(k);
}

const AssocRec *AssocDb::qos(std::string_view name) const {
    AssocRec k = AssocRec::qos_rec(std::string(name));
    const AssocRec *q = find(k);
    return q ? q : name == "normal" ? &normal_ : nullptr;
}

const AssocRec *AssocDb::job_assoc(std::string_view cluster, std::string_view user,
                                   std::string_view account, std::string_view partition) const {
    std::string c(cluster), u(user), a(account);
    if (const AssocRec *r = find(AssocRec::assoc(c, a, u, std::string(partition), ""))) return r;
    return find(AssocRec::assoc(c, a, u, "", ""));
}

const AssocRec *AssocDb::parent(const AssocRec &assoc) const {
    // A user's association hangs under its account's; an account's under its parent account's.
    std::string up = assoc.user.empty() ? assoc.parent : assoc.account;
    if (up.empty() || (assoc.user.empty() && up == assoc.account)) return nullptr;
    return find(AssocRec::assoc(assoc.cluster, up, "", "", ""));
}

std::vector<std::string> AssocDb::qos_list(const AssocRec &assoc) const {
    for (const AssocRec *a = &assoc; a; a = parent(*a))
        if (a->limits().qos_set) return a->limits().qos;
    return {"normal"};
}

std::string AssocDb::default_qos(const AssocRec &assoc) const {
    for (const AssocRec *a = &assoc; a; a = parent(*a))
        if (!a->limits().default_qos.empty()) return a->limits().default_qos;
    return {};
}

std::vector<const AssocRec *> AssocDb::all(uint32_t kind) const {
    std::vector<const AssocRec *> out;
    for (const auto &[k, r] : recs_)
        if (kind == 0 || r.kind == kind) out.push_back(&r);
    return out;
}

std::vector<const AssocRec *> AssocDb::user_assocs(std::string_view cluster,
                                                   std::string_view user) const {
    std::vector<const AssocRec *> out;
    for (const auto *r : all(DROVER_ACCT_ASSOC))
        if (r->cluster == cluster && r->user == user) out.push_back(r);
    return out;
}

uint32_t AssocDb::admin_level(std::string_view user) const {
    const AssocRec *u = this->user(user);
    return u ? u->admin_level : uint32_t(DROVER_ADMIN_NONE);
}

std::string AssocDb::check_job(bool enforce, std::string_view cluster, std::string_view user,
                               std::string &account, std::string_view partition) const {
    const AssocRec *u = this->user(user);
    if (account.empty() && u) account = u->default_account;
    if (!enforce) return {};
    if (!u || account.empty()) return std::string(kRefused);
    std::string acct = ascii_lower(account);
    for (const auto *a : user_assocs(cluster, user))
        if (a->account == acct && (a->partition.empty() || a->partition == partition)) {
            account = acct;
            return {};
        }
    return std::string(kRefused);
}

std::vector<uint8_t> AssocDb::snapshot() const {
    flatbuffers::FlatBufferBuilder fbb(1024);
    std::vector<flatbuffers::Offset<proto::AssocRecord>> rows;
    for (const auto &[k, r] : recs_)
        rows.push_back(proto::CreateAssocRecordDirect(
            fbb, r.kind, r.name.c_str(), r.cluster.c_str(), r.account.c_str(), r.user.c_str(),
            r.partition.c_str(), r.parent.c_str(), r.description.c_str(), r.organization.c_str(),
            r.default_account.c_str(), r.admin_level, r.attrs().c_str()));
    fbb.Finish(proto::CreateAssocSnapshot(fbb, fbb.CreateVector(rows)));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

bool AssocDb::restore(const uint8_t *data, std::size_t len) {
    flatbuffers::Verifier v(data, len);
    if (!v.VerifyBuffer<proto::AssocSnapshot>(nullptr)) return false;
    const auto *snap = flatbuffers::GetRoot<proto::AssocSnapshot>(data);
    std::vector<AssocRec> recs;
    if (snap->records())
        for (const auto *x : *snap->records()) {
            AssocRec r;
            r.kind = x->kind();
            r.name = proto::str(x->name());
            r.cluster = proto::str(x->cluster());
            r.account = proto::str(x->account());
            r.user = proto::str(x->user());
            r.partition = proto::str(x->partition());
            r.parent = proto::str(x->parent());
            r.description = proto::str(x->description());
            r.organization = proto::str(x->organization());
            r.default_account = proto::str(x->default_account());
            r.admin_level = x->admin_level();
            r.set_attrs(proto::str(x->attrs()));
            recs.push_back(std::move(r));
        }
    replace(std::move(recs));
    return true;
}

} // namespace drover::ctld
