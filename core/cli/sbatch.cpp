// sbatch.cpp - submit a batch script: read it, merge options, send JobSubmitRequest, report.
#include <drover/views.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "cli/command_docs.hpp"
#include "cli/clusters.hpp"
#include "cli/command_main.hpp"
#include "cli/job_desc.hpp"
#include "cli/job_states.hpp"
#include "cli/sbatch_opts.hpp"
#include "cli/help_tail.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/rlimits.hpp"

extern char **environ;

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "sbatch";

constexpr const char *kHelp =
    "Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] script(0) [args(0)...]\n"
    "\n"
    "Parallel run options:\n"
    "  -a, --array=indexes         job array index values\n"
    "  -A, --account=name          charge job to specified account\n"
    "      --begin=time            defer job until HH:MM MM/DD/YY\n"
    "      --comment=name          arbitrary comment\n"
    "  -c, --cpus-per-task=ncpus   number of cpus required per task\n"
    "      --deadline=time         remove the job if no ending possible before\n"
    "                              this deadline (start > (deadline - time[-min]))\n"
    "  -d, --dependency=type:jobid[:time] defer job until condition on jobid is satisfied\n"
    "  -D, --chdir=directory       set working directory for batch script\n"
    "  -e, --error=err             file for batch script's standard error\n"
    "      --export[=names]        specify environment variables to export\n"
    "  -H, --hold                  submit job in held state\n"
    "  -i, --input=in              file for batch script's standard input\n"
    "  -J, --job-name=jobname      name of job\n"
    "      --kill-on-invalid-dep=<yes|no> terminate job if invalid dependency\n"
    "  -N, --nodes=N               number of nodes on which to run (N = min[-max])\n"
    "  -n, --ntasks=ntasks         number of tasks to run\n"
    "      --nice[=value]          decrease scheduling priority by value\n"
    "      --no-requeue            if set, do not permit the job to be requeued\n"
    "      --ntasks-per-node=n     number of tasks to invoke on each node\n"
    "  -o, --output=out            file for batch script's standard output\n"
    "      --open-mode=append|truncate  how to open the output and error files\n"
    "  -p, --partition=partition   partition requested\n"
    "      --parsable              outputs only the jobid and cluster name (if present),\n"
    "                              separated by semicolon, only on successful submission.\n"
    "  -Q, --quiet                 quiet mode (suppress informational messages)\n"
    "      --requeue               if set, permit the job to be requeued\n"
    "  -s, --oversubscribe         over subscribe resources with other jobs\n"
    "      --signal=[R:]num[@time] send signal when time limit within time seconds\n"
    "  -t, --time=minutes          time limit\n"
    "      --test-only             validate the job and estimate when it would start\n"
    "  -v, --verbose               verbose mode (multiple -v's increase verbosity)\n"
    "  -W, --wait                  wait for completion of submitted job\n"
    "      --wrap[=command string] wrap command string in a sh script and submit\n"
    "\n"
    "Constraint options:\n"
    "      --contiguous            demand a contiguous range of nodes\n"
    "  -C, --constraint=list       specify a list of constraints\n"
    "      --exclusive             allocate nodes in exclusive mode\n"
    "      --mem=MB                minimum amount of real memory\n"
    "      --mem-per-cpu=MB        maximum amount of real memory per allocated cpu\n"
    "      --mincpus=n             minimum number of logical processors per node\n"
    "      --tmp=MB                minimum amount of temporary disk\n"
    "  -w, --nodelist=hosts...     request a specific list of hosts\n"
    "  -x, --exclude=hosts...      exclude a specific list of hosts\n"
    "\n"
    "GPU scheduling options:\n"
    "  -G, --gpus=n                count of GPUs required for the job\n"
    "      --gpus-per-node=n       number of GPUs required per allocated node\n"
    "      --gpus-per-task=n       number of GPUs required per spawned task\n"
    "      --gres=list             required generic resources\n" DROVER_HELP_TAIL;

constexpr const char *kUsage =
    "Usage: sbatch [-N nnodes] [-n ntasks] [-c ncpus] [-t minutes] [-p partition]\n"
    "              [-A account] [-J jobname] [-o out] [-e err] [-i in] [-D dir]\n"
    "              [--mem=MB] [--mem-per-cpu=MB] [--exclusive] [--export[=names]]\n"
    "              [--array=indexes] [--dependency=type:jobid] [--gres=list] [--gpus=n]\n"
    "              [--nodelist=hosts] [--exclude=hosts] [--constraint=list] [--nice[=value]]\n"
    "              [-H] [-W] [--parsable] [--test-only] [--wrap=cmd] executable [args...]\n";

