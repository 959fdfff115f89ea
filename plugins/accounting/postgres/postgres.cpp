// postgres.cpp - accounting/postgres: job and step accounting records in a PostgreSQL database
// (libpq).
//
// One row per (cluster, job) in the table `jobs` and one per (cluster, job, step) in `steps`;
// every event (job submit, start, end; step start, end) replaces the whole row with the record the
// core passes, as accounting/lmdb replaces its record. Queries answer with the rows of the
// clusters the query names (ABI 1.7; none: every cluster), filtered as accounting/lmdb does,
// ordered by cluster and then as accounting/lmdb,
// streamed row by row to emit (job_step_query: jobs joined with their steps, each job once).
//
// Settings (slurm.conf): AccountingStorageHost (default localhost; a path is a socket directory),
// AccountingStoragePort (5432), AccountingStorageUser and AccountingStoragePass (libpq's defaults,
// PGUSER or ~/.pgpass, when unset), AccountingStorageLoc (the database name, default drover_acct),
// ClusterName. The password is handed to libpq and never logged.
//
// Schema: the plugin creates and migrates its own tables when it connects. drover_schema_version
// holds one row per applied step; kSteps (schema.cpp) lists the steps, each applied once, in order,
// inside one transaction that holds an advisory lock, so that two controllers sharing a database
// cannot apply a step twice. A step is only ever appended, never changed once released.
//
// Connection: the controller must start while the database is down, so init only tries to
// connect and warns when it cannot. Each call reconnects when the connection is bad (at most
// connect_timeout=2 s per address, and not again within kRetryAfter of a failed attempt) and
// retries its statement once when the connection broke under it. When the database cannot be
// reached the call fails at once with DROVER_EIO "accounting database unreachable: ...".
//
// SQL: every statement is a constant string sent with PQexecParams (or PQsendQueryParams for the
// streamed query); values travel only as parameters, never inside the SQL text.
//
// Threads: the core calls from its one accounting worker; a mutex serialises calls anyway.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "pg.hpp"

