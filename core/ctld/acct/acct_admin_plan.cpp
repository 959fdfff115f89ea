// acct_admin_plan.cpp - sacctmgr's add, modify, delete and show, planned against the AssocDb:
// what would change, and what sacctmgr says about it, without changing anything.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>

#include "ctld/acct/acct_admin.hpp"
#include "ctld/acct/acct_admin_settings.hpp"
#include "ctld/acct/fed_admin_plan.hpp"
#include "common/ascii.hpp"

namespace drover::ctld {

namespace {

using Names = std::vector<std::string>;

// One value as written (case kept), or "" when absent.
std::string one(const AdminFields &fields, std::string_view key, bool *given = nullptr) {
    std::string out;
    if (given) *given = false;
    for (const auto &[k, v] : fields)
        if (k == key) {
            out = v;
            if (out.size() >= 2 && (out.front() == '"' || out.front() == '\'') &&
                out.back() == out.front())
                out = out.substr(1, out.size() - 2);
            if (given) *given = true;
        }
    return out;
}

bool has(const Names &list, std::string_view v) {
    return std::find(list.begin(), list.end(), v) != list.end();
}
// An empty filter matches everything.
bool pass(const Names &filter, std::string_view v) {
    return filter.empty() || has(filter, v);
}

std::string fmt(const char *f, const std::string &a, const std::string &b = {},
                const std::string &c = {}) {
    char buf[512];
    std::snprintf(buf, sizeof buf, f, a.c_str(), b.c_str(), c.c_str());
    return buf;
}

const std::set<std::string> kKeys = {"name",           "cluster",    "account",     "user",
                                     "partition",      "parent",     "description", "organization",
                                     "defaultaccount", "adminlevel", "federation",  "features",
                                     "fedstate",       "tree"};

struct Planner {
    const AssocDb &db;
    const AdminRequest &req;
    const LocalCluster &local;
    AdminPlan plan;

    // Records as they will be once plan.change is applied (for checks within one request).
    const AssocRec *pending(const AssocRec &key) const {
        for (const auto &r : plan.change.puts)
            if (r.key() == key.key()) return &r;
        return db.find(key);
    }
    bool account_on(const std::string &account, const std::string &cluster) const {
        return pending(AssocRec::assoc(cluster, account, "", "", "")) != nullptr;
    }
    Names all_clusters() const {
        Names out;
        for (const auto *c : db.all(DROVER_ACCT_CLUSTER)) out.push_back(c->name);
        for (const auto &r : plan.change.puts)
            if (r.kind == DROVER_ACCT_CLUSTER && !has(out, r.name)) out.push_back(r.name);
        return out;
    }
    // The clusters a request names, checked; all known when none is named.
    bool clusters(const AdminFields &f, Names *out) {
        Names named = admin_values(f, "cluster");
        if (named.empty()) {
            *out = all_clusters();
            if (out->empty()) {
                plan.error = "  Can't add accounts, no cluster defined yet.\n Please contact your "
                             "administrator.";
                return false;
            }
            return true;
        }
        for (const auto &c : named)
            if (!db.cluster(c)) {
                plan.error = fmt(" This cluster '%s' doesn't exist.\n        Contact your admin to "
                                 "add it to accounting.",
                                 c);
                return false;
            }
        *out = named;
        return true;
    }

    void add_cluster() {
        Names names = admin_values(req.set, "name");
        if (names.empty()) return void(plan.error = " Need name of cluster to add.");
        std::string added;
        for (const auto &n : names) {
            if (db.cluster(n)) {
                plan.message += fmt(" This cluster %s already exists.  Not adding.\n", n);
                continue;
            }
            plan.change.puts.push_back(AssocRec::cluster_rec(n));
            added += fmt("  Name           = %s\n", n);
            // Every cluster starts with the root account and root as its user, as in Slurm.
            if (!pending([] {
                    AssocRec k;
                    k.kind = DROVER_ACCT_ACCOUNT;
                    k.name = "root";
                    return k;
                }())) {
                AssocRec root;
                root.kind = DROVER_ACCT_ACCOUNT;
                root.name = "root";
                root.description = "default root account";
                root.organization = "root";
                plan.change.puts.push_back(root);
            }
            if (!pending([] {
                    AssocRec k;
                    k.kind = DROVER_ACCT_USER;
                    k.name = "root";
                    return k;
                }())) {
                AssocRec user;
                user.kind = DROVER_ACCT_USER;
                user.name = "root";
                user.default_account = "root";
                user.admin_level = DROVER_ADMIN_ADMINISTRATOR;
                plan.change.puts.push_back(user);
            }
            plan.change.puts.push_back(AssocRec::assoc(n, "root", "", "", ""));
            plan.change.puts.push_back(AssocRec::assoc(n, "root", "root", "", "root"));
        }
        if (!added.empty()) plan.message += " Adding Cluster(s)\n" + added;
    }

