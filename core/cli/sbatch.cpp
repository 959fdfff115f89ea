// sbatch.cpp - submit a batch script: read it, merge options, send JobSubmitRequest, report.
#include <drover/views.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "cli/command_main.hpp"
#include "cli/job_states.hpp"
#include "cli/sbatch_opts.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

extern char **environ;

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "sbatch";

constexpr const char *kHelp =
    "Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] script(0) [args(0)...]\n"
    "\n"
    "Parallel run options:\n"
    "  -A, --account=name          charge job to specified account\n"
    "      --begin=time            defer job until HH:MM MM/DD/YY\n"
    "      --comment=name          arbitrary comment\n"
    "  -c, --cpus-per-task=ncpus   number of cpus required per task\n"
    "  -D, --chdir=directory       set working directory for batch script\n"
    "  -e, --error=err             file for batch script's standard error\n"
    "      --export[=names]        specify environment variables to export\n"
    "  -H, --hold                  submit job in held state\n"
    "  -i, --input=in              file for batch script's standard input\n"
    "  -J, --job-name=jobname      name of job\n"
    "  -N, --nodes=N               number of nodes on which to run (N = min[-max])\n"
    "  -n, --ntasks=ntasks         number of tasks to run\n"
    "  -o, --output=out            file for batch script's standard output\n"
    "      --open-mode=append|truncate  how to open the output and error files\n"
    "  -p, --partition=partition   partition requested\n"
    "      --parsable              outputs only the jobid and cluster name (if present),\n"
    "                              separated by semicolon, only on successful submission.\n"
    "  -Q, --quiet                 quiet mode (suppress informational messages)\n"
    "  -t, --time=minutes          time limit\n"
    "      --test-only             validate the job and estimate when it would start\n"
    "  -v, --verbose               verbose mode (multiple -v's increase verbosity)\n"
    "  -W, --wait                  wait for completion of submitted job\n"
    "      --wrap[=command string] wrap command string in a sh script and submit\n"
    "\n"
    "Constraint options:\n"
    "      --exclusive             allocate nodes in exclusive mode\n"
    "      --mem=MB                minimum amount of real memory\n"
    "      --mem-per-cpu=MB        maximum amount of real memory per allocated cpu\n"
    "\n"
    "Help options:\n"
    "  -h, --help                  show this help message\n"
    "      --usage                 display brief usage message\n"
    "\n"
    "Other options:\n"
    "  -V, --version               output version information and exit\n";

constexpr const char *kUsage =
    "Usage: sbatch [-N nnodes] [-n ntasks] [-c ncpus] [-t minutes] [-p partition]\n"
    "              [-A account] [-J jobname] [-o out] [-e err] [-i in] [-D dir]\n"
    "              [--mem=MB] [--mem-per-cpu=MB] [--exclusive] [--export[=names]]\n"
    "              [-H] [-W] [--parsable] [--test-only] [--wrap=cmd] executable [args...]\n";

constexpr CommandText kText{kProg, kHelp, kUsage, "slurm-compatible drover "};

bool read_fd(int fd, std::string &out) {
    char buf[65536];
    while (true) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
            out.append(buf, std::size_t(n));
            continue;
        }
        if (n == 0) return true;
        if (errno == EINTR) continue;
        return false;
    }
}

SbatchContext make_context() {
    SbatchContext ctx;
    for (char **e = environ; e && *e; ++e) {
        std::string_view kv = *e;
        std::size_t eq = kv.find('=');
        if (eq == std::string_view::npos || eq == 0) continue;
        ctx.env.emplace_back(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
    }
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof cwd)) ctx.cwd = cwd;
    char host[256] = {0};
    if (::gethostname(host, sizeof host - 1) == 0) {
        std::string h = host;
        ctx.hostname = h.substr(0, h.find('.'));
    }
    ctx.now = now_seconds();
    ctx.uid = static_cast<uint32_t>(::getuid());
    ctx.gid = static_cast<uint32_t>(::getgid());
    return ctx;
}

