// schema.cpp - accounting/postgres's schema steps and their migration (see postgres.cpp).
#include <ctime>

#include "pg.hpp"

namespace drover::acct_pg {

namespace {

// The advisory lock migrations hold (any constant; "drvacct" in ASCII).
constexpr const char *kMigrationLock = "28273350436676468";

struct Step {
    int version;
    const char *description;
    std::vector<const char *> sql; // one statement each
};

// Append only. Step 1: the jobs table (every drover_acct_job member; uint32 numbers as bigint,
// req_mem_mb as bigint holding the uint64's bits, times as epoch seconds, 0 when not yet).
// Step 3: the steps table, one row per (cluster, job, step) with every drover_acct_step member
// (uint64 sizes and microseconds as bigint holding the uint64's bits). Step 4: job_runs and
// step_runs, the earlier runs of requeued jobs (sacct -D): the columns of jobs and steps, and run
// (1, 2, ...). A submit event for a job whose row has ended moves that row and its steps there.
// Step 5: assocs, sacctmgr's clusters, accounts, users and associations (one table for all kinds,
// keyed by kind, name and the association's cluster, account, user_name and partition; the
// columns a kind does not use hold ''). These are shared by every cluster using the database.
// Step 6: an index by array id, so that sacct -j finds a job (or an array's tasks) without a scan.
// Step 7: node_events (sacctmgr show event), keyed by cluster, node and start time; state, flags,
// reason_uid (uint32) as bigint; end_time 0 while the event lasts. Indexed for a cluster's
// events by start time, the order queries answer in.
const std::vector<Step> kSteps = {
    {1,
     "jobs table",
     {"CREATE TABLE IF NOT EXISTS jobs ("
      " cluster text NOT NULL,"
      " job_id bigint NOT NULL,"
      " user_id bigint NOT NULL,"
      " group_id bigint NOT NULL,"
      " name text NOT NULL,"
      " partition text NOT NULL,"
      " account text NOT NULL,"
      " node_list text NOT NULL,"
      " work_dir text NOT NULL,"
      " alloc_nodes bigint NOT NULL,"
      " alloc_cpus bigint NOT NULL,"
      " req_cpus bigint NOT NULL,"
      " req_mem_mb bigint NOT NULL,"
      " state integer NOT NULL,"
      " exit_status integer NOT NULL,"
      " time_limit_min bigint NOT NULL,"
      " submit_time bigint NOT NULL,"
      " eligible_time bigint NOT NULL,"
      " start_time bigint NOT NULL,"
      " end_time bigint NOT NULL,"
      " cancelled_by bigint NOT NULL,"
      " PRIMARY KEY (cluster, job_id))",
      "CREATE INDEX IF NOT EXISTS jobs_cluster_user ON jobs (cluster, user_id)",
      "CREATE INDEX IF NOT EXISTS jobs_cluster_end ON jobs (cluster, end_time)",
      "CREATE INDEX IF NOT EXISTS jobs_cluster_submit ON jobs (cluster, submit_time)"}},
    {2,
     "array tasks and comments",
     {"ALTER TABLE jobs ADD COLUMN IF NOT EXISTS array_job_id bigint NOT NULL DEFAULT 0",
      "ALTER TABLE jobs ADD COLUMN IF NOT EXISTS array_task_id bigint NOT NULL DEFAULT 4294967294",
      "ALTER TABLE jobs ADD COLUMN IF NOT EXISTS comment text NOT NULL DEFAULT ''"}},
    {3,
     "steps table",
     {"CREATE TABLE IF NOT EXISTS steps ("
      " cluster text NOT NULL,"
      " job_id bigint NOT NULL,"
      " step_id bigint NOT NULL,"
      " name text NOT NULL,"
      " node_list text NOT NULL,"
      " nodes bigint NOT NULL,"
      " tasks bigint NOT NULL,"
      " cpus bigint NOT NULL,"
      " req_mem_mb bigint NOT NULL,"
      " state integer NOT NULL,"
      " exit_status integer NOT NULL,"
      " start_time bigint NOT NULL,"
      " end_time bigint NOT NULL,"
      " cancelled_by bigint NOT NULL,"
      " max_rss_task bigint NOT NULL,"
      " max_rss bigint NOT NULL,"
      " ave_rss bigint NOT NULL,"
      " max_rss_node text NOT NULL,"
      " max_vsize bigint NOT NULL,"
      " ave_vsize bigint NOT NULL,"
      " max_vsize_node text NOT NULL,"
      " ave_cpu_usec bigint NOT NULL,"
      " min_cpu_usec bigint NOT NULL,"
      " user_cpu_usec bigint NOT NULL,"
      " sys_cpu_usec bigint NOT NULL,"
      " max_disk_read bigint NOT NULL,"
      " max_disk_write bigint NOT NULL,"
      " ave_disk_read bigint NOT NULL,"
      " ave_disk_write bigint NOT NULL,"
      " max_disk_read_node text NOT NULL,"
      " max_disk_write_node text NOT NULL,"
      " tres_alloc text NOT NULL,"
      " PRIMARY KEY (cluster, job_id, step_id))"}},
    {4,
     "earlier runs of requeued jobs",
     {"CREATE TABLE IF NOT EXISTS job_runs (LIKE jobs INCLUDING DEFAULTS)",
      "ALTER TABLE job_runs ADD COLUMN IF NOT EXISTS run bigint NOT NULL DEFAULT 1",
      "ALTER TABLE job_runs ADD PRIMARY KEY (cluster, job_id, run)",
      "CREATE TABLE IF NOT EXISTS step_runs (LIKE steps INCLUDING DEFAULTS)",
      "ALTER TABLE step_runs ADD COLUMN IF NOT EXISTS run bigint NOT NULL DEFAULT 1",
      "ALTER TABLE step_runs ADD PRIMARY KEY (cluster, job_id, run, step_id)"}},
    {5,
     "clusters, accounts, users and associations",
     {"CREATE TABLE IF NOT EXISTS assocs ("
      " kind integer NOT NULL,"
      " name text NOT NULL,"
      " cluster text NOT NULL,"
      " account text NOT NULL,"
      " user_name text NOT NULL,"
      " partition text NOT NULL,"
      " parent text NOT NULL,"
      " description text NOT NULL,"
      " organization text NOT NULL,"
      " default_account text NOT NULL,"
      " admin_level integer NOT NULL,"
      " PRIMARY KEY (kind, name, cluster, account, user_name, partition))"}},
    {6,
     "job lookups by array id",
     {"CREATE INDEX IF NOT EXISTS jobs_cluster_array ON jobs (cluster, array_job_id)"}},
    {7,
     "node events",
     {"CREATE TABLE IF NOT EXISTS node_events ("
      " cluster text NOT NULL,"
      " node_name text NOT NULL,"
      " start_time bigint NOT NULL,"
      " end_time bigint NOT NULL,"
      " state bigint NOT NULL,"
      " flags bigint NOT NULL,"
      " reason text NOT NULL,"
      " reason_uid bigint NOT NULL,"
      " PRIMARY KEY (cluster, node_name, start_time))",
      "CREATE INDEX IF NOT EXISTS node_events_cluster_start ON node_events (cluster, start_time)"}},
    {8,
     "QOS of jobs (ABI 1.5)",
     {"ALTER TABLE jobs ADD COLUMN IF NOT EXISTS qos text NOT NULL DEFAULT ''",
      "ALTER TABLE job_runs ADD COLUMN IF NOT EXISTS qos text NOT NULL DEFAULT ''"}},
    {9,
     "generic resources jobs held (ABI 1.6)",
     {"ALTER TABLE jobs ADD COLUMN IF NOT EXISTS alloc_gres text NOT NULL DEFAULT ''",
      "ALTER TABLE job_runs ADD COLUMN IF NOT EXISTS alloc_gres text NOT NULL DEFAULT ''"}},
    {10,
     "settings of associations and QOS (ABI 1.8)",
     {"ALTER TABLE assocs ADD COLUMN IF NOT EXISTS attrs text NOT NULL DEFAULT ''"}},
    {11,
     "heterogeneous job components (ABI 1.12)",
     {"ALTER TABLE jobs ADD COLUMN IF NOT EXISTS het_job_id bigint NOT NULL DEFAULT 0",
      "ALTER TABLE jobs ADD COLUMN IF NOT EXISTS het_job_offset bigint NOT NULL DEFAULT "
      "4294967294",
      "ALTER TABLE job_runs ADD COLUMN IF NOT EXISTS het_job_id bigint NOT NULL DEFAULT 0",
      "ALTER TABLE job_runs ADD COLUMN IF NOT EXISTS het_job_offset bigint NOT NULL DEFAULT "
      "4294967294",
      "CREATE INDEX IF NOT EXISTS jobs_cluster_het ON jobs (cluster, het_job_id)"}},
};

} // namespace

// Creates the version table and applies the steps not yet applied, all in one transaction.
bool migrate(State &s, PGconn *c, std::string &error) {
    if (!ok(exec(c, "BEGIN"))) {
        error = conn_error(c);
        return false;
    }
    auto fail = [&](const Result &r, const char *what) {
        error = std::string(what) + ": " + result_error(c, r.get());
        exec(c, "ROLLBACK");
        return false;
    };
    if (Result r = exec(c, "SELECT pg_advisory_xact_lock($1::bigint)", {kMigrationLock}); !ok(r))
        return fail(r, "locking the schema");
    if (Result r = exec(c, "CREATE TABLE IF NOT EXISTS drover_schema_version ("
                           " version integer PRIMARY KEY,"
                           " description text NOT NULL,"
                           " applied_at bigint NOT NULL)");
        !ok(r))
        return fail(r, "creating drover_schema_version");
    Result cur = exec(c, "SELECT coalesce(max(version), 0) FROM drover_schema_version");
    if (!ok(cur) || PQntuples(cur.get()) != 1) return fail(cur, "reading drover_schema_version");
    const int64_t have = int_value(cur.get(), 0, 0);
    const std::string now = std::to_string(static_cast<long long>(std::time(nullptr)));
    int applied = 0;
    for (const Step &step : kSteps) {
        if (step.version <= have) continue;
        for (const char *sql : step.sql)
            if (Result r = exec(c, sql); !ok(r))
                return fail(r, ("schema step " + std::to_string(step.version)).c_str());
        const std::string v = std::to_string(step.version);
        if (Result r = exec(c,
                            "INSERT INTO drover_schema_version (version, description, applied_at)"
                            " VALUES ($1::integer, $2, $3::bigint)",
                            {v.c_str(), step.description, now.c_str()});
            !ok(r))
            return fail(r, "recording schema step");
        ++applied;
    }
    if (Result r = exec(c, "COMMIT"); !ok(r)) return fail(r, "committing the schema");
    const int latest = kSteps.back().version;
    if (applied)
        s.host.info("schema migrated from version " + std::to_string(have) + " to " +
                    std::to_string(latest));
    else if (have > latest)
        s.host.warn("schema version " + std::to_string(have) + " is newer than this plugin's (" +
                    std::to_string(latest) + "); writing the columns it knows");
    return true;
}

} // namespace drover::acct_pg
