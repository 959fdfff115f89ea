// pg.cpp - accounting/postgres: libpq helpers and the connection (opened, migrated, reopened).
#include "pg.hpp"

#include <cctype>
#include <charconv>
#include <string_view>

namespace drover::acct_pg {

namespace {

using drover::sdk::set_error;
using drover::sdk::to_view;

constexpr const char *kConnectTimeout = "2"; // seconds, per address tried
// After a failed connection attempt, calls within this time fail at once with the same error
// instead of waiting on the network again.
constexpr auto kRetryAfter = std::chrono::seconds(1);

void log_notice(void *arg, const char *message) {
    static_cast<State *>(arg)->host.debug(one_line(message));
}

} // namespace

// libpq's messages end in a newline and may span lines; one line for drover_error and the log.
std::string one_line(const char *msg) {
    std::string out;
    bool line_start = true;
    for (const char *p = msg ? msg : ""; *p; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c == '\n' || c == '\r') {
            line_start = true;
        } else if (line_start && std::isspace(c)) {
            continue; // a continuation line's indent
        } else {
            if (line_start && !out.empty()) out += "; ";
            line_start = false;
            out += c == '\t' ? ' ' : *p;
        }
    }
    while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
    return out.empty() ? std::string("unknown error") : out;
}

std::string conn_error(PGconn *c) {
    return one_line(c ? PQerrorMessage(c) : "out of memory");
}

std::string result_error(PGconn *c, const PGresult *r) {
    const char *m = r ? PQresultErrorMessage(r) : nullptr;
    return one_line(m && *m ? m : (c ? PQerrorMessage(c) : "out of memory"));
}

// Runs one constant statement with text parameters (nullptr is SQL NULL).
Result exec(PGconn *c, const char *sql, const std::vector<const char *> &params) {
    return Result(PQexecParams(c, sql, static_cast<int>(params.size()), nullptr, params.data(),
                               nullptr, nullptr, 0));
}

bool ok(const Result &r) {
    if (!r) return false;
    const ExecStatusType st = PQresultStatus(r.get());
    return st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
}

// A string for a text column: the database stores UTF-8 text, which holds no NUL and no invalid
// sequence, so those bytes become U+FFFD rather than failing the whole record.
std::string text_param(drover_str s) {
    const std::string_view in = to_view(s);
    std::string out;
    out.reserve(in.size());
    constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
    size_t i = 0;
    while (i < in.size()) {
        const auto b = static_cast<unsigned char>(in[i]);
        size_t len = 0;
        uint32_t cp = 0;
        if (b >= 0x01 && b <= 0x7F) {
            out += static_cast<char>(b);
            ++i;
            continue;
        }
        if (b >= 0xC2 && b <= 0xDF)
            len = 2, cp = b & 0x1F;
        else if (b >= 0xE0 && b <= 0xEF)
            len = 3, cp = b & 0x0F;
        else if (b >= 0xF0 && b <= 0xF4)
            len = 4, cp = b & 0x07;
        bool valid = len != 0 && i + len <= in.size();
        for (size_t k = 1; valid && k < len; ++k) {
            const auto c = static_cast<unsigned char>(in[i + k]);
            valid = (c & 0xC0) == 0x80;
            cp = cp << 6 | (c & 0x3F);
        }
        if (valid) // no overlong forms, no surrogates, nothing past U+10FFFF
            valid = !(len == 3 && cp < 0x800) && !(len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) &&
                    !(cp >= 0xD800 && cp <= 0xDFFF);
        if (valid) {
            out.append(in.substr(i, len));
            i += len;
        } else {
            out += kReplacement;
            ++i;
        }
    }
    return out;
}

std::string text_array_param(const drover_str *items, uint32_t count) {
    // Every element quoted, with its quotes and backslashes escaped: nothing in a name can end
    // the element or the array early.
    std::string out = "{";
    for (uint32_t i = 0; i < count; ++i) {
        out += i ? ",\"" : "\"";
        for (char c : text_param(items[i])) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        out += '"';
    }
    return out + "}";
}