    void add_account() {
        Names names = admin_values(req.set, "name");
        if (names.empty()) return void(plan.error = " Need name of account to add.");
        bool has_descr = false, has_org = false;
        std::string descr = one(req.set, "description", &has_descr);
        std::string org = ascii_lower(one(req.set, "organization", &has_org));
        Names parents = admin_values(req.set, "parent");
        std::string parent = parents.empty() ? "root" : parents.front();
        Names cl;
        if (!clusters(req.set, &cl)) return;
        std::string accts, assocs;
        for (const auto &n : names) {
            if (!db.account(n)) {
                AssocRec a;
                a.kind = DROVER_ACCT_ACCOUNT;
                a.name = n;
                a.description = has_descr ? descr : n;
                a.organization = has_org ? org : parent != "root" ? parent : n;
                plan.change.puts.push_back(a);
                accts += "  " + n + "\n";
            }
            for (const auto &c : cl) {
                if (account_on(n, c)) continue;
                if (!account_on(parent, c)) {
                    plan.error = fmt(" Parent account '%s' doesn't exist on cluster %s\n        "
                                     "Contact your admin to add this account.",
                                     parent, c);
                    return;
                }
                AssocRec as = AssocRec::assoc(c, n, "", "", parent);
                if (std::string why = apply_assoc_settings(db, req.set, as); !why.empty())
                    return void(plan.error = why);
                plan.change.puts.push_back(as);
                assocs += fmt("  A = %-10.10s C = %-10.10s\n", n, c);
            }
        }
        if (plan.change.empty()) return void(plan.message = " Nothing new added.\n");
        if (!accts.empty()) {
            plan.message += " Adding Account(s)\n" + accts + " Settings\n";
            plan.message +=
                "  Description     = " + (has_descr ? descr : std::string("Account Name")) + "\n";
            plan.message +=
                "  Organization    = " + (has_org ? org : std::string("Parent/Account Name")) +
                "\n";
        }
        if (!assocs.empty())
            plan.message +=
                " Associations\n" + assocs + " Settings\n  Parent        = " + parent + "\n";
    }

    void add_user() {
        Names names = admin_values(req.set, "name");
        if (names.empty()) return void(plan.error = " Need name of user to add.");
        Names accounts = admin_values(req.set, "account");
        Names defaults = admin_values(req.set, "defaultaccount");
        Names parts = admin_values(req.set, "partition");
        if (parts.empty()) parts.push_back("");
        bool has_level = false;
        std::string level_text = one(req.set, "adminlevel", &has_level);
        int level = has_level ? parse_admin_level(level_text) : DROVER_ADMIN_NONE;
        if (level < 0) return void(plan.error = " Invalid AdminLevel: " + level_text);
        if (!defaults.empty() && !has(accounts, defaults.front()))
            accounts.push_back(defaults.front());
        Names cl;
        if (!clusters(req.set, &cl)) return;
        for (const auto &a : accounts)
            for (const auto &c : cl)
                if (!account_on(a, c))
                    return void(plan.error =
                                    fmt(" This account '%s' doesn't exist on cluster %s.\n        "
                                        "Contact your admin to add this account.",
                                        a, c));
        std::string users, assocs;
        for (const auto &n : names) {
            const AssocRec *u = db.user(n);
            if (!u) {
                if (accounts.empty())
                    return void(plan.error = " Need a default account for these users to add.");
                AssocRec r;
                r.kind = DROVER_ACCT_USER;
                r.name = n;
                r.default_account = defaults.empty() ? accounts.front() : defaults.front();
                r.admin_level = uint32_t(level);
                plan.change.puts.push_back(r);
                users += "  " + n + "\n";
            }
            for (const auto &a : accounts)
                for (const auto &c : cl)
                    for (const auto &p : parts) {
                        AssocRec as = AssocRec::assoc(c, a, n, p, a);
                        if (pending(as)) continue;
                        if (std::string why = apply_assoc_settings(db, req.set, as); !why.empty())
                            return void(plan.error = why);
                        plan.change.puts.push_back(as);
                        assocs += fmt("  U = %-9.9s A = %-10.10s C = %-10.10s\n", n, a, c);
                    }
        }
        if (plan.change.empty()) return void(plan.message = " Nothing new added.\n");
        if (!users.empty()) {
            plan.message += " Adding User(s)\n" + users + " Settings =\n";
            plan.message +=
                "  Default Account = " +
                (defaults.empty() ? (accounts.empty() ? "" : accounts.front()) : defaults.front()) +
                "\n";
            if (has_level)
                plan.message +=
                    std::string("  Admin Level     = ") + admin_level_name(uint32_t(level)) + "\n";
        }
        if (!assocs.empty()) plan.message += " Associations =\n" + assocs;
    }