namespace {

using namespace drover::acct_pg;
using drover::sdk::guard;
using drover::sdk::set_errorf;

// The record's columns, in the order of the upsert's parameters and of the query's results.
#define DROVER_PG_COLUMNS                                                                          \
    "cluster, job_id, user_id, group_id, name, partition, account, node_list, work_dir, "          \
    "alloc_nodes, alloc_cpus, req_cpus, req_mem_mb, state, exit_status, time_limit_min, "          \
    "submit_time, eligible_time, start_time, end_time, cancelled_by, array_job_id, "               \
    "array_task_id, comment, qos, alloc_gres, het_job_id, het_job_offset"
constexpr int kColumns = 28;
enum Col {
    kCluster,
    kJobId,
    kUserId,
    kGroupId,
    kName,
    kPartition,
    kAccount,
    kNodeList,
    kWorkDir,
    kAllocNodes,
    kAllocCpus,
    kReqCpus,
    kReqMem,
    kState,
    kExitStatus,
    kTimeLimit,
    kSubmit,
    kEligible,
    kStart,
    kEnd,
    kCancelledBy,
    kArrayJobId,
    kArrayTaskId,
    kComment,
    kQos,
    kAllocGres,
    kHetJobId,
    kHetJobOffset,
};

constexpr const char *kUpsert =
    "INSERT INTO jobs (" DROVER_PG_COLUMNS ") VALUES ("
    "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, "
    "$21, $22, $23, $24, $25, $26, $27, $28) ON CONFLICT (cluster, job_id) DO UPDATE SET "
    "user_id = EXCLUDED.user_id, group_id = EXCLUDED.group_id, name = EXCLUDED.name, "
    "partition = EXCLUDED.partition, account = EXCLUDED.account, "
    "node_list = EXCLUDED.node_list, work_dir = EXCLUDED.work_dir, "
    "alloc_nodes = EXCLUDED.alloc_nodes, alloc_cpus = EXCLUDED.alloc_cpus, "
    "req_cpus = EXCLUDED.req_cpus, req_mem_mb = EXCLUDED.req_mem_mb, state = EXCLUDED.state, "
    "exit_status = EXCLUDED.exit_status, time_limit_min = EXCLUDED.time_limit_min, "
    "submit_time = EXCLUDED.submit_time, eligible_time = EXCLUDED.eligible_time, "
    "start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time, "
    "cancelled_by = EXCLUDED.cancelled_by, array_job_id = EXCLUDED.array_job_id, "
    "array_task_id = EXCLUDED.array_task_id, comment = EXCLUDED.comment, qos = EXCLUDED.qos, "
    "alloc_gres = EXCLUDED.alloc_gres, het_job_id = EXCLUDED.het_job_id, "
    "het_job_offset = EXCLUDED.het_job_offset";

// $1 clusters (NULL: any); $2 job ids (NULL: any); $3 user (NULL: any); $4 start_after (0: any):
// drop jobs that ended before it; $5 end_before (0: any): drop jobs submitted after it. As
// accounting/lmdb. sacct's filters (ABI 1.5; NULL: any): $6 users, $7 base states, $8 accounts, $9
// partitions, $10 job names.
#define DROVER_PG_WHERE                                                                            \
    " WHERE ($1::text[] IS NULL OR cluster = ANY($1::text[]))"                                     \
    " AND ($2::bigint[] IS NULL OR job_id = ANY($2::bigint[]) OR array_job_id = "                  \
    "ANY($2::bigint[]) OR het_job_id = ANY($2::bigint[]))"                                         \
    " AND ($3::bigint IS NULL OR user_id = $3::bigint)"                                            \
    " AND ($4::bigint = 0 OR end_time = 0 OR end_time >= $4::bigint)"                              \
    " AND ($5::bigint = 0 OR submit_time <= $5::bigint)"                                           \
    " AND ($6::bigint[] IS NULL OR user_id = ANY($6::bigint[]))"                                   \
    " AND ($7::bigint[] IS NULL OR (state & 255) = ANY($7::bigint[]))"                             \
    " AND ($8::text[] IS NULL OR account = ANY($8::text[]))"                                       \
    " AND ($9::text[] IS NULL OR partition = ANY($9::text[]))"                                     \
    " AND ($10::text[] IS NULL OR name = ANY($10::text[]))"
#define DROVER_PG_JOB_FILTER " FROM jobs" DROVER_PG_WHERE
constexpr const char *kSelect =
    "SELECT " DROVER_PG_COLUMNS DROVER_PG_JOB_FILTER " ORDER BY cluster, job_id";

// The current run of a job sorts after its earlier runs (1, 2, ...).
#define DROVER_PG_CURRENT_RUN "2147483647"
// Jobs with their earlier runs (sacct -D): the job's columns, then run.
#define DROVER_PG_ALL_RUNS                                                                         \
    "SELECT " DROVER_PG_COLUMNS ", run FROM job_runs" DROVER_PG_WHERE                              \
    " UNION ALL SELECT " DROVER_PG_COLUMNS ", " DROVER_PG_CURRENT_RUN DROVER_PG_JOB_FILTER
constexpr const char *kSelectRuns =
    "SELECT * FROM (" DROVER_PG_ALL_RUNS ") j ORDER BY cluster, job_id, run";

// A step's columns after cluster and job_id, in the order of the upsert's parameters $3.. and of
// the joined query's results after the job's.
#define DROVER_PG_STEP_COLUMNS(p)                                                                  \
    p "step_id, " p "name, " p "node_list, " p "nodes, " p "tasks, " p "cpus, " p "req_mem_mb, " p \
      "state, " p "exit_status, " p "start_time, " p "end_time, " p "cancelled_by, " p             \
      "max_rss_task, " p "max_rss, " p "ave_rss, " p "max_rss_node, " p "max_vsize, " p            \
      "ave_vsize, " p "max_vsize_node, " p "ave_cpu_usec, " p "min_cpu_usec, " p                   \
      "user_cpu_usec, " p "sys_cpu_usec, " p "max_disk_read, " p "max_disk_write, " p              \
      "ave_disk_read, " p "ave_disk_write, " p "max_disk_read_node, " p "max_disk_write_node, " p  \
      "tres_alloc"
constexpr int kStepColumns = 30;
enum StepCol {
    kStepId,
    kStepName,
    kStepNodeList,
    kNodes,
    kTasks,
    kCpus,
    kStepReqMem,
    kStepState,
    kStepExit,
    kStepStart,
    kStepEnd,
    kStepCancelledBy,
    kMaxRssTask,
    kMaxRss,
    kAveRss,
    kMaxRssNode,
    kMaxVsize,
    kAveVsize,
    kMaxVsizeNode,
    kAveCpu,
    kMinCpu,
    kUserCpu,
    kSysCpu,
    kMaxDiskRead,
    kMaxDiskWrite,
    kAveDiskRead,
    kAveDiskWrite,
    kMaxDiskReadNode,
    kMaxDiskWriteNode,
    kTresAlloc,
};

constexpr const char *kStepUpsert = "INSERT INTO steps (cluster, job_id, " DROVER_PG_STEP_COLUMNS(
    "") ") VALUES ("
        "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, "
        "$20, "
        "$21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32) "
        "ON CONFLICT (cluster, job_id, step_id) DO UPDATE SET "
        "name = EXCLUDED.name, node_list = EXCLUDED.node_list, nodes = EXCLUDED.nodes, "
        "tasks = EXCLUDED.tasks, cpus = EXCLUDED.cpus, req_mem_mb = EXCLUDED.req_mem_mb, "
        "state = EXCLUDED.state, exit_status = EXCLUDED.exit_status, "
        "start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time, "
        "cancelled_by = EXCLUDED.cancelled_by, max_rss_task = EXCLUDED.max_rss_task, "
        "max_rss = EXCLUDED.max_rss, ave_rss = EXCLUDED.ave_rss, "
        "max_rss_node = EXCLUDED.max_rss_node, max_vsize = EXCLUDED.max_vsize, "
        "ave_vsize = EXCLUDED.ave_vsize, max_vsize_node = EXCLUDED.max_vsize_node, "
        "ave_cpu_usec = EXCLUDED.ave_cpu_usec, min_cpu_usec = EXCLUDED.min_cpu_usec, "
        "user_cpu_usec = EXCLUDED.user_cpu_usec, sys_cpu_usec = EXCLUDED.sys_cpu_usec, "
        "max_disk_read = EXCLUDED.max_disk_read, max_disk_write = EXCLUDED.max_disk_write, "
        "ave_disk_read = EXCLUDED.ave_disk_read, ave_disk_write = EXCLUDED.ave_disk_write, "
        "max_disk_read_node = EXCLUDED.max_disk_read_node, "
        "max_disk_write_node = EXCLUDED.max_disk_write_node, tres_alloc = EXCLUDED.tres_alloc";

// The jobs kSelect finds, each followed by its steps: one row per step (the job's columns, then
// the step's), or one row with NULL step columns for a job without steps.
constexpr const char *kSelectWithSteps = "SELECT j.*, " DROVER_PG_STEP_COLUMNS(
    "s.") " FROM (SELECT " DROVER_PG_COLUMNS DROVER_PG_JOB_FILTER
          ") j LEFT JOIN steps s ON s.cluster = j.cluster AND s.job_id = j.job_id"
          " ORDER BY j.cluster, j.job_id, s.step_id";

// The same with earlier runs: each run joined with the steps of that run.
constexpr const char *kSelectRunsWithSteps = "SELECT j.*, " DROVER_PG_STEP_COLUMNS(
    "s.") " FROM (" DROVER_PG_ALL_RUNS ") j LEFT JOIN ("
          "SELECT cluster, job_id, run, " DROVER_PG_STEP_COLUMNS(
              "") " FROM step_runs UNION ALL "
                  "SELECT cluster, job_id, " DROVER_PG_CURRENT_RUN ", " DROVER_PG_STEP_COLUMNS(
                      "") " FROM steps"
                          ") s ON s.cluster = j.cluster AND s.job_id = j.job_id AND s.run = j.run"
                          " ORDER BY j.cluster, j.job_id, j.run, s.step_id";

// A submit event for a job whose row has ended (a requeue, or a job id used again) first moves
// that row and its steps to job_runs and step_runs as the next run. $1 cluster, $2 job id.
const std::vector<const char *> kArchiveEndedRun = {
    // Columns by name: job_runs has run before the columns jobs gained after it was made.
    "INSERT INTO job_runs (" DROVER_PG_COLUMNS ", run) SELECT " DROVER_PG_COLUMNS
    ", coalesce((SELECT max(r.run) FROM job_runs r"
    " WHERE r.cluster = $1 AND r.job_id = $2::bigint), 0) + 1 FROM jobs j"
    " WHERE j.cluster = $1 AND j.job_id = $2::bigint AND j.end_time <> 0",
    "INSERT INTO step_runs SELECT s.*, (SELECT max(r.run) FROM job_runs r"
    " WHERE r.cluster = $1 AND r.job_id = $2::bigint) FROM steps s"
    " JOIN jobs j ON j.cluster = s.cluster AND j.job_id = s.job_id AND j.end_time <> 0"
    " WHERE s.cluster = $1 AND s.job_id = $2::bigint",
    "DELETE FROM steps s USING jobs j WHERE s.cluster = $1 AND s.job_id = $2::bigint"
    " AND j.cluster = s.cluster AND j.job_id = s.job_id AND j.end_time <> 0",
};

std::string trim_lower(std::string_view v) {
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
    std::string out(v);
    for (char &c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// The query as this plugin knows it: members the caller's struct lacks keep "no filter".
drover_acct_query read_query(const drover_acct_query *in) {
    drover_acct_query q{};
    q.user_id = DROVER_NO_VAL;
    if (in) std::memcpy(&q, in, std::min<size_t>(in->struct_size, sizeof q));
    return q;
}

// Runs one upsert with params; with prelude statements (each taking params' first two values),
// all of them and then the upsert in one transaction. what names the record in the error
// ("job 12", "step 12.0").
int upsert(State &s, const char *sql, const std::vector<const char *> &params,
           const std::string &what, drover_error *err,
           const std::vector<const char *> &prelude = {}) {
    const std::vector<const char *> key(params.begin(), params.begin() + 2);
    auto run = [&](PGconn *c, Result &r) {
        for (const char *stmt : prelude)
            if (!ok(r = exec(c, stmt, key))) return false;
        return ok(r = exec(c, sql, params));
    };
    return run_statements(s, err, what + ": recording in the accounting database", !prelude.empty(),
                          run);
}

int acct_job_event(void *state, int event, const drover_acct_job *in, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        if (event < DROVER_ACCT_JOB_SUBMIT || event > DROVER_ACCT_JOB_END) {
            set_errorf(err, "job %u: unknown accounting event %d", in->job_id, event);
            return DROVER_EINVAL;
        }
        // A newer core may pass a longer struct, an older one a shorter: read the common prefix.
        drover_acct_job j{};
        std::memcpy(&j, in, std::min<size_t>(in->struct_size, sizeof j));

        std::array<std::string, kColumns> v;
        v[kCluster] = j.cluster.len ? text_param(j.cluster) : s.cfg.cluster;
        v[kJobId] = std::to_string(j.job_id);
        v[kUserId] = std::to_string(j.user_id);
        v[kGroupId] = std::to_string(j.group_id);
        v[kName] = text_param(j.name);
        v[kPartition] = text_param(j.partition);
        v[kAccount] = text_param(j.account);
        v[kNodeList] = text_param(j.node_list);
        v[kWorkDir] = text_param(j.work_dir);
        v[kAllocNodes] = std::to_string(j.alloc_nodes);
        v[kAllocCpus] = std::to_string(j.alloc_cpus);
        v[kReqCpus] = std::to_string(j.req_cpus);
        v[kReqMem] = std::to_string(static_cast<int64_t>(j.req_mem_mb)); // the uint64's bits
        v[kState] = std::to_string(static_cast<int32_t>(j.state));
        v[kExitStatus] = std::to_string(j.exit_status);
        v[kTimeLimit] = std::to_string(j.time_limit_min);
        v[kSubmit] = std::to_string(j.submit_time);
        v[kEligible] = std::to_string(j.eligible_time);
        v[kStart] = std::to_string(j.start_time);
        v[kEnd] = std::to_string(j.end_time);
        v[kCancelledBy] = std::to_string(j.cancelled_by);
        // ABI 1.2 members; an older core's shorter struct leaves them zero ("not a task").
        v[kArrayJobId] = std::to_string(j.array_job_id);
        v[kArrayTaskId] = std::to_string(j.array_job_id ? j.array_task_id : DROVER_NO_VAL);
        v[kComment] = text_param(j.comment);
        v[kQos] = text_param(j.qos);              // ABI 1.5; empty from an older core
        v[kAllocGres] = text_param(j.alloc_gres); // ABI 1.6; empty from an older core
        // ABI 1.12; an older core's shorter struct leaves them zero ("not a component").
        v[kHetJobId] = std::to_string(j.het_job_id);
        v[kHetJobOffset] = std::to_string(j.het_job_id ? j.het_job_offset : DROVER_NO_VAL);
        std::vector<const char *> params;
        for (const auto &p : v) params.push_back(p.c_str());

        const bool again = event == DROVER_ACCT_JOB_SUBMIT; // a requeue or a reused id
        return upsert(s, kUpsert, params, "job " + std::to_string(j.job_id), err,
                      again ? kArchiveEndedRun : std::vector<const char *>{});
    });
}

// A job from the columns 0..kColumns-1 of a result row. The strings point into r.
drover_acct_job job_row(const PGresult *raw, int row) {
    drover_acct_job j{};
    j.struct_size = sizeof j;
    j.cluster = str_value(raw, row, kCluster);
    j.job_id = static_cast<uint32_t>(int_value(raw, row, kJobId));
    j.user_id = static_cast<uint32_t>(int_value(raw, row, kUserId));
    j.group_id = static_cast<uint32_t>(int_value(raw, row, kGroupId));
    j.name = str_value(raw, row, kName);
    j.partition = str_value(raw, row, kPartition);
    j.account = str_value(raw, row, kAccount);
    j.node_list = str_value(raw, row, kNodeList);
    j.work_dir = str_value(raw, row, kWorkDir);
    j.alloc_nodes = static_cast<uint32_t>(int_value(raw, row, kAllocNodes));
    j.alloc_cpus = static_cast<uint32_t>(int_value(raw, row, kAllocCpus));
    j.req_cpus = static_cast<uint32_t>(int_value(raw, row, kReqCpus));
    j.req_mem_mb = static_cast<uint64_t>(int_value(raw, row, kReqMem));
    j.state = static_cast<uint32_t>(int_value(raw, row, kState));
    j.exit_status = static_cast<int32_t>(int_value(raw, row, kExitStatus));
    j.time_limit_min = static_cast<uint32_t>(int_value(raw, row, kTimeLimit));
    j.submit_time = int_value(raw, row, kSubmit);
    j.eligible_time = int_value(raw, row, kEligible);
    j.start_time = int_value(raw, row, kStart);
    j.end_time = int_value(raw, row, kEnd);
    j.cancelled_by = static_cast<uint32_t>(int_value(raw, row, kCancelledBy));
    j.array_job_id = static_cast<uint32_t>(int_value(raw, row, kArrayJobId));
    j.array_task_id = static_cast<uint32_t>(int_value(raw, row, kArrayTaskId));
    j.comment = str_value(raw, row, kComment);
    j.qos = str_value(raw, row, kQos);
    j.alloc_gres = str_value(raw, row, kAllocGres);
    j.het_job_id = static_cast<uint32_t>(int_value(raw, row, kHetJobId));
    j.het_job_offset = static_cast<uint32_t>(int_value(raw, row, kHetJobOffset));
    return j;
}

// A step of job_id from the step columns that start at column base. The strings point into r.
drover_acct_step step_row(const PGresult *raw, int row, int base, uint32_t job_id) {
    auto num = [&](int col) { return static_cast<uint64_t>(int_value(raw, row, base + col)); };
    auto text = [&](int col) { return str_value(raw, row, base + col); };
    drover_acct_step s{};
    s.struct_size = sizeof s;
    s.job_id = job_id;
    s.step_id = static_cast<uint32_t>(num(kStepId));
    s.name = text(kStepName);
    s.node_list = text(kStepNodeList);
    s.nodes = static_cast<uint32_t>(num(kNodes));
    s.tasks = static_cast<uint32_t>(num(kTasks));
    s.cpus = static_cast<uint32_t>(num(kCpus));
    s.req_mem_mb = num(kStepReqMem);
    s.state = static_cast<uint32_t>(num(kStepState));
    s.exit_status = static_cast<int32_t>(num(kStepExit));
    s.start_time = static_cast<int64_t>(num(kStepStart));
    s.end_time = static_cast<int64_t>(num(kStepEnd));
    s.cancelled_by = static_cast<uint32_t>(num(kStepCancelledBy));
    s.max_rss_task = static_cast<uint32_t>(num(kMaxRssTask));
    s.max_rss = num(kMaxRss);
    s.ave_rss = num(kAveRss);
    s.max_rss_node = text(kMaxRssNode);
    s.max_vsize = num(kMaxVsize);
    s.ave_vsize = num(kAveVsize);
    s.max_vsize_node = text(kMaxVsizeNode);
    s.ave_cpu_usec = num(kAveCpu);
    s.min_cpu_usec = num(kMinCpu);
    s.user_cpu_usec = num(kUserCpu);
    s.sys_cpu_usec = num(kSysCpu);
    s.max_disk_read = num(kMaxDiskRead);
    s.max_disk_write = num(kMaxDiskWrite);
    s.ave_disk_read = num(kAveDiskRead);
    s.ave_disk_write = num(kAveDiskWrite);
    s.max_disk_read_node = text(kMaxDiskReadNode);
    s.max_disk_write_node = text(kMaxDiskWriteNode);
    s.tres_alloc = text(kTresAlloc);
    return s;
}

// Where one query's rows go: emit for each job (once, however many step rows it has), step_emit
// (when set) for each step row.
struct Sink {
    drover_acct_emit_fn emit;
    drover_acct_step_emit_fn step_emit;
    void *arg;
    bool runs = false; // earlier runs too (the rows carry run after the job's columns)
    // The query: what SQL cannot test (the node filter, through the core's node_list_match) is
    // tested on each job before it is emitted.
    const drover_acct_query *q = nullptr;
};

// Streams the rows of one query (kSelect, or kSelectWithSteps when sink.step_emit is set) to the
// sink. Returns OK, or EIO with err set; *emitted counts jobs.
int stream(PGconn *c, const std::vector<const char *> &params, const Sink &sink, size_t *emitted,
           drover_error *err) {
    const char *sql = sink.runs ? (sink.step_emit ? kSelectRunsWithSteps : kSelectRuns)
                                : (sink.step_emit ? kSelectWithSteps : kSelect);
    const int step_base = kColumns + (sink.runs ? 1 : 0);
    if (!PQsendQueryParams(c, sql, static_cast<int>(params.size()), nullptr, params.data(), nullptr,
                           nullptr, 0)) {
        set_errorf(err, "querying the accounting database: %s", conn_error(c).c_str());
        return DROVER_EIO;
    }
    PQsetSingleRowMode(c);
    bool stopped = false, have_job = false, skipping = false;
    std::string last_cluster;
    uint32_t last_job = 0;
    int64_t last_run = 0;
    std::string error;
    while (PGresult *raw = PQgetResult(c)) {
        Result r(raw);
        const ExecStatusType st = PQresultStatus(raw);
        if (stopped) continue; // drain what the server sent before it saw the cancel
        if (st == PGRES_SINGLE_TUPLE) {
            const auto job_id = static_cast<uint32_t>(int_value(raw, 0, kJobId));
            const int64_t run = sink.runs ? int_value(raw, 0, kColumns) : 0;
            const char *cluster = PQgetvalue(raw, 0, kCluster);
            bool stop = false;
            // Rows come in (cluster, job, run) order: a new key is the next job.
            if (!have_job || job_id != last_job || run != last_run || last_cluster != cluster) {
                const drover_acct_job j = job_row(raw, 0);
                skipping = sink.q && !drover_acct_filters_match(sink.q, &j);
                if (!skipping) {
                    ++*emitted;
                    stop = sink.emit(sink.arg, &j) != 0;
                }
                have_job = true;
                last_cluster = cluster;
                last_job = job_id;
                last_run = run;
            }
            if (!stop && !skipping && sink.step_emit &&
                PQnfields(raw) >= step_base + kStepColumns &&
                !PQgetisnull(raw, 0, step_base + kStepId)) {
                const drover_acct_step step = step_row(raw, 0, step_base, job_id);
                stop = sink.step_emit(sink.arg, &step) != 0;
            }
            if (stop) {
                stopped = true; // the caller has enough: stop the server sending the rest
                if (PGcancel *cancel = PQgetCancel(c)) {
                    char buf[256];
                    PQcancel(cancel, buf, sizeof buf);
                    PQfreeCancel(cancel);
                }
            }
        } else if (st != PGRES_TUPLES_OK && error.empty()) {
            error = result_error(c, raw);
        }
    }
    if (!stopped && !error.empty()) {
        set_errorf(err, "querying the accounting database: %s", error.c_str());
        return DROVER_EIO;
    }
    return DROVER_OK;
}

// A bigint[] literal of numbers, as a parameter; empty for none.
std::string number_array_param(const uint32_t *items, uint32_t count) {
    if (count == 0 || !items) return "";
    std::string out = "{";
    for (uint32_t i = 0; i < count; ++i) out += (i ? "," : "") + std::to_string(items[i]);
    return out + "}";
}

// The text the query's parameters point into: NULL for a filter not given.
struct QueryParams {
    std::string clusters, ids, user, after, before, users, states, accounts, partitions, names;