int64_t int_value(const PGresult *r, int row, int col) {
    const char *v = PQgetvalue(r, row, col);
    int64_t n = 0;
    std::from_chars(v, v + PQgetlength(r, row, col), n);
    return n;
}

drover_str str_value(const PGresult *r, int row, int col) {
    return drover_str{PQgetvalue(r, row, col), static_cast<size_t>(PQgetlength(r, row, col))};
}

// Opens a connection and brings the schema up to date. On failure sets error and returns null.
Conn open_connection(State &s, std::string &error) {
    const Settings &cfg = s.cfg;
    std::vector<const char *> keys, values;
    auto add = [&](const char *k, const std::string &v) {
        if (!v.empty()) {
            keys.push_back(k);
            values.push_back(v.c_str());
        }
    };
    add("host", cfg.host);
    add("port", cfg.port);
    add("dbname", cfg.database);
    add("user", cfg.user);
    add("password", cfg.password);
    const std::string timeout = kConnectTimeout, app = "droverctld", enc = "UTF8", yes = "1",
                      idle = "30", interval = "10", count = "3", user_timeout = "10000";
    add("connect_timeout", timeout);
    add("application_name", app);
    add("client_encoding", enc);
    // A peer that vanishes without closing the connection is noticed within seconds.
    add("keepalives", yes);
    add("keepalives_idle", idle);
    add("keepalives_interval", interval);
    add("keepalives_count", count);
    add("tcp_user_timeout", user_timeout);
    keys.push_back(nullptr);
    values.push_back(nullptr);
    // expand_dbname 0: the database name is a name, never parsed as a connection string.
    Conn c(PQconnectdbParams(keys.data(), values.data(), 0));
    if (!c || PQstatus(c.get()) != CONNECTION_OK) {
        error = "accounting database unreachable: " + conn_error(c.get());
        return nullptr;
    }
    // The server's notices ("relation already exists, skipping") go to the debug log, not stderr.
    PQsetNoticeProcessor(c.get(), log_notice, &s);
    std::string why;
    if (!migrate(s, c.get(), why)) {
        error = "accounting database schema: " + why;
        return nullptr;
    }
    return c;
}

// A usable connection, reconnecting if needed; nullptr with err set when there is none.
PGconn *connection(State &s, drover_error *err) {
    if (s.conn && PQstatus(s.conn.get()) == CONNECTION_OK) return s.conn.get();
    s.conn.reset();
    if (s.down && Clock::now() - s.failed_at < kRetryAfter) {
        set_error(err, s.last_error);
        return nullptr;
    }
    std::string error;
    s.conn = open_connection(s, error);
    if (!s.conn) {
        if (!s.down) s.host.warn(error + " (" + s.where + "); retrying on the next call");
        s.down = true;
        s.failed_at = Clock::now();
        s.last_error = error;
        set_error(err, error);
        return nullptr;
    }
    if (s.down) s.host.info("accounting database reachable again (" + s.where + ")");
    s.down = false;
    return s.conn.get();
}

bool broken(State &s) {
    return !s.conn || PQstatus(s.conn.get()) != CONNECTION_OK;
}

int run_statements(State &s, drover_error *err, const std::string &what, bool transaction,
                   const std::function<bool(PGconn *c, Result &r)> &run) {
    std::lock_guard lock(s.mu);
    for (int attempt = 0;; ++attempt) {
        PGconn *c = connection(s, err);
        if (!c) return DROVER_EIO;
        Result r;
        bool good = (!transaction || ok(r = exec(c, "BEGIN"))) && run(c, r);
        if (good && transaction) good = ok(r = exec(c, "COMMIT"));
        if (good) return DROVER_OK;
        const std::string why = result_error(c, r.get());
        if (transaction && !broken(s)) exec(c, "ROLLBACK");
        if (attempt == 0 && broken(s))
            continue; // the connection died since the last call: reconnect and retry once
        drover::sdk::set_errorf(err, "%s: %s", what.c_str(), why.c_str());
        if (broken(s)) s.conn.reset();
        return DROVER_EIO;
    }
}

} // namespace drover::acct_pg
