// assocs.cpp - accounting/postgres: sacctmgr's clusters, accounts, users and associations in the
// table assocs (schema step 5).
#include <algorithm>
#include <array>
#include <cstring>

#include "pg.hpp"

namespace drover::acct_pg {

namespace {

using drover::sdk::guard;

#define DROVER_PG_ASSOC_COLUMNS                                                                    \
    "kind, name, cluster, account, user_name, partition, parent, description, organization, "      \
    "default_account, admin_level, attrs"
constexpr const char *kAssocUpsert =
    "INSERT INTO assocs (" DROVER_PG_ASSOC_COLUMNS ") VALUES ($1::integer, $2, $3, $4, $5, $6, $7,"
    " $8, $9, $10, $11::integer, $12) ON CONFLICT (kind, name, cluster, account, user_name, "
    "partition)"
    " DO UPDATE SET parent = EXCLUDED.parent, description = EXCLUDED.description,"
    " organization = EXCLUDED.organization, default_account = EXCLUDED.default_account,"
    " admin_level = EXCLUDED.admin_level, attrs = EXCLUDED.attrs";
constexpr const char *kAssocDelete =
    "DELETE FROM assocs WHERE kind = $1::integer AND name = $2 AND cluster = $3 AND account = $4"
    " AND user_name = $5 AND partition = $6";
constexpr const char *kAssocSelect = "SELECT " DROVER_PG_ASSOC_COLUMNS " FROM assocs ORDER BY "
                                     "kind, name, cluster, account, user_name, partition";

// A record's twelve parameters, in DROVER_PG_ASSOC_COLUMNS order.
std::array<std::string, 12> assoc_params(const drover_acct_assoc *in) {
    drover_acct_assoc a{};
    std::memcpy(&a, in, std::min<size_t>(in->struct_size, sizeof a));
    return {std::to_string(a.kind),
            text_param(a.name),
            text_param(a.cluster),
            text_param(a.account),
            text_param(a.user),
            text_param(a.partition),
            text_param(a.parent),
            text_param(a.description),
            text_param(a.organization),
            text_param(a.default_account),
            std::to_string(a.admin_level),
            text_param(a.attrs)};
}

} // namespace

int assoc_update(void *state, const drover_acct_assoc *const *puts, uint32_t put_count,
                 const drover_acct_assoc *const *removes, uint32_t remove_count,
                 drover_error *err) {
    return guard(err, [&] {
        auto run = [&](PGconn *c, Result &r) {
            for (uint32_t i = 0; i < remove_count; ++i) {
                auto v = assoc_params(removes[i]);
                if (!ok(r = exec(c, kAssocDelete,
                                 {v[0].c_str(), v[1].c_str(), v[2].c_str(), v[3].c_str(),
                                  v[4].c_str(), v[5].c_str()})))
                    return false;
            }
            for (uint32_t i = 0; i < put_count; ++i) {
                auto v = assoc_params(puts[i]);
                std::vector<const char *> params;
                for (const auto &p : v) params.push_back(p.c_str());
                if (!ok(r = exec(c, kAssocUpsert, params))) return false;
            }
            return true;
        };
        return run_statements(*static_cast<State *>(state), err,
                              "recording associations in the accounting database", true, run);
    });
}

int assoc_list(void *state, drover_acct_assoc_emit_fn emit, void *arg, drover_error *err) {
    return guard(err, [&] {
        auto run = [&](PGconn *c, Result &r) {
            if (!ok(r = exec(c, kAssocSelect))) return false;
            for (int row = 0; row < PQntuples(r.get()); ++row) {
                drover_acct_assoc a{};
                a.struct_size = sizeof a;
                a.kind = static_cast<uint32_t>(int_value(r.get(), row, 0));
                a.name = str_value(r.get(), row, 1);
                a.cluster = str_value(r.get(), row, 2);
                a.account = str_value(r.get(), row, 3);
                a.user = str_value(r.get(), row, 4);
                a.partition = str_value(r.get(), row, 5);
                a.parent = str_value(r.get(), row, 6);
                a.description = str_value(r.get(), row, 7);
                a.organization = str_value(r.get(), row, 8);
                a.default_account = str_value(r.get(), row, 9);
                a.admin_level = static_cast<uint32_t>(int_value(r.get(), row, 10));
                a.attrs = str_value(r.get(), row, 11);
                if (emit(arg, &a) != 0) break;
            }
            return true;
        };
        return run_statements(*static_cast<State *>(state), err,
                              "reading associations from the accounting database", false, run);
    });
}

} // namespace drover::acct_pg
