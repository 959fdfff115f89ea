// acct_admin_settings.cpp - sacctmgr's QOS records and association settings, planned.
#include "ctld/acct/acct_admin_settings.hpp"

#include <algorithm>

#include "ctld/policy/settings.hpp"
#include "common/ascii.hpp"

namespace drover::ctld {

namespace {

using policy::Owner;

std::string apply_all(const AssocDb &db, const AdminFields &fields, Owner owner, AssocRec &rec) {
    policy::Settings s = rec.settings();
    auto exists = [&db](std::string_view q) { return db.qos(q) != nullptr; };
    // QOS+=/-= change the list the association has in force, inherited when not its own.
    for (const auto &[k, v] : fields)
        if (owner == Owner::Assoc && k == "qos" && !v.empty() && (v[0] == '+' || v[0] == '-') &&
            !s.count("qos")) {
            std::string inherited;
            for (const auto &q : db.qos_list(rec)) inherited += (inherited.empty() ? "" : ",") + q;
            s["qos"] = inherited;
        }
    for (const auto &[k, v] : fields) {
        if (!policy::is_setting(k, owner)) continue;
        if (std::string why = policy::apply_setting(s, k, v, owner, exists); !why.empty())
            return why;
    }
    if (owner == Owner::Assoc)
        if (auto d = s.find("defaultqos"); d != s.end()) {
            // The default QOS must be one the association may use.
            AssocRec probe = rec;
            probe.set_settings(s);
            auto allowed = db.qos_list(probe);
            if (std::find(allowed.begin(), allowed.end(), d->second) == allowed.end())
                return " Default QOS '" + d->second + "' is not in the association's QOS list";
        }
    rec.set_settings(s);
    return {};
}

void qos_row(const AssocRec &q, AdminFields &row) {
    row.emplace_back("name", q.name);
    row.emplace_back("description", q.description.empty() ? q.name : q.description);
    policy::Settings s = q.settings();
    for (auto key : policy::setting_keys(Owner::Qos))
        row.emplace_back(std::string(key), policy::display(s, key, Owner::Qos));
}

void add_qos(const AssocDb &db, const AdminRequest &req, AdminPlan &plan) {
    auto list = admin_values(req.set, "name");
    if (list.empty()) return void(plan.error = " Need name of qos to add.");
    std::string added;
    for (const auto &n : list) {
        if (db.qos(n) && (n != "normal" || db.find(AssocRec::qos_rec(n)))) {
            plan.message += " This QOS " + n + " already exists.  Not adding.\n";
            continue;
        }
        AssocRec q = AssocRec::qos_rec(n);
        for (const auto &[k, v] : req.set)
            if (k == "description") q.description = v;
        if (std::string why = apply_all(db, req.set, Owner::Qos, q); !why.empty())
            return void(plan.error = why);
        plan.change.puts.push_back(q);
        added += "  Name           = " + n + "\n";
    }
    if (!added.empty()) plan.message += " Adding QOS(s)\n" + added;
    if (plan.change.empty() && plan.message.empty()) plan.message = " Nothing new added.\n";
}

// The QOS records a modify, delete or show names (all when none is named).
std::vector<AssocRec> named_qos(const AssocDb &db, const AdminFields &where) {
    auto want = admin_values(where, "name");
    std::vector<AssocRec> out;
    bool normal_stored = false;
    for (const auto *q : db.all(DROVER_ACCT_QOS)) {
        normal_stored = normal_stored || q->name == "normal";
        if (want.empty() || std::count(want.begin(), want.end(), q->name)) out.push_back(*q);
    }
    if (!normal_stored && (want.empty() || std::count(want.begin(), want.end(), "normal")))
        out.insert(out.begin(), *db.qos("normal"));
    return out;
}

void modify_qos(const AssocDb &db, const AdminRequest &req, AdminPlan &plan) {
    if (req.set.empty()) return void(plan.error = " You didn't give me anything to set");
    std::string list;
    for (auto q : named_qos(db, req.where)) {
        for (const auto &[k, v] : req.set)
            if (k == "description")
                q.description = v;
            else if (!policy::is_setting(k, Owner::Qos))
                return void(plan.error = " Unknown option: " + k + "=" + v);
        if (std::string why = apply_all(db, req.set, Owner::Qos, q); !why.empty())
            return void(plan.error = why);
        plan.change.puts.push_back(q);
        list += "  " + q.name + "\n";
    }
    plan.message = list.empty() ? " Nothing modified\n" : " Modified qos...\n" + list;
}

void delete_qos(const AssocDb &db, const AdminRequest &req, AdminPlan &plan) {
    if (admin_values(req.where, "name").empty())
        return void(plan.error = " You didn't give me anything to delete");
    std::string list;
    for (const auto &q : named_qos(db, req.where)) {
        // A QOS an association still lists would leave it pointing at nothing.
        for (const auto *a : db.all(DROVER_ACCT_ASSOC)) {
            auto own = a->limits().qos;
            if (std::count(own.begin(), own.end(), q.name) || a->limits().default_qos == q.name)
                return void(plan.error = " QOS '" + q.name + "' is used by an association (" +
                                         a->account + (a->user.empty() ? "" : "/" + a->user) +
                                         "); remove it there first");
        }
        plan.change.removes.push_back(q);
        list += "  " + q.name + "\n";
    }
    plan.message = list.empty() ? " Nothing deleted\n" : " Deleting QOS(s)...\n" + list;
}

} // namespace

std::vector<std::string> admin_values(const AdminFields &fields, std::string_view key) {
    std::vector<std::string> out;
    for (const auto &[k, v] : fields)
        if (k == key)
            for (const auto &x : policy::list_items(v)) out.push_back(ascii_lower(x));
    return out;
}

bool is_setting_key(const std::string &key) {
    return policy::is_setting(key, Owner::Assoc) || policy::is_setting(key, Owner::Qos);
}

void plan_qos(const AssocDb &db, const AdminRequest &req, AdminPlan &plan) {
    if (req.verb == "add") return add_qos(db, req, plan);
    if (req.verb == "modify") return modify_qos(db, req, plan);
    if (req.verb == "delete") return delete_qos(db, req, plan);
    for (const auto &q : named_qos(db, req.where)) {
        AdminFields row;
        qos_row(q, row);
        plan.rows.push_back(std::move(row));
    }
}

std::string apply_assoc_settings(const AssocDb &db, const AdminFields &fields, AssocRec &rec) {
    for (const auto &[k, v] : fields)
        if (policy::is_setting(k, Owner::Qos) && !policy::is_setting(k, Owner::Assoc))
            return " Unknown option: " + k + "=" + v;
    return apply_all(db, fields, Owner::Assoc, rec);
}

void add_settings_row(const AssocDb &db, const AssocRec &rec, AdminFields &row) {
    policy::Settings s = rec.settings();
    for (auto key : policy::setting_keys(Owner::Assoc)) {
        std::string v = policy::display(s, key, Owner::Assoc);
        if (key == "qos") {
            auto list = db.qos_list(rec);
            v.clear();
            for (const auto &q : list) v += (v.empty() ? "" : ",") + q;
        } else if (key == "defaultqos" && v.empty()) {
            v = db.default_qos(rec);
        }
        row.emplace_back(std::string(key), v);
    }
}

} // namespace drover::ctld