    // The users, accounts or clusters a modify/delete names: where name= (or bare names).
    std::vector<const AssocRec *> named(uint32_t kind) {
        Names names = admin_values(req.where, "name");
        std::vector<const AssocRec *> out;
        for (const auto *r : db.all(kind)) {
            if (!pass(names, r->name)) continue;
            if (kind == DROVER_ACCT_USER) {
                if (!pass(admin_values(req.where, "defaultaccount"), r->default_account)) continue;
                Names accts = admin_values(req.where, "account");
                if (!accts.empty()) {
                    bool any = false;
                    for (const auto *a : db.all(DROVER_ACCT_ASSOC))
                        any = any || (a->user == r->name && has(accts, a->account));
                    if (!any) continue;
                }
            }
            if (kind == DROVER_ACCT_ACCOUNT &&
                !pass(admin_values(req.where, "organization"), r->organization))
                continue;
            out.push_back(r);
        }
        return out;
    }

    void modify_user() {
        if (req.set.empty()) return void(plan.error = " You didn't give me anything to set");
        auto users = named(DROVER_ACCT_USER);
        if (users.empty()) return void(plan.message = " Nothing modified\n");
        bool has_level = false, has_def = false;
        std::string level_text = one(req.set, "adminlevel", &has_level);
        std::string def = ascii_lower(one(req.set, "defaultaccount", &has_def));
        int level = has_level ? parse_admin_level(level_text) : 0;
        if (level < 0) return void(plan.error = " Invalid AdminLevel: " + level_text);
        for (const auto &[k, v] : req.set)
            if (k != "adminlevel" && k != "defaultaccount" && !is_setting_key(k))
                return void(plan.error = " Unknown option: " + k + "=" + v);
        if (!modify_settings(true)) return;
        if (!has_level && !has_def) {
            if (plan.change.empty()) plan.message = " Nothing modified\n";
            return;
        }
        std::string list;
        for (const auto *u : users) {
            AssocRec r = *u;
            if (has_def) {
                bool assoc = false;
                for (const auto *a : db.all(DROVER_ACCT_ASSOC))
                    assoc = assoc || (a->user == r.name && a->account == def);
                if (!assoc)
                    return void(plan.error = fmt(" User '%s' has no association with account '%s'",
                                                 r.name, def));
                r.default_account = def;
            }
            if (has_level) r.admin_level = uint32_t(level);
            plan.change.puts.push_back(r);
            list += "  " + r.name + "\n";
        }
        plan.message = " Modified users...\n" + list + plan.message;
    }

