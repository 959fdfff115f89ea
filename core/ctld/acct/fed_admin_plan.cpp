// fed_admin_plan.cpp - sacctmgr's federations, planned against the controller's copy of the store.
#include "ctld/acct/fed_admin_plan.hpp"

#include <algorithm>
#include <map>

#include "common/ascii.hpp"
#include "common/config_parse.hpp"
#include "ctld/acct/acct_admin_settings.hpp"
#include "ctld/fed/federation.hpp"
#include "ctld/policy/settings.hpp"

namespace drover::ctld {

namespace {

using Names = std::vector<std::string>;

bool has(const Names &list, std::string_view v) {
    return std::find(list.begin(), list.end(), v) != list.end();
}

// A list value with its mode: KEY=a,b sets, KEY+=a adds, KEY-=a removes (sacctmgr's words come
// with the + or - in front of the value).
struct ListChange {
    char op = 0; // 0, '+' or '-'
    Names items;
    bool given = false;
};

ListChange list_change(const AdminFields &fields, std::string_view key, bool lower) {
    ListChange c;
    for (const auto &[k, v] : fields) {
        if (k != key) continue;
        c.given = true;
        std::string_view text = v;
        if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
            c.op = text[0];
            text.remove_prefix(1);
        }
        for (auto &item : policy::list_items(text))
            c.items.push_back(lower ? ascii_lower(item) : item);
    }
    return c;
}

Names apply_list(Names current, const ListChange &c) {
    if (!c.op) return c.items;
    for (const auto &item : c.items) {
        auto it = std::find(current.begin(), current.end(), item);
        if (c.op == '-' && it != current.end()) current.erase(it);
        if (c.op == '+' && it == current.end()) current.push_back(item);
    }
    return current;
}

// A federation's name or a cluster feature: the store keeps them inside "key=value;..." settings
// and comma lists, so those characters (and blanks and quotes) are refused.
bool plain_word(std::string_view w) {
    return !w.empty() && w.find_first_of(";=, \t\n\"'") == std::string_view::npos;
}

AssocRec federation_rec(const std::string &name) {
    AssocRec r;
    r.kind = DROVER_ACCT_FEDERATION;
    r.name = name;
    return r;
}

struct FedPlanner {
    const AssocDb &db;
    const AdminRequest &req;
    AdminPlan &plan;
    std::map<std::string, AssocRec> clusters = {}; // cluster records this request changes

    FedCluster settings(const std::string &cluster) {
        auto it = clusters.find(cluster);
        return fed_settings(it != clusters.end() ? it->second : *db.cluster(cluster));
    }

    // Puts cluster into federation (or out of any, for ""), keeping its id when it stays; it
    // takes the lowest id 1..63 no other member holds.
    void join(const std::string &cluster, const std::string &federation) {
        FedCluster c = settings(cluster);
        if (c.federation == federation) return;
        c.federation = federation;
        c.id = 0;
        for (uint32_t id = 1; !federation.empty() && !c.id && id <= kMaxFedId; ++id)
            if (!taken(federation, id, cluster)) c.id = id;
        if (!federation.empty() && !c.id)
            plan.error = " Federation " + federation + " already has 63 clusters";
        AssocRec rec = clusters.count(cluster) ? clusters[cluster] : *db.cluster(cluster);
        set_fed_settings(rec, c);
        clusters[cluster] = rec;
    }

    bool taken(const std::string &federation, uint32_t id, const std::string &except) {
        for (const auto *r : db.all(DROVER_ACCT_CLUSTER)) {
            if (r->name == except) continue;
            FedCluster o = settings(r->name);
            if (o.federation == federation && o.id == id) return true;
        }
        return false;
    }

    // Every named cluster exists, else Slurm's refusal.
    bool clusters_exist(const Names &names) {
        std::string missing;
        for (const auto &n : names)
            if (!db.cluster(n))
                missing += " The cluster " + n + " doesn't exist. Please add first.\n";
        if (!missing.empty()) plan.error = missing;
        return missing.empty();
    }

    Names members(const std::string &federation) {
        Names out;
        for (const auto *r : db.all(DROVER_ACCT_CLUSTER))
            if (settings(r->name).federation == federation) out.push_back(r->name);
        return out;
    }