constexpr CommandText kText{kProg, kHelp, kUsage};

// Slurm's text for ESLURM_PATHNAME_TOO_LONG, its refusal of a script over max_script_size.
constexpr const char *kScriptTooLarge = "Pathname of a file, directory or other parameter too long";

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

// Polls the job every half second until it has ended (an array: every task of it); returns the
// exit status sbatch -W gives (an array: the highest of its tasks').
int wait_for(uint32_t job_id) {
    while (true) {
        struct timespec ts {
            0, 500 * 1000 * 1000
        };
        ::nanosleep(&ts, nullptr);
        flatbuffers::FlatBufferBuilder fbb;
        auto ids = fbb.CreateVector(std::vector<uint32_t>{job_id});
        auto req = proto::CreateJobInfoRequest(fbb, ids);
        net::Reply reply;
        try {
            reply = call_ctld(fbb, proto::Body::JobInfoRequest, req.Union());
        } catch (const net::RpcError &) {
            return 0; // no longer known: it ended and was purged
        }
        const auto *r = reply.as<proto::JobInfoResponse>();
        bool any = false, all_done = true;
        int code = 0;
        if (r->jobs())
            for (const auto *j : *r->jobs()) {
                if (j->job_id() != job_id && j->array_job_id() != job_id) continue;
                any = true;
                if (!job_is_finished(j->state())) {
                    all_done = false;
                    break;
                }
                int c = (j->exit_status() >> 8) & 0xff;
                if ((j->state() & kJobStateBase) != DROVER_JOB_COMPLETE && c == 0) c = 1;
                code = std::max(code, c);
            }
        if (!any) return 0; // no longer known: it ended and was purged
        if (all_done) return code;
    }
}

// -M and --cluster-constraint: the cluster that takes the job.
bool reachable_cluster(const SbatchRequest &req) {
    if (req.cluster_constraint)
        return choose_by_cluster_features(kProg, req.clusters_given ? &req.clusters : nullptr,
                                          *req.cluster_constraint, "Batch job submission failed: ");
    return !req.clusters_given || choose_submit_cluster(kProg, req.clusters);
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
    SbatchRequest req;
    try {
        req = build_sbatch_request(cl, std::move(script), ctx);
    } catch (const SbatchFatal &e) {
        write_err(std::string(kProg) + ": fatal: " + e.what() + "\n");
        return 1;
    }
    if (!req.quiet)
        for (const auto &w : req.warnings) print_warning(kProg, w);
    // This shell's resource limits and umask go with the job (PropagateResourceLimits; the
    // names were checked with slurm.conf and the options).
    put_limit_variables(req.environment, propagated_limits(req.propagate, cli_config()));
    // The controller refuses a script over SchedulerParameters=max_script_size with Slurm's
    // error; sbatch, reading the same slurm.conf, does not send one in the first place.
    if (req.script.size() > cli_config().max_script_size) {
        print_error(kProg, std::string("Batch job submission failed: ") + kScriptTooLarge);
        return 1;
    }

    if (!reachable_cluster(req)) return 1;
    flatbuffers::FlatBufferBuilder fbb(req.script.size() + 4096);
    auto body = sbatch_submit_request(fbb, req, ctx);
    uint32_t job_id = 0;
    std::string cluster;
    // MaxJobCount reached: said once (later ones with -vv), then retried with growing pauses.
    auto waiting = [&req](int retry) {
        if (retry == 1)
            print_error(kProg, kSubmitRetryText);
        else if (req.verbose >= 2)
            write_err(std::string(kProg) + ": debug:  " + kSubmitRetryText + "\n");
    };
    try {
        net::Reply reply =
            call_ctld_retrying(fbb, proto::Body::JobSubmitRequest, body.Union(), waiting);
        const auto *r = reply.as<proto::JobSubmitResponse>();
        if (req.test_only) {
            std::string msg = r->message() ? r->message()->str() : "Job would be accepted";
            write_err(std::string(kProg) + ": " + msg + "\n");
            return 0;
        }
        job_id = r->job_id();
        if (r->cluster()) cluster = r->cluster()->str();
        if (r->user_msg() && !req.quiet) print_info(kProg, r->user_msg()->str());
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
        write_out("Submitted batch job " + str_u(job_id) +
                  (named ? " on cluster " + cluster : std::string()) + "\n");
    if (req.wait) return wait_for(job_id);
    return 0;
}

} // namespace

int sbatch_main(std::span<const std::string> args) {
    return command_main(kText, args, parse_sbatch_command_line, run);
}

std::string_view sbatch_help() {
    return kHelp;
}

} // namespace drover::cli
