// fuzz_acct_admin.cpp - fuzz target: lines of sacctmgr commands (as sacctmgr parses them) planned
// and applied one after another against the controller's copy of the store, beginning with three
// clusters. Refusals are expected; what must hold after every step: each federation's members
// have distinct ids in 1..63, and every cluster's stored settings read back to the same text.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/sacctmgr_args.hpp"
#include "common/error.hpp"
#include "ctld/acct/acct_admin.hpp"
#include "ctld/fed/federation.hpp"
#include "ctld/policy/settings.hpp"

namespace {

using namespace drover::ctld;

void check(const AssocDb &db) {
    for (const auto *c : db.all(DROVER_ACCT_CLUSTER)) {
        if (policy::encode(policy::decode(c->attrs())) != c->attrs()) std::abort();
        FedView v = federation_view(db, c->name);
        std::set<uint32_t> ids;
        for (const auto &m : v.members)
            if (m.id < 1 || m.id > kMaxFedId || !ids.insert(m.id).second) std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 8 * 1024) return 0;
    static const LocalCluster local{"c1", "head", 6817};
    AssocDb db;
    db.apply(plan_admin(db, {"add", "cluster", {{"name", "c1,c2,c3"}}, {}}, local).change);
    std::istringstream lines(std::string(reinterpret_cast<const char *>(data), size));
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> args;
        std::istringstream in(line);
        for (std::string w; in >> w;) args.push_back(w);
        try {
            auto a = drover::cli::parse_sacctmgr_args(args);
            if (a.entity.empty() || a.entity == "event") continue;
            AdminPlan p = plan_admin(db, {a.verb, a.entity, a.set, a.where}, local);
            db.apply(p.change);
            check(db);
        } catch (const drover::ParseError &) {
        } catch (const drover::cli::UsageError &) {}
    }
    return 0;
}
