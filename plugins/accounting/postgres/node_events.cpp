// node_events.cpp - accounting/postgres: node events (sacctmgr show event) in the table
// node_events (schema step 7), one row per (cluster, node_name, start_time).
#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "pg.hpp"

namespace drover::acct_pg {

namespace {

using drover::sdk::guard;

#define DROVER_PG_EVENT_COLUMNS                                                                    \
    "cluster, node_name, start_time, end_time, state, flags, reason, reason_uid"
#define DROVER_PG_EVENT_INSERT                                                                     \
    "INSERT INTO node_events (" DROVER_PG_EVENT_COLUMNS ") VALUES ($1, $2, $3::bigint, "           \
    "$4::bigint, $5::bigint, $6::bigint, $7, $8::bigint) ON CONFLICT (cluster, node_name, "        \
    "start_time) DO UPDATE SET "
// An event that lasts replaces what is stored under its key.
constexpr const char *kEventBegins =
    DROVER_PG_EVENT_INSERT "end_time = EXCLUDED.end_time, state = EXCLUDED.state, "
                           "flags = EXCLUDED.flags, reason = EXCLUDED.reason, "
                           "reason_uid = EXCLUDED.reason_uid";
// An ended one only ends the stored event: what it was when it began stays.
constexpr const char *kEventEnds = DROVER_PG_EVENT_INSERT "end_time = EXCLUDED.end_time";
// $1 clusters (NULL: any); $2 node names (NULL: any); $3 period start, $4 period end (0: open).
constexpr const char *kEventSelect =
    "SELECT " DROVER_PG_EVENT_COLUMNS " FROM node_events"
    " WHERE ($1::text[] IS NULL OR cluster = ANY($1::text[]))"
    " AND ($2::text[] IS NULL OR node_name = ANY($2::text[]))"
    " AND ($3::bigint = 0 OR end_time = 0 OR end_time >= $3::bigint)"
    " AND ($4::bigint = 0 OR start_time <= $4::bigint)"
    " ORDER BY cluster, start_time, node_name";

} // namespace

int node_event(void *state, const drover_acct_node_event *in, drover_error *err) {
    return guard(err, [&] {
        drover_acct_node_event ev{}; // a shorter struct from an older core reads as zeros
        std::memcpy(&ev, in, std::min<size_t>(in->struct_size, sizeof ev));
        const std::array<std::string, 8> v = {
            text_param(ev.cluster),        text_param(ev.node_name),
            std::to_string(ev.start_time), std::to_string(ev.end_time),
            std::to_string(ev.state),      std::to_string(ev.flags),
            text_param(ev.reason),         std::to_string(ev.reason_uid)};
        std::vector<const char *> params;
        for (const auto &p : v) params.push_back(p.c_str());
        const char *sql = ev.end_time == 0 ? kEventBegins : kEventEnds;
        auto run = [&](PGconn *c, Result &r) { return ok(r = exec(c, sql, params)); };
        return run_statements(*static_cast<State *>(state), err,
                              "event of node " + v[1] + ": recording in the accounting database",
                              false, run);
    });
}

int node_event_query(void *state, const drover_acct_event_query *in,
                     drover_acct_node_event_emit_fn emit, void *arg, drover_error *err) {
    return guard(err, [&] {
        drover_acct_event_query q{}; // members the caller's struct lacks do not filter
        std::memcpy(&q, in, std::min<size_t>(in->struct_size, sizeof q));
        const std::string clusters = text_array_param(q.clusters, q.cluster_count),
                          nodes = text_array_param(q.node_names, q.node_count),
                          from = std::to_string(q.period_start), to = std::to_string(q.period_end);
        const std::vector<const char *> params = {q.cluster_count ? clusters.c_str() : nullptr,
                                                  q.node_count ? nodes.c_str() : nullptr,
                                                  from.c_str(), to.c_str()};
        auto run = [&](PGconn *c, Result &r) {
            if (!ok(r = exec(c, kEventSelect, params))) return false;
            for (int row = 0; row < PQntuples(r.get()); ++row) {
                drover_acct_node_event ev{};
                ev.struct_size = sizeof ev;
                ev.cluster = str_value(r.get(), row, 0);
                ev.node_name = str_value(r.get(), row, 1);
                ev.start_time = int_value(r.get(), row, 2);
                ev.end_time = int_value(r.get(), row, 3);
                ev.state = static_cast<uint32_t>(int_value(r.get(), row, 4));
                ev.flags = static_cast<uint32_t>(int_value(r.get(), row, 5));
                ev.reason = str_value(r.get(), row, 6);
                ev.reason_uid = static_cast<uint32_t>(int_value(r.get(), row, 7));
                if (emit(arg, &ev) != 0) break;
            }
            return true;
        };
        return run_statements(*static_cast<State *>(state), err,
                              "reading node events from the accounting database", false, run);
    });
}

} // namespace drover::acct_pg