    explicit QueryParams(const drover_acct_query &q)
        : ids(number_array_param(q.job_ids, q.job_id_count)), after(std::to_string(q.start_after)),
          before(std::to_string(q.end_before)),
          users(number_array_param(q.user_ids, q.user_id_count)),
          states(number_array_param(q.states, q.state_count)) {
        if (q.user_id != DROVER_NO_VAL) user = std::to_string(q.user_id);
        if (q.account_count) accounts = text_array_param(q.accounts, q.account_count);
        if (q.partition_count) partitions = text_array_param(q.partitions, q.partition_count);
        if (q.name_count) names = text_array_param(q.names, q.name_count);
        if (q.cluster_count) clusters = text_array_param(q.clusters, q.cluster_count);
    }
    std::vector<const char *> get() const {
        auto opt = [](const std::string &v) { return v.empty() ? nullptr : v.c_str(); };
        return {opt(clusters), opt(ids),    opt(user),     after.c_str(),   before.c_str(),
                opt(users),    opt(states), opt(accounts), opt(partitions), opt(names)};
    }
};

int query(State &s, const drover_acct_query *query, Sink sink, drover_error *err) {
    const drover_acct_query q = read_query(query);
    const QueryParams text(q);
    const std::vector<const char *> params = text.get();
    sink.q = &q;

    std::lock_guard lock(s.mu);
    for (int attempt = 0;; ++attempt) {
        PGconn *c = connection(s, err);
        if (!c) return DROVER_EIO;
        size_t emitted = 0;
        const int rc = stream(c, params, sink, &emitted, err);
        if (rc == DROVER_OK) return rc;
        if (attempt == 0 && emitted == 0 && broken(s))
            continue; // the connection died since the last call: reconnect and retry once
        if (broken(s)) s.conn.reset();
        return rc;
    }
}

int acct_job_query(void *state, const drover_acct_query *q, drover_acct_emit_fn emit, void *arg,
                   drover_error *err) {
    return guard(err, [&] {
        const bool runs = read_query(q).duplicates != 0;
        return query(*static_cast<State *>(state), q, Sink{emit, nullptr, arg, runs}, err);
    });
}

int acct_job_step_query(void *state, const drover_acct_query *q, drover_acct_emit_fn emit,
                        drover_acct_step_emit_fn step_emit, void *arg, drover_error *err) {
    return guard(err, [&] {
        const bool runs = read_query(q).duplicates != 0;
        return query(*static_cast<State *>(state), q, Sink{emit, step_emit, arg, runs}, err);
    });
}

int acct_step_event(void *state, int event, const drover_acct_step *in, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        if (event != DROVER_ACCT_STEP_START && event != DROVER_ACCT_STEP_END) {
            set_errorf(err, "step %u.%u: unknown accounting event %d", in->job_id, in->step_id,
                       event);
            return DROVER_EINVAL;
        }
        // A newer core may pass a longer struct, an older one a shorter: read the common prefix.
        drover_acct_step st{};
        std::memcpy(&st, in, std::min<size_t>(in->struct_size, sizeof st));
        auto num = [](uint64_t v) { return std::to_string(static_cast<int64_t>(v)); };
        std::array<std::string, 2 + kStepColumns> v;
        v[0] = s.cfg.cluster;
        v[1] = std::to_string(st.job_id);
        std::string *c = v.data() + 2;
        c[kStepId] = std::to_string(st.step_id);
        c[kStepName] = text_param(st.name);
        c[kStepNodeList] = text_param(st.node_list);
        c[kNodes] = std::to_string(st.nodes);
        c[kTasks] = std::to_string(st.tasks);
        c[kCpus] = std::to_string(st.cpus);
        c[kStepReqMem] = num(st.req_mem_mb);
        c[kStepState] = std::to_string(static_cast<int32_t>(st.state));
        c[kStepExit] = std::to_string(st.exit_status);
        c[kStepStart] = std::to_string(st.start_time);
        c[kStepEnd] = std::to_string(st.end_time);
        c[kStepCancelledBy] = std::to_string(st.cancelled_by);
        c[kMaxRssTask] = std::to_string(st.max_rss_task);
        c[kMaxRss] = num(st.max_rss);
        c[kAveRss] = num(st.ave_rss);
        c[kMaxRssNode] = text_param(st.max_rss_node);
        c[kMaxVsize] = num(st.max_vsize);
        c[kAveVsize] = num(st.ave_vsize);
        c[kMaxVsizeNode] = text_param(st.max_vsize_node);
        c[kAveCpu] = num(st.ave_cpu_usec);
        c[kMinCpu] = num(st.min_cpu_usec);
        c[kUserCpu] = num(st.user_cpu_usec);
        c[kSysCpu] = num(st.sys_cpu_usec);
        c[kMaxDiskRead] = num(st.max_disk_read);
        c[kMaxDiskWrite] = num(st.max_disk_write);
        c[kAveDiskRead] = num(st.ave_disk_read);
        c[kAveDiskWrite] = num(st.ave_disk_write);
        c[kMaxDiskReadNode] = text_param(st.max_disk_read_node);
        c[kMaxDiskWriteNode] = text_param(st.max_disk_write_node);
        c[kTresAlloc] = text_param(st.tres_alloc);
        std::vector<const char *> params;
        for (const auto &p : v) params.push_back(p.c_str());
        return upsert(s, kStepUpsert, params,
                      "step " + std::to_string(st.job_id) + "." + std::to_string(st.step_id), err);
    });
}