    // The settings of a modify (limits, QOS) go to the associations of the users or accounts it
    // names (users: the where clause's account, cluster and partition narrow them). False after
    // a refusal.
    bool modify_settings(bool users) {
        bool any = false;
        for (const auto &[k, v] : req.set) any = any || is_setting_key(k);
        if (!any) return true;
        std::string said;
        auto who = named(users ? DROVER_ACCT_USER : DROVER_ACCT_ACCOUNT);
        for (const auto *a : db.all(DROVER_ACCT_ASSOC)) {
            bool match = false;
            for (const auto *w : who)
                match = match ||
                        (users ? a->user == w->name : a->user.empty() && a->account == w->name);
            if (!match) continue;
            if (!pass(admin_values(req.where, "cluster"), a->cluster)) continue;
            if (users && (!pass(admin_values(req.where, "account"), a->account) ||
                          !pass(admin_values(req.where, "partition"), a->partition)))
                continue;
            AssocRec r = *pending(*a);
            if (std::string why = apply_assoc_settings(db, req.set, r); !why.empty()) {
                plan.error = why;
                return false;
            }
            plan.change.puts.push_back(r);
            said += users ? fmt("  C = %-10.10s A = %-10.10s U = %-9.9s\n", r.cluster, r.account,
                                r.user)
                          : fmt("  C = %-10.10s A = %-10.10s\n", r.cluster, r.account);
        }
        if (!said.empty())
            plan.message += users ? " Modified user associations...\n" + said
                                  : " Modified account associations...\n" + said;
        return true;
    }

    void modify_account() {
        if (req.set.empty()) return void(plan.error = " You didn't give me anything to set");
        auto accts = named(DROVER_ACCT_ACCOUNT);
        if (accts.empty()) return void(plan.message = " Nothing modified\n");
        bool has_descr = false, has_org = false, has_parent = false;
        std::string descr = one(req.set, "description", &has_descr);
        std::string org = ascii_lower(one(req.set, "organization", &has_org));
        std::string parent = ascii_lower(one(req.set, "parent", &has_parent));
        for (const auto &[k, v] : req.set)
            if (k != "description" && k != "organization" && k != "parent" && !is_setting_key(k))
                return void(plan.error = " Unknown option: " + k + "=" + v);
        if (!modify_settings(false)) return;
        std::string list, moved;
        for (const auto *a : accts) {
            if (has_descr || has_org) {
                AssocRec r = *a;
                if (has_descr) r.description = descr;
                if (has_org) r.organization = org;
                plan.change.puts.push_back(r);
                list += "  " + r.name + "\n";
            }
            if (!has_parent) continue;
            if (a->name == "root" || parent == a->name)
                return void(plan.error =
                                " Can't make '" + parent + "' the parent of '" + a->name + "'");
            for (const auto *as : db.all(DROVER_ACCT_ASSOC)) {
                if (as->account != a->name || !as->user.empty()) continue;
                if (!pass(admin_values(req.where, "cluster"), as->cluster)) continue;
                if (!account_on(parent, as->cluster))
                    return void(plan.error = fmt(" Parent account '%s' doesn't exist on cluster %s",
                                                 parent, as->cluster));
                // A parent may not sit below the account it would hold.
                for (std::string up = parent; !up.empty();) {
                    if (up == a->name)
                        return void(plan.error = " Can't make '" + parent + "' the parent of '" +
                                                 a->name + "': it is below it");
                    const AssocRec *p = pending(AssocRec::assoc(as->cluster, up, "", "", ""));
                    up = p ? p->parent : "";
                }
                AssocRec r = *pending(*as);
                r.parent = parent;
                plan.change.puts.push_back(r);
                moved += fmt("  C = %-10.10s A = %-10.10s\n", r.cluster, r.account);
            }
        }
        if (!list.empty()) plan.message += " Modified accounts...\n" + list;
        if (!moved.empty()) plan.message += " Modified account associations...\n" + moved;
        if (plan.change.empty()) plan.message = " Nothing modified\n";
    }

    // Associations the where clause names (users' and accounts').
    bool assoc_matches(const AssocRec &a) {
        return pass(admin_values(req.where, "cluster"), a.cluster) &&
               pass(admin_values(req.where, "account"), a.account) &&
               pass(admin_values(req.where, "user"), a.user) &&
               pass(admin_values(req.where, "partition"), a.partition);
    }

