// privacy.cpp - PrivateData's rules (privacy.hpp).
#include "ctld/privacy.hpp"

#include <pwd.h>

#include <algorithm>
#include <set>
#include <utility>

#include "ctld/acct/acct_queue.hpp"
#include "ctld/jobs/job.hpp"

namespace drover::ctld {

namespace {

// sacctmgr's line when the store returns nothing for a show (Slurm: the store's refusal).
constexpr const char *kProblemWithQuery = " Problem with query.";

std::string field(const AdminFields &row, const std::string &key) {
    for (const auto &[k, v] : row)
        if (k == key) return v;
    return {};
}

// The accounts, per cluster, above the user's associations: Slurm shows a user the branch of the
// tree that leads to them, and no other user's lines.
std::set<std::pair<std::string, std::string>> branch_of(const AssocDb &db,
                                                        const std::string &user) {
    std::set<std::pair<std::string, std::string>> out;
    auto assocs = db.all(DROVER_ACCT_ASSOC);
    auto account_line = [&](const std::string &cluster,
                            const std::string &account) -> const AssocRec * {
        for (const auto *a : assocs)
            if (a->user.empty() && a->cluster == cluster && a->account == account) return a;
        return nullptr;
    };
    for (const auto *mine : assocs) {
        if (mine->user != user) continue;
        std::string account = mine->account;
        // Each step goes up one level; out stops a loop in a damaged tree.
        while (out.emplace(mine->cluster, account).second) {
            const AssocRec *line = account_line(mine->cluster, account);
            if (!line || line->parent.empty() || line->parent == account) break;
            account = line->parent;
        }
    }
    return out;
}

} // namespace

uint32_t admin_level(const Ctx &ctx, uint32_t uid) {
    if (ctx.is_admin(uid)) return DROVER_ADMIN_ADMINISTRATOR;
    return ctx.acct.assocs().admin_level(user_name_of(uid));
}

std::string user_name_of(uint32_t uid) {
    if (const passwd *pw = ::getpwuid(uid)) return pw->pw_name;
    return std::to_string(uid);
}

bool Viewer::privileged() const {
    if (!privileged_) privileged_ = admin_level(ctx_, uid_) >= DROVER_ADMIN_OPERATOR;
    return *privileged_;
}

bool Viewer::sees_job(const Job &job) const {
    return !ctx_.conf.private_data.jobs || job.uid == uid_ || privileged();
}

uint32_t Viewer::acct_records_user() const {
    const PrivateData &pd = ctx_.conf.private_data;
    return (pd.jobs || pd.usage) && !privileged() ? uid_ : DROVER_NO_VAL;
}

std::string Viewer::trim_admin_rows(const std::string &entity,
                                    std::vector<AdminFields> &rows) const {
    const PrivateData &pd = ctx_.conf.private_data;
    // Slurm shows accounts to coordinators only (theirs); Drover has none.
    if (entity == "account") return pd.accounts && !privileged() ? kProblemWithQuery : "";
    if ((entity != "user" && entity != "association") || !pd.users || privileged()) return "";
    // A user the accounting store does not know has no records to see: Slurm refuses the query.
    std::string me = user_name_of(uid_);
    if (!ctx_.acct.assocs().user(me)) return kProblemWithQuery;
    auto branch = branch_of(ctx_.acct.assocs(), me);
    std::erase_if(rows, [&](const AdminFields &row) {
        std::string user = field(row, "user");
        if (entity == "user" || !user.empty()) return user != me;
        return !branch.count({field(row, "cluster"), field(row, "account")});
    });
    return "";
}

} // namespace drover::ctld