    // A federation's clusters become list (as the request changes them).
    void set_members(const std::string &federation, const ListChange &change) {
        Names now = members(federation);
        Names want = apply_list(now, change);
        for (const auto &n : now)
            if (!has(want, n)) join(n, "");
        for (const auto &n : want) {
            FedCluster c = settings(n);
            if (!c.federation.empty() && c.federation != federation)
                plan.message +=
                    " The cluster " + n + " is assigned to federation " + c.federation + "\n";
            join(n, federation);
        }
    }

    void finish() {
        for (auto &[name, rec] : clusters) plan.change.puts.push_back(rec);
    }

    void add() {
        Names names = admin_values(req.set, "name");
        ListChange cl = list_change(req.set, "cluster", true);
        if (names.empty()) return void(plan.error = " Need name of federation to add.");
        for (const auto &n : names)
            if (!plain_word(n)) return void(plan.error = " Invalid federation name '" + n + "'");
        if (cl.given && names.size() > 1)
            return void(plan.error = " Can't assign clusters to multiple federations.");
        if (!clusters_exist(cl.items)) return;
        std::string added;
        for (const auto &n : names) {
            if (db.find(federation_rec(n))) {
                plan.message += " This federation " + n + " already exists.  Not adding.\n";
                continue;
            }
            plan.change.puts.push_back(federation_rec(n));
            added += "  " + n + "\n";
            if (cl.given) set_members(n, {0, cl.items, true});
        }
        if (added.empty()) return void(plan.message += " Nothing new added.\n");
        plan.message += " Adding Federation(s)\n" + added;
        if (cl.given)
            plan.message += " Settings\n  Cluster       = " + detail::join_list(cl.items) + "\n";
        finish();
    }

    // The federations a modify, delete or show names (all when none is).
    std::vector<const AssocRec *> named() {
        Names names = admin_values(req.where, "name");
        std::vector<const AssocRec *> out;
        for (const auto *r : db.all(DROVER_ACCT_FEDERATION))
            if (names.empty() || has(names, r->name)) out.push_back(r);
        return out;
    }

    bool all_exist() {
        for (const auto &n : admin_values(req.where, "name"))
            if (!db.find(federation_rec(n)))
                return void(plan.error = " The federation " + n + " doesn't exist."), false;
        return true;
    }

    void modify() {
        ListChange cl = list_change(req.set, "cluster", true);
        for (const auto &[k, v] : req.set)
            if (k != "cluster") return void(plan.error = " Unknown option: " + k + "=" + v);
        if (!cl.given) return void(plan.error = " You didn't give me anything to set");
        if (!all_exist()) return;
        auto feds = named();
        if (feds.size() != 1)
            return void(plan.error = " Can't assign clusters to multiple federations.");
        if (cl.op && cl.items.empty())
            return void(plan.error = std::string(" You didn't specify any clusters to ") +
                                     (cl.op == '-' ? "remove" : "add"));
        if (!clusters_exist(cl.items)) return;
        const std::string &fed = feds.front()->name;
        for (const auto &n : cl.items)
            if (cl.op == '-' && settings(n).federation != fed)
                plan.message += " The cluster " + n + " isn't assigned to federation " + fed + "\n";
        set_members(fed, cl);
        if (clusters.empty()) return void(plan.message += "Nothing to change\n");
        plan.message += " Setting\n  Cluster       = " + std::string(cl.op ? 1 : 0, cl.op) +
                        detail::join_list(cl.items) + "\n Modified federation...\n  " + fed + "\n";
        finish();
    }

    void remove() {
        if (admin_values(req.where, "name").empty())
            return void(plan.error = " No conditions given to remove, not executing.");
        std::string list;
        for (const auto *f : named()) {
            plan.change.removes.push_back(*f);
            for (const auto &n : members(f->name)) join(n, "");
            list += "  " + f->name + "\n";
        }
        if (list.empty()) return void(plan.message = " Nothing deleted\n");
        plan.message = " Deleting federations...\n" + list;
        finish();
    }