    void remove_assoc(const AssocRec &a, std::string &said) {
        for (const auto &r : plan.change.removes)
            if (r.key() == a.key()) return;
        plan.change.removes.push_back(a);
        said += a.user.empty()
                    ? fmt("  C = %-10.10s A = %-10.10s\n", a.cluster, a.account)
                    : fmt("  C = %-10.10s A = %-10.10s U = %-9.9s\n", a.cluster, a.account, a.user);
    }

    void delete_cluster() {
        std::string list, ignored;
        for (const auto *c : named(DROVER_ACCT_CLUSTER)) {
            plan.change.removes.push_back(*c);
            for (const auto *a : db.all(DROVER_ACCT_ASSOC))
                if (a->cluster == c->name) plan.change.removes.push_back(*a);
            list += "  " + c->name + "\n";
        }
        plan.message = list.empty() ? " Nothing deleted\n" : " Deleting clusters...\n" + list;
    }

    void delete_account() {
        auto accts = named(DROVER_ACCT_ACCOUNT);
        Names cl = admin_values(req.where, "cluster");
        std::string list, assocs;
        for (const auto *a : accts) {
            if (a->name == "root") return void(plan.error = " You can't delete the root account");
            for (const auto *as : db.all(DROVER_ACCT_ASSOC)) {
                if (!pass(cl, as->cluster)) continue;
                if (as->user.empty() && as->parent == a->name &&
                    !has(admin_values(req.where, "name"), as->account))
                    return void(
                        plan.error =
                            fmt(" Account '%s' has sub-accounts (%s); delete or move them first",
                                a->name, as->account));
                if (as->account != a->name) continue;
                if (!as->user.empty()) {
                    const AssocRec *u = db.user(as->user);
                    if (u && u->default_account == a->name && cl.empty())
                        return void(plan.error = fmt(" Account '%s' is the default account of user "
                                                     "'%s'; change it first",
                                                     a->name, u->name));
                }
                remove_assoc(*as, assocs);
            }
            if (cl.empty()) {
                plan.change.removes.push_back(*a);
                list += "  " + a->name + "\n";
            }
        }
        if (!list.empty())
            plan.message = " Deleting accounts...\n" + list;
        else if (!assocs.empty())
            plan.message = " Deleting account associations...\n" + assocs;
        else
            plan.message = " Nothing deleted\n";
    }

    void delete_user() {
        auto users = named(DROVER_ACCT_USER);
        // With account=, cluster= or partition= only those associations go; else the users.
        bool some = !admin_values(req.where, "account").empty() ||
                    !admin_values(req.where, "cluster").empty() ||
                    !admin_values(req.where, "partition").empty();
        std::string list, assocs;
        for (const auto *u : users) {
            for (const auto *a : db.all(DROVER_ACCT_ASSOC)) {
                if (a->user != u->name) continue;
                if (some && !assoc_matches(*a)) continue;
                if (some && a->account == u->default_account && a->partition.empty())
                    return void(
                        plan.error = fmt(
                            " Account '%s' is the default account of user '%s'; change it first",
                            a->account, u->name));
                remove_assoc(*a, assocs);
            }
            if (!some) {
                plan.change.removes.push_back(*u);
                list += "  " + u->name + "\n";
            }
        }
        if (!list.empty())
            plan.message = " Deleting users...\n" + list;
        else if (!assocs.empty())
            plan.message = " Deleting user associations...\n" + assocs;
        else
            plan.message = " Nothing deleted\n";
    }

    void delete_assoc() {
        if (req.where.empty()) return void(plan.error = " You didn't give me anything to delete");
        std::string said;
        for (const auto *a : db.all(DROVER_ACCT_ASSOC))
            if (!a->user.empty() && assoc_matches(*a)) remove_assoc(*a, said);
        plan.message =
            said.empty() ? " Nothing deleted\n" : " Deleting user associations...\n" + said;
    }

    // ---- show ----

    void show_clusters() {
        for (const auto *c : named(DROVER_ACCT_CLUSTER)) {
            AdminFields row = {{"cluster", c->name}};
            add_cluster_fed_row(db, *c, row);
            row.emplace_back("share", "1");
            row.emplace_back("qos", "normal");
            // Until this controller's registration reaches the store, it knows its own address.
            bool unregistered = false;
            for (auto &[k, v] : row) {
                if (c->name != local.name) break;
                if (k == "controlport") unregistered = v == "0";
                if (unregistered && k == "controlport") v = std::to_string(local.control_port);
                if (unregistered && k == "rpc") v = "9984";
            }
            for (auto &[k, v] : row)
                if (unregistered && k == "controlhost") v = local.control_host;
            plan.rows.push_back(std::move(row));
        }
    }