void acct_fini(void *state) {
    delete static_cast<State *>(state);
}

int acct_init(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err) {
    return guard(err, [&] {
        auto s = std::make_unique<State>();
        s->host = drover::sdk::Host(ctx, host);
        auto conf = [&](const char *key, std::string &out) {
            if (auto v = s->host.conf(key); v && !v->empty()) out = std::string(*v);
        };
        Settings &cfg = s->cfg;
        conf("AccountingStorageHost", cfg.host);
        conf("AccountingStoragePort", cfg.port);
        conf("AccountingStorageLoc", cfg.database);
        conf("AccountingStorageUser", cfg.user);
        conf("AccountingStoragePass", cfg.password);
        if (auto v = s->host.conf("ClusterName")) cfg.cluster = trim_lower(*v);
        int port = 0;
        auto [end, ec] = std::from_chars(cfg.port.data(), cfg.port.data() + cfg.port.size(), port);
        if (ec != std::errc() || end != cfg.port.data() + cfg.port.size() || port < 1 ||
            port > 65535) {
            set_errorf(err, "AccountingStoragePort=%s is not a port number", cfg.port.c_str());
            return DROVER_EINVAL;
        }
        s->where = "database " + cfg.database + " on " + cfg.host + ":" + cfg.port + " as " +
                   (cfg.user.empty() ? std::string("the default user") : cfg.user);
        s->host.info("job records in PostgreSQL " + s->where + ", cluster '" + cfg.cluster + "'");
        {
            // Connect now if we can; the controller starts anyway when the database is down.
            std::lock_guard lock(s->mu);
            drover_error ignored{};
            if (connection(*s, &ignored)) s->host.info("connected to the accounting database");
        }
        *state_out = s.release();
        return DROVER_OK;
    });
}

const drover_acct_ops acct_ops = {
    .struct_size = sizeof(drover_acct_ops),
    .job_event = acct_job_event,
    .job_query = acct_job_query,
    .step_event = acct_step_event,
    .job_step_query = acct_job_step_query,
    .assoc_update = assoc_update,
    .assoc_list = assoc_list,
    .node_event = node_event,
    .node_event_query = node_event_query,
};

} // namespace

DROVER_PLUGIN("accounting", "postgres", "0.1.0", acct_init, acct_fini, &acct_ops)