flatbuffers::Offset<proto::JobDesc> job_desc(flatbuffers::FlatBufferBuilder &fbb,
                                             const SbatchRequest &r, const SbatchContext &ctx) {
    auto s = [&](const std::string &v) { return v.empty() ? 0 : fbb.CreateString(v); };
    std::vector<flatbuffers::Offset<proto::KeyValue>> env;
    env.reserve(r.environment.size());
    for (const auto &kv : r.environment)
        env.push_back(proto::CreateKeyValue(fbb, fbb.CreateString(kv.first), fbb.CreateString(kv.second)));
    auto env_vec = fbb.CreateVector(env);
    auto argv = fbb.CreateVectorOfStrings(r.argv);
    auto name = s(r.name), script = s(r.script), wd = s(r.work_dir), out = s(r.std_out),
         err = s(r.std_err), in = s(r.std_in), part = s(r.partition), acct = s(r.account),
         host = s(ctx.hostname), comment = s(r.comment), command = s(r.command);
    proto::JobDescBuilder b(fbb);
    b.add_name(name);
    b.add_script(script);
    b.add_environment(env_vec);
    b.add_argv(argv);
    b.add_work_dir(wd);
    b.add_std_out(out);
    b.add_std_err(err);
    b.add_std_in(in);
    b.add_partition(part);
    b.add_account(acct);
    b.add_min_nodes(r.min_nodes);
    b.add_max_nodes(r.max_nodes);
    b.add_num_tasks(r.num_tasks);
    b.add_cpus_per_task(r.cpus_per_task);
    b.add_mem_per_node_mb(r.mem_per_node_mb);
    b.add_time_limit_min(r.time_limit_min);
    b.add_hold(r.hold);
    b.add_test_only(r.test_only);
    b.add_submit_host(host);
    b.add_exclusive(r.exclusive);
    b.add_comment(comment);
    b.add_uid(ctx.uid);
    b.add_gid(ctx.gid);
    b.add_open_mode_append(r.open_mode_append);
    b.add_command(command);
    b.add_begin_time(r.begin_time);
    return b.Finish();
}

// Polls the job every half second until it has ended; returns the exit status sbatch -W gives.
int wait_for(uint32_t job_id) {
    while (true) {
        struct timespec ts{0, 500 * 1000 * 1000};
        ::nanosleep(&ts, nullptr);
        flatbuffers::FlatBufferBuilder fbb;
        auto ids = fbb.CreateVector(std::vector<uint32_t>{job_id});
        auto req = proto::CreateJobInfoRequest(fbb, ids);
        net::Reply reply = call_ctld(fbb, proto::Body::JobInfoRequest, req.Union());
        const auto *r = reply.as<proto::JobInfoResponse>();
        const proto::JobInfo *job = nullptr;
        if (r->jobs())
            for (const auto *j : *r->jobs())
                if (j->job_id() == job_id) job = j;
        if (!job) return 0;   // no longer known: it ended and was purged
        if (!job_is_finished(job->state())) continue;
        int code = (job->exit_status() >> 8) & 0xff;
        if ((job->state() & kJobStateBase) != DROVER_JOB_COMPLETE && code == 0) code = 1;
        return code;
    }
}

int run(const SbatchCommandLine &cl) {
    std::string script;
    if (cl.wrap) {
        script = wrap_script(*cl.wrap);
    } else if (cl.script_path) {
        int fd = ::open(cl.script_path->c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0 || !read_fd(fd, script)) {
            if (fd >= 0) ::close(fd);
            print_error(kProg, "Unable to open file " + *cl.script_path);
            return 1;
        }
        ::close(fd);
    } else {
        if (!read_fd(0, script)) {
            print_error(kProg, "Unable to read the batch script from standard input");
            return 1;
        }
    }

    SbatchContext ctx = make_context();
    SbatchRequest req = build_sbatch_request(cl, std::move(script), ctx);
    if (!req.quiet)
        for (const auto &w : req.warnings) print_warning(kProg, w);

    flatbuffers::FlatBufferBuilder fbb(req.script.size() + 4096);
    auto desc = job_desc(fbb, req, ctx);
    auto body = proto::CreateJobSubmitRequest(fbb, desc);
    uint32_t job_id = 0;
    std::string cluster;
    try {
        net::Reply reply = call_ctld(fbb, proto::Body::JobSubmitRequest, body.Union());
        const auto *r = reply.as<proto::JobSubmitResponse>();
        if (req.test_only) {
            std::string msg = r->message() ? r->message()->str() : "Job would be accepted";
            write_err(std::string(kProg) + ": " + msg + "\n");
            return 0;
        }
        job_id = r->job_id();
        if (r->cluster()) cluster = r->cluster()->str();
    } catch (const net::RpcError &e) {
        print_error(kProg, std::string("Batch job submission failed: ") + e.what());
        return 1;
    } catch (const net::NetError &e) {
        print_error(kProg, std::string("Batch job submission failed: ") + e.what());
        return 1;
    }

    // Slurm names the cluster only when -M chose one.
    bool named = req.clusters_given && !cluster.empty();
    if (req.parsable)
        write_out(str_u(job_id) + (named ? ";" + cluster : std::string()) + "\n");
    else if (!req.quiet)
        write_out("Submitted batch job " + str_u(job_id) + (named ? " on cluster " + cluster : std::string()) + "\n");
    if (req.wait) return wait_for(job_id);
    return 0;
}

}  // namespace

int sbatch_main(std::span<const std::string> args) {
    return command_main(kText, args, parse_sbatch_command_line, run);
}

}  // namespace drover::cli