    void show_accounts() {
        for (const auto *a : named(DROVER_ACCT_ACCOUNT)) {
            if (!pass(admin_values(req.where, "description"), ascii_lower(a->description)))
                continue;
            plan.rows.push_back({{"account", a->name},
                                 {"description", a->description},
                                 {"organization", a->organization}});
        }
    }

    void show_users() {
        for (const auto *u : named(DROVER_ACCT_USER)) {
            if (!pass(admin_values(req.where, "adminlevel"),
                      ascii_lower(admin_level_name(u->admin_level))))
                continue;
            plan.rows.push_back({{"user", u->name},
                                 {"defaultaccount", u->default_account},
                                 {"adminlevel", admin_level_name(u->admin_level)}});
        }
    }

    // Slurm's tree order: per cluster, an account's line, its users, then its sub-accounts.
    void show_assocs() {
        Names clusters;
        for (const auto *c : db.all(DROVER_ACCT_CLUSTER)) clusters.push_back(c->name);
        auto all = db.all(DROVER_ACCT_ASSOC);
        for (const auto &c : clusters) {
            std::function<void(const std::string &)> walk = [&](const std::string &acct) {
                for (const auto *a : all)
                    if (a->cluster == c && a->account == acct && a->user.empty()) add_row(*a);
                for (const auto *a : all)
                    if (a->cluster == c && a->account == acct && !a->user.empty()) add_row(*a);
                for (const auto *a : all)
                    if (a->cluster == c && a->user.empty() && a->parent == acct &&
                        a->account != acct)
                        walk(a->account);
            };
            walk("root");
        }
    }

    void add_row(const AssocRec &a) {
        if (!assoc_matches(a)) return;
        AdminFields row = {{"cluster", a.cluster},
                           {"account", a.account},
                           {"user", a.user},
                           {"partition", a.partition},
                           {"parentname", a.user.empty() ? a.parent : ""}};
        add_settings_row(db, a, row);
        plan.rows.push_back(std::move(row));
    }

    void run() {
        for (const auto *fields : {&req.set, &req.where})
            for (const auto &[k, v] : *fields)
                if (!kKeys.count(k) && !is_setting_key(k))
                    return void(plan.error = " Unknown option: " + k + "=" + v);
        const std::string &v = req.verb, &e = req.entity;
        if (e == "qos") return plan_qos(db, req, plan);
        if (e == "federation") return plan_federation(db, req, plan);
        if (is_cluster_fed_modify(req)) return plan_cluster_fed(db, req, plan);
        if (v == "show") {
            if (e == "cluster")
                show_clusters();
            else if (e == "account")
                show_accounts();
            else if (e == "user")
                show_users();
            else if (e == "association")
                show_assocs();
            else
                plan.error = " Unknown entity: " + e;
        } else if (v == "add") {
            if (e == "cluster")
                add_cluster();
            else if (e == "account")
                add_account();
            else if (e == "user")
                add_user();
            else
                plan.error =
                    " Can't add " + e + "s: add a user with account= to make an association";
        } else if (v == "modify") {
            if (e == "user")
                modify_user();
            else if (e == "account")
                modify_account();
            else
                plan.error = " Can't modify " + e + "s";
        } else if (v == "delete") {
            if (e == "cluster")
                delete_cluster();
            else if (e == "account")
                delete_account();
            else if (e == "user")
                delete_user();
            else if (e == "association")
                delete_assoc();
            else
                plan.error = " Unknown entity: " + e;
        } else {
            plan.error = " Unknown command: " + v;
        }
    }
};

} // namespace

AdminPlan plan_admin(const AssocDb &db, const AdminRequest &req, const LocalCluster &local) {
    Planner p{db, req, local, {}};
    p.run();
    if (!p.plan.error.empty()) p.plan.change = {};
    return std::move(p.plan);
}

} // namespace drover::ctld
