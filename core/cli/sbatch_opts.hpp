// sbatch_opts.hpp - sbatch's options from the command line, SBATCH_* variables and #SBATCH
// directives, merged into one request; no I/O, so tests and the fuzzer can drive it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/options.hpp"
#include "common/error.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

using Env = std::vector<std::pair<std::string, std::string>>;

// What sbatch needs from the world besides its arguments and script.
struct SbatchContext {
    Env env;               // the submitter's environment, in order
    std::string cwd = "/"; // absolute
    std::string hostname;
    int64_t now = 0;
    uint32_t uid = 0xfffffffe, gid = 0xfffffffe;
};

// Everything sbatch sends (JobDesc) and how it behaves afterwards.
struct SbatchRequest : CommonFlags {
    std::string name;
    std::string script;
    std::vector<std::string> argv; // script arguments
    Env environment;
    std::string command; // the script's absolute path; empty for stdin and --wrap
    std::string work_dir;
    std::string std_out, std_err, std_in;
    std::string partition, account, comment, qos;
    uint32_t min_nodes = 0, max_nodes = 0, num_tasks = 0, cpus_per_task = 0;
    uint64_t mem_per_node_mb = 0;
    uint32_t time_limit_min = 0xfffffffe; // NO_VAL: the partition's default
    int64_t begin_time = 0;
    bool hold = false, test_only = false, exclusive = false, open_mode_append = false;

    // Resources and scheduling, as JobDesc carries them (0 / "" = not asked for).
    uint64_t mem_per_cpu_mb = 0; // --mem-per-cpu (never together with mem_per_node_mb)
    uint32_t ntasks_per_node = 0;
    uint32_t min_cpus_per_node = 0; // --mincpus
    uint64_t tmp_disk_mb = 0;       // --tmp
    std::string gres;               // --gres per node, checked and written canonically
    uint32_t gpus = 0, gpus_per_node = 0, gpus_per_task = 0;
    std::string constraint;           // -C, as written
    std::string req_nodes, exc_nodes; // -w / -x hostlists, as written
    bool contiguous = false;
    bool oversubscribe = false;           // -s
    bool overcommit = false;              // -O
    std::string licenses;                 // -L/--licenses, as written
    std::string reservation;              // --reservation, as written
    std::optional<std::string> propagate; // --propagate's limits as written ("": all)
    int32_t nice = 0;                     // --nice[=N] (100 without a value)
    std::string dependency;               // -d, as written
    std::string array;                    // -a, as written ("0-15%2")
    int requeue = -1;                     // -1 default, 0 --no-requeue, 1 --requeue
    std::string signal;                   // --signal=[{R|B}:]SIG[@TIME], checked, as written
    std::string gpu_bind;                 // --gpu-bind, checked, as written
    int64_t deadline = 0;                 // --deadline, absolute
    int kill_on_invalid_dep = -1;         // -1 default, 0 no, 1 yes

    bool parsable = false, wait = false, quiet = false;
    bool clusters_given = false;                   // -M: name the cluster in what sbatch prints
    std::string clusters;                          // -M as given: "a,b"
    std::optional<std::string> cluster_constraint; // --cluster-constraint=[!]feature,...
    std::vector<std::string> warnings;             // print as "sbatch: warning: <w>" unless quiet
    // A heterogeneous job's components after this one (sbatch A : B, #SBATCH hetjob): their
    // resources and the options Slurm carries over from the first; no script of their own.
    std::vector<SbatchRequest> het;
    // An allocation with no script (drover-restd's job/allocate, as salloc --no-shell makes one).
    bool interactive = false;
};

// A refusal Slurm makes with "sbatch: fatal: ..." rather than "sbatch: error: ..." (the memory
// options given together).
class SbatchFatal : public drover::ParseError {
  public:
    using drover::ParseError::ParseError;
};

// The command line on its own: options not yet applied, the script path and its arguments.
struct SbatchCommandLine : CommonFlags {
    std::vector<ParsedOpt> opts;
    // The options of each further component of a heterogeneous job ("A : B script"): a ':' before
    // the script starts one.
    std::vector<std::vector<ParsedOpt>> het;
    std::optional<std::string> script_path; // nullopt: the script comes from stdin or --wrap
    std::vector<std::string> script_args;
    std::optional<std::string> wrap;
};

// Parses sbatch's arguments (argv without argv[0]). Throws UsageError for an unknown option or a
// missing argument, drover::ParseError for "--wrap" together with a script.
SbatchCommandLine parse_sbatch_command_line(std::span<const std::string> args);

// The script --wrap makes.
std::string wrap_script(std::string_view command);

// Refuses what Slurm refuses to submit: an empty or whitespace-only script, one without "#!",
// DOS line breaks, NUL bytes. Throws drover::ParseError (message may span lines).
void check_batch_script(std::string_view script);

// One "#SBATCH" line: its 1-based line number and its arguments (quotes removed, a trailing
// "# comment" dropped). Scanning stops at the first line that is neither a comment nor blank.
struct Directive {
    int line = 0;
    std::vector<std::string> args;
    int het_group = 0; // the component it is for: "#SBATCH hetjob" lines before it (Slurm's)
};
// Throws drover::ParseError("script line N: unterminated quote") for an unbalanced quote.
std::vector<Directive> scan_directives(std::string_view script);

// Merges directives, SBATCH_* variables and the command line (later wins) into a request.
// Throws drover::ParseError naming the line for a bad directive ("script line 3: invalid time
// limit 'x'"), or the option for a bad command-line value; SbatchFatal when --mem and
// --mem-per-cpu (or --mem-per-gpu) are both given by the script and command line together, or
// by SBATCH_MEM_PER_* variables together (Slurm's rule: otherwise the script and command line
// win over the variables).
SbatchRequest build_sbatch_request(const SbatchCommandLine &cl, std::string script,
                                   const SbatchContext &ctx);

// parse_sbatch_command_line + build_sbatch_request with the script given as text.
SbatchRequest parse_sbatch(std::span<const std::string> args, std::string script,
                           const SbatchContext &ctx);

// The JobDesc the request r sends, submitted from ctx.
flatbuffers::Offset<proto::JobDesc> sbatch_job_desc(flatbuffers::FlatBufferBuilder &fbb,
                                                    const SbatchRequest &r,
                                                    const SbatchContext &ctx);

// The JobSubmitRequest of r: its JobDesc, and one for each further component of a
// heterogeneous job.
flatbuffers::Offset<proto::JobSubmitRequest>
sbatch_submit_request(flatbuffers::FlatBufferBuilder &fbb, const SbatchRequest &r,
                      const SbatchContext &ctx);

// Which variables of env --export=<spec> passes on. Throws drover::ParseError for an empty spec.
Env export_environment(std::string_view spec, const Env &env);

} // namespace drover::cli