    // One row per member (the federation alone when it has none); tree: the federation's own
    // row first, then its clusters without its name.
    void show() {
        bool tree = !admin_values(req.where, "tree").empty();
        for (const auto *f : named()) {
            Names m = members(f->name);
            if (tree || m.empty()) plan.rows.push_back(AdminFields{{"federation", f->name}});
            for (const auto &n : m) {
                FedCluster c = settings(n);
                plan.rows.push_back(AdminFields{{"federation", tree ? "" : f->name},
                                                {"cluster", n},
                                                {"id", std::to_string(c.id)},
                                                {"features", detail::join_list(c.features)},
                                                {"fedstate", fed_state_name(c.state)}});
            }
        }
    }
};

} // namespace

void plan_federation(const AssocDb &db, const AdminRequest &req, AdminPlan &plan) {
    FedPlanner p{db, req, plan};
    if (req.verb == "add")
        p.add();
    else if (req.verb == "modify")
        p.modify();
    else if (req.verb == "delete")
        p.remove();
    else
        p.show();
}

bool is_cluster_fed_modify(const AdminRequest &req) {
    if (req.entity != "cluster" || req.verb != "modify") return false;
    for (const auto &[k, v] : req.set)
        if (k == "federation" || k == "features" || k == "fedstate") return true;
    return false;
}

void plan_cluster_fed(const AssocDb &db, const AdminRequest &req, AdminPlan &plan) {
    FedPlanner p{db, req, plan};
    ListChange features = list_change(req.set, "features", false);
    std::string fed, state_text;
    bool fed_given = false, state_given = false;
    for (const auto &[k, v] : req.set) {
        if (k == "federation")
            fed = ascii_lower(v), fed_given = true;
        else if (k == "fedstate")
            state_text = v, state_given = true;
        else if (k != "features")
            return void(plan.error = " Unknown option: " + k + "=" + v);
    }
    for (const auto &f : features.items)
        if (!plain_word(f)) return void(plan.error = " Invalid feature '" + f + "'");
    FedState state{};
    if (state_given && !parse_fed_state(state_text, state))
        return void(plan.error = " Invalid FedState " + state_text + ".");
    if (fed_given && !fed.empty() && !db.find(federation_rec(fed)))
        return void(plan.error = " The federation " + fed + " doesn't exist.");
    Names names = admin_values(req.where, "name");
    if (names.empty()) names = admin_values(req.where, "cluster");
    if (!p.clusters_exist(names)) return;
    std::string list;
    for (const auto *r : db.all(DROVER_ACCT_CLUSTER)) {
        if (!names.empty() && !has(names, r->name)) continue;
        if (fed_given) p.join(r->name, fed);
        FedCluster c = p.settings(r->name);
        if (state_given) c.state = state;
        if (features.given) c.features = apply_list(c.features, features);
        AssocRec rec = p.clusters.count(r->name) ? p.clusters[r->name] : *r;
        set_fed_settings(rec, c);
        p.clusters[r->name] = rec;
        list += "  " + r->name + "\n";
    }
    if (list.empty()) return void(plan.message = " Nothing modified\n");
    std::string setting;
    if (fed_given) setting += "  Federation     = " + fed + "\n";
    if (features.given)
        setting += "  Feature        = " + std::string(features.op ? 1 : 0, features.op) +
                   detail::join_list(features.items) + "\n";
    if (state_given) setting += "  FedState       = " + std::string(fed_state_name(state)) + "\n";
    plan.message = " Setting\n" + setting + " Modified cluster...\n" + list;
    p.finish();
}

void add_cluster_fed_row(const AssocDb &db, const AssocRec &cluster, AdminFields &row) {
    FedCluster c = store_cluster(db, cluster);
    row.emplace_back("controlhost", c.control_host());
    row.emplace_back("controlport", std::to_string(c.port));
    row.emplace_back("rpc", c.port ? "9984" : "0");
    row.emplace_back("federation", c.federation);
    row.emplace_back("id", std::to_string(c.id));
    row.emplace_back("features", detail::join_list(c.features));
    row.emplace_back("fedstate", c.federation.empty() ? "NA" : fed_state_name(c.state));
}

} // namespace drover::ctld
