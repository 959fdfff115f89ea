// pg.hpp - what the parts of accounting/postgres share: libpq helpers, the plugin's state and its
// connection (reconnecting and migrating the schema as postgres.cpp's header describes).
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <drover/accounting.h>
#include <drover/plugin.hpp>

namespace drover::acct_pg {

using Clock = std::chrono::steady_clock;

constexpr const char *kDefaultHost = "localhost";
constexpr const char *kDefaultPort = "5432";
constexpr const char *kDefaultDatabase = "drover_acct";

struct ResultFree {
    void operator()(PGresult *r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultFree>;

struct ConnFree {
    void operator()(PGconn *c) const { PQfinish(c); }
};
using Conn = std::unique_ptr<PGconn, ConnFree>;

struct Settings {
    std::string host = kDefaultHost, port = kDefaultPort, database = kDefaultDatabase;
    std::string user, password; // empty: libpq's defaults
    std::string cluster;        // as the core has it: trimmed, lower case
};

struct State {
    drover::sdk::Host host;
    Settings cfg;
    std::string where; // "database D on H:P as U", for messages; never the password
    std::mutex mu;     // guards everything below
    Conn conn;
    bool down = false; // the last attempt failed (warned once per outage)
    Clock::time_point failed_at{};
    std::string last_error;
};

// libpq's messages as one line; a connection's or a result's error.
std::string one_line(const char *msg);
std::string conn_error(PGconn *c);
std::string result_error(PGconn *c, const PGresult *r);
// Runs one constant statement with text parameters (nullptr is SQL NULL).
Result exec(PGconn *c, const char *sql, const std::vector<const char *> &params = {});
bool ok(const Result &r);
// A string for a text column (NUL and invalid UTF-8 become U+FFFD).
std::string text_param(drover_str s);
// A text[] literal of the strings, for a parameter cast to text[] ('{"a","b"}').
std::string text_array_param(const drover_str *items, uint32_t count);
int64_t int_value(const PGresult *r, int row, int col);
drover_str str_value(const PGresult *r, int row, int col);

// A usable connection, reconnecting if needed; nullptr with err set when there is none. Call
// with s.mu held.
PGconn *connection(State &s, drover_error *err);
// True when a failed statement failed because the connection broke (worth one reconnect).
bool broken(State &s);
// Runs statements on a usable connection with s.mu taken, in one transaction when transaction:
// run(c, r) runs them, leaving the last result in r, and returns false at the first that fails.
// When the connection broke under them they run once more on a new one. A failure is DROVER_EIO
// with err "<what>: <the server's reason>".
int run_statements(State &s, drover_error *err, const std::string &what, bool transaction,
                   const std::function<bool(PGconn *c, Result &r)> &run);
// Creates the version table and applies the schema steps not yet applied (schema.cpp).
bool migrate(State &s, PGconn *c, std::string &error);

// sacctmgr's records (assocs.cpp).
int assoc_update(void *state, const drover_acct_assoc *const *puts, uint32_t put_count,
                 const drover_acct_assoc *const *removes, uint32_t remove_count, drover_error *err);
int assoc_list(void *state, drover_acct_assoc_emit_fn emit, void *arg, drover_error *err);

// Node events (node_events.cpp).
int node_event(void *state, const drover_acct_node_event *ev, drover_error *err);
int node_event_query(void *state, const drover_acct_event_query *query,
                     drover_acct_node_event_emit_fn emit, void *arg, drover_error *err);

} // namespace drover::acct_pg
